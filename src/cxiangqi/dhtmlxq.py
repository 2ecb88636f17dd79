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
``errors="keep"`` to get the game with the errors in ``game.errors``.  A
record with more moves than :data:`cxiangqi.pgn.MAX_MOVES`, or variations
nested deeper than :data:`cxiangqi.pgn.MAX_VARIATION_DEPTH`, is refused with
DhtmlXQError; memory and time grow in proportion to the record.
"""

from __future__ import annotations

import bisect
import os
import re
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .board import Board
from .errors import InvalidFenError
from .fen import STARTING_FEN, parse_fen
from .move import MOVES, Move
from . import pgn as _pgn
from .pgn import Game, GameNode, PgnError, _normalize_fen, detect_encoding
from .square import RED

__all__ = ["DhtmlXQError", "read_game", "read_games"]

_BLOCK = re.compile(r"\[DhtmlXQ\](.*?)(?:\[/DhtmlXQ\]|$)", re.S)
_OPEN_TAG = re.compile(r"\[DhtmlXQ_(\w+)\]")
_CLOSE_TAG = re.compile(r"\[/DhtmlXQ_(\w+)\]")


def _tags(block: str) -> List[Tuple[str, str]]:
    """The (name, value) of every [DhtmlXQ_name]value[/DhtmlXQ_name] in the
    block, left to right, as a lazy regular expression would find them;
    an opening tag without its closing one is passed over.  In time linear
    in the block (the regular expression rescanned the rest of the block
    for every unclosed tag)."""
    closes: Dict[str, List[int]] = {}
    for m in _CLOSE_TAG.finditer(block):
        closes.setdefault(m.group(1), []).append(m.start())
    found: List[Tuple[str, str]] = []
    pos = 0
    while True:
        m = _OPEN_TAG.search(block, pos)
        if m is None:
            return found
        name = m.group(1)
        ends = closes.get(name, ())
        k = bisect.bisect_left(ends, m.end())
        if k == len(ends):
            pos = m.start() + 1
            continue
        found.append((name, block[m.end():ends[k]]))
        pos = ends[k] + len(name) + 11         # past "[/DhtmlXQ_" name "]"
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


class _Moves:
    """A move list's digits, 4 a move, read one move at a time (a list of
    decoded moves would take 18 times the text's memory)."""

    __slots__ = ("digits",)

    def __init__(self, digits: str, what: str) -> None:
        digits = re.sub(r"\s+", "", digits)
        if not digits.isdigit() and digits or len(digits) % 4:
            raise DhtmlXQError(f"malformed DhtmlXQ {what}: expected groups of 4 digits, "
                               f"got {digits[:40]!r}")
        self.digits = digits

    def __len__(self) -> int:
        return len(self.digits) // 4

    def __getitem__(self, k: int) -> Tuple[int, int]:
        """(from, to) squares of move k; -1 for a square off the board."""
        x1, y1, x2, y2 = (int(c) for c in self.digits[4 * k:4 * k + 4])
        return ((9 - y1) * 9 + x1 if x1 < 9 else -1, (9 - y2) * 9 + x2 if x2 < 9 else -1)


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
    # the side of the first move's piece moves first
    placement = dict(parse_fen(board_fen + " w").placement)
    piece = placement.get(first[0]) if first is not None else None
    side = "b" if piece is not None and piece.color != RED else "w"
    return f"{board_fen} {side} - - 0 1"


def _game(block: str, errors: str) -> Game:
    tags = {name.lower(): value for name, value in _tags(block)}
    game = Game()
    for key, header in _HEADERS.items():
        value = _text(tags.get(key, ""))
        if value:
            game.headers[header] = value
    if game.headers.get("Event", "?") == "?" and "Title" in game.headers:
        game.headers["Event"] = game.headers["Title"]
    game.headers["Result"] = _RESULTS.get(_text(tags.get("result", "")), "*")

    main = _Moves(tags.get("movelist", ""), "movelist")
    fen = _start_fen(tags, main[0] if len(main) else None)
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

    # The variations, by where they hang: (line, ply) -> [(branch, digits)]
    hanging: Dict[Tuple[int, int], List[Tuple[int, str]]] = {}
    for name, value in tags.items():
        m = re.fullmatch(r"move_(\d{1,9})_(\d{1,9})_(\d{1,9})", name)   # (longer: no ply)
        if m:
            hanging.setdefault((int(m.group(1)), int(m.group(2))), []).append(
                (int(m.group(3)), value))
    _walk(game, start, main, hanging, comments)
    if game.errors and errors == "raise":
        raise game.errors[0]
    return game


class _Line:
    """A line being read: its moves, where it stands, what hangs there."""

    __slots__ = ("node", "branch", "moves", "first_ply", "k", "pushed", "child", "waiting",
                 "depth")

    def __init__(self, node: GameNode, branch: int, moves: _Moves,
                 first_ply: int, depth: int) -> None:
        self.node = node               # the board stands here
        self.branch = branch
        self.moves = moves
        self.first_ply = first_ply     # the ply number of moves[0], counted from 1
        self.k = 0                     # next move of `moves`
        self.pushed = 0                # moves of this line on the board
        self.child: Optional[GameNode] = None
        self.waiting: Optional[List[Tuple[int, str]]] = None
        self.depth = depth


def _walk(game: Game, board: Board, main: _Moves,
          hanging: Dict[Tuple[int, int], List[Tuple[int, str]]],
          comments: Dict[str, str]) -> None:
    """Adds the main line and every variation to the game, depth-first
    with one board and a stack of open lines (no recursion, no board copies:
    time and memory grow with the record, not with its square).  At each
    point a line's own move is added first, so it stays the main
    continuation, then the variations that hang there (alternatives to
    that move), in the order of the page.  A variation hanging on a line
    that does not exist, or on one already placed, is left out."""
    lines = [_Line(game, 0, main, 1, 0)]
    placed = {0}
    nodes = 0
    while lines:
        line = lines[-1]
        ply = line.first_ply + line.k
        if line.waiting is None:
            line.child = None
            if line.k < len(line.moves):
                nodes += 1
                if nodes > _pgn.MAX_MOVES:
                    raise DhtmlXQError(f"DhtmlXQ record too big: more than "
                                       f"{_pgn.MAX_MOVES:,} moves; refused", game=game)
                line.child = _add(game, line.node, board, line.moves[line.k], line.branch, ply,
                                  comments)
            line.waiting = list(hanging.get((line.branch, ply), ()))
        if line.waiting:
            branch, digits = line.waiting.pop(0)
            if branch in placed:
                continue
            placed.add(branch)
            if line.depth + 1 > _pgn.MAX_VARIATION_DEPTH:
                raise DhtmlXQError(f"DhtmlXQ record too deep: variations nested more than "
                                   f"{_pgn.MAX_VARIATION_DEPTH} deep; refused", game=game)
            moves = _Moves(digits, f"move_{line.branch}_{ply}_{branch}")
            lines.append(_Line(line.node, branch, moves, ply, line.depth + 1))
            continue
        if line.child is not None:          # on along this line
            board.push(line.child.move)  # type: ignore[arg-type]
            line.node, line.k, line.pushed, line.waiting = line.child, line.k + 1, \
                line.pushed + 1, None
            continue
        for _ in range(line.pushed):        # the end of the line (or an illegal move)
            board.pop()
        lines.pop()


def _add(game: Game, node: GameNode, board: Board, squares: Tuple[int, int], branch: int,
         ply: int, comments: Dict[str, str]) -> Optional[GameNode]:
    """Adds the move below node (the board stands there) and returns its
    node; None, with the error recorded, if it is not legal."""
    src, dst = squares
    move = None
    if 0 <= src < 90 and 0 <= dst < 90 and src != dst:
        move = MOVES[src * 90 + dst]     # the shared Move objects: none made per move
    legal = move is not None and board.is_legal(move)
    refused = board.counter_limit(move) if legal else None     # a FEN's counter at its limit
    if not legal or refused:
        shown = move.iccs() if move else "?"
        side = "Red" if board.turn == RED else "Black"
        game.errors.append(DhtmlXQError(
            f"{game.headers.get('Event', '?')!r}: {'cannot play' if refused else 'illegal'} "
            f"move {shown} (move {ply} of line {branch}, {side} to move in {board.fen()})"
            f"{': ' + refused if refused else ''}",
            game=game, ply=len(board.move_stack), move_text=shown))
        return None
    return node.add_variation(move, comment=comments.get(f"{branch}_{ply}", ""))


def _read_text(source: Any) -> str:
    # a str is page text when it has a block, or when it cannot be a path
    # (several lines, markup, very long); otherwise it names a file
    if isinstance(source, str) and ("[DhtmlXQ" in source or "\n" in source or "<" in source
                                    or "[" in source or len(source) > 4096):
        return source
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            source = fh.read()
    elif hasattr(source, "read"):
        source = source.read()
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        other = _pgn.wrong_kind(data, "dhtmlxq")
        if other is not None:
            raise DhtmlXQError(other)
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
    return _games(_read_text(source), errors)


def _games(text: str, errors: str) -> Iterator[Game]:
    for block in _BLOCK.findall(text):
        yield _game(block, errors)


def read_game(source: Any, *, errors: str = "raise") -> Game:
    """The game of the first ``[DhtmlXQ]`` block (DhtmlXQError if none)."""
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    text = _read_text(source)
    for game in _games(text, errors):
        return game
    hint = ""
    if _pgn.sniff(text[:4096].encode("utf-8", "replace")) == "pgn":
        hint = ": this is a PGN file: use cxiangqi.pgn.read_game"
    raise DhtmlXQError(f"no [DhtmlXQ] block found{hint}")
