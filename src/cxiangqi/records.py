"""One entry point for every game-record format: PGN, XQF, DhtmlXQ, CBF,
CBR and CBL, files or whole folders, the format told by the content.

>>> from cxiangqi import records
>>> for game in records.read_games("collection/"):               # doctest: +SKIP
...     print(game.headers["Red"], len(game.mainline_moves()))

* :func:`read_games` yields the :class:`cxiangqi.pgn.Game` of every record
  under a path (a file, or a folder searched recursively), in order: files
  sorted by name, games in file order.  A record that cannot be read is
  reported (by default as a :class:`RecordWarning`; see ``errors``) with
  its file and index, and the rest are read all the same.
* :func:`read_game` reads the first game of one file and raises
  :class:`RecordError` if it cannot.
* :func:`iter_records` is the layer below: a :class:`Record` for every
  game or unreadable record, with where it came from.  It raises nothing
  for bad data.

Formats (:func:`detect_format`, by content, never by file name): XQF
(``"XQ"`` and a version byte), CBR (``"CCBridge Record"``), CBL
(``"CCBridgeLibrary"``), CBF (an XML ``<ChineseChessRecord>``), DhtmlXQ
(text with ``[DhtmlXQ``), PGN (text with a ``[Tag "value"]`` line or a
numbered move), each also inside a gzip file.  In a folder, only files
whose names end in a record extension (:data:`EXTENSIONS`, any case,
optionally followed by ``.gz``) are read; hidden files and folders are
skipped.  A file named explicitly is always read.

A game with an illegal move is unreadable here (its record is reported,
carrying the moves before the bad one as ``err.game``); ``partial=True``
yields such games too (still reporting them).
"""

from __future__ import annotations

import gzip
import os
import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple, Union

from . import cbf, cbr, dhtmlxq, pgn, xqf
from .pgn import Game

__all__ = ["FORMATS", "EXTENSIONS", "Record", "RecordError", "RecordWarning",
           "detect_format", "iter_records", "read_games", "read_game", "find_files"]

FORMATS = ("pgn", "xqf", "dhtmlxq", "cbf", "cbr", "cbl")
"""The formats :func:`detect_format` tells apart."""

EXTENSIONS = (".pgn", ".xqf", ".cbf", ".cbr", ".cbl", ".htm", ".html", ".dhtmlxq", ".txt")
"""File name endings read when a folder is searched."""

PathLike = Union[str, "os.PathLike[str]"]
_HEAD = 1 << 16  # bytes looked at to tell the format
_PGN_LINE = re.compile(r"^\s*(?:\[\s*[A-Za-z0-9_]+\s*\"|1\s*(?:\.|、|．)|\{)", re.M)


class RecordError(ValueError):
    """A record that could not be read: ``path``, ``index`` (0-based index
    of the game in its file, None when the whole file is unreadable),
    ``format`` (None if unknown) and ``cause`` (the reader's exception,
    whose ``game`` attribute, when set, holds what was read)."""

    def __init__(self, path: str, index: Optional[int], fmt: Optional[str],
                 message: str, cause: Optional[BaseException] = None) -> None:
        where = path if index is None else f"{path}: game {index + 1}"
        if index is not None and message.startswith(f"game {index + 1}"):
            where = path  # the reader named the game already
        super().__init__(f"{where}: {message}")
        self.path = path
        self.index = index
        self.format = fmt
        self.cause = cause

    @property
    def game(self) -> Optional[Game]:
        """The part of the game read before the error (None if nothing)."""
        return getattr(self.cause, "game", None)


class RecordWarning(UserWarning):
    """An unreadable record reported by :func:`read_games` (``errors="warn"``)."""


@dataclass(frozen=True)
class Record:
    """One record of a collection: a game, or the error that kept it from
    being read (then ``game`` is None, or the partial game)."""

    path: str
    index: int
    format: Optional[str]
    game: Optional[Game]
    error: Optional[RecordError] = None

    @property
    def ok(self) -> bool:
        return self.error is None


def detect_format(data: bytes) -> Optional[str]:
    """The format of a record file from its first bytes (64 KB are plenty;
    gzip is not undone here), or None.

    >>> detect_format(b'[Game "Chinese Chess"]\\n1. h2e2 h9g7'), detect_format(b"XQ\\x0a" + bytes(9))
    ('pgn', 'xqf')
    """
    if data.startswith(cbr.RECORD_MAGIC):
        return "cbr"
    if data.startswith(cbr.LIBRARY_MAGIC):
        return "cbl"
    if data[:2] == b"XQ" and len(data) > 2 and 1 <= data[2] <= xqf.MAX_VERSION:
        return "xqf"
    head = data[:_HEAD]
    if cbf.is_cbf(head):
        return "cbf"
    encoding = pgn.detect_encoding(head)
    if encoding != "utf-16" and b"\x00" in head.rstrip(b"\x00"):
        return None  # binary data of no known kind
    text = head.decode(encoding, errors="replace")
    if "[DhtmlXQ" in text:
        return "dhtmlxq"
    if _PGN_LINE.search(text):
        return "pgn"
    return None


def _is_record_name(name: str) -> bool:
    lower = name.lower()
    if lower.endswith(".gz"):
        lower = lower[:-3]
    return lower.endswith(EXTENSIONS)


def find_files(path: PathLike) -> List[str]:
    """The record files under a path: the path itself when it is a file,
    else every file with a record extension below it (hidden ones left
    out), sorted.  FileNotFoundError if the path does not exist."""
    p = os.fspath(path)
    if os.path.isfile(p):
        return [p]
    if not os.path.isdir(p):
        raise FileNotFoundError(f"no such file or folder: {p}")
    found = []
    for root, dirs, files in os.walk(p):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith(".") and _is_record_name(name):
                found.append(os.path.join(root, name))
    return found


def _open_bytes(path: str) -> Tuple[bytes, bool]:
    """The first bytes of a file (decompressed when gzip) and whether it is gzip."""
    with open(path, "rb") as fh:
        head = fh.read(_HEAD)
    if head[:2] == b"\x1f\x8b":
        with gzip.open(path, "rb") as fh:
            return fh.read(_HEAD), True
    return head, False


def _read_all(path: str, gz: bool) -> bytes:
    if gz:
        with gzip.open(path, "rb") as fh:
            return fh.read()
    with open(path, "rb") as fh:
        return fh.read()


def _file_records(path: str) -> Iterator[Record]:
    """Every record of one file; never raises for bad data."""
    try:
        head, gz = _open_bytes(path)
        fmt = detect_format(head)
    except (OSError, EOFError, gzip.BadGzipFile) as e:
        yield Record(path, 0, None, None, RecordError(path, None, None, f"cannot read: {e}", e))
        return
    if fmt is None:
        what = "empty file" if not head else (
            "not a game record (the content is none of PGN, XQF, DhtmlXQ, CBF, CBR, CBL)")
        yield Record(path, 0, None, None, RecordError(path, None, None, what))
        return
    index = 0
    try:
        for index, game, error in _games(path, fmt, gz):
            if error is not None:
                yield Record(path, index, fmt, getattr(error, "game", None),
                             RecordError(path, index, fmt, _message(error), error))
            else:
                yield Record(path, index, fmt, game)
    except _UnreadableFile as e:    # the file as a whole (a library's header)
        yield Record(path, 0, fmt, None, RecordError(path, None, fmt, _message(e.error), e.error))
    except Exception as e:  # noqa: BLE001 - a reader failing mid-file: report, go on
        yield Record(path, index, fmt, None,
                     RecordError(path, index, fmt, f"cannot read the rest of the file: "
                                 f"{_message(e)}", e))


class _UnreadableFile(Exception):
    """Raised by _games when no record of the file can be read (the header
    of a library is broken): one error for the file, with no game index."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


def _message(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if isinstance(error, ValueError) else f"{type(error).__name__}: {text}"


def _games(path: str, fmt: str, gz: bool) -> Iterator[Tuple[int, Optional[Game],
                                                             Optional[BaseException]]]:
    """(index, game, error) for each record of a file of a known format."""
    if fmt == "pgn":
        stream: Any = gzip.open(path, "rb") if gz else None
        try:
            games = pgn.read_games(stream if gz else path, errors="keep")
            for index, game in enumerate(games):
                yield index, game, game.errors[0] if game.errors else None
        finally:
            if stream is not None:
                stream.close()
        return
    data = _read_all(path, gz)
    if fmt == "cbl":
        try:
            _, spans = cbr.library_records(data)
        except cbr.CbrError as e:
            raise _UnreadableFile(e) from None
        for index, (start, end) in enumerate(spans):
            record = data[start:end]
            if cbr.is_note(record):
                continue
            try:
                game = cbr.parse_record(record, base=start, errors="keep", game_index=index)
            except cbr.CbrError as e:
                yield index, None, e
                continue
            yield index, game, game.errors[0] if game.errors else None
        return
    if fmt == "dhtmlxq":
        text = data.decode(pgn.detect_encoding(data[:_HEAD]), errors="replace")
        for index, block in enumerate(dhtmlxq._BLOCK.findall(text)):
            try:
                game = dhtmlxq._game(block, "keep")
            except dhtmlxq.DhtmlXQError as e:
                yield index, None, e
                continue
            yield index, game, game.errors[0] if game.errors else None
        return
    reader: Callable[..., Game] = {"xqf": xqf.read_game, "cbr": cbr.read_game,
                                   "cbf": cbf.read_game}[fmt]
    try:
        game = reader(data, errors="keep")
    except pgn.PgnError as e:
        yield 0, None, e
        return
    yield 0, game, game.errors[0] if game.errors else None


def iter_records(paths: Union[PathLike, Sequence[PathLike]]) -> Iterator[Record]:
    """A :class:`Record` for every game and every unreadable record under
    the paths (files or folders), in order.  Raises FileNotFoundError,
    before yielding anything, for a path that does not exist; bad data is
    never raised, it comes as records with an ``error``."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = [f for p in paths for f in find_files(p)]
    for path in files:
        yield from _file_records(path)


def read_games(path_or_folder: Union[PathLike, Sequence[PathLike]], *,
               errors: Union[str, Callable[[RecordError], Any]] = "warn",
               partial: bool = False) -> Iterator[Game]:
    """The games of a file, a folder (searched recursively) or a list of them.

    ``errors`` says what happens to a record that cannot be read:
    ``"warn"`` (a :class:`RecordWarning` naming the file and the game),
    ``"skip"`` (nothing), ``"raise"`` (:class:`RecordError`, which ends the
    iteration) or a function called with the RecordError.  In every case
    but ``"raise"`` the remaining records are read.  ``partial=True`` also
    yields the part of a game read before an illegal move.
    """
    if not callable(errors) and errors not in ("warn", "skip", "raise"):
        raise ValueError(f"errors must be 'warn', 'skip', 'raise' or a function, not {errors!r}")
    for record in iter_records(path_or_folder):
        if record.error is not None:
            if errors == "raise":
                raise record.error
            if errors == "warn":
                warnings.warn(str(record.error), RecordWarning, stacklevel=2)
            elif callable(errors):
                errors(record.error)
            if not (partial and record.game is not None):
                continue
        assert record.game is not None
        yield record.game


def read_game(path: PathLike) -> Game:
    """The first game of a record file (any format); RecordError if it
    cannot be read, ValueError if the file holds no game."""
    for record in iter_records(path):
        if record.error is not None:
            raise record.error
        assert record.game is not None
        return record.game
    raise RecordError(os.fspath(path), None, None, "no game in the file")

