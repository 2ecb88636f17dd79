# Move generation, attacks, check detection and perft (declared in _movegen.pxd).
#
# Every function here reads a Position whose pieces sit on board points and
# whose padding holds OFF; the Python boundary (_core) guarantees that.  A ray
# or a jump from a board point always stops on a padding square inside the
# 256-entry array, so no bound check is needed.

from cxiangqi._types cimport *
from cxiangqi._sigint cimport cx_sigint_stopped
from cxiangqi._tables cimport (IN_BOARD, IN_PALACE, PTYPE, ORTH, DIAG, HORSE_JUMP,
                               HORSE_LEG_TO, Slide, RANK_SLIDE, FILE_SLIDE)
from cxiangqi._position cimport Position, Undo, make_move, unmake_move, place, unplace



# Writes the move sq -> to at mvs[n] whether or not it is wanted, and
# returns the count advanced by ok (0 or 1): whether a point holds a capture
# is a coin toss for the branch predictor, and a miss costs more than the
# store.  mvs has room for the extra store: no position has more than 119
# pseudo-legal moves (rooks and cannons 17 each, horses 8, king 4, advisors
# and elephants 4, pawns 3), MAX_MOVES is 128.
cdef inline int _put(int *mvs, int n, int sq, int to, bint ok) noexcept nogil:
    mvs[n] = sq | (to << 8)
    return n + ok


# Moves come out piece by piece in piece-id order (king, advisors,
# elephants, horses, rooks, cannons, pawns: the slots say the type, so no
# test of it), each piece's targets in a fixed order.
cdef int gen_moves(const Position *pos, int *mvs, int kind) noexcept nogil:
    cdef const u8 *b = pos.board
    cdef int own = side_tag(pos.side)
    cdef int opp = opp_tag(pos.side)
    cdef bint captures_only = kind == GEN_CAPTURES
    cdef bint quiets_only = kind == GEN_QUIETS
    # a target holding one of these bits is not a move: own piece or padding,
    # and for quiet moves an enemy piece too
    cdef int block = own | OFF | (opp if quiets_only else 0)
    # with captures_only, an empty target is not wanted either
    cdef int need = opp if captures_only else 0
    cdef int n = 0
    cdef int pc, sq, to, i, t, f, r, lo, hi, dn, up
    cdef const int *steps
    cdef const Slide *e
    cdef const Slide *g

    # king (orthogonal) and advisors (diagonal): one step inside the palace
    for pc in range(own + SLOT_KING, own + SLOT_ELEPHANT):
        sq = pos.pieces[pc]
        if sq != 0:
            steps = &ORTH[0] if pc == own + SLOT_KING else &DIAG[0]
            for i in range(4):
                to = sq + steps[i]
                t = b[to]
                n = _put(mvs, n, sq, to,
                         IN_PALACE[to] & ((t & block) == 0) & ((t & need) == need))
    # elephants: two diagonal steps, eye empty, never across the river (a
    # point off the board holds OFF, so `block` refuses it)
    for pc in range(own + SLOT_ELEPHANT, own + SLOT_HORSE):
        sq = pos.pieces[pc]
        if sq != 0:
            for i in range(4):
                to = sq + 2 * DIAG[i]
                t = b[to]
                n = _put(mvs, n, sq, to, (((to ^ sq) & 0x80) == 0) & (b[sq + DIAG[i]] == EMPTY)
                         & ((t & block) == 0) & ((t & need) == need))
    # horses: the two jumps over each empty leg
    for pc in range(own + SLOT_HORSE, own + SLOT_ROOK):
        sq = pos.pieces[pc]
        if sq != 0:
            for i in range(4):
                if b[sq + ORTH[i]] != EMPTY:
                    continue
                to = sq + HORSE_JUMP[2 * i]
                t = b[to]
                n = _put(mvs, n, sq, to, ((t & block) == 0) & ((t & need) == need))
                to = sq + HORSE_JUMP[2 * i + 1]
                t = b[to]
                n = _put(mvs, n, sq, to, ((t & block) == 0) & ((t & need) == need))
    # rooks and cannons: the empty points up to the first piece each way, then
    # the capture (a rook's first piece, a cannon's second)
    for pc in range(own + SLOT_ROOK, own + SLOT_PAWN):
        sq = pos.pieces[pc]
        if sq == 0:
            continue
        f = (sq & 15) - 3
        r = (sq >> 4) - 3
        e = &RANK_SLIDE[f][pos.rank_bits[r]]
        g = &FILE_SLIDE[r][pos.file_bits[f]]
        if not captures_only:
            for to in range(sq + (e.lo - f) + 1, sq):
                n = _put(mvs, n, sq, to, True)
            for to in range(sq + 1, sq + (e.hi - f)):
                n = _put(mvs, n, sq, to, True)
            for to in range(sq + ((g.lo - r) * 16) + 16, sq, 16):
                n = _put(mvs, n, sq, to, True)
            for to in range(sq + 16, sq + ((g.hi - r) * 16), 16):
                n = _put(mvs, n, sq, to, True)
        if quiets_only:
            continue
        if pc < own + SLOT_CANNON:
            lo, hi, dn, up = e.lo, e.hi, g.lo, g.hi
        else:
            lo, hi, dn, up = e.lo2, e.hi2, g.lo2, g.hi2
        # lo < 0 (or hi = 9, ...) means no piece that way: the point
        # computed is then a padding square, which holds no enemy tag
        to = sq + (lo - f)
        n = _put(mvs, n, sq, to, (lo >= 0) & ((b[to] & opp) != 0))
        to = sq + (hi - f)
        n = _put(mvs, n, sq, to, (hi < 9) & ((b[to] & opp) != 0))
        to = sq + ((dn - r) * 16)
        n = _put(mvs, n, sq, to, (dn >= 0) & ((b[to] & opp) != 0))
        to = sq + ((up - r) * 16)
        n = _put(mvs, n, sq, to, (up < 10) & ((b[to] & opp) != 0))
    # pawns: forward, and sideways once across the river
    cdef int fwd = pawn_forward(pos.side)
    for pc in range(own + SLOT_PAWN, own + SLOT_END):
        sq = pos.pieces[pc]
        if sq == 0:
            continue
        to = sq + fwd
        t = b[to]
        n = _put(mvs, n, sq, to, ((t & block) == 0) & ((t & need) == need))
        if not own_half(sq, pos.side):
            to = sq - 1
            t = b[to]
            n = _put(mvs, n, sq, to, ((t & block) == 0) & ((t & need) == need))
            to = sq + 1
            t = b[to]
            n = _put(mvs, n, sq, to, ((t & block) == 0) & ((t & need) == need))
    return n


# Does the piece on s see sq along a rank or file with `screens` pieces
# between (0: a rook's or the facing king's attack, 1: a cannon's)?  From
# sq's line mask: the first (second) piece from sq towards s must be s.
cdef inline bint _line_hits(const Position *pos, int sq, int s, int screens) noexcept nogil:
    cdef int f = (sq & 15) - 3
    cdef int r = (sq >> 4) - 3
    cdef int t, here
    cdef const Slide *e
    if (s & 15) == (sq & 15):
        e = &FILE_SLIDE[r][pos.file_bits[f]]
        t, here = (s >> 4) - 3, r
    elif (s >> 4) == (sq >> 4):
        e = &RANK_SLIDE[f][pos.rank_bits[r]]
        t, here = (s & 15) - 3, f
    else:
        return False
    if t > here:
        return t == (e.hi2 if screens else e.hi)
    return t == (e.lo2 if screens else e.lo)


# Is sq attacked by a horse, pawn, rook or cannon of side `by` (tag = its
# tag)?  With facing, the other king seen along a line counts as a rook: the
# flying general.  Shared by in_check (hot: every legality test) and
# square_attacked; inline, so neither pays a call.  Horses and sliders are
# tested from the attacker's side, by the piece list (at most two of each,
# and most are nowhere near sq): cheaper than looking around sq.
cdef inline bint _attacked_by_army(const Position *pos, int sq, int by, bint facing) noexcept nogil:
    cdef const u8 *b = pos.board
    cdef int tag = side_tag(by)
    cdef int i, d, s, pc, leg
    # 1. horses: sq a jump away with the jump's leg empty
    for i in range(SLOT_HORSE, SLOT_ROOK):
        s = pos.pieces[tag + i]
        if s != 0:
            leg = HORSE_LEG_TO[sq - s + 256]
            if leg != 0 and b[s + leg] == EMPTY:
                return True
    # 2. pawns: stepping forward onto sq, or sideways once across the river
    pc = b[sq - pawn_forward(by)]
    if (pc & tag) and PTYPE[pc] == PAWN:
        return True
    for d in range(-1, 2, 2):
        pc = b[sq + d]
        if (pc & tag) and PTYPE[pc] == PAWN and not own_half(sq + d, by):
            return True
    # 3. lines: a rook (or the facing king) first from sq, a cannon second
    for i in range(SLOT_ROOK, SLOT_PAWN):
        s = pos.pieces[tag + i]
        if s != 0 and _line_hits(pos, sq, s, i >= SLOT_CANNON):
            return True
    if facing:
        s = pos.pieces[tag]
        if s != 0 and _line_hits(pos, sq, s, 0):
            return True
    return False


cdef bint in_check(const Position *pos, int side) noexcept nogil:
    cdef int ksq = pos.pieces[side_tag(side)]
    if ksq == 0:
        return False
    # the enemy king and advisors never reach our palace, nor its elephants
    return _attacked_by_army(pos, ksq, side ^ 1, True)


cdef bint square_attacked(const Position *pos, int sq, int by) noexcept nogil:
    cdef const u8 *b = pos.board
    cdef int tag = side_tag(by)
    cdef int i, pc
    if _attacked_by_army(pos, sq, by, False):
        return True
    # king and advisors inside the palace, elephants on their own half
    if IN_PALACE[sq]:
        for i in range(4):
            pc = b[sq + ORTH[i]]
            if (pc & tag) and PTYPE[pc] == KING:
                return True
            pc = b[sq + DIAG[i]]
            if (pc & tag) and PTYPE[pc] == ADVISOR:
                return True
    if own_half(sq, by):
        for i in range(4):
            pc = b[sq + 2 * DIAG[i]]
            if (pc & tag) and PTYPE[pc] == ELEPHANT and b[sq + DIAG[i]] == EMPTY:
                return True
    return False


cdef bint is_legal_pseudo(Position *pos, int mv) noexcept nogil:
    cdef Undo u
    make_move(pos, mv, &u)
    cdef bint ok = not in_check(pos, pos.side ^ 1)
    unmake_move(pos, &u)
    return ok


cdef int gen_legal(Position *pos, int *mvs, bint captures_only) noexcept nogil:
    cdef int n = gen_moves(pos, mvs, captures_only)
    cdef int i, k = 0
    for i in range(n):
        if is_legal_pseudo(pos, mvs[i]):
            mvs[k] = mvs[i]
            k += 1
    return k


# Counts legal moves, testing only the moves that can expose the king (see
# KingGuard in _movegen.pxd).
cdef int count_legal(Position *pos) noexcept nogil:
    cdef int mvs[MAX_MOVES]
    cdef int n = gen_moves(pos, mvs, False)
    cdef KingGuard g
    guard_init(pos, &g, in_check(pos, pos.side))
    cdef int i, k = 0
    for i in range(n):
        if not guard_needs_test(&g, mvs[i]) or is_legal_pseudo(pos, mvs[i]):
            k += 1
    return k


# Pieces strictly between a and b, which share a rank or a file.
cdef int _between(const u8 *b, int a, int c) noexcept nogil:
    cdef int d
    if (a & 15) == (c & 15):
        d = 16 if c > a else -16
    else:
        d = 1 if c > a else -1
    cdef int n = 0
    a += d
    while a != c:
        if b[a] != EMPTY:
            n += 1
        a += d
    return n


# True when the piece pc of `side` on s could move to (or capture on) sq.
cdef bint reaches(const u8 *b, int pc, int s, int sq, int side) noexcept nogil:
    cdef int diff = sq - s
    cdef int pt = PTYPE[pc]
    cdef int i
    if pt == KING:
        return IN_PALACE[sq] and (diff == 1 or diff == -1 or diff == 16 or diff == -16)
    if pt == ADVISOR:
        return IN_PALACE[sq] and (diff == 17 or diff == -17 or diff == 15 or diff == -15)
    if pt == ELEPHANT:
        if not own_half(sq, side):
            return False
        for i in range(4):
            if diff == 2 * DIAG[i]:
                return b[s + DIAG[i]] == EMPTY
        return False
    if pt == HORSE:
        return HORSE_LEG_TO[diff + 256] != 0 and b[s + HORSE_LEG_TO[diff + 256]] == EMPTY
    if pt == PAWN:
        if diff == pawn_forward(side):
            return True
        return (diff == 1 or diff == -1) and not own_half(s, side)
    # rook and cannon: same rank or same file
    if (s & 15) != (sq & 15) and (s >> 4) != (sq >> 4):
        return False
    if pt == ROOK:
        return _between(b, s, sq) == 0
    return _between(b, s, sq) == 1


# Does mv follow the movement rules for the side to move?  One geometric
# test instead of generating every move (push from Python calls this once per
# move: it made the Python-level perft(3) walk ~1.6x faster).
cdef bint is_pseudo_legal(const Position *pos, int mv) noexcept nogil:
    cdef int src = mv & 255
    cdef int dst = mv >> 8
    cdef const u8 *b = pos.board
    cdef int pc = b[src]
    if src == dst or not (pc & side_tag(pos.side)) or (b[dst] & (side_tag(pos.side) | OFF)):
        return False
    if PTYPE[pc] == CANNON and b[dst] == EMPTY:
        if (src & 15) != (dst & 15) and (src >> 4) != (dst >> 4):
            return False
        return _between(b, src, dst) == 0
    return reaches(b, pc, src, dst, pos.side)


cdef int attackers_of(const Position *pos, int sq, int side, int *out) noexcept nogil:
    cdef int n = 0
    cdef int pc, s
    cdef int tag = side_tag(side)
    for pc in range(tag, tag + 16):
        s = pos.pieces[pc]
        if s != 0 and s != sq and reaches(pos.board, pc, s, sq, side):
            out[n] = s
            n += 1
    return n


cdef int checkers_of(const Position *pos, int side, int *out) noexcept nogil:
    cdef int ksq = pos.pieces[side_tag(side)]
    if ksq == 0:
        return 0
    cdef int n = attackers_of(pos, ksq, side ^ 1, out)
    cdef int other = pos.pieces[opp_tag(side)]
    cdef int i
    # flying general: the other king on the same file, nothing between
    if other != 0 and (other & 15) == (ksq & 15) and _between(pos.board, ksq, other) == 0:
        for i in range(n):
            if out[i] == other:
                return n
        out[n] = other
        n += 1
    return n


# The move is played on the board, piece list and line masks only (what
# in_check reads; no key, score or clocks) and taken back.
cdef bint gives_check(Position *pos, int mv) noexcept nogil:
    cdef int src = mv & 255
    cdef int dst = mv >> 8
    cdef int pc = pos.board[src]
    cdef int cap = pos.board[dst]
    place(pos, src, dst, pc, cap)
    cdef bint check = in_check(pos, pos.side ^ 1)
    unplace(pos, src, dst, pc, cap)
    return check


cdef u64 perft(Position *pos, int depth, const int *stop) noexcept nogil:
    if depth <= 0:
        return 1
    if depth == 1:
        return count_legal(pos)
    if stop != NULL and cx_sigint_stopped(stop):
        return 0                        # stopped: the count is abandoned
    cdef int mvs[MAX_MOVES]
    cdef int n = gen_moves(pos, mvs, False)
    cdef int i
    cdef u64 total = 0
    cdef Undo u
    for i in range(n):
        make_move(pos, mvs[i], &u)
        if not in_check(pos, pos.side ^ 1):
            total += perft(pos, depth - 1, stop)
        unmake_move(pos, &u)
    return total
