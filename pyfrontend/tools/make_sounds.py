"""Synthesizes the game's sounds with the standard library only (wave + math).

    python -m pyfrontend.tools.make_sounds [OUTPUT_DIR]

writes select, move, capture, check, illegal, win, loss and draw .wav files
(16-bit mono, 22050 Hz, all under a second) into pyfrontend/sounds/ (or
OUTPUT_DIR).  The output is deterministic: the noise comes from a seeded
generator, so re-running the script reproduces the committed files.
"""

from __future__ import annotations

import math
import random
import struct
import sys
import wave
from pathlib import Path
from typing import Callable, Dict, List

RATE = 22050


def _env(t: float, attack: float, decay: float) -> float:
    """A percussive envelope: linear attack, exponential decay."""
    if t < attack:
        return t / attack
    return math.exp(-(t - attack) / decay)


def wood(duration: float, pitch: float, seed: int, loud: float = 1.0) -> List[float]:
    """A wooden knock: a short noise burst for the contact plus two damped
    partials for the body (a piece put down on a wooden board)."""
    rnd = random.Random(seed)
    out = []
    lp = 0.0
    for i in range(int(duration * RATE)):
        t = i / RATE
        lp += 0.35 * (rnd.uniform(-1, 1) - lp)          # low-passed noise
        click = lp * math.exp(-t / 0.004)
        body = (math.sin(2 * math.pi * pitch * t) * 0.7
                + math.sin(2 * math.pi * pitch * 2.76 * t) * 0.25) * _env(t, 0.001, 0.035)
        out.append(loud * (0.9 * click + body))
    return out


def tone(freq: float, duration: float, decay: float = 0.25, harmonics=(1.0, 0.3, 0.12)) -> List[float]:
    """A soft bell-like note."""
    out = []
    for i in range(int(duration * RATE)):
        t = i / RATE
        v = sum(a * math.sin(2 * math.pi * freq * (k + 1) * t) for k, a in enumerate(harmonics))
        fade = min(1.0, (duration - t) / 0.02)            # no click at the end
        out.append(v * _env(t, 0.008, decay) * fade / sum(harmonics))
    return out


def seq(*parts: List[float], gap: float = 0.0) -> List[float]:
    out: List[float] = []
    for p in parts:
        out.extend(p)
        out.extend([0.0] * int(gap * RATE))
    return out


def mix(a: List[float], b: List[float], offset: float) -> List[float]:
    start = int(offset * RATE)
    out = list(a) + [0.0] * max(0, start + len(b) - len(a))
    for i, v in enumerate(b):
        out[start + i] += v
    return out


def buzz(duration: float) -> List[float]:
    """A low, short 'nope' for an illegal move."""
    out = []
    for i in range(int(duration * RATE)):
        t = i / RATE
        f = 170 - 40 * t / duration
        v = math.sin(2 * math.pi * f * t) + 0.35 * math.sin(2 * math.pi * 2 * f * t)
        out.append(0.6 * v * _env(t, 0.005, 0.08) * min(1.0, (duration - t) / 0.02))
    return out


SOUNDS: Dict[str, Callable[[], List[float]]] = {
    "select": lambda: wood(0.07, 1250, 1, 0.45),
    "move": lambda: wood(0.16, 520, 2, 0.9),
    "capture": lambda: mix(wood(0.14, 480, 3, 0.9), wood(0.18, 380, 4, 1.0), 0.06),
    "check": lambda: seq(tone(880, 0.14, 0.08), tone(1175, 0.28, 0.12), gap=0.02),
    "illegal": lambda: buzz(0.18),
    "win": lambda: seq(*(tone(f, d, 0.2) for f, d in
                         ((523, 0.13), (659, 0.13), (784, 0.13), (1047, 0.45)))),
    "loss": lambda: seq(*(tone(f, d, 0.25) for f, d in ((440, 0.18), (370, 0.18), (294, 0.5)))),
    "draw": lambda: seq(tone(587, 0.2, 0.2), tone(587, 0.35, 0.25), gap=0.04),
}


def write_wav(path: Path, samples: List[float], volume: float = 0.7) -> None:
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = volume * 32767 / peak
    frames = b"".join(struct.pack("<h", int(max(-32767, min(32767, s * scale)))) for s in samples)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def main(argv: List[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "sounds"
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        write_wav(out / f"{name}.wav", make(), 0.55 if name in ("select", "illegal") else 0.7)
        print(out / f"{name}.wav")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
