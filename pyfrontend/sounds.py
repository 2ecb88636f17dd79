"""Sound effects, played without blocking through the platform's player:
winsound on Windows, afplay on macOS, paplay or aplay on Linux.

With no player, no audio device or a failing player the game is silent and
nothing is raised: a sound is a nicety, never a reason to stop a game.  The
WAV files are made by tools/make_sounds.py and ship in pyfrontend/sounds/.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, List, Optional

SOUND_DIR = Path(__file__).resolve().parent / "sounds"
NAMES = ("select", "move", "capture", "check", "illegal", "win", "loss", "draw")


def sound_path(name: str) -> Path:
    return SOUND_DIR / f"{name}.wav"


def _find_command() -> Optional[List[str]]:
    """The command line (without the file) of a player on this system."""
    if sys.platform == "darwin" and shutil.which("afplay"):
        return ["afplay"]
    for cmd in (["paplay"], ["aplay", "-q"]):
        if shutil.which(cmd[0]):
            return cmd
    return None


class SoundPlayer:
    """play(name) starts a sound and returns at once.

    `backend` may be given for tests: a callable taking the WAV path.  At
    most a few players run at a time; finished ones are reaped on the next
    play() so no zombie processes pile up.
    """

    MAX_RUNNING = 3

    def __init__(self, enabled: bool = True, backend: Optional[Callable[[str], None]] = None) -> None:
        self.enabled = enabled
        self._procs: List[subprocess.Popen] = []
        self._broken = False
        self._backend = backend
        self._command: Optional[List[str]] = None
        if backend is None:
            if sys.platform == "win32":
                self._backend = self._winsound
            else:
                self._command = _find_command()
                self._backend = self._subprocess if self._command else None

    @property
    def available(self) -> bool:
        return self._backend is not None and not self._broken

    def play(self, name: str) -> bool:
        """Starts sound `name`; True if a player was started."""
        if not self.enabled or not self.available:
            return False
        path = sound_path(name)
        if not path.is_file():
            return False
        try:
            self._backend(str(path))        # type: ignore[misc]
            return True
        except Exception:
            # no device, player vanished, ...: go quiet for the rest of the session
            self._broken = True
            return False

    def _winsound(self, path: str) -> None:
        import winsound  # type: ignore[import-not-found]
        winsound.PlaySound(path, winsound.SND_FILENAME | winsound.SND_ASYNC | winsound.SND_NODEFAULT)

    def _subprocess(self, path: str) -> None:
        self._procs = [p for p in self._procs if p.poll() is None]
        if len(self._procs) >= self.MAX_RUNNING:
            return
        assert self._command is not None
        self._procs.append(subprocess.Popen(
            self._command + [path], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, close_fds=True,
            start_new_session=(os.name == "posix")))

    def close(self) -> None:
        """Waits briefly for running players (so none is left as a zombie)."""
        for p in self._procs:
            try:
                p.wait(timeout=1.0)
            except Exception:
                try:
                    p.kill()
                except Exception:
                    pass
        self._procs = []
