"""Big game records built to size, for the memory tests (test_records_memory.py)
and benchmarks/reader_memory.py: PGN, XQF, DhtmlXQ and CBR of any length,
every move legal.

The moves cycle through four plies that bring back the start position
(h0g2 h9g7 g2h0 g7h9), so a record can be as long as wanted; every move has
one alternative (a variation), the shape that made the readers quadratic.
"""
from __future__ import annotations

import struct
from typing import List, Tuple

# (move, an alternative to it) for the four plies of the cycle
CYCLE: List[Tuple[str, str]] = [("h0g2", "b0c2"), ("h9g7", "b9c7"), ("g2h0", "b0c2"),
                                ("g7h9", "b9c7")]


def _sq(iccs_square: str) -> Tuple[int, int]:
    return "abcdefghi".index(iccs_square[0]), int(iccs_square[1])


# --- PGN -------------------------------------------------------------------------------

def pgn_with_variations(size: int) -> str:
    """A PGN game of about `size` characters: the cycle with a one-move
    variation after every move."""
    head = '[Game "Chinese Chess"]\n[Event "memory test"]\n\n'
    parts: List[str] = []
    n = len(head)
    ply = 0
    while n < size:
        move, alt = CYCLE[ply % 4]
        number = ply // 2 + 1
        if ply % 2 == 0:
            text = f"{number}. {move} ({number}. {alt}) "
        else:
            text = f"{move} ({number}... {alt}) "
        parts.append(text)
        n += len(text)
        ply += 1
    return head + "".join(parts) + "*\n"


def pgn_nested(size: int, depth: int = 50) -> str:
    """A PGN game of about `size` characters whose variations nest `depth`
    deep, over and over: ``1. h0g2 (1. b0c2 (1. b0c2 ...) ) h9g7 ...``."""
    head = '[Game "Chinese Chess"]\n\n'
    parts: List[str] = []
    n = len(head)
    ply = 0
    while n < size:
        move, alt = CYCLE[ply % 4]
        number = ply // 2 + 1
        dots = "." if ply % 2 == 0 else "..."
        nest = f"({number}{dots} {alt} " * depth + ")" * depth
        text = (f"{number}. {move} " if ply % 2 == 0 else f"{move} ") + nest + " "
        parts.append(text)
        n += len(text)
        ply += 1
    return head + "".join(parts) + "*\n"


# --- DhtmlXQ ----------------------------------------------------------------------------

def _dhtml_digits(iccs: str) -> str:
    (x1, r1), (x2, r2) = _sq(iccs[:2]), _sq(iccs[2:])
    return f"{x1}{9 - r1}{x2}{9 - r2}"


def dhtmlxq_with_variations(size: int) -> str:
    """A DhtmlXQ page of about `size` characters: a main line of half the
    size, and one-move variations (move_0_I_B tags) on its moves."""
    plies = max(4, size // 2 // 4)
    main = "".join(_dhtml_digits(CYCLE[p % 4][0]) for p in range(plies))
    tags = []
    n = len(main)
    p = 0
    while n < size and p < plies:
        tag = f"[DhtmlXQ_move_0_{p + 1}_{p + 1}]{_dhtml_digits(CYCLE[p % 4][1])}" \
              f"[/DhtmlXQ_move_0_{p + 1}_{p + 1}]"
        tags.append(tag)
        n += len(tag)
        p += 1
    return ("[DhtmlXQ][DhtmlXQ_title]memory test[/DhtmlXQ_title]"
            f"[DhtmlXQ_movelist]{main}[/DhtmlXQ_movelist]" + "".join(tags) + "[/DhtmlXQ]")


def dhtmlxq_main_line(size: int) -> str:
    """A DhtmlXQ page whose move list alone is about `size` characters."""
    plies = max(4, size // 4)
    main = "".join(_dhtml_digits(CYCLE[p % 4][0]) for p in range(plies))
    return f"[DhtmlXQ][DhtmlXQ_movelist]{main}[/DhtmlXQ_movelist][/DhtmlXQ]"


# --- XQF ----------------------------------------------------------------------------------

# the start position in XQF's order (R N B A K A B N R C C P P P P P per side)
_RED = "a0 b0 c0 d0 e0 f0 g0 h0 i0 b2 h2 a3 c3 e3 g3 i3".split()
_BLACK = "a9 b9 c9 d9 e9 f9 g9 h9 i9 b7 h7 a6 c6 e6 g6 i6".split()


def _xy(square: str) -> int:
    x, y = _sq(square)
    return x * 10 + y


def _xqf_record(move: str, has_next: bool, has_variation: bool) -> bytes:
    # version 10: from + 24, to + 32, flag (0xF0 next, 0x0F variation),
    # spare byte, then always a 4-byte comment length (0 here)
    flag = (0xF0 if has_next else 0) | (0x0F if has_variation else 0)
    return bytes((_xy(move[:2]) + 24, _xy(move[2:]) + 32, flag, 0)) + struct.pack("<i", 0)


def xqf_with_variations(size: int) -> bytes:
    """An XQF (version 10) file of about `size` bytes: the cycle, every
    move with a one-move alternative (which come after the main line, in
    XQF's depth-first order)."""
    header = bytearray(0x400)
    header[0:3] = b"XQ\x0a"
    header[0x10:0x30] = bytes(_xy(s) for s in _RED + _BLACK)
    plies = max(4, -(-(size - 0x400 - 8) // 16))
    body = [bytes((0, 0, 0xF0, 0)) + struct.pack("<i", 0)]        # record 0: the root
    for p in range(plies):
        body.append(_xqf_record(CYCLE[p % 4][0], p < plies - 1, True))
    for p in reversed(range(plies)):                              # the alternatives
        body.append(_xqf_record(CYCLE[p % 4][1], False, False))
    return bytes(header) + b"".join(body)


# --- CBR (CCBridge) -------------------------------------------------------------------

def _cbr_point(square: str) -> int:
    x, r = _sq(square)
    return (9 - r) * 9 + x          # row by row from Black's back rank


def _cbr_header() -> bytes:
    head = bytearray(2214)
    head[:16] = b"CCBridge Record\x00"
    board = bytearray(90)
    back = [1, 2, 3, 4, 5, 4, 3, 2, 1]          # R N B A K A B N R
    for col in range(9):
        board[col] = 0x20 + back[col]           # Black's back rank first
        board[81 + col] = 0x10 + back[col]
    for col in (1, 7):
        board[18 + col], board[63 + col] = 0x26, 0x16          # cannons
    for col in (0, 2, 4, 6, 8):
        board[27 + col], board[54 + col] = 0x27, 0x17          # pawns
    head[2112] = 1                              # Red moves first
    head[2120:2210] = board
    return bytes(head)


def cbr_with_variations(size: int) -> bytes:
    """A CBR record of about `size` bytes: the cycle, every move with a
    one-move alternative (flag 2: it follows the move's continuation, so
    the alternatives come after the main line, as in XQF)."""
    plies = max(4, -(-(size - 2214 - 8) // 8))
    body = [struct.pack("<i", 0)]               # no game comment
    for p in range(plies):
        move = CYCLE[p % 4][0]
        flag = 0x02 | (0x01 if p == plies - 1 else 0)
        body.append(bytes((flag, 0, _cbr_point(move[:2]), _cbr_point(move[2:]))))
    for p in reversed(range(plies)):
        alt = CYCLE[p % 4][1]
        body.append(bytes((0x01, 0, _cbr_point(alt[:2]), _cbr_point(alt[2:]))))
    return _cbr_header() + b"".join(body) + bytes(4)
