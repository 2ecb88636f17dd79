# Board geometry and Zobrist keys, declared in _tables.pxd.
#
# The Zobrist keys come from a fixed splitmix64 stream, so a position has the
# same key in every run and on every machine (opening books and test data can
# store them).

from cxiangqi._types cimport *


cdef u64 _seed = 0x5841494E47514921ULL   # "XIANGQI!"

cdef u64 _splitmix64() noexcept:
    global _seed
    _seed += 0x9E3779B97F4A7C15ULL
    cdef u64 z = _seed
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void _fill_slide(Slide *e, int i, int m, int length) noexcept:
    cdef int j = i - 1
    while j >= 0 and not (m >> j) & 1:
        j -= 1
    e.lo = j
    if j >= 0:
        j -= 1
        while j >= 0 and not (m >> j) & 1:
            j -= 1
    e.lo2 = j
    j = i + 1
    while j < length and not (m >> j) & 1:
        j += 1
    e.hi = j
    if j < length:
        j += 1
        while j < length and not (m >> j) & 1:
            j += 1
    e.hi2 = j


cdef void _init_slides() noexcept:
    cdef int i, m
    for i in range(9):
        for m in range(512):
            _fill_slide(&RANK_SLIDE[i][m], i, m, 9)
    for i in range(10):
        for m in range(1024):
            _fill_slide(&FILE_SLIDE[i][m], i, m, 10)


cdef void _init_tables() noexcept:
    cdef int sq, f, r, i, k, pc, slot, pt, kind
    for sq in range(256):
        IN_BOARD[sq] = 0
        IN_PALACE[sq] = 0
        SQ_TO_SQ90[sq] = -1
    for r in range(10):
        for f in range(9):
            sq = square_at(f, r)
            IN_BOARD[sq] = 1
            SQ90_TO_SQ[r * 9 + f] = sq
            SQ_TO_SQ90[sq] = r * 9 + f
            if 3 <= f <= 5 and (r <= 2 or r >= 7):
                IN_PALACE[sq] = 1

    for pc in range(128):
        PTYPE[pc] = NO_PIECE_TYPE
        KIND[pc] = 0
    for pc in range(16, 48):
        slot = pc & 15
        if slot < SLOT_ADVISOR:
            pt = KING
        elif slot < SLOT_ELEPHANT:
            pt = ADVISOR
        elif slot < SLOT_HORSE:
            pt = ELEPHANT
        elif slot < SLOT_ROOK:
            pt = HORSE
        elif slot < SLOT_CANNON:
            pt = ROOK
        elif slot < SLOT_PAWN:
            pt = CANNON
        else:
            pt = PAWN
        PTYPE[pc] = pt
        KIND[pc] = (pc >> 5) * 7 + pt     # ids 16..31 red, 32..47 black

    for i in range(512):
        HORSE_LEG_TO[i] = 0
    for i in range(8):
        HORSE_LEG_TO[256 + HORSE_JUMP[i]] = HORSE_LEG[i]

    _init_slides()

    for kind in range(14):
        for sq in range(256):
            ZOBRIST[kind][sq] = _splitmix64()
    global ZOBRIST_SIDE
    ZOBRIST_SIDE = _splitmix64()


_init_tables()
