"""Gomoku (五子棋, five in a row) and a computer opponent.

Freestyle rules: Black moves first, the players alternate, five *or more*
stones of one colour in a row (horizontally, vertically or diagonally) win,
and a full board without one is a draw.  The board is 15x15 unless told
otherwise (5..19 is allowed).  Points are ``(row, col)`` tuples, 0-based,
row 0 at the top.

>>> board = Board()
>>> for point in [(7, 7), (0, 0), (7, 8), (0, 1), (7, 9), (0, 2), (7, 10), (0, 3)]:
...     board.push(point)
>>> best_move(board, "easy")          # either end of the open four wins
(7, 6)
>>> board.push((7, 6))
>>> board.winner() is BLACK, board.winning_line()
(True, [(7, 6), (7, 7), (7, 8), (7, 9), (7, 10)])

The rules and the search live in the compiled core (``cxiangqi._gomoku``);
the search releases the GIL, so a GUI thread keeps running while
``best_move`` thinks in another thread.

Save files (:meth:`Board.to_text`, :meth:`Board.from_text`) are small text
files::

    gomoku 1
    size 15
    moves 7,7 7,8 8,8

The first line names the format and its version; ``size`` is the board size;
``moves`` lists the stones in the order they were played as ``row,col``
(0-based), Black's first.  Lines starting with ``#`` and blank lines are
ignored; anything else is an error.
"""

from __future__ import annotations

import enum
import operator
import random
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ._gomoku import MAX_BOARD_SIZE, MIN_BOARD_SIZE, PROVEN_SCORE
from ._gomoku import Position as _Position

__all__ = [
    "Board", "Color", "BLACK", "WHITE", "Point", "LegalMoves",
    "best_move", "analyse", "SearchResult", "Level", "LEVELS",
    "MIN_SIZE", "MAX_SIZE", "DEFAULT_SIZE", "TEXT_HEADER",
]

Point = Tuple[int, int]

MIN_SIZE: int = MIN_BOARD_SIZE
MAX_SIZE: int = MAX_BOARD_SIZE
DEFAULT_SIZE = 15
TEXT_HEADER = "gomoku 1"

# the four directions a line runs in: horizontal, vertical, diagonal, anti-diagonal
_DIRECTIONS = 4


class Color(enum.IntEnum):
    """A stone's colour; Black moves first."""

    BLACK = 1
    WHITE = 2

    @property
    def other(self) -> "Color":
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    def __str__(self) -> str:
        return self.name.lower()


BLACK = Color.BLACK
WHITE = Color.WHITE

_SYMBOL = {0: ".", 1: "X", 2: "O"}


def _point(point: object, size: int) -> Point:
    """``point`` as a checked ``(row, col)``: TypeError when it is not a pair
    of integers, ValueError when it is off the board."""
    if isinstance(point, (str, bytes)) or not isinstance(point, Sequence):
        raise TypeError(f"a point is a (row, col) tuple, got {point!r}")
    if len(point) != 2:
        raise ValueError(f"a point is a (row, col) pair, got {point!r}")
    row, col = point
    for v in (row, col):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise TypeError(f"a point's row and column are integers, got {point!r}")
    row, col = operator.index(row), operator.index(col)
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"point {(row, col)} is off the {size}x{size} board "
                         f"(rows and columns are 0..{size - 1})")
    return row, col


class LegalMoves:
    """A lazy view of the empty points of a board, row by row; empty when
    the game is over.  Supports ``len``, ``in``, iteration and ``bool``."""

    __slots__ = ("_board",)

    def __init__(self, board: "Board") -> None:
        self._board = board

    def __iter__(self) -> Iterator[Point]:
        b = self._board
        if b.is_game_over():
            return
        size = b.size
        stone_at = b._pos.stone_at
        for pt in range(size * size):
            if stone_at(pt) == 0:
                yield divmod(pt, size)

    def __len__(self) -> int:
        b = self._board
        if b.is_game_over():
            return 0
        return b.size * b.size - len(b._moves)

    def __bool__(self) -> bool:
        return len(self) > 0

    def count(self) -> int:
        """How many points are legal (as ``len``)."""
        return len(self)

    def __contains__(self, point: object) -> bool:
        b = self._board
        try:
            row, col = _point(point, b.size)
        except (TypeError, ValueError):
            return False
        return not b.is_game_over() and b._pos.stone_at(row * b.size + col) == 0

    def __repr__(self) -> str:
        return f"<LegalMoves ({len(self)} points)>"


class Board:
    """A gomoku board: the stones and the order they were played in.

    >>> board = Board(size=9)
    >>> board.push((4, 4))
    >>> board.turn is WHITE, board.move_stack
    (True, [(4, 4)])
    >>> board.pop()
    (4, 4)
    """

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"board size must be an integer, got {size!r}")
        if not (MIN_SIZE <= size <= MAX_SIZE):
            raise ValueError(f"board size must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
        self._size = size
        self._pos = _Position(size)
        self._moves: List[Point] = []
        # the winning line, set when the last stone made five
        self._line: Optional[List[Point]] = None

    # --- state --------------------------------------------------------------

    @property
    def size(self) -> int:
        """Rows (and columns) of the board."""
        return self._size

    @property
    def turn(self) -> Color:
        """The colour to play next (Black moves first)."""
        return BLACK if len(self._moves) % 2 == 0 else WHITE

    @property
    def move_stack(self) -> List[Point]:
        """The points played so far, in order (a copy)."""
        return list(self._moves)

    @property
    def legal_moves(self) -> LegalMoves:
        """The empty points (none once the game is over), as a lazy view."""
        return LegalMoves(self)

    def peek(self) -> Optional[Point]:
        """The last point played, or None on an empty board."""
        return self._moves[-1] if self._moves else None

    def color_at(self, point: Point) -> Optional[Color]:
        """The colour of the stone on ``point``, or None when it is empty."""
        row, col = _point(point, self._size)
        st = self._pos.stone_at(row * self._size + col)
        return Color(st) if st else None

    def is_legal(self, point: object) -> bool:
        """True when ``point`` is an empty point on the board and the game
        is not over."""
        return point in self.legal_moves

    # --- moves --------------------------------------------------------------

    def push(self, point: Point) -> None:
        """Plays the side to move's stone on ``point``.

        Raises TypeError when ``point`` is not a pair of integers and
        ValueError when it is off the board or occupied, or the game is
        already over; the board is unchanged then.
        """
        row, col = _point(point, self._size)
        if self._line is not None:
            raise ValueError(f"the game is over ({self.winner()} has five); "
                             f"cannot play {(row, col)}")
        if len(self._moves) == self._size * self._size:
            raise ValueError(f"the board is full; cannot play {(row, col)}")
        pt = row * self._size + col
        st = self._pos.stone_at(pt)
        if st:
            raise ValueError(f"point {(row, col)} is occupied by a {Color(st)} stone")
        if self._pos.push(pt):
            self._line = self._five_through(pt)
        self._moves.append((row, col))

    def pop(self) -> Point:
        """Takes back the last stone and returns its point (IndexError when
        the board is empty)."""
        if not self._moves:
            raise IndexError("pop from an empty board")
        self._pos.pop()
        self._line = None  # no stone can be played after a five
        return self._moves.pop()

    def clear(self) -> None:
        """Removes every stone (a new game on the same board)."""
        self._pos = _Position(self._size)
        self._moves = []
        self._line = None

    def _five_through(self, pt: int) -> List[Point]:
        for d in range(_DIRECTIONS):
            run = self._pos.run(pt, d)
            if len(run) >= 5:
                return sorted(divmod(q, self._size) for q in run)
        raise AssertionError("the core reported a five that is not there")

    # --- outcome ------------------------------------------------------------

    def winner(self) -> Optional[Color]:
        """BLACK or WHITE once one of them has five in a row, else None."""
        if self._line is None:
            return None
        return BLACK if len(self._moves) % 2 == 1 else WHITE

    def winning_line(self) -> Optional[List[Point]]:
        """The points of the winning five (or more) in order along the
        line, or None when nobody has won.  When the last stone made five
        along two lines, the first of horizontal, vertical, diagonal and
        anti-diagonal is given."""
        return None if self._line is None else list(self._line)

    def is_draw(self) -> bool:
        """True when the board is full and nobody has five."""
        return self._line is None and len(self._moves) == self._size * self._size

    def is_game_over(self) -> bool:
        return self._line is not None or len(self._moves) == self._size * self._size

    def result(self) -> str:
        """``"1-0"`` (Black won), ``"0-1"`` (White won), ``"1/2-1/2"`` or
        ``"*"`` (game in progress)."""
        if self._line is not None:
            return "1-0" if self.winner() is BLACK else "0-1"
        return "1/2-1/2" if self.is_draw() else "*"

    # --- copies, comparison, text -------------------------------------------

    def copy(self) -> "Board":
        """An independent copy (stones, move order and result)."""
        other = type(self).__new__(type(self))
        other._size = self._size
        other._pos = self._pos.copy()
        other._moves = list(self._moves)
        other._line = None if self._line is None else list(self._line)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._size == other._size and self._moves == other._moves

    __hash__ = None  # type: ignore[assignment]  (mutable)

    def to_text(self) -> str:
        """The game as save-file text (see the module docstring)."""
        moves = " ".join(f"{r},{c}" for r, c in self._moves)
        return f"{TEXT_HEADER}\nsize {self._size}\nmoves {moves}".rstrip() + "\n"

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """The game saved by :meth:`to_text`.  Raises ValueError on anything
        malformed: a wrong header, a bad size, a point off the board or
        played twice, a stone after the game was won."""
        if not isinstance(text, str):
            raise TypeError(f"from_text takes a str, got {type(text).__name__}")
        lines = [ln.strip() for ln in text.splitlines()]
        lines = [ln for ln in lines if ln and not ln.startswith("#")]
        if not lines or lines[0] != TEXT_HEADER:
            raise ValueError(f"not a gomoku save: the first line must be {TEXT_HEADER!r}")
        fields: Dict[str, str] = {}
        for ln in lines[1:]:
            name, _, value = ln.replace("\t", " ").partition(" ")
            if name not in ("size", "moves"):
                raise ValueError(f"unknown line in gomoku save: {ln[:40]!r}")
            if name in fields:
                raise ValueError(f"gomoku save has two {name!r} lines")
            fields[name] = value.strip()
        if "size" not in fields:
            raise ValueError("gomoku save has no 'size' line")
        size_text = fields["size"]
        if not (size_text.isascii() and size_text.isdigit() and len(size_text) <= 3):
            raise ValueError(f"bad board size in gomoku save: {size_text[:20]!r}")
        size = int(size_text)
        if not (MIN_SIZE <= size <= MAX_SIZE):
            raise ValueError(f"board size in gomoku save must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
        board = cls(size)
        for i, token in enumerate(fields.get("moves", "").split()):
            r_text, comma, c_text = token.partition(",")
            if (not comma or not (r_text.isascii() and r_text.isdigit())
                    or not (c_text.isascii() and c_text.isdigit())
                    or len(r_text) > 2 or len(c_text) > 2):
                raise ValueError(f"bad move {i + 1} in gomoku save: {token[:20]!r} "
                                 "(expected row,col)")
            try:
                board.push((int(r_text), int(c_text)))
            except ValueError as exc:
                raise ValueError(f"bad move {i + 1} in gomoku save: {exc}") from None
        return board

    def __str__(self) -> str:
        """The board as text: X black, O white, . empty; rows and columns
        numbered from 0; the last stone in brackets."""
        size = self._size
        last = self._moves[-1] if self._moves else None
        out = ["   " + "".join(f"{c:>2} " for c in range(size)).rstrip()]
        for r in range(size):
            cells = []
            for c in range(size):
                s = _SYMBOL[self._pos.stone_at(r * size + c)]
                cells.append(f"[{s}]" if (r, c) == last else f" {s} ")
            out.append(f"{r:>3}" + "".join(cells).rstrip())
        return "\n".join(out)

    def __repr__(self) -> str:
        state = {"1-0": "black won", "0-1": "white won", "1/2-1/2": "draw"}.get(
            self.result(), f"{self.turn} to move")
        return f"<gomoku.Board size={self._size} stones={len(self._moves)} {state}>"


# --- the computer opponent ------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """How hard the computer plays.

    ``depth``: most plies of alpha-beta (iterative deepening stops earlier
    when ``time`` seconds or ``nodes`` nodes (0 = no limit) are used up);
    ``width``/``root_width``: moves searched at each node / at the root,
    the best by threat score (a forced defence always gets all its moves);
    ``vcf``: fours looked ahead for a win by continuous fours at the root,
    within ``vcf_nodes`` nodes, and ``leaf_vcf``/``leaf_vcf_nodes`` the same
    at the horizon (0 = none); ``randomness``: score window within which a
    move is picked at random (0 = always the best); ``tt_bits``: the
    transposition table has 2**tt_bits entries of 16 bytes.

    Every level plays a five when it has one, blocks a four and makes a
    winning open four before any search, and answers an open three (the
    search is given only the moves that stop it, and its own fours).
    """

    name: str
    depth: int
    width: int
    root_width: int
    time: float
    nodes: int
    vcf: int
    leaf_vcf: int
    vcf_nodes: int
    leaf_vcf_nodes: int
    randomness: int
    tt_bits: int

    def __post_init__(self) -> None:
        # every number goes to the compiled search: checked here, as ValueErrors
        from . import _checks
        _checks.integer(self.depth, "Level.depth", 1, 60)
        _checks.integer(self.width, "Level.width", 1, 225)
        _checks.integer(self.root_width, "Level.root_width", 1, 225)
        _checks.seconds(self.time, "Level.time")
        _checks.integer(self.nodes, "Level.nodes", 0, 2 ** 62)
        _checks.integer(self.vcf, "Level.vcf", 0, 30)
        _checks.integer(self.leaf_vcf, "Level.leaf_vcf", 0, 30)
        _checks.integer(self.vcf_nodes, "Level.vcf_nodes", 0, 2 ** 31 - 1)
        _checks.integer(self.leaf_vcf_nodes, "Level.leaf_vcf_nodes", 0, 2 ** 31 - 1)
        _checks.integer(self.randomness, "Level.randomness", 0, 2 ** 31 - 1)
        _checks.integer(self.tt_bits, "Level.tt_bits", 10, 24)


LEVELS: Dict[str, Level] = {
    "easy": Level("easy", depth=2, width=8, root_width=12, time=0.08, nodes=20_000,
                  vcf=0, leaf_vcf=0, vcf_nodes=0, leaf_vcf_nodes=0, randomness=150,
                  tt_bits=12),
    "normal": Level("normal", depth=6, width=10, root_width=16, time=0.4, nodes=0,
                    vcf=8, leaf_vcf=0, vcf_nodes=5_000, leaf_vcf_nodes=0, randomness=20,
                    tt_bits=16),
    "hard": Level("hard", depth=20, width=12, root_width=20, time=1.5, nodes=0,
                  vcf=16, leaf_vcf=6, vcf_nodes=40_000, leaf_vcf_nodes=200, randomness=0,
                  tt_bits=20),
}


@dataclass(frozen=True)
class SearchResult:
    """What :func:`analyse` found: the move, its score for the side to move
    (above ``PROVEN_SCORE``: a forced win, below its negative: a forced
    loss), the search depth completed, nodes, seconds, and how the move was
    chosen (``"win"``, ``"block"``, ``"four"``, ``"vcf"``, ``"only"``,
    ``"search"``, ``"center"``)."""

    move: Point
    score: int
    depth: int
    nodes: int
    time: float
    reason: str


def _level(level: Union[str, Level]) -> Level:
    if isinstance(level, Level):
        return level
    key = str(level).strip().lower()
    if key not in LEVELS:
        raise ValueError(f"unknown gomoku level {level!r}: use 'easy', 'normal' or 'hard'")
    return LEVELS[key]


def analyse(board: Board, level: Union[str, Level] = "normal", *,
            time_limit: Optional[float] = None,
            rng: Optional[random.Random] = None) -> SearchResult:
    """Searches ``board`` for the side to move at ``level``; see
    :func:`best_move`."""
    if not isinstance(board, Board):
        raise TypeError(f"analyse takes a gomoku.Board, got {type(board).__name__}")
    lv = _level(level)
    if board.is_game_over():
        raise ValueError("the game is over: there is no move to find")
    budget = lv.time
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) \
                or not 0 < time_limit < float("inf"):
            raise ValueError(f"time_limit must be a positive, finite number of seconds, "
                             f"got {time_limit!r}")
        budget = float(time_limit)
    exact = lv.randomness > 0
    out = board._pos.think(max_depth=lv.depth, width=lv.width, root_width=lv.root_width,
                           time_limit=budget, node_limit=lv.nodes, vcf_depth=lv.vcf,
                           leaf_vcf=lv.leaf_vcf, vcf_nodes=lv.vcf_nodes,
                           leaf_vcf_nodes=lv.leaf_vcf_nodes,
                           exact_root=exact, tt_bits=lv.tt_bits)
    pt, score = out["move"], out["score"]
    if exact and out["reason"] == "search" and out.get("root"):
        # pick among the moves close to the best, never a proven loss when
        # something better exists, never past a proven win
        root = out["root"]
        top = max(vl for _, vl in root)
        if -PROVEN_SCORE <= top <= PROVEN_SCORE:
            near = [(p, vl) for p, vl in root if vl >= top - lv.randomness]
            pt, score = (rng or random).choice(near)
    move = divmod(pt, board.size)
    return SearchResult(move, score, out["depth"], out["nodes"], out["time"], out["reason"])


def best_move(board: Board, level: Union[str, Level] = "normal", *,
              time_limit: Optional[float] = None,
              rng: Optional[random.Random] = None) -> Point:
    """The computer's move for the side to move: always an empty point.

    ``level`` is ``"easy"``, ``"normal"`` or ``"hard"`` (or a
    :class:`Level`); ``time_limit`` (seconds) overrides the level's time per
    move; ``rng`` supplies the randomness of the easier levels.  At every
    level it plays a five when it has one and blocks the opponent's four
    otherwise.  An empty board gets the centre.  Raises ValueError when the
    game is over.
    """
    return analyse(board, level, time_limit=time_limit, rng=rng).move
