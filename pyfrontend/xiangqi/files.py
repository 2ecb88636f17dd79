"""Opening game records by what is in the file, not by its name: PGN, XQF,
DhtmlXQ, and CCBridge's CBF/CBR when ``cxiangqi.records`` can read them.

>>> detect_format(b"XQ\\x0a" + bytes(1021))
'xqf'
>>> detect_format("[Event \\"x\\"]\\n1. h2e2 h9g7 *".encode())
'pgn'
>>> detect_format(bytes(range(256)))
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, List, Optional, Tuple, Union

from cxiangqi import dhtmlxq, pgn, xqf
from cxiangqi.pgn import Game

__all__ = ["detect_format", "read_record", "open_filetypes", "RecordFormatError"]

PGN_EXT = "*.pgn *.PGN"
XQF_EXT = "*.xqf *.XQF"
DHTMLXQ_EXT = "*.html *.htm *.HTML *.HTM *.txt"
CB_EXT = "*.cbf *.CBF *.cbr *.CBR"


class RecordFormatError(ValueError):
    """The file is no game record we can read; ``kind`` is the i18n key
    saying why ("err_not_record", "err_cbf")."""

    def __init__(self, message: str, kind: str = "err_not_record") -> None:
        super().__init__(message)
        self.kind = kind


def detect_format(data: bytes) -> Optional[str]:
    """"xqf", "cbr", "cbf", "dhtmlxq", "pgn", or None for anything else."""
    if data[:2] == b"XQ" and len(data) > 2 and 1 <= data[2] <= xqf.MAX_VERSION:
        return "xqf"
    if data.startswith(b"CCBridge Record"):
        return "cbr"
    head = data[:4096]
    if b"<ChineseChessRecord" in head:
        return "cbf"
    if b"[DhtmlXQ" in data:
        return "dhtmlxq"
    if _looks_like_text(head) and (b"[" in head or b"1." in head):
        return "pgn"
    return None


def _looks_like_text(data: bytes) -> bool:
    """No NUL bytes and few control characters: some text encoding."""
    if not data or b"\x00" in data:
        return False
    controls = sum(1 for b in data if b < 32 and b not in (9, 10, 13, 12, 27))
    return controls <= len(data) // 100


def read_record(path: Union[str, Path]) -> Game:
    """The first game in the file at `path`, whatever its format.  Raises
    OSError when it cannot be read, RecordFormatError when it is no record,
    and the format reader's error (a ValueError) when it is broken."""
    data = Path(path).read_bytes()
    fmt = detect_format(data)
    if fmt == "xqf":
        return xqf.read_game(data)
    if fmt == "dhtmlxq":
        return dhtmlxq.read_game(data)
    if fmt in ("cbf", "cbr"):
        try:
            from cxiangqi import records      # the CBF/CBR readers, when they are there
        except ImportError:
            raise RecordFormatError(f"{fmt.upper()} files cannot be read by this version",
                                    "err_cbf") from None
        return records.read_game(str(path))
    if fmt == "pgn":
        game = pgn.read_game(str(path))
        if game is None:
            raise RecordFormatError("the file holds no game")
        return game
    raise RecordFormatError(f"{Path(path).name}: {len(data)} bytes, no known record format")


def open_filetypes(t: Callable[[str], str]) -> List[Tuple[str, str]]:
    """The Load dialog's filters: every record, then one per format."""
    every = " ".join((PGN_EXT, XQF_EXT, DHTMLXQ_EXT, CB_EXT))
    return [(t("record_files"), every), (t("pgn_files"), PGN_EXT), (t("xqf_files"), XQF_EXT),
            (t("dhtmlxq_files"), DHTMLXQ_EXT), (t("cbf_files"), CB_EXT), (t("all_files"), "*")]
