"""Moves, written in ICCS coordinates (``h2e2``)."""

from __future__ import annotations

from typing import Any, List

from .errors import InvalidMoveError
from .square import SQUARE_NAMES, Square

__all__ = ["Move"]

_FILES = "abcdefghi"
_RANKS = "0123456789"


class Move:
    """A move from one square to another; immutable and hashable.

    >>> m = Move.from_iccs("h2e2")
    >>> m.from_square, m.to_square, m.iccs()
    (25, 22, 'h2e2')
    """

    __slots__ = ("from_square", "to_square")

    from_square: Square
    to_square: Square

    def __init__(self, from_square: Square, to_square: Square) -> None:
        for sq in (from_square, to_square):
            if type(sq) is not int or not 0 <= sq < 90:
                raise InvalidMoveError(f"square {sq!r} is not on the board (expected an int 0..89)")
        if from_square == to_square:
            raise InvalidMoveError(f"a move must change square ({SQUARE_NAMES[from_square]} to itself)")
        object.__setattr__(self, "from_square", from_square)
        object.__setattr__(self, "to_square", to_square)

    @classmethod
    def from_iccs(cls, text: str) -> "Move":
        """Parses ``"h2e2"`` (case-insensitive).  InvalidMoveError when the text
        is not four characters file-rank-file-rank or names the same square twice."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"ICCS move must be a string, got {type(text).__name__}")
        s = text.lower()
        if (len(s) != 4 or s[0] not in _FILES or s[1] not in _RANKS
                or s[2] not in _FILES or s[3] not in _RANKS):
            shown = text if len(text) <= 20 else text[:20] + "..."
            raise InvalidMoveError(
                f"invalid ICCS move {shown!r}: expected file a-i, rank 0-9, file, rank (like 'h2e2')")
        a = _RANKS.index(s[1]) * 9 + _FILES.index(s[0])
        b = _RANKS.index(s[3]) * 9 + _FILES.index(s[2])
        if a == b:
            raise InvalidMoveError(f"invalid ICCS move {text!r}: from and to are the same square")
        return MOVES[a * 90 + b]

    def iccs(self) -> str:
        return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Move is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Move is immutable")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.from_square == other.from_square and self.to_square == other.to_square
        return NotImplemented

    def __hash__(self) -> int:
        return self.from_square * 90 + self.to_square

    def __reduce__(self) -> Any:
        return (Move, (self.from_square, self.to_square))

    def __str__(self) -> str:
        return self.iccs()

    def __repr__(self) -> str:
        return f"Move.from_iccs({self.iccs()!r})"


def _build_table() -> List[Move]:
    # every (from, to) pair once, so the board hands out shared Move objects
    # instead of building new ones for each generated move
    table: List[Move] = [None] * 8100  # type: ignore[list-item]
    new = object.__new__
    setattr_ = object.__setattr__
    for a in range(90):
        for b in range(90):
            if a != b:
                m = new(Move)
                setattr_(m, "from_square", a)
                setattr_(m, "to_square", b)
                table[a * 90 + b] = m
    return table


# MOVES[from * 90 + to]: the core reports moves in this encoding
MOVES: List[Move] = _build_table()
