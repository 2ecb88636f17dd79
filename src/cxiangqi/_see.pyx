# Static exchange evaluation (declared in _see.pxd).
#
# Xiangqi's attacks depend on the pieces between (a cannon needs exactly one
# screen, a horse an empty leg), so instead of attack sets with x-rays this
# plays the exchange on a copy of the board: each side in turn takes with
# its least valuable attacker, found by looking outwards from the square,
# and the removed attackers open the lines and legs behind them.  Pins are
# ignored (as in most engines); the king takes last, and only when nothing
# can take it back.  Used for capture ordering, for pruning losing captures
# in the quiescence search and the main search (and, with the search's
# see_quiet switch, off by default, for pruning quiet moves that put a piece
# en prise near the horizon).

from libc.string cimport memcpy

from cxiangqi._types cimport *
from cxiangqi._tables cimport IN_PALACE, PTYPE, ORTH, DIAG, HORSE_FROM
from cxiangqi._position cimport Position, lines_of


cdef inline void vacate(u16 *rb, u16 *fb, int sq) noexcept nogil:
    rb[(sq >> 4) - 3] &= <u16> ~(1 << ((sq & 15) - 3))
    fb[(sq & 15) - 3] &= <u16> ~(1 << ((sq >> 4) - 3))

cdef inline void occupy(u16 *rb, u16 *fb, int sq) noexcept nogil:
    rb[(sq >> 4) - 3] |= <u16> (1 << ((sq & 15) - 3))
    fb[(sq & 15) - 3] |= <u16> (1 << ((sq >> 4) - 3))

SEE_VALUE[KING] = 5000
SEE_VALUE[ADVISOR] = 200
SEE_VALUE[ELEPHANT] = 200
SEE_VALUE[HORSE] = 400
SEE_VALUE[ROOK] = 900
SEE_VALUE[CANNON] = 450
SEE_VALUE[PAWN] = 100


# Square of the least valuable piece of `side` that can capture on sq in
# board b, or 0.  Order: pawn, advisor, elephant, horse, cannon, rook, king.
cdef int least_attacker(const u8 *b, const u16 *rb, const u16 *fb, int sq,
                        int side) noexcept nogil:
    cdef int tag = side_tag(side)
    cdef int i, d, s, pc
    # pawns: one step forward onto sq, or sideways once across the river
    s = sq - pawn_forward(side)
    pc = b[s]
    if (pc & tag) and PTYPE[pc] == PAWN:
        return s
    for d in range(-1, 2, 2):
        pc = b[sq + d]
        if (pc & tag) and PTYPE[pc] == PAWN and not own_half(sq + d, side):
            return sq + d
    if IN_PALACE[sq]:
        for i in range(4):
            pc = b[sq + DIAG[i]]
            if (pc & tag) and PTYPE[pc] == ADVISOR:
                return sq + DIAG[i]
    if own_half(sq, side):
        for i in range(4):
            s = sq + 2 * DIAG[i]
            if b[sq + DIAG[i]] == EMPTY:
                pc = b[s]
                if (pc & tag) and PTYPE[pc] == ELEPHANT:
                    return s
    for i in range(4):
        if b[sq + DIAG[i]] == EMPTY:
            s = sq + HORSE_FROM[i][0]
            pc = b[s]
            if (pc & tag) and PTYPE[pc] == HORSE:
                return s
            s = sq + HORSE_FROM[i][1]
            pc = b[s]
            if (pc & tag) and PTYPE[pc] == HORSE:
                return s
    # lines: the first piece seen may be a rook (remembered), the second a cannon
    cdef int rook = 0
    cdef int first[4]
    cdef int second[4]
    lines_of(rb, fb, sq, first, second)
    for i in range(4):
        pc = b[first[i]]
        if rook == 0 and (pc & tag) and PTYPE[pc] == ROOK:
            rook = first[i]
        pc = b[second[i]]
        if (pc & tag) and PTYPE[pc] == CANNON:
            return second[i]
    if rook:
        return rook
    if IN_PALACE[sq]:
        for i in range(4):
            pc = b[sq + ORTH[i]]
            if (pc & tag) and PTYPE[pc] == KING:
                return sq + ORTH[i]
    return 0


cdef bint see_ge(const Position *pos, int mv, int threshold) noexcept nogil:
    cdef int src = mv & 255
    cdef int dst = mv >> 8
    cdef int victim = pos.board[dst]
    # swap: what the side that just captured stands to win if the exchange
    # stopped now, less the threshold
    cdef int swap = (SEE_VALUE[PTYPE[victim]] if victim != EMPTY else 0) - threshold
    if swap < 0:
        return False
    swap = SEE_VALUE[PTYPE[pos.board[src]]] - swap
    if swap <= 0:
        return True                 # even losing the mover keeps the threshold
    cdef u8 b[256]
    cdef u16 rb[10]
    cdef u16 fb[9]
    memcpy(b, pos.board, 256)
    memcpy(rb, pos.rank_bits, sizeof(rb))
    memcpy(fb, pos.file_bits, sizeof(fb))
    b[dst] = b[src]
    b[src] = EMPTY
    vacate(rb, fb, src)
    if victim == EMPTY:
        occupy(rb, fb, dst)
    cdef int side = pos.side
    cdef int res = 1                # 1: the side to move reaches the threshold so far
    cdef int a
    while True:
        side ^= 1
        a = least_attacker(b, rb, fb, dst, side)
        if a == 0:
            break
        if PTYPE[b[a]] == KING:
            # the king may take only if nothing can take it back
            b[dst] = b[a]
            b[a] = EMPTY
            vacate(rb, fb, a)
            if least_attacker(b, rb, fb, dst, side ^ 1) != 0:
                break
            res ^= 1
            break
        res ^= 1
        swap = SEE_VALUE[PTYPE[b[a]]] - swap
        if swap < res:
            break
        b[dst] = b[a]
        b[a] = EMPTY
        vacate(rb, fb, a)
    return res != 0
