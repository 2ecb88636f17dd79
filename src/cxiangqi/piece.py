"""Pieces: a type and a colour."""

from __future__ import annotations

from dataclasses import dataclass

from .square import BLACK, PIECE_SYMBOLS, PIECE_TYPES, RED, Color, PieceType

__all__ = ["Piece"]

# simplified / traditional characters, indexed by piece type
_CHINESE = {
    RED: (None, "帅", "仕", "相", "马", "车", "炮", "兵"),
    BLACK: (None, "将", "士", "象", "马", "车", "炮", "卒"),
}
_CHINESE_TRADITIONAL = {
    RED: (None, "帥", "仕", "相", "傌", "俥", "炮", "兵"),
    BLACK: (None, "將", "士", "象", "馬", "車", "砲", "卒"),
}


@dataclass(frozen=True)
class Piece:
    """A piece type (KING..PAWN) and a colour (RED/BLACK).

    >>> Piece.from_symbol("R"), Piece(4, False).symbol()   # 4 = HORSE, False = BLACK
    (Piece.from_symbol('R'), 'n')
    """

    piece_type: PieceType
    color: Color

    def __post_init__(self) -> None:
        if self.piece_type not in PIECE_TYPES:
            raise ValueError(f"unknown piece type: {self.piece_type!r} (expected 1..7)")
        if self.color not in (RED, BLACK):
            raise ValueError(f"unknown colour: {self.color!r} (expected RED or BLACK)")

    def symbol(self) -> str:
        """FEN letter: upper case for Red (``K A B N R C P``), lower for Black."""
        s = PIECE_SYMBOLS[self.piece_type]
        return s.upper() if self.color == RED else s

    def chinese(self, traditional: bool = False) -> str:
        """The character on the piece: 帅仕相马车炮兵 / 将士象马车炮卒."""
        table = _CHINESE_TRADITIONAL if traditional else _CHINESE
        return table[self.color][self.piece_type]

    @classmethod
    def from_symbol(cls, symbol: str) -> "Piece":
        """The piece for a FEN letter; ValueError for anything else."""
        if not isinstance(symbol, str) or len(symbol) != 1 or symbol.lower() not in PIECE_SYMBOLS[1:]:
            raise ValueError(f"not a piece symbol: {symbol!r} (expected one of KABNRCP or kabnrcp)")
        return cls(PIECE_SYMBOLS.index(symbol.lower()), symbol.isupper())

    def __str__(self) -> str:
        return self.symbol()

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"
