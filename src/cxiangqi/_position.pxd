# The position: a 16x16 mailbox plus a piece list, make/unmake, Zobrist key.
#
# Why a mailbox and not 90-square bitboards (Pikafish): a 90-square set needs
# 128-bit words, and rook/cannon attacks then need magic or PEXT tables of
# several MB; xiangqi sliders are short (at most 9 squares) and most of the
# rules are geometric (leg, eye, palace, river), which the padded mailbox
# answers with one table look-up or one bit test.  Measured on this machine
# class (2 cores, gcc -O3): perft(5) from the start, 133,312,995 leaves, in
# the time reported in benchmarks/ (see README), against 1.8 s for Pikafish.
#
# make_move/unmake_move live here as inline functions because move generation
# and search call them at every node; a cross-module cdef call is an indirect
# call through a pointer table that the C compiler cannot inline.

from cxiangqi._types cimport *
from cxiangqi._tables cimport ZOBRIST, ZOBRIST_SIDE, KIND, PST, Slide, RANK_SLIDE, FILE_SLIDE


ctypedef struct Position:
    u8 board[256]       # piece id, EMPTY, or OFF on the padding
    u8 pieces[48]       # square of each piece id, 0 when captured/absent
    int side            # side to move
    int halfmove        # plies since the last capture (FEN field 5)
    int fullmove        # FEN field 6, incremented after Black's move
    u64 key             # Zobrist key of board + side to move
    int vl[2]           # sum of PST over each side's pieces: a packed Score (see _eval)
    u16 rank_bits[10]   # occupied files of each rank (bit = file), see Slide in _tables
    u16 file_bits[9]    # occupied ranks of each file (bit = rank)


ctypedef struct Undo:
    int mv
    int captured        # piece id taken by mv, or EMPTY
    int halfmove        # halfmove clock before mv
    u64 key             # key before mv
    int vl[2]           # vl before mv


cdef void pos_clear(Position *pos) noexcept nogil
cdef u64 pos_compute_key(const Position *pos) noexcept nogil
# vl[side] computed from scratch
cdef int pos_compute_vl(const Position *pos, int side) noexcept nogil
# Puts a piece of (side, pt) on sq using the next free id of that type.
# Returns the id, or 0 when all slots of that type are in use.
cdef int pos_add_piece(Position *pos, int sq, int side, int pt) noexcept nogil
cdef void pos_remove_piece(Position *pos, int sq) noexcept nogil
# 0 when the invariants every core function relies on hold (padding all OFF,
# board and piece list agree, key equals the one computed from scratch);
# otherwise a number naming the broken one.  Checked after every change
# from Python in a CXIANGQI_DEBUG build.
cdef int pos_check(const Position *pos) noexcept nogil


# Toggles sq (a board point) in the rank and file masks.
cdef inline void occupy_flip(Position *pos, int sq) noexcept nogil:
    cdef int f = (sq & 15) - 3
    cdef int r = (sq >> 4) - 3
    pos.rank_bits[r] ^= <u16> (1 << f)
    pos.file_bits[f] ^= <u16> (1 << r)


# The squares of the first and the second piece seen from sq along its rank
# and file, in the order left, right, down, up (0 where there is none), from
# the line masks rb (ranks) and fb (files): what a rook on sq would hit, and
# what a cannon on sq would take.
cdef inline void lines_of(const u16 *rb, const u16 *fb, int sq, int *first,
                          int *second) noexcept nogil:
    cdef int f = (sq & 15) - 3
    cdef int r = (sq >> 4) - 3
    cdef const Slide *e = &RANK_SLIDE[f][rb[r]]
    first[0] = sq + (e.lo - f) if e.lo >= 0 else 0
    second[0] = sq + (e.lo2 - f) if e.lo2 >= 0 else 0
    first[1] = sq + (e.hi - f) if e.hi < 9 else 0
    second[1] = sq + (e.hi2 - f) if e.hi2 < 9 else 0
    e = &FILE_SLIDE[r][fb[f]]
    first[2] = sq + ((e.lo - r) * 16) if e.lo >= 0 else 0
    second[2] = sq + ((e.lo2 - r) * 16) if e.lo2 >= 0 else 0
    first[3] = sq + ((e.hi - r) * 16) if e.hi < 10 else 0
    second[3] = sq + ((e.hi2 - r) * 16) if e.hi2 < 10 else 0


# The key pos would have after mv (what make_move sets), without playing it:
# lets the search prefetch the child's table bucket early.
cdef inline u64 key_after(const Position *pos, int mv) noexcept nogil:
    cdef int src = mv & 255
    cdef int dst = mv >> 8
    cdef int kind = KIND[pos.board[src]]
    cdef int cap = pos.board[dst]
    cdef u64 key = pos.key ^ ZOBRIST_SIDE ^ ZOBRIST[kind][src] ^ ZOBRIST[kind][dst]
    if cap != EMPTY:
        key ^= ZOBRIST[KIND[cap]][dst]
    return key


# The part of a move that the attack tests read: pc goes from src to dst
# on the board, in the piece list and in the line masks, taking cap (EMPTY:
# nothing); unplace takes it back.  make_move adds the key, the PST sums
# and the clocks; gives_check plays only this.
cdef inline void place(Position *pos, int src, int dst, int pc, int cap) noexcept nogil:
    pos.board[dst] = pc
    pos.board[src] = EMPTY
    pos.pieces[pc] = dst
    occupy_flip(pos, src)
    if cap != EMPTY:
        pos.pieces[cap] = 0
    else:
        occupy_flip(pos, dst)

cdef inline void unplace(Position *pos, int src, int dst, int pc, int cap) noexcept nogil:
    pos.board[src] = pc
    pos.board[dst] = cap
    pos.pieces[pc] = src
    occupy_flip(pos, src)
    if cap != EMPTY:
        pos.pieces[cap] = dst
    else:
        occupy_flip(pos, dst)


# Plays mv (assumed pseudo-legal for pos.side) and fills *u for unmake_move.
cdef inline void make_move(Position *pos, int mv, Undo *u) noexcept nogil:
    cdef int src = mv & 255
    cdef int dst = mv >> 8
    cdef int pc = pos.board[src]
    cdef int cap = pos.board[dst]
    u.mv = mv
    u.captured = cap
    u.halfmove = pos.halfmove
    u.key = pos.key
    u.vl[0] = pos.vl[0]
    u.vl[1] = pos.vl[1]
    cdef int kind = KIND[pc]
    cdef u64 key = pos.key ^ ZOBRIST_SIDE
    key ^= ZOBRIST[kind][src] ^ ZOBRIST[kind][dst]
    pos.vl[pos.side] += PST[kind][dst] - PST[kind][src]
    if cap != EMPTY:
        key ^= ZOBRIST[KIND[cap]][dst]
        pos.vl[pos.side ^ 1] -= PST[KIND[cap]][dst]
        pos.halfmove = 0
    else:
        pos.halfmove += 1
    place(pos, src, dst, pc, cap)
    pos.fullmove += pos.side        # after Black's move
    pos.side ^= 1
    pos.key = key


# Takes back the move recorded in *u (the last one made on pos).
cdef inline void unmake_move(Position *pos, const Undo *u) noexcept nogil:
    cdef int src = u.mv & 255
    cdef int dst = u.mv >> 8
    cdef int pc = pos.board[dst]
    pos.side ^= 1
    pos.fullmove -= pos.side
    unplace(pos, src, dst, pc, u.captured)
    pos.halfmove = u.halfmove
    pos.key = u.key
    pos.vl[0] = u.vl[0]
    pos.vl[1] = u.vl[1]


# Passes the move to the other side (a null move, for the search).
# The halfmove clock restarts, as after a capture: no repetition is looked
# for across a null move (nor could one be replayed).
cdef inline void make_null(Position *pos, Undo *u) noexcept nogil:
    u.mv = 0
    u.captured = EMPTY
    u.halfmove = pos.halfmove
    u.key = pos.key
    pos.key ^= ZOBRIST_SIDE
    pos.side ^= 1
    pos.halfmove = 0

cdef inline void unmake_null(Position *pos, const Undo *u) noexcept nogil:
    pos.side ^= 1
    pos.key = u.key
    pos.halfmove = u.halfmove
