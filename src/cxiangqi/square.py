"""Colours, piece types and squares.

A square is an int 0..89: ``rank * 9 + file``.  Files 0..8 are ``a``..``i``
from Red's left; rank 0 is Red's back rank and rank 9 Black's, as in ICCS
coordinates (``h2e2`` is the central cannon opening).

>>> square_name(E0), parse_square("h2"), square(7, 2)
('e0', 25, 25)
"""

from __future__ import annotations

from typing import List

__all__ = [
    "Color", "RED", "BLACK", "COLORS", "COLOR_NAMES",
    "PieceType", "KING", "ADVISOR", "ELEPHANT", "HORSE", "ROOK", "CANNON", "PAWN",
    "PIECE_TYPES", "PIECE_SYMBOLS", "PIECE_NAMES",
    "Square", "SQUARES", "SQUARE_NAMES", "FILE_NAMES", "RANK_NAMES",
    "square", "square_file", "square_rank", "square_name", "parse_square",
    "flip_horizontal", "flip_vertical",
]

Color = bool
RED: Color = True
BLACK: Color = False
COLORS: List[Color] = [RED, BLACK]
COLOR_NAMES: List[str] = ["black", "red"]

PieceType = int
KING: PieceType = 1
ADVISOR: PieceType = 2
ELEPHANT: PieceType = 3
HORSE: PieceType = 4
ROOK: PieceType = 5
CANNON: PieceType = 6
PAWN: PieceType = 7
PIECE_TYPES: List[PieceType] = [KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN]
PIECE_SYMBOLS = [None, "k", "a", "b", "n", "r", "c", "p"]
PIECE_NAMES = [None, "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"]

Square = int
FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
RANK_NAMES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
SQUARES: List[Square] = list(range(90))
SQUARE_NAMES: List[str] = [f + r for r in RANK_NAMES for f in FILE_NAMES]
_SQUARE_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}

# A0 = 0, B0 = 1, ..., I9 = 89
for _i, _name in enumerate(SQUARE_NAMES):
    globals()[_name.upper()] = _i
    __all__.append(_name.upper())
del _i, _name


def square(file_index: int, rank_index: int) -> Square:
    """The square on a file (0..8) and rank (0..9)."""
    if not (0 <= file_index < 9 and 0 <= rank_index < 10):
        raise ValueError(f"no square at file {file_index}, rank {rank_index}")
    return rank_index * 9 + file_index


def square_file(sq: Square) -> int:
    return sq % 9


def square_rank(sq: Square) -> int:
    return sq // 9


def square_name(sq: Square) -> str:
    """``"a0"``..``"i9"``."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """The square named ``name`` (``"e0"``, case-insensitive); ValueError if none."""
    try:
        return _SQUARE_BY_NAME[name.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"not a square name: {name!r} (expected a0..i9)") from None


def flip_horizontal(sq: Square) -> Square:
    """The square mirrored left to right (file a <-> i), for Board.transform.

    >>> square_name(flip_horizontal(parse_square("h2")))
    'b2'
    """
    return sq - sq % 9 + 8 - sq % 9


def flip_vertical(sq: Square) -> Square:
    """The square mirrored top to bottom (rank 0 <-> 9).  Board.mirror uses
    it and swaps the colours too (a board flipped without swapping them has
    each king outside its own palace)."""
    return (9 - sq // 9) * 9 + sq % 9
