"""The game's sounds: shipped WAV files that are valid and short, and a
player that never raises when no audio works."""

import wave

import pytest

from pyfrontend import sounds
from pyfrontend.sounds import NAMES, SoundPlayer, sound_path
from pyfrontend.tools import make_sounds


@pytest.mark.parametrize("name", NAMES)
def test_wav_exists_valid_short_and_audible(name):
    path = sound_path(name)
    assert path.is_file()
    with wave.open(str(path)) as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
        seconds = w.getnframes() / w.getframerate()
        frames = w.readframes(w.getnframes())
    assert 0.03 < seconds <= 1.2
    peak = max(abs(int.from_bytes(frames[i:i + 2], "little", signed=True))
               for i in range(0, len(frames), 2))
    assert peak > 3000


def test_generator_reproduces_the_shipped_files(tmp_path):
    assert make_sounds.main([str(tmp_path)]) == 0
    for name in NAMES:
        assert (tmp_path / f"{name}.wav").read_bytes() == sound_path(name).read_bytes()


def test_player_uses_its_backend_and_respects_the_switch():
    played = []
    p = SoundPlayer(backend=played.append)
    assert p.play("move") and played == [str(sound_path("move"))]
    p.enabled = False
    assert not p.play("capture") and len(played) == 1
    p.enabled = True
    assert not p.play("no-such-sound")


def test_player_is_silent_when_the_backend_fails():
    def broken(path):
        raise OSError("no audio device")
    p = SoundPlayer(backend=broken)
    assert p.play("move") is False          # no exception
    assert p.play("check") is False and not p.available


def test_player_without_any_backend(monkeypatch):
    monkeypatch.setattr(sounds.shutil, "which", lambda name: None)
    monkeypatch.setattr(sounds.sys, "platform", "linux")
    p = SoundPlayer()
    assert not p.available and p.play("win") is False
    p.close()


def test_real_player_never_raises():
    # whatever this machine has (aplay without a device, nothing at all): no
    # error, and an answer saying whether the sound was started
    p = SoundPlayer()
    answers = [p.play(name) for name in NAMES]
    assert all(a in (True, False) for a in answers)
    if not p.available:
        assert not any(answers)
    p.close()
    assert p.play("no-such-sound") is False
