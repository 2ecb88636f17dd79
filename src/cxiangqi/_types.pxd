# Types, enums and tiny inline helpers shared by every compiled module.
#
# Glossary of the short names used throughout the core
#   sq    a square of the 16x16 mailbox (0..255), see "Board layout" below
#   sq90  a square as Python sees it: rank * 9 + file (0..89, a0 = 0, i9 = 89)
#   pc    a piece id (16..47) as stored on the board, 0 for an empty square,
#         OFF for the padding around the board
#   pt    a piece type, KING..PAWN (0..6)
#   kind  side * 7 + pt (0..13): what the Zobrist keys are indexed by
#   side  0 = red, 1 = black
#   tag   16 for red, 32 for black: the bit every piece id of that side has
#   mv    a move: src | (dst << 8), both mailbox squares
#   mvs   a caller's buffer of moves (at least MAX_MOVES long)
#   vl    a value (evaluation), in centipawns
#
# Board layout (chosen by measurement, see _position.pxd): the 90 points sit in
# a 16x16 array, sq = (file + 3) + ((rank + 3) << 4), rank 0 = Red's back rank.
# The three-square padding holds OFF, so a rook ray or a horse jump from any
# point lands on a padding square before it can leave the array.
# The river splits the board at bit 0x80: rows 3..7 (ranks 0..4) are Red's
# half, so "sq is on its own side" is a single bit test.

from libc.stdint cimport int8_t, uint8_t, uint16_t, int32_t, uint64_t

# CX_DEBUG is 1 in a build made with CXIANGQI_DEBUG=1 (setup.py defines the
# C macro); code under `if CX_DEBUG:` is removed by the compiler otherwise.
cdef extern from *:
    """
    #ifdef CXIANGQI_DEBUG
    #define CX_DEBUG 1
    #else
    #define CX_DEBUG 0
    #endif
    #ifdef CXIANGQI_PGO
    #define CX_PGO 1
    #else
    #define CX_PGO 0
    #endif
    """
    const bint CX_DEBUG
    # 1 when compiled from a training run's profile (setup.py)
    const bint CX_PGO

ctypedef uint8_t u8
ctypedef uint16_t u16
ctypedef uint64_t u64

cdef enum:
    KING = 0
    ADVISOR = 1
    ELEPHANT = 2
    HORSE = 3
    ROOK = 4
    CANNON = 5
    PAWN = 6
    NO_PIECE_TYPE = 7

cdef enum:
    RED = 0
    BLACK = 1

cdef enum:
    EMPTY = 0
    OFF = 64            # padding around the board; has neither side's tag
    MAX_MOVES = 128     # more than any xiangqi position allows (max is ~110)
    MAX_GAME_PLIES = 4096


# Piece ids (XQWLight's scheme): tag + slot, slot 0 king, 1-2 advisors,
# 3-4 elephants, 5-6 horses, 7-8 rooks, 9-10 cannons, 11-15 pawns.
# The slots match the most pieces of each type a legal position can hold.
cdef enum:
    SLOT_KING = 0
    SLOT_ADVISOR = 1
    SLOT_ELEPHANT = 3
    SLOT_HORSE = 5
    SLOT_ROOK = 7
    SLOT_CANNON = 9
    SLOT_PAWN = 11
    SLOT_END = 16


cdef inline int side_tag(int side) noexcept nogil:
    return 16 + (side << 4)

cdef inline int opp_tag(int side) noexcept nogil:
    return 32 - (side << 4)

cdef inline int src_of(int mv) noexcept nogil:
    return mv & 255

cdef inline int dst_of(int mv) noexcept nogil:
    return mv >> 8

cdef inline int move_of(int src, int dst) noexcept nogil:
    return src | (dst << 8)

cdef inline int file_of(int sq) noexcept nogil:
    return (sq & 15) - 3

cdef inline int rank_of(int sq) noexcept nogil:
    return (sq >> 4) - 3

cdef inline int square_at(int file, int rank) noexcept nogil:
    return (file + 3) + ((rank + 3) << 4)

cdef inline bint own_half(int sq, int side) noexcept nogil:
    # True when sq is on `side`'s side of the river
    return ((sq & 0x80) != 0) == (side != 0)

cdef inline int pawn_forward(int side) noexcept nogil:
    return 16 - (side << 5)


# A packed evaluation term (Stockfish's Score): the opening value in the
# high 16 bits, the endgame value in the low 16, so one addition updates
# both.  Each half must stay within +-32767 in any sum we form.
cdef inline int make_score(int mg, int eg) noexcept nogil:
    return <int> ((<unsigned int> mg) << 16) + eg

cdef inline int eg_of(int s) noexcept nogil:
    return <int> (<short> (s & 0xffff))

cdef inline int mg_of(int s) noexcept nogil:
    return <int> (<short> (((<unsigned int> s) + 0x8000) >> 16))
