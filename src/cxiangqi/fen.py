"""Reading, checking and writing xiangqi FEN.

A FEN has six fields: ``<board> <side> - - <halfmove> <fullmove>``, e.g. the
start position ``rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR
w - - 0 1``.  The board lists ranks 9 down to 0; letters K A B N R C P (Red
upper case, Black lower case), digits 1-9 for empty points.  The side field
(``w`` Red, ``b`` Black) is required; the last four may be left off.

Besides the syntax, a position is checked for being reachable: one king a
side, no more pieces of a type than the game has, every piece on a point it
can reach (kings and advisors on their palace points, elephants on their
seven points, pawns not behind their starting rank nor off their files before
the river), and the side that is not to move not in check.
"""

from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple

from ._core import MAX_COUNTER
from .errors import InvalidFenError
from .piece import Piece
from .square import (ADVISOR, BLACK, ELEPHANT, KING, PAWN, PIECE_NAMES, RED, Color,
                     SQUARE_NAMES, Square, square_file, square_rank)

__all__ = ["STARTING_FEN", "STARTING_BOARD_FEN", "ParsedFen", "parse_fen", "check_position",
           "check_representable", "unrepresentable", "board_fen"]

STARTING_BOARD_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
STARTING_FEN = STARTING_BOARD_FEN + " w - - 0 1"

# A real FEN is under 100 characters; anything much longer is rejected
# before it is split, so a huge input costs no work.
MAX_FEN_LENGTH = 256
# MAX_COUNTER (from the core): the largest halfmove clock and fullmove number

MAX_COUNT = {KING: 1, ADVISOR: 2, ELEPHANT: 2, 4: 2, 5: 2, 6: 2, PAWN: 5}

_LETTERS = "kabnrcp"


def _points(names: str) -> frozenset:
    return frozenset(SQUARE_NAMES.index(n) for n in names.split())


_PALACE = {RED: _points("d0 e0 f0 d1 e1 f1 d2 e2 f2"),
           BLACK: _points("d7 e7 f7 d8 e8 f8 d9 e9 f9")}
_ADVISOR_POINTS = {RED: _points("d0 f0 e1 d2 f2"), BLACK: _points("d9 f9 e8 d7 f7")}
_ELEPHANT_POINTS = {RED: _points("c0 g0 a2 e2 i2 c4 g4"),
                    BLACK: _points("c9 g9 a7 e7 i7 c5 g5")}

_COLOR_NAME = {RED: "red", BLACK: "black"}


class ParsedFen(NamedTuple):
    placement: List[Tuple[Square, Piece]]
    turn: Color
    halfmove_clock: int
    fullmove_number: int


def _fail(fen: str, why: str) -> InvalidFenError:
    shown = fen if len(fen) <= 120 else fen[:100] + f"... ({len(fen)} characters)"
    return InvalidFenError(f"invalid FEN {shown!r}: {why}")


def _parse_board(fen: str, text: str) -> List[Tuple[Square, Piece]]:
    rows = text.split("/")
    if len(rows) != 10:
        raise _fail(fen, f"the board has {len(rows)} rows (ranks); a xiangqi board has 10")
    placement = []
    for i, row in enumerate(rows):
        rank = 9 - i
        where = f"row {i + 1} (rank {rank})"
        if not row:
            raise _fail(fen, f"{where} is empty")
        file = 0
        prev_digit = False
        for ch in row:
            if ch in "123456789":
                if prev_digit:
                    raise _fail(fen, f"{where} has two digits in a row ({row!r})")
                file += int(ch)
                prev_digit = True
            elif ch.lower() in _LETTERS and ch.isascii():
                if file < 9:
                    placement.append((rank * 9 + file, Piece.from_symbol(ch)))
                file += 1
                prev_digit = False
            elif ch == "0":
                raise _fail(fen, f"{where} contains the digit 0; empty points are counted 1-9")
            else:
                raise _fail(fen, f"{where} contains {ch!r}, which is not a piece letter "
                                 "(K A B N R C P for Red, k a b n r c p for Black) or a digit 1-9")
            if file > 9:
                raise _fail(fen, f"{where} ({row!r}) is longer than 9 files")
        if file != 9:
            raise _fail(fen, f"{where} ({row!r}) covers {file} files instead of 9")
    return placement


def _parse_counter(fen: str, text: str, name: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise _fail(fen, f"the {name} must be a non-negative integer, not {text!r}")
    value = int(text)
    if value > MAX_COUNTER:
        raise _fail(fen, f"the {name} {value} is out of range")
    return value


def parse_fen(fen: str) -> ParsedFen:
    """Splits and checks the syntax of a FEN (not yet the position itself:
    see check_position).  Raises InvalidFenError naming the problem."""
    if not isinstance(fen, str):
        raise InvalidFenError(f"a FEN must be a string, not {type(fen).__name__}")
    if len(fen) > MAX_FEN_LENGTH:
        raise _fail(fen, f"it is {len(fen)} characters long; a xiangqi FEN has at most "
                         f"{MAX_FEN_LENGTH}")
    fields = fen.split()
    if not fields:
        raise InvalidFenError("invalid FEN: the string is empty" if not fen
                              else "invalid FEN: the string holds only whitespace")
    if len(fields) == 1:
        raise _fail(fen, "the side to move is missing (add ' w' for Red or ' b' for Black)")
    if len(fields) > 6:
        raise _fail(fen, f"it has {len(fields)} fields; a FEN has at most 6 "
                         f"(unexpected {' '.join(fields[6:])!r})")
    placement = _parse_board(fen, fields[0])
    side = fields[1]
    if side not in ("w", "b"):
        hint = " (Red is 'w')" if side.lower() in ("r", "w") else ""
        raise _fail(fen, f"the side to move must be 'w' or 'b', not {side!r}{hint}")
    for i, name in ((2, "third"), (3, "fourth")):
        if len(fields) > i and fields[i] != "-":
            raise _fail(fen, f"the {name} field must be '-' (xiangqi has no castling or "
                             f"en passant), not {fields[i]!r}")
    halfmove = _parse_counter(fen, fields[4], "halfmove clock") if len(fields) > 4 else 0
    fullmove = _parse_counter(fen, fields[5], "fullmove number") if len(fields) > 5 else 1
    return ParsedFen(placement, side == "w", halfmove, max(fullmove, 1))


def _where(piece: Piece, sq: Square) -> str:
    return f"{_COLOR_NAME[piece.color]} {PIECE_NAMES[piece.piece_type]} on {SQUARE_NAMES[sq]}"


def unrepresentable(sq: Square, piece: Piece) -> Optional[str]:
    """Why the core cannot hold `piece` on `sq` consistently, or None.

    Even a board that need not be reachable in a game (``validate=False``,
    ``set_piece_at``) keeps kings and advisors in their own palace and
    elephants on their own side of the river: the move generator, the
    check test and the attack queries all assume so (a king outside its
    palace could face the other king along a rank; an elephant across the
    river moves by a rule the legality test does not share), and on such a
    board they would contradict each other.
    """
    pt, color = piece.piece_type, piece.color
    if pt in (KING, ADVISOR) and sq not in _PALACE[color]:
        return f"{_where(piece, sq)} is outside its palace"
    if pt == ELEPHANT:
        rank = square_rank(sq) if color == RED else 9 - square_rank(sq)
        if rank > 4:
            return f"{_where(piece, sq)} is across the river"
    return None


def check_representable(placement: List[Tuple[Square, Piece]]) -> None:
    """Raises InvalidFenError naming the first piece that no board can hold
    (see unrepresentable): what even ``validate=False`` refuses."""
    for sq, piece in placement:
        why = unrepresentable(sq, piece)
        if why is not None:
            raise InvalidFenError(f"not representable, even with validate=False: {why}")


def check_placement(placement: List[Tuple[Square, Piece]]) -> None:
    """Raises InvalidFenError (with a message naming the piece and square)
    unless the pieces could stand where they are in a real game."""
    counts = {}
    for sq, piece in placement:
        key = (piece.color, piece.piece_type)
        counts[key] = counts.get(key, 0) + 1
        pt, color = piece.piece_type, piece.color
        if pt == KING and sq not in _PALACE[color]:
            raise InvalidFenError(f"impossible position: {_where(piece, sq)} is outside its palace")
        if pt == ADVISOR and sq not in _ADVISOR_POINTS[color]:
            raise InvalidFenError(f"impossible position: {_where(piece, sq)} is not on one of "
                                  "the five advisor points of its palace")
        if pt == ELEPHANT and sq not in _ELEPHANT_POINTS[color]:
            raise InvalidFenError(f"impossible position: {_where(piece, sq)} is not on one of "
                                  "the seven elephant points of its side of the river")
        if pt == PAWN:
            rank = square_rank(sq) if color == RED else 9 - square_rank(sq)
            if rank < 3:
                raise InvalidFenError(f"impossible position: {_where(piece, sq)} is behind "
                                      "its starting rank (pawns never move backwards)")
            if rank < 5 and square_file(sq) % 2 == 1:
                raise InvalidFenError(f"impossible position: {_where(piece, sq)} is on a file no "
                                      "pawn starts on, before the river (pawns only move "
                                      "sideways after crossing)")
    for color in (RED, BLACK):
        if counts.get((color, KING), 0) == 0:
            raise InvalidFenError(f"impossible position: the {_COLOR_NAME[color]} king is missing")
        for pt, most in MAX_COUNT.items():
            n = counts.get((color, pt), 0)
            if n > most:
                raise InvalidFenError(
                    f"impossible position: {n} {_COLOR_NAME[color]} {PIECE_NAMES[pt]}s "
                    f"(a side has at most {most})")


def check_not_to_move_safe(core: object, turn: Color) -> None:
    """Raises InvalidFenError when the side that is not to move is in check
    (its king attacked, or the kings facing on an open file): the side to
    move could take the king."""
    other = BLACK if turn == RED else RED
    other_core = 0 if other == RED else 1
    if not core.in_check(other_core):  # type: ignore[attr-defined]
        return
    king = core.king(other_core)  # type: ignore[attr-defined]
    mover = core.king(1 - other_core)  # type: ignore[attr-defined]
    attackers = core.attackers(1 - other_core, king)  # type: ignore[attr-defined]
    name = _COLOR_NAME[other]
    if not attackers and mover is not None and square_file(mover) == square_file(king):
        raise InvalidFenError(
            f"impossible position: the kings face each other on the {'abcdefghi'[square_file(king)]}"
            f"-file with nothing between (flying general), and {_COLOR_NAME[turn]} is to move")
    kinds = core.kinds()  # type: ignore[attr-defined]
    by = ", ".join(f"{PIECE_NAMES[kinds[s] % 7 + 1]} on {SQUARE_NAMES[s]}" for s in attackers)
    raise InvalidFenError(
        f"impossible position: the {name} king on {SQUARE_NAMES[king]} is in check (from {by}) "
        f"but {_COLOR_NAME[turn]} is to move")


def check_position(core: object, placement: List[Tuple[Square, Piece]], turn: Color) -> None:
    """All the checks on a parsed position; `core` holds its pieces."""
    check_placement(placement)
    check_not_to_move_safe(core, turn)


def board_fen(kinds: bytes) -> str:
    """The board field from the core's 90 kinds (255 = empty)."""
    rows = []
    for rank in range(9, -1, -1):
        row = []
        empty = 0
        for k in kinds[rank * 9: rank * 9 + 9]:
            if k == 255:
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            row.append(_KIND_LETTERS[k])
        if empty:
            row.append(str(empty))
        rows.append("".join(row))
    return "/".join(rows)


_KIND_LETTERS = "KABNRCP" + "kabnrcp"
