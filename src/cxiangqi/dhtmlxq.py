"""DhtmlXQ game records (the ``[DhtmlXQ]`` blocks of dpxq.com pages and
other Chinese web viewers), read into :class:`cxiangqi.pgn.Game`.

>>> game = read_game("[DhtmlXQ][DhtmlXQ_red]Hu[/DhtmlXQ_red][DhtmlXQ_result]W[/DhtmlXQ_result]"
...                  "[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]")
>>> game.headers["Red"], game.headers["Result"], [m.iccs() for m in game.mainline_moves()]
('Hu', '1-0', ['h2e2', 'h9g7'])

The format, as far as read here (learnt from dpxq pages and public
viewers): tags ``[DhtmlXQ_name]value[/DhtmlXQ_name]``.

* ``movelist``: 4 digits a move, ``x1 y1 x2 y2``, x the file 0..8 from
  Red's left, y the row 0..9 from the top (Black's back rank), so ICCS is
  ``file(x) + str(9 - y)``.
* ``binit``: the start position as 32 two-digit ``xy`` points in the order
  R N B A K A B N R C C P P P P P for Red, then the same for Black; ``99``
  for a piece that is not on the board.  ``fen``, when present, wins.
  The side to move is the side of the first move's piece.
* ``move_A_I_B``: variation B, an alternative to move I (counted from 1
  along the line, from the start) of variation A (0 is the main line).
* ``commentI`` (the main line) and ``commentB_I``: the comment after move I
  of variation B; ``comment0`` is the game's comment.  ``||`` is a line
  break and ``\\uXXXX`` a character.
* ``title``, ``event``, ``date``, ``place``, ``round``, ``red``, ``black``,
  ``redteam``, ``blackteam``, ``open`` and ``result`` (W/L/D or 红胜, 黑胜, 和棋, …)
  become the headers Title, Event (the title when there is no event), Date,
  Site, Round, Red, Black, RedTeam, BlackTeam, Opening and Result.

Errors: text without a DhtmlXQ block, or with malformed move digits or
position, raises :class:`DhtmlXQError` (a ValueError).  A move that is not
legal is left out with everything after it on its line and reported like
XQF's: ``DhtmlXQError`` with the rest of the game as ``err.game``, or
``errors="keep"`` to get the game with the errors in ``game.errors``.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .board import Board
from .errors import InvalidFenError
from .fen import STARTING_FEN
from .move import Move
from .pgn import Game, GameNode, PgnError, _normalize_fen, detect_encoding
from .piece import Piece
from .square import RED

__all__ = ["DhtmlXQError", "read_game", "read_games"]

_BLOCK = re.compile(r"\[DhtmlXQ\](.*?)(?:\[/DhtmlXQ\]|$)", re.S)
_TAG = re.compile(r"\[DhtmlXQ_(\w+)\](.*?)\[/DhtmlXQ_\1\]", re.S)
_SLOTS = "RNBAKABNRCCPPPPP"
_HEADERS = {"title": "Title", "event": "Event", "date": "Date", "place": "Site",
            "round": "Round", "red": "Red", "black": "Black", "redteam": "RedTeam",
            "blackteam": "BlackTeam", "open": "Opening"}
_RESULTS = {
    "W": "1-0", "红胜": "1-0", "紅勝": "1-0", "红先胜": "1-0", "紅先勝": "1-0", "黑负": "1-0",
    "L": "0-1", "黑胜": "0-1", "黑勝": "0-1", "红负": "0-1", "紅負": "0-1", "红先负": "0-1",
    "紅先負": "0-1",
    "D": "1/2-1/2", "和": "1/2-1/2", "和棋": "1/2-1/2", "红和": "1/2-1/2", "红先和": "1/2-1/2",
    "紅先和": "1/2-1/2",
    "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2",
}


class DhtmlXQError(PgnError):
    """A DhtmlXQ record that cannot be read (or, with ``err.game`` set, one
    with an illegal move).  A ValueError."""


def _text(value: str) -> str:
    value = value.replace("||", "\n")
    value = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), value)
    return value.strip()


def _moves(digits: str, what: str) -> List[Tuple[int, int]]:
    digits = re.sub(r"\s+", "", digits)
    if not digits.isdigit() and digits or len(digits) % 4:
        raise DhtmlXQError(f"malformed DhtmlXQ {what}: expected groups of 4 digits, "
                           f"got {digits[:40]!r}")
    moves = []
    for i in range(0, len(digits), 4):
        x1, y1, x2, y2 = (int(c) for c in digits[i:i + 4])
        moves.append(((9 - y1) * 9 + x1 if x1 < 9 else -1, (9 - y2) * 9 + x2 if x2 < 9 else -1))
    return moves


def _start_fen(tags: Dict[str, str], first: Optional[Tuple[int, int]]) -> str:
    if tags.get("fen", "").strip():
        return _normalize_fen(tags["fen"].strip())
    binit = re.sub(r"\s+", "", tags.get("binit", ""))
    if not binit:
        board_fen = STARTING_FEN.split()[0]
    else:
        if len(binit) != 64 or not binit.isdigit():
            raise DhtmlXQError(f"malformed DhtmlXQ binit {binit[:70]!r}: expected 64 digits")
        grid: Dict[int, str] = {}
        for i in range(32):
            x, y = int(binit[2 * i]), int(binit[2 * i + 1])
            if x > 8:
                continue  # 99: not on the board
            sq = (9 - y) * 9 + x
            symbol = _SLOTS[i % 16] if i < 16 else _SLOTS[i % 16].lower()
            if sq in grid:
                raise DhtmlXQError(f"malformed DhtmlXQ binit: two pieces on point {x}{y}")
            grid[sq] = symbol
        rows = []
        for rank in range(9, -1, -1):
            row, empty = "", 0
            for file in range(9):
                ch = grid.get(rank * 9 + file)
                if ch:
                    row += (str(empty) if empty else "") + ch
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        board_fen = "/".join(rows)
    side = "w"
    if first is not None:
        board = Board(board_fen + " w", validate=False)
        piece: Optional[Piece] = board.piece_at(first[0]) if first[0] >= 0 else None
        if piece is not None and piece.color != RED:
            side = "b"
    return f"{board_fen} {side} - - 0 1"


def _game(block: str, errors: str) -> Game:
    tags = {name.lower(): value for name, value in _TAG.findall(block)}
    game = Game()
    for key, header in _HEADERS.items():
        value = _text(tags.get(key, ""))
        if value:
            game.headers[header] = value
    if game.headers.get("Event", "?") == "?" and "Title" in game.headers:
        game.headers["Event"] = game.headers["Title"]
    game.headers["Result"] = _RESULTS.get(_text(tags.get("result", "")), "*")

    main = _moves(tags.get("movelist", ""), "movelist")
    fen = _start_fen(tags, main[0] if main else None)
    try:
        start = Board(fen)
    except InvalidFenError as e:
        raise DhtmlXQError(f"impossible DhtmlXQ start position: {e}") from None
    if start.fen() != STARTING_FEN:
        game.headers["FEN"] = start.fen()

    comments: Dict[str, str] = {}
    for name, value in tags.items():
        m = re.fullmatch(r"comment(\d+)(?:_(\d+))?", name)
        if m:
            key = f"{m.group(1)}_{m.group(2)}" if m.group(2) else f"0_{m.group(1)}"
            comments[key] = _text(value)
    game.comment = comments.get("0_0", "")

    # before[(branch, i)]: the node before move i of a branch, with its board
    before: Dict[Tuple[int, int], Tuple[GameNode, Board]] = {}
    _add_line(game, start, main, 0, 1, comments, before)
    changes: List[Tuple[Tuple[int, int, int], str]] = []
    for name, value in tags.items():
        m = re.fullmatch(r"move_(\d+)_(\d+)_(\d+)", name)
        if m:
            changes.append(((int(m.group(1)), int(m.group(2)), int(m.group(3))), value))
    # a variation may hang on another listed after it: retry until no progress
    while changes:
        waiting = []
        for (parent, ply, branch), value in changes:
            anchor = before.get((parent, ply))
            if anchor is None:
                waiting.append(((parent, ply, branch), value))
                continue
            node, board = anchor
            _add_line(node, board.copy(), _moves(value, f"move_{parent}_{ply}_{branch}"),
                      branch, ply, comments, before)
        if len(waiting) == len(changes):
            break  # variations of lines that do not exist: left out
        changes = waiting
    if game.errors and errors == "raise":
        raise game.errors[0]
    return game


def _add_line(node: GameNode, board: Board, moves: List[Tuple[int, int]], branch: int,
              ply: int, comments: Dict[str, str],
              before: Dict[Tuple[int, int], Tuple[GameNode, Board]]) -> None:
    game = node.game()
    for src, dst in moves:
        before[(branch, ply)] = (node, board.copy())
        move = None
        if 0 <= src < 90 and 0 <= dst < 90 and src != dst:
            move = Move(src, dst)
        if move is None or not board.is_legal(move):
            shown = move.iccs() if move else "?"
            side = "Red" if board.turn == RED else "Black"
            game.errors.append(DhtmlXQError(
                f"{game.headers.get('Event', '?')!r}: illegal move {shown} (move {ply} of line "
                f"{branch}, {side} to move in {board.fen()})",
                game=game, ply=len(board.move_stack), move_text=shown))
            return
        board.push(move)
        node = node.add_variation(move, comment=comments.get(f"{branch}_{ply}", ""))
        ply += 1
    before[(branch, ply)] = (node, board)  # a variation may also continue the line


def _read_text(source: Any) -> str:
    if isinstance(source, str) and "[DhtmlXQ" in source:
        return source
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            source = fh.read()
    elif hasattr(source, "read"):
        source = source.read()
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        return data.decode(detect_encoding(data), errors="replace")
    if isinstance(source, str):
        return source
    raise TypeError(f"expected DhtmlXQ text, bytes, a path or a stream, got "
                    f"{type(source).__name__}")


def read_games(source: Any, *, errors: str = "raise") -> Iterator[Game]:
    """The games of every ``[DhtmlXQ]`` block in a page (text containing
    ``[DhtmlXQ``, bytes, a path or a stream)."""
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    text = _read_text(source)
    for block in _BLOCK.findall(text):
        yield _game(block, errors)


def read_game(source: Any, *, errors: str = "raise") -> Game:
    """The game of the first ``[DhtmlXQ]`` block (DhtmlXQError if none)."""
    for game in read_games(source, errors=errors):
        return game
    raise DhtmlXQError("no [DhtmlXQ] block found")
