"""Writing files safely: one helper for the whole project (game records,
opening books, the analysis's Parquet positions, the desktop game's
settings and saved games).

:func:`atomic_write` puts the data in a temporary file in the target's
directory, flushes it to the disk, gives it the old file's permissions and
renames it over the target, so a crash or a full disk leaves either the old
file or the new one, never half of one.  A path that is a symbolic link is
written through: the link stays, its target gets the new content.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> target = os.path.join(d, "game.pgn")
>>> atomic_write_text(target, "1. h2e2 *\\n")
>>> os.symlink(target, os.path.join(d, "link.pgn"))
>>> atomic_write_text(os.path.join(d, "link.pgn"), "1. b0c2 *\\n")
>>> open(target).read(), os.path.islink(os.path.join(d, "link.pgn"))
('1. b0c2 *\\n', True)
"""

from __future__ import annotations

import os
import tempfile
from typing import Union

__all__ = ["atomic_write", "atomic_write_text"]

PathLike = Union[str, "os.PathLike[str]"]


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# read once, at import (setting the umask to read it is not thread-safe)
_UMASK = _current_umask()


def atomic_write(path: PathLike, data: bytes) -> None:
    """Replaces the file at `path` with `data`, atomically (see the module
    docstring).  The file keeps its permission bits; a new file gets the
    usual ones (0o666 less the umask).  Symbolic links are followed.  On any
    error the old file is untouched, no temporary file is left, and the
    error (an OSError) propagates."""
    target = os.path.realpath(os.fspath(path))
    directory = os.path.dirname(target)
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(target) + ".",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_directory(directory)


def atomic_write_text(path: PathLike, text: str, encoding: str = "utf-8") -> None:
    """:func:`atomic_write` of `text` in `encoding`."""
    atomic_write(path, text.encode(encoding))


def _sync_directory(directory: str) -> None:
    """Flushes the rename to the disk too (where the system allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
