# Position set-up and hashing; make/unmake are inline in _position.pxd.

from cxiangqi._types cimport *
from cxiangqi._tables cimport IN_BOARD, KIND, PTYPE, ZOBRIST, ZOBRIST_SIDE, PST

cdef int[7] _FIRST_SLOT = [SLOT_KING, SLOT_ADVISOR, SLOT_ELEPHANT, SLOT_HORSE,
                           SLOT_ROOK, SLOT_CANNON, SLOT_PAWN]
cdef int[7] _END_SLOT = [SLOT_ADVISOR, SLOT_ELEPHANT, SLOT_HORSE, SLOT_ROOK,
                         SLOT_CANNON, SLOT_PAWN, SLOT_END]


cdef void pos_clear(Position *pos) noexcept nogil:
    cdef int sq
    for sq in range(256):
        pos.board[sq] = EMPTY if IN_BOARD[sq] else OFF
    for sq in range(48):
        pos.pieces[sq] = 0
    pos.side = RED
    pos.halfmove = 0
    pos.fullmove = 1
    pos.key = 0
    pos.vl[0] = 0
    pos.vl[1] = 0
    for sq in range(10):
        pos.rank_bits[sq] = 0
    for sq in range(9):
        pos.file_bits[sq] = 0


# Key from scratch: what the incremental updates in make_move must equal.
cdef u64 pos_compute_key(const Position *pos) noexcept nogil:
    cdef u64 key = ZOBRIST_SIDE if pos.side == BLACK else 0
    cdef int pc
    for pc in range(16, 48):
        if pos.pieces[pc] != 0:
            key ^= ZOBRIST[KIND[pc]][pos.pieces[pc]]
    return key


cdef int pos_compute_vl(const Position *pos, int side) noexcept nogil:
    cdef int vl = 0
    cdef int pc
    for pc in range(side_tag(side), side_tag(side) + 16):
        if pos.pieces[pc] != 0:
            vl += PST[KIND[pc]][pos.pieces[pc]]
    return vl


cdef int pos_add_piece(Position *pos, int sq, int side, int pt) noexcept nogil:
    cdef int pc = side_tag(side) + _FIRST_SLOT[pt]
    cdef int end = side_tag(side) + _END_SLOT[pt]
    while pc < end and pos.pieces[pc] != 0:
        pc += 1
    if pc == end:
        return 0
    pos.board[sq] = pc
    pos.pieces[pc] = sq
    occupy_flip(pos, sq)
    pos.key ^= ZOBRIST[KIND[pc]][sq]
    pos.vl[side] += PST[KIND[pc]][sq]
    return pc


cdef void pos_remove_piece(Position *pos, int sq) noexcept nogil:
    cdef int pc = pos.board[sq]
    if pc == EMPTY or pc == OFF:
        return
    pos.key ^= ZOBRIST[KIND[pc]][sq]
    pos.vl[KIND[pc] // 7] -= PST[KIND[pc]][sq]
    pos.pieces[pc] = 0
    pos.board[sq] = EMPTY
    occupy_flip(pos, sq)


cdef int pos_check(const Position *pos) noexcept nogil:
    cdef int sq, pc
    for sq in range(256):
        pc = pos.board[sq]
        if not IN_BOARD[sq]:
            if pc != OFF:
                return 1            # padding overwritten
        elif pc != EMPTY:
            if pc < 16 or pc >= 48 or pos.pieces[pc] != sq:
                return 2            # board names a piece the list does not put here
    for pc in range(48):
        sq = pos.pieces[pc]
        if sq != 0 and (pc < 16 or not IN_BOARD[sq] or pos.board[sq] != pc):
            return 3            # piece list points off the board or at another piece
    if pos.side != RED and pos.side != BLACK:
        return 4
    if pos.key != pos_compute_key(pos):
        return 5                # incremental key drifted
    if pos.vl[0] != pos_compute_vl(pos, 0) or pos.vl[1] != pos_compute_vl(pos, 1):
        return 6                # incremental evaluation drifted
    cdef int f, r, bit
    for r in range(10):
        for f in range(9):
            bit = pos.board[square_at(f, r)] != EMPTY
            if ((pos.rank_bits[r] >> f) & 1) != bit or ((pos.file_bits[f] >> r) & 1) != bit:
                return 7        # line masks disagree with the board
    return 0
