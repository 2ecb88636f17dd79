"""Opening game records by what is in the file, not by its name: PGN, XQF,
DhtmlXQ, CCBridge's CBF and CBR, and CCBridge libraries (CBL, several
games), all through ``cxiangqi.records``.

>>> detect_format(b"XQ\\x0a" + bytes(1021))
'xqf'
>>> detect_format("[Event \\"x\\"]\\n1. h2e2 h9g7 *".encode())
'pgn'
>>> detect_format(bytes(range(256)))
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Tuple, Union

from cxiangqi import records
from cxiangqi.pgn import Game
from cxiangqi.records import detect_format

__all__ = ["detect_format", "read_record", "open_record", "Opened", "open_filetypes",
           "RecordFormatError"]

PGN_EXT = "*.pgn *.PGN"
XQF_EXT = "*.xqf *.XQF"
DHTMLXQ_EXT = "*.html *.htm *.HTML *.HTM *.txt *.dhtmlxq"
CBF_EXT = "*.cbf *.CBF"
CBR_EXT = "*.cbr *.CBR"
CBL_EXT = "*.cbl *.CBL"


class RecordFormatError(ValueError):
    """The file is no game record we can read; ``kind`` is the i18n key
    saying why ("err_not_record")."""

    def __init__(self, message: str, kind: str = "err_not_record") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Opened:
    """The first game of a record file, its format and how many games
    (readable or not) the file holds."""

    game: Game
    format: str
    count: int


def open_record(path: Union[str, Path]) -> Opened:
    """The first game in the file at `path`, whatever its format, and how
    many games the file has.  Raises OSError when it cannot be read,
    RecordFormatError when it is no record, and the format reader's error
    (a ValueError) when the first game is broken."""
    name = os.fspath(path)
    if os.path.isdir(name):
        raise IsADirectoryError(21, "Is a directory", name)
    first: Optional[records.Record] = None
    count = 0
    for record in records.iter_records(name):   # FileNotFoundError when it is not there
        if first is None:
            first = record
            if record.error is not None:
                _raise(record.error)
        count += 1
    if first is None or first.game is None or first.format is None:
        raise RecordFormatError(f"{Path(name).name}: the file holds no game")
    return Opened(first.game, first.format, count)


def _raise(error: records.RecordError) -> None:
    """The error of an unreadable first record, as the frontend names them."""
    cause = error.cause
    if error.format is None:
        if isinstance(cause, OSError):
            raise cause
        raise RecordFormatError(str(error)) from cause
    if isinstance(cause, (ValueError, OSError)):
        raise cause from error   # XqfError, PgnError, IllegalMoveError...: their own words
    raise error


def read_record(path: Union[str, Path]) -> Game:
    """The first game in the file at `path` (see :func:`open_record`)."""
    return open_record(path).game


def open_filetypes(t: Callable[[str], str]) -> List[Tuple[str, str]]:
    """The Load dialog's filters: every record, then one per format."""
    each = [("pgn_files", PGN_EXT), ("xqf_files", XQF_EXT), ("dhtmlxq_files", DHTMLXQ_EXT),
            ("cbf_files", CBF_EXT), ("cbr_files", CBR_EXT), ("cbl_files", CBL_EXT)]
    every = " ".join(ext for _, ext in each)
    return ([(t("record_files"), every)] + [(t(key), ext) for key, ext in each]
            + [(t("all_files"), "*")])
