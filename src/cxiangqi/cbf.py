"""CCBridge (象棋桥) XML records: CBF files.

>>> game = read_game(b'''<?xml version="1.0" encoding="UTF-8"?>
... <ChineseChessRecord Version="1.0"><Head><Red>Hu</Red><RecordResult>1</RecordResult>
... </Head><MoveList><Move value="00-00"/><Move value="77-47"/>
... <Move value="70-62" end="1"><![CDATA[ok]]></Move></MoveList></ChineseChessRecord>''')
>>> game.headers["Red"], game.headers["Result"], [m.iccs() for m in game.mainline_moves()]
('Hu', '1-0', ['h2e2', 'h9g7'])
>>> game.end().comment
'ok'

The format, as far as read here (from CCBridge's files): a
``<ChineseChessRecord>`` with a ``<Head>`` (``Name``, ``Contest``,
``Round``, ``Date``, ``Site``, ``Red``, ``RedTeam``, ``Black``,
``BlackTeam``, ``Commentator``, ``ECCO``, ``RecordResult`` 0 unknown /
1 red wins / 2 black wins / 3 draw, ``FEN``) and a ``<MoveList>`` of
``<Move value="x1y1-x2y2">`` elements, x the column 0..8 from Red's left
and y the row 0..9 from Black's back rank (so ICCS is
``file(x) + str(9 - y)``), the text of the element being the comment after
the move.  The first element, ``00-00``, is not a move: its text is the
game's comment.  ``end="1"`` marks the last move of the main line.

Variations are not read: CCBridge's samples have none and the way CBF
files write them is not documented.  Moves found after the ``end="1"``
move are reported as an error (they are not silently taken for the main
line).

Errors: text that is not a CBF record, malformed XML, a bad FEN or a bad
move value raise :class:`CbfError` (a ValueError) saying what and where; a
move that is not legal ends the line and is reported like XQF's:
``CbfError`` with the moves before it as ``err.game``, or the game
returned with ``game.errors`` under ``errors="keep"``.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from typing import Any, Optional, Union

from .board import Board
from .errors import InvalidFenError
from .fen import STARTING_FEN
from .move import Move
from .pgn import Game, GameNode, PgnError, _normalize_fen
from .square import RED

__all__ = ["CbfError", "read_game", "is_cbf"]

_HEADERS = {"Name": "Title", "Contest": "Event", "Round": "Round", "Date": "Date",
            "Site": "Site", "Red": "Red", "RedTeam": "RedTeam", "Black": "Black",
            "BlackTeam": "BlackTeam", "Commentator": "Annotator", "ECCO": "ECCO"}
_RESULTS = {"0": "*", "1": "1-0", "2": "0-1", "3": "1/2-1/2", "4": "*"}
_VALUE = re.compile(r"\s*([0-8])([0-9])\s*-\s*([0-8])([0-9])\s*")


class CbfError(PgnError):
    """A CBF record that cannot be read, or one with an illegal move (then
    ``err.game`` holds the moves before it).  A ValueError."""


def is_cbf(head: bytes) -> bool:
    """Do these first bytes of a file look like a CBF record?"""
    return b"<ChineseChessRecord" in head[:4096]


def _read_bytes(source: Any) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, str) and "<ChineseChessRecord" in source:
        return source.encode("utf-8")
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            return fh.read()
    if hasattr(source, "read"):
        data = source.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    raise TypeError(f"expected CBF text, bytes, a path or a stream, got {type(source).__name__}")


def _text(value: Optional[str]) -> str:
    return (value or "").replace("\r\n", "\n").replace("\r", "\n").strip()


def read_game(source: Union[bytes, str, "os.PathLike[str]", Any], *,
              errors: str = "raise") -> Game:
    """Reads a CBF record from bytes, XML text, a path or a stream.

    Raises :class:`CbfError` for data that is not a CBF record or is
    malformed.  An illegal move ends the main line: then CbfError is raised
    with the moves before it as ``err.game`` (``errors="raise"``), or that
    game is returned with the error in ``game.errors`` (``errors="keep"``).
    """
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    data = _read_bytes(source)
    if not is_cbf(data):
        raise CbfError("not a CBF record (no <ChineseChessRecord> element)")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        # entity definitions can make a few bytes expand into gigabytes
        raise CbfError("CBF record with a DOCTYPE or ENTITY declaration: refused")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        raise CbfError(f"malformed CBF record: {e}") from None
    if root.tag != "ChineseChessRecord":
        raise CbfError(f"not a CBF record: the root element is <{root.tag}>")

    game = Game()
    game.errors = []
    head = root.find("Head")
    fields = {child.tag: _text(child.text) for child in head} if head is not None else {}
    for tag, header in _HEADERS.items():
        if fields.get(tag):
            game.headers[header] = fields[tag]
    if game.headers.get("Event", "?") == "?" and "Title" in game.headers:
        game.headers["Event"] = game.headers["Title"]
    game.headers["Result"] = _RESULTS.get(fields.get("RecordResult", "0"), "*")
    fen = fields.get("FEN") or STARTING_FEN
    try:
        board = Board(_normalize_fen(fen))
    except InvalidFenError as e:
        raise CbfError(f"CBF record with a bad FEN: {e}") from None
    if board.fen() != STARTING_FEN:
        game.headers["FEN"] = board.fen()

    moves = root.find("MoveList")
    elements = list(moves) if moves is not None else []
    node: GameNode = game
    ended = False
    for i, element in enumerate(elements):
        if element.tag != "Move":
            continue
        value = element.get("value", "")
        comment = _text(element.text)
        if i == 0 and value.strip() in ("00-00", ""):
            game.comment = comment
            continue
        if ended:
            left = sum(1 for e in elements[i:] if e.tag == "Move")
            game.errors.append(CbfError(
                f"{left} moves after the end of the main line (move element {i}) were "
                f"not read: variations in CBF files are not supported", game=game,
                ply=len(board.move_stack)))
            break
        m = _VALUE.fullmatch(value)
        if m is None:
            raise CbfError(f"malformed CBF move value {value[:20]!r} in move element {i} "
                           f"(expected 'x1y1-x2y2')")
        x1, y1, x2, y2 = (int(d) for d in m.groups())
        move = Move((9 - y1) * 9 + x1, (9 - y2) * 9 + x2) if (x1, y1) != (x2, y2) else None
        legal = move is not None and board.is_legal(move)
        refused = board.counter_limit(move) if legal else None  # a FEN's counter at its limit
        if not legal or refused:
            side = "Red" if board.turn == RED else "Black"
            shown = move.iccs() if move else value.strip()
            game.errors.append(CbfError(
                f"{'cannot play' if refused else 'illegal'} move {shown} (move element {i}, "
                f"value {value.strip()!r}) after {len(board.move_stack)} plies (move "
                f"{board.fullmove_number}, {side}){': ' + refused if refused else ''}",
                game=game, ply=len(board.move_stack), move_text=shown))
            break
        board.push(move)
        node = node.add_variation(move, comment=comment)
        ended = element.get("end", "0").strip() not in ("", "0")
    if game.errors and errors == "raise":
        raise game.errors[0]
    return game
