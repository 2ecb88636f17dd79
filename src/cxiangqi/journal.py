"""Append-only output files kept consistent by a journal, so that a run
that is interrupted (Ctrl-C, a kill, a crash) can be resumed without
losing or repeating a record.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> out = Outputs({"pgn": os.path.join(d, "a.pgn")}, os.path.join(d, "a.pgn.journal"), {"v": 1})
>>> sorted(out.open())
[]
>>> out.append("game-1", {"pgn": b"1. h2e2 *\\n\\n"})
>>> out.close()
>>> again = Outputs({"pgn": os.path.join(d, "a.pgn")}, os.path.join(d, "a.pgn.journal"), {"v": 1})
>>> sorted(again.open())
['game-1']

How it works
    Each record is one ``write`` of its bytes at the end of each output
    file, then one line in the journal: the record's key and the size every
    output has with the record in it.  The journal is the truth: when a run
    starts it drops a torn last journal line and cuts every output back to
    the sizes of the last whole line, which removes whatever a killed run
    wrote after its last journal line.  The keys in the journal are the
    records that are done; everything else is done again, so each record
    is in the outputs exactly once.

    The journal's first line describes the run (``settings``: the outputs,
    the engine and its limit): resuming with other settings is refused, so
    one output never mixes analyses made in different ways.  While a run
    has the outputs open it holds a lock on the journal (``flock``), and a
    second run on the same outputs is refused.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Optional, Set

try:
    import fcntl
except ImportError:  # Windows: no lock (two runs on one output are the user's to avoid)
    fcntl = None  # type: ignore[assignment]

__all__ = ["Outputs", "JournalError"]


class JournalError(ValueError):
    """Outputs and journal that do not agree, or settings that differ from
    the run being resumed.  The message says what to do."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class Outputs:
    """Output files (``{name: path}``) written record by record, with a
    journal at ``journal``.  ``settings`` (JSON-able) must be the same when
    a run is resumed."""

    def __init__(self, files: Dict[str, str], journal: str, settings: Dict[str, Any], *,
                 overwrite: bool = False) -> None:
        self.files = {name: os.path.abspath(path) for name, path in files.items()}
        self.journal = os.path.abspath(journal)
        self.settings = settings
        self.overwrite = overwrite
        self._fds: Dict[str, int] = {}
        self._journal_fd: Optional[int] = None
        self._lock_fd: Optional[int] = None
        self.sizes: Dict[str, int] = {}
        self.done: Set[str] = set()

    def _header(self) -> Dict[str, Any]:
        return {"journal": 1, "files": self.files, "settings": self.settings}

    def _lock(self) -> None:
        """Takes the journal's lock, so that two runs never write the same
        outputs at once (JournalError if another run holds it)."""
        fd = os.open(self.journal, os.O_RDWR | os.O_CREAT, 0o666)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise JournalError(f"another run is writing these outputs (it holds "
                                   f"{self.journal}): wait for it, or stop it first") from None
        self._lock_fd = fd

    def open(self) -> Set[str]:
        """Opens (creates, or repairs and resumes) the outputs; returns the
        keys of the records already done."""
        existed = os.path.exists(self.journal) and os.path.getsize(self.journal) > 0
        self._lock()
        try:
            return self._open(existed)
        except BaseException:
            self.close()
            raise

    def _open(self, existed: bool) -> Set[str]:
        fresh = self.overwrite or not existed
        if fresh:
            if not self.overwrite:
                for name, path in self.files.items():
                    if os.path.exists(path) and os.path.getsize(path) > 0:
                        raise JournalError(
                            f"{path} exists and has no journal ({self.journal}) to resume "
                            f"from: remove it, choose another name, or pass --overwrite")
            for path in self.files.values():
                with open(path, "wb"):
                    pass
            with open(self.journal, "wb") as fh:
                fh.write(json.dumps(self._header(), ensure_ascii=False).encode() + b"\n")
            self.sizes = {name: 0 for name in self.files}
        else:
            self._resume()
        for name, path in self.files.items():
            self._fds[name] = os.open(path, os.O_WRONLY | os.O_APPEND)
        self._journal_fd = os.open(self.journal, os.O_WRONLY | os.O_APPEND)
        return set(self.done)

    def _resume(self) -> None:
        with open(self.journal, "rb") as fh:
            data = fh.read()
        whole = data[:data.rfind(b"\n") + 1]
        if len(whole) != len(data):  # a torn last line: the record was not finished
            with open(self.journal, "r+b") as fh:
                fh.truncate(len(whole))
        lines = whole.splitlines()
        try:
            header = json.loads(lines[0]) if lines else None
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("journal") != 1:
            raise JournalError(f"{self.journal} is not a cxiangqi journal (or is damaged): "
                               f"remove it and the outputs to start again")
        if header.get("files") != self.files:
            raise JournalError(
                f"{self.journal} belongs to a run with other outputs "
                f"({', '.join(sorted(header.get('files', {}).values()))}): resume with the "
                f"same outputs, or pass --overwrite to start again")
        if header.get("settings") != self.settings:
            raise JournalError(
                f"the run in {self.journal} used other settings ({header.get('settings')}); "
                f"this one asks for {self.settings}: resume with the same settings, or pass "
                f"--overwrite to start again")
        sizes = {name: 0 for name in self.files}
        for n, line in enumerate(lines[1:], start=2):
            try:
                entry = json.loads(line)
                key, ends = entry["key"], entry["ends"]
            except (ValueError, KeyError, TypeError):
                raise JournalError(f"{self.journal}: line {n} is damaged: remove the journal "
                                   f"and the outputs to start again") from None
            self.done.add(key)
            sizes = {name: int(ends.get(name, 0)) for name in self.files}
        for name, path in self.files.items():
            have = os.path.getsize(path) if os.path.exists(path) else -1
            if have < sizes[name]:
                raise JournalError(
                    f"{path} has {max(have, 0)} bytes, but the journal {self.journal} says "
                    f"{sizes[name]} were written: the output was changed or removed; remove "
                    f"the journal too (or pass --overwrite) to start again")
            if have > sizes[name]:  # written by a run killed before its journal line
                with open(path, "r+b") as fh:
                    fh.truncate(sizes[name])
        self.sizes = sizes

    def append(self, key: str, chunks: Dict[str, bytes], meta: Optional[Dict[str, Any]] = None
               ) -> None:
        """Writes one record: its bytes for each output (outputs not named
        get nothing), then its journal line."""
        if self._journal_fd is None:
            raise RuntimeError("Outputs.open() first")
        for name, data in chunks.items():
            if data:
                _write_all(self._fds[name], data)
                self.sizes[name] += len(data)
        entry = {"key": key, "ends": dict(self.sizes)}
        if meta:
            entry.update(meta)
        line = json.dumps(entry, ensure_ascii=False).encode("utf-8") + b"\n"
        _write_all(self._journal_fd, line)
        self.done.add(key)

    def close(self) -> None:
        """Closes the files and releases the lock (the lock last)."""
        fds = list(self._fds.values()) + [fd for fd in (self._journal_fd, self._lock_fd)
                                          if fd is not None]
        for fd in fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = {}
        self._journal_fd = self._lock_fd = None
