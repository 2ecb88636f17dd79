"""cxiangqi.files.atomic_write: the one way the project writes a file
(PGN records, opening books, the analysis's Parquet positions, the desktop
game's settings and saved games)."""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from cxiangqi.files import atomic_write, atomic_write_text


def test_new_file_gets_the_usual_permissions(tmp_path):
    path = tmp_path / "new.txt"
    atomic_write(path, b"x")
    mask = os.umask(0)
    os.umask(mask)
    assert path.read_bytes() == b"x"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~mask


def test_existing_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "private.txt"
    path.write_text("old")
    os.chmod(path, 0o600)
    atomic_write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_links_are_written_through_even_in_chains(tmp_path):
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "file.txt"
    target.write_text("old")
    first = tmp_path / "first"
    first.symlink_to(target)
    second = tmp_path / "second"
    second.symlink_to(first)
    atomic_write_text(second, "new")
    assert target.read_text() == "new"
    assert second.is_symlink() and first.is_symlink()
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["file.txt"]


def test_a_failure_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.txt"
    path.write_text("old")

    def broken(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_the_game_settings_use_it(tmp_path):
    from pyfrontend.settings import Settings
    path = tmp_path / "settings.json"
    path.write_text("{}")
    os.chmod(path, 0o600)
    link = tmp_path / "link.json"
    link.symlink_to(path)
    assert Settings().save(link)
    assert link.is_symlink() and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert Settings.load(path) == Settings()


def test_no_other_module_replaces_files_itself():
    """The library's writers (Book.save, the Parquet export, write_game...)
    go through cxiangqi.files, not a temporary file and os.replace of their
    own: only files.py renames files into place."""
    src = Path(__file__).resolve().parents[1] / "src" / "cxiangqi"
    own = re.compile(r"\bos\.(replace|rename)\(")
    offenders = [f"{path.name}:{n}" for path in sorted(src.glob("*.py")) if path.name != "files.py"
                 for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                 if own.search(line)]
    assert offenders == []
