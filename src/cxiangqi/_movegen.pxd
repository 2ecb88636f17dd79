# Move generation, attacks, check detection and perft.  See _movegen.pyx.

from cxiangqi._types cimport *
from cxiangqi._tables cimport PTYPE, HORSE_FROM, DIAG
from cxiangqi._position cimport Position

cdef enum:
    GEN_ALL = 0
    GEN_CAPTURES = 1        # only moves that take a piece
    GEN_QUIETS = 2          # only moves to an empty point

# Pseudo-legal moves of the side to move into mvs (MAX_MOVES long), of the
# kind asked for (GEN_ALL, GEN_CAPTURES, GEN_QUIETS); returns the count.
cdef int gen_moves(const Position *pos, int *mvs, int kind) noexcept nogil
# Legal moves (pseudo-legal moves that leave the own king safe and the kings
# not facing); returns the count.
cdef int gen_legal(Position *pos, int *mvs, bint captures_only) noexcept nogil
# Number of legal moves, without writing them (perft's last ply).
cdef int count_legal(Position *pos) noexcept nogil
# True when side's king is attacked, or faces the other king on an open file.
# A side without a king is never in check.
cdef bint in_check(const Position *pos, int side) noexcept nogil
# True when mv (pseudo-legal) does not leave the mover in check.
# True when a piece of `by` could capture on sq (the flying general is not
# an attack here); the fast test the search uses for "is it defended".
cdef bint square_attacked(const Position *pos, int sq, int by) noexcept nogil
cdef bint is_legal_pseudo(Position *pos, int mv) noexcept nogil
cdef bint is_pseudo_legal(const Position *pos, int mv) noexcept nogil
# Squares (mailbox) of the pieces of `side` that could capture on sq, written
# to out (at least 16 long); returns the count.  Flying general not included.
cdef int attackers_of(const Position *pos, int sq, int side, int *out) noexcept nogil
# Pieces giving check to side's king (flying general included); returns count.
cdef int checkers_of(const Position *pos, int side, int *out) noexcept nogil
cdef bint gives_check(Position *pos, int mv) noexcept nogil
# True when the piece pc of `side`, standing on s, could move to or capture on
# sq by its movement rule (legality aside).
cdef bint reaches(const u8 *b, int pc, int s, int sq, int side) noexcept nogil
# (stop: NULL, or a flag that abandons the count once set; see _sigint.pxd)
cdef u64 perft(Position *pos, int depth, const int *stop) noexcept nogil


# Which moves can leave the mover's own king attacked.  When the side to
# move is not in check, a move other than a king move can only expose its
# king by (a) uncovering a line from the king to an enemy rook, cannon or
# king, (b) putting a screen between the king and an enemy cannon, or (c)
# emptying the leg of an enemy horse.  (a) and (b) need the move's from- or
# to-square on the king's file or rank while such an enemy piece is on it;
# (c) needs the from-square on a diagonal neighbour of the king next to an
# enemy horse.  Every other move is legal without make/unmake: perft's last
# ply and the search test only the rest (perft(5) 2.40 s -> see README).
ctypedef struct KingGuard:
    bint every              # in check: test every move
    int ksq                 # 0: no king, nothing to test
    int kfile
    int krank
    bint hot_file
    bint hot_rank
    int legs[4]
    int nlegs


cdef inline void guard_init(const Position *pos, KingGuard *g, bint checked) noexcept nogil:
    cdef int side = pos.side
    cdef int opp = opp_tag(side)
    cdef int ksq = pos.pieces[side_tag(side)]
    cdef int pc, s, i
    g.every = checked
    g.ksq = ksq
    g.nlegs = 0
    g.hot_file = False
    g.hot_rank = False
    g.kfile = ksq & 15      # read only when hot_file / hot_rank are set below
    g.krank = ksq >> 4
    if ksq == 0 or checked:
        return
    for pc in range(opp + SLOT_ROOK, opp + SLOT_PAWN):     # rooks and cannons
        s = pos.pieces[pc]
        if s != 0:
            if (s & 15) == g.kfile:
                g.hot_file = True
            if (s >> 4) == g.krank:
                g.hot_rank = True
    s = pos.pieces[opp]                                   # the other king
    if s != 0 and (s & 15) == g.kfile:
        g.hot_file = True
    for i in range(4):
        pc = pos.board[ksq + HORSE_FROM[i][0]]
        s = pos.board[ksq + HORSE_FROM[i][1]]
        if ((pc & opp) and PTYPE[pc] == HORSE) or ((s & opp) and PTYPE[s] == HORSE):
            g.legs[g.nlegs] = ksq + DIAG[i]
            g.nlegs += 1


# True when mv (pseudo-legal) must be played to know whether it is legal.
cdef inline bint guard_needs_test(const KingGuard *g, int mv) noexcept nogil:
    if g.every:
        return True
    if g.ksq == 0:
        return False
    cdef int src = mv & 255
    cdef int dst = mv >> 8
    cdef int i
    if src == g.ksq:
        return True
    if g.hot_file and ((src & 15) == g.kfile or (dst & 15) == g.kfile):
        return True
    if g.hot_rank and ((src >> 4) == g.krank or (dst >> 4) == g.krank):
        return True
    for i in range(g.nlegs):
        if g.legs[i] == src:
            return True
    return False


# False when mv (pseudo-legal) certainly does not give check: checks come
# from the moved piece on the enemy king's file or rank (rook, cannon,
# pawn, the facing king) or a knight's jump away, or from a line or a horse
# leg the move opens or a screen it adds on the king's lines.  The search
# plays only the moves this lets through to see whether they check.
cdef inline bint may_give_check(const Position *pos, int mv) noexcept nogil:
    cdef int eksq = pos.pieces[opp_tag(pos.side)]
    if eksq == 0:
        return False
    cdef int src = mv & 255
    cdef int dst = mv >> 8
    if (src & 15) == (eksq & 15) or (src >> 4) == (eksq >> 4):
        return True
    if (dst & 15) == (eksq & 15) or (dst >> 4) == (eksq >> 4):
        return True
    cdef int d = src - eksq
    if d == 15 or d == 17 or d == -15 or d == -17:
        return True                 # leaves a horse leg next to the king
    if PTYPE[pos.board[src]] == HORSE:
        d = dst - eksq
        if d == 14 or d == 18 or d == 31 or d == 33 or d == -14 or d == -18 or d == -31 or d == -33:
            return True
    return False
