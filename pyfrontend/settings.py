"""The player's settings and the autosaved game, kept in the user's config
directory ($XDG_CONFIG_HOME/cxiangqi, ~/.config/cxiangqi, %APPDATA%\\cxiangqi).

A missing file means defaults; a corrupt one is ignored with a warning
(never a crash), and a bad value in a good file falls back to its default.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Callable, Dict, Optional

from cxiangqi.engine import MAX_THREADS
from cxiangqi.files import atomic_write_text as _atomic_write_text

LEVEL_NAMES = ("easy", "normal", "hard") + tuple(str(n) for n in range(1, 11))
# levels at which pondering is off unless the player turns it on: a beginner's
# opponent that answers instantly (and thinks on the player's time) is no help
EASY_LEVELS = ("easy", "1", "2", "3")


def config_dir() -> Path:
    """Where settings.json and the autosaved game live (not created here)."""
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        base = Path(xdg)
    elif sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path.home() / ".config"
    return base / "cxiangqi"


@dataclass
class Settings:
    sound: bool = True
    language: str = "zh"                # "zh" or "en"
    mode: str = "hvc"                   # "hvh", "hvc", "cvc"
    human_color: str = "red"            # "red" or "black" (human vs computer)
    level: str = "normal"               # the computer's level (human vs computer)
    red_level: str = "easy"             # computer vs computer
    black_level: str = "normal"
    cvc_delay: float = 0.6              # seconds between moves, computer vs computer
    notation: str = "chinese"           # "chinese", "wxf", "iccs"
    traditional: bool = False           # piece characters 帥傌俥 / 將馬車砲
    flipped: bool = False               # Black at the bottom in human vs human
    show_engine: bool = True
    external_engine: str = ""           # path of a UCI/UCCI engine, "" = none
    width: int = 1040
    height: int = 760
    time_control: str = ""              # xiangqi clocks: "" none, else "minutes+increment" ("5+3")
    gomoku_mode: str = "hvc"            # gomoku: "hvh" or "hvc"
    gomoku_human: str = "black"         # gomoku: the human's colour against the computer
    gomoku_level: str = "normal"        # gomoku: "easy", "normal", "hard"
    external_protocol: str = "auto"     # "auto", "uci", "ucci"
    ponder: str = "auto"                # think on the player's time: "auto" (off at EASY_LEVELS)
    book: bool = True                   # the computer plays from the opening book
    threads: int = 1                    # search threads of cxiangqi's engine (1..MAX_THREADS)

    _CHOICES = {
        "language": ("zh", "en"), "mode": ("hvh", "hvc", "cvc"), "human_color": ("red", "black"),
        "notation": ("chinese", "wxf", "iccs"), "gomoku_mode": ("hvh", "hvc"),
        "gomoku_human": ("black", "white"), "gomoku_level": ("easy", "normal", "hard"),
        "external_protocol": ("auto", "uci", "ucci"), "ponder": ("auto", "on", "off"),
    }

    def ponder_at(self, level: str) -> bool:
        """Does the computer ponder at `level` with these settings?"""
        return self.ponder == "on" or (self.ponder == "auto" and level not in EASY_LEVELS)

    def _valid(self, name: str, value: Any) -> bool:
        default = getattr(Settings, name)
        if isinstance(default, bool):
            return isinstance(value, bool)
        if name == "threads":
            return (isinstance(value, int) and not isinstance(value, bool)
                    and 1 <= value <= MAX_THREADS)
        if isinstance(default, (int, float)):
            return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
        if not isinstance(value, str):
            return False
        if name in self._CHOICES:
            return value in self._CHOICES[name]
        if name.endswith("level"):
            return value in LEVEL_NAMES or value == "external"
        return True

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Settings":
        s = cls()
        for f in fields(cls):
            if f.name in data:
                value = data[f.name]
                if s._valid(f.name, value):
                    if isinstance(getattr(cls, f.name), int) and not isinstance(getattr(cls, f.name), bool):
                        value = int(value)
                    setattr(s, f.name, value)
                else:
                    warnings.warn(f"cxiangqi settings: ignoring bad value {value!r} for {f.name}")
        return s

    @classmethod
    def load(cls, path: Optional[Path] = None) -> "Settings":
        """The settings in `path` (default: config_dir()/settings.json); the
        defaults, with a warning, when the file is unreadable or corrupt."""
        path = path or config_dir() / "settings.json"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            warnings.warn(f"cxiangqi settings: cannot read {path}: {exc}; using defaults")
            return cls()
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            warnings.warn(f"cxiangqi settings: {path} is corrupt ({exc}); using defaults")
            return cls()
        return cls.from_dict(data)

    def save(self, path: Optional[Path] = None) -> bool:
        """Writes the settings atomically; False (with a warning) on failure."""
        path = path or config_dir() / "settings.json"
        try:
            atomic_write_text(path, json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n")
            return True
        except OSError as exc:
            warnings.warn(f"cxiangqi settings: cannot write {path}: {exc}")
            return False


def atomic_write_text(path: Path, text: str) -> None:
    """Writes text (UTF-8) to `path` atomically, creating its directory:
    cxiangqi.files.atomic_write (fsync, the file's permissions kept, a
    symbolic link written through)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write_text(path, text)


class Autosave:
    """The game in progress, kept in one file across runs (both games use
    this): save() writes it while a game is under way and removes the file
    once there is none, load() reads it back, and a corrupt file is reported
    with a warning and ignored, never a crash."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def save(self, in_progress: bool, write: "Callable[[Path], None]") -> bool:
        """write(path) when a game is in progress (True), else removes the file."""
        try:
            if in_progress:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                write(self.path)
                return True
            if self.path.exists():
                self.path.unlink()
        except OSError as exc:
            warnings.warn(f"cxiangqi: cannot autosave to {self.path}: {exc}")
        return False

    def load(self, read: "Callable[[Path], Any]", errors: tuple = (ValueError, OSError)) -> Any:
        """read(path), or None when there is no file or it cannot be read."""
        if not self.path.exists():
            return None
        try:
            return read(self.path)
        except errors as exc:
            warnings.warn(f"cxiangqi: ignoring the autosaved game {self.path}: {exc}")
            return None
