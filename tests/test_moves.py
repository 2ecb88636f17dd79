"""Squares, moves (ICCS) and pieces."""
from __future__ import annotations

import dataclasses

import pytest

import cxiangqi
from cxiangqi import (ADVISOR, BLACK, CANNON, COLOR_NAMES, COLORS, ELEPHANT, HORSE,
                      KING, PAWN, PIECE_SYMBOLS, PIECE_TYPES, RED, ROOK, SQUARE_NAMES,
                      SQUARES, InvalidMoveError, Move, Piece, parse_square, square,
                      square_file, square_name, square_rank)

FILES = "abcdefghi"


# ------------------------------------------------------------------ squares

def test_constants():
    assert RED is True and BLACK is False
    assert COLORS == [RED, BLACK]
    assert COLOR_NAMES == ["black", "red"]
    assert COLOR_NAMES[int(RED)] == "red"
    assert (KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN) == (1, 2, 3, 4, 5, 6, 7)
    assert list(PIECE_TYPES) == [1, 2, 3, 4, 5, 6, 7]
    assert PIECE_SYMBOLS == [None, "k", "a", "b", "n", "r", "c", "p"]
    assert list(SQUARES) == list(range(90))
    assert len(SQUARE_NAMES) == 90


def test_all_squares_round_trip():
    for sq in range(90):
        file, rank = sq % 9, sq // 9
        name = f"{FILES[file]}{rank}"
        assert square(file, rank) == sq
        assert square_file(sq) == file
        assert square_rank(sq) == rank
        assert square_name(sq) == name
        assert SQUARE_NAMES[sq] == name
        assert parse_square(name) == sq
        assert parse_square(name.upper()) == sq
        assert getattr(cxiangqi, name.upper()) == sq


def test_named_square_constants():
    assert (cxiangqi.A0, cxiangqi.B0, cxiangqi.I0, cxiangqi.A1) == (0, 1, 8, 9)
    assert (cxiangqi.E0, cxiangqi.E9, cxiangqi.I9) == (4, 85, 89)
    assert cxiangqi.H2 == 25


@pytest.mark.parametrize("text", ["", "a", "j0", "a10", "0a", "e-1", "e 1", " e1", "e1 ",
                                  "ee", "11", "ａ0", "a٣", "e1e2"])
def test_parse_square_rejects(text):
    with pytest.raises(ValueError):
        parse_square(text)


# -------------------------------------------------------------------- moves

def test_all_moves_iccs_round_trip():
    seen = set()
    for a in range(90):
        for b in range(90):
            if a == b:
                continue
            move = Move(a, b)
            text = move.iccs()
            assert text == SQUARE_NAMES[a] + SQUARE_NAMES[b]
            assert str(move) == text
            assert Move.from_iccs(text) == move
            assert Move.from_iccs(text.upper()) == move
            assert (move.from_square, move.to_square) == (a, b)
            seen.add(move)
    assert len(seen) == 8010


def test_move_repr_round_trips():
    move = Move.from_iccs("h2e2")
    assert repr(move) == "Move.from_iccs('h2e2')"
    assert eval(repr(move), {"Move": Move}) == move
    for a, b in ((0, 89), (89, 0), (40, 41)):
        m = Move(a, b)
        assert eval(repr(m), {"Move": Move}) == m


MALFORMED = [
    "",            # empty
    "h2",          # too short
    "h2e",         # too short
    "h2e22",       # too long
    "h2e2x",       # trailing garbage
    "j2e2",        # file out of range
    "h2j2",
    "z9a0",
    "h2e10",       # rank 10 does not exist (pyffish numbering)
    "h10e2",
    "h2h2",        # null move
    "a0a0",
    "2he2",        # rank before file
    "h2-e2",       # separator
    "h2 e2",       # inner space
    " h2e2",       # surrounding whitespace
    "h2e2 ",
    "h2e2\n",
    "\th2e2",
    "h-1e2",
    "aa00",
    "0000",        # UCI null move
    "h２e２",      # full-width digits (str.isdigit() is True for them)
    "h٢e٢",        # Arabic-Indic digits
    "ｈ2e2",       # full-width letter
    "h2е2",        # Cyrillic 'е'
    "炮二平五",     # Chinese notation is not ICCS
    "C2=5",        # WXF is not ICCS
    "h2e2h2e2",
]


@pytest.mark.parametrize("text", MALFORMED, ids=[repr(t) for t in MALFORMED])
def test_from_iccs_malformed(text):
    with pytest.raises(InvalidMoveError) as excinfo:
        Move.from_iccs(text)
    assert isinstance(excinfo.value, ValueError)
    assert str(excinfo.value)


@pytest.mark.parametrize("value", [None, 42, b"h2e2", ("h2", "e2")], ids=repr)
def test_from_iccs_non_string(value):
    with pytest.raises((InvalidMoveError, TypeError)):
        Move.from_iccs(value)


@pytest.mark.parametrize("a,b", [(-1, 5), (5, -1), (90, 0), (0, 90), (5, 5), (0, 0), (89, 89), (1000, 3)])
def test_move_constructor_rejects_bad_squares(a, b):
    with pytest.raises(InvalidMoveError):
        Move(a, b)


def test_move_value_semantics():
    a = Move.from_iccs("h2e2")
    b = Move(cxiangqi.H2, cxiangqi.E2)
    c = Move.from_iccs("H2E2")
    assert a == b == c
    assert hash(a) == hash(b)
    assert a != Move.from_iccs("e2h2")
    assert a != "h2e2"
    assert len({a, b, c, Move.from_iccs("b2e2")}) == 2
    d = {a: 1}
    assert d[b] == 1


def test_move_is_immutable():
    move = Move.from_iccs("h2e2")
    with pytest.raises((AttributeError, TypeError)):
        move.from_square = 0
    with pytest.raises((AttributeError, TypeError)):
        move.to_square = 0
    assert move.iccs() == "h2e2"


# ------------------------------------------------------------------- pieces

CHINESE = {
    (KING, RED): ("帅", "帥"), (ADVISOR, RED): ("仕", "仕"), (ELEPHANT, RED): ("相", "相"),
    (HORSE, RED): ("马", "傌"), (ROOK, RED): ("车", "俥"), (CANNON, RED): ("炮", "炮"),
    (PAWN, RED): ("兵", "兵"),
    (KING, BLACK): ("将", "將"), (ADVISOR, BLACK): ("士", "士"), (ELEPHANT, BLACK): ("象", "象"),
    (HORSE, BLACK): ("马", "馬"), (ROOK, BLACK): ("车", "車"), (CANNON, BLACK): ("炮", "砲"),
    (PAWN, BLACK): ("卒", "卒"),
}


@pytest.mark.parametrize("piece_type,color", list(CHINESE), ids=[f"{t}-{c}" for t, c in CHINESE])
def test_piece(piece_type, color):
    piece = Piece(piece_type, color)
    assert piece.piece_type == piece_type
    assert piece.color is color
    symbol = PIECE_SYMBOLS[piece_type].upper() if color else PIECE_SYMBOLS[piece_type]
    assert piece.symbol() == symbol
    assert str(piece) == symbol
    assert Piece.from_symbol(symbol) == piece
    simplified, traditional = CHINESE[(piece_type, color)]
    assert piece.chinese() == simplified
    assert piece.chinese(traditional=True) == traditional
    assert Piece(piece_type, color) == piece
    assert hash(Piece(piece_type, color)) == hash(piece)
    with pytest.raises((AttributeError, TypeError)):
        piece.color = not color
    assert dataclasses.is_dataclass(piece)


def test_fourteen_distinct_pieces():
    pieces = {Piece(t, c) for t in PIECE_TYPES for c in COLORS}
    assert len(pieces) == 14
    assert {p.symbol() for p in pieces} == set("KABNRCPkabnrcp")


@pytest.mark.parametrize("symbol", ["", "x", "Q", "q", "h", "E", "KK", "1", "车", " k"])
def test_piece_from_symbol_rejects(symbol):
    with pytest.raises(ValueError):
        Piece.from_symbol(symbol)
