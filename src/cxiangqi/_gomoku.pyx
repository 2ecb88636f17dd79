# Gomoku (五子棋) core: the board with incrementally kept line patterns, and
# a threat-aware alpha-beta search run without the GIL.
#
# 1. Patterns.  What a stone at a point makes along one line depends only on
#    the eight neighbours within four steps (a five through the point lies
#    inside them), so PAT[key] gives it for all 4^8 keys, computed once at
#    import from the definitions (see P_* in _gomoku.pxd).  Each point keeps
#    its four keys up to date: a stone changes the keys of at most 32 points
#    (four lines, four steps each way), so make/unmake re-reads only those.
# 2. Classes and scores.  From its four patterns an empty point gets, for
#    each side, a class (C_FIVE, C_FLEX4, C_43, C_FOUR, C_33, C_OPEN3) and a
#    score; the board keeps how many points of each class each side has and
#    the sum of the scores.  "Can I win now", "must I block", "does my
#    opponent threaten an open four" are then counter look-ups, and the
#    static evaluation is one subtraction.
# 3. Search.  Principal-variation alpha-beta over the empty points within two
#    steps of a stone, best first by threat score, with forced replies to
#    fours searched without using up depth, proven wins recognised from the
#    counters (an open four, a four-three, a double three with no four to
#    answer), a transposition table, iterative deepening under a time and
#    node budget, and a search for a win by continuous fours (VCF) at the
#    root and, optionally, at the horizon.

from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libc.stdint cimport uint8_t, int32_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from cxiangqi._sigint cimport sigint_catch, cx_sigint_release
from cxiangqi import _interrupt


# --- tables ------------------------------------------------------------------

# direction offsets on the 32-wide board: horizontal, vertical, diagonal, anti
cdef int[4] DIR = [1, 32, 33, 31]

# shift of a neighbour's 2 bits in a key, by its offset -4..4 (index k + 4)
cdef int[9] SHIFT = [0, 2, 4, 6, -1, 8, 10, 12, 14]

# what a stone makes along a line, by key (black's view; see view())
cdef u8 PAT[65536]

# score of one line pattern for the point's owner
cdef int32_t[9] PAT_VL = [0, 1, 2, 6, 15, 60, 120, 500, 100000]
# extra for the combined threat of the four lines
cdef int32_t[7] CLS_VL = [0, 0, 400, 0, 800, 1200, 0]

# 1 where a point lies on one of the four lines through another, at most
# four steps away: ON_LINE[q - sq + 160]
cdef u8 ON_LINE[321]

cdef inline bint on_line(int sq, int q) noexcept nogil:
    return -160 <= q - sq <= 160 and ON_LINE[q - sq + 160]

# Zobrist keys by side and point
cdef u64 ZOBRIST[2][NSQ]


# 1 when the 9 cells (centre at 4) hold five of 1 in a row through the centre
cdef bint cells_five(const int *c) noexcept nogil:
    cdef int j, k
    for j in range(5):
        for k in range(j, j + 5):
            if c[k] != 1:
                break
        else:
            return True
    return False


# PAT[key], filling the table on the way: a key's level follows from the
# levels of the keys with one more own stone (at most 8 levels of recursion).
cdef u8 pattern_of(int key) noexcept nogil:
    if PAT[key] != 255:
        return PAT[key]
    cdef int cells[9]
    cdef int i, j, sub, n5 = 0, best = -1
    for i in range(8):
        j = i if i < 4 else i + 1
        cells[j] = (key >> (2 * i)) & 3
    cells[4] = 1
    cdef u8 res
    if cells_five(cells):
        res = P_FIVE
    else:
        for i in range(8):
            if (key >> (2 * i)) & 3 == EMPTY:
                sub = pattern_of(key | (1 << (2 * i)))
                if sub == P_FIVE:
                    n5 += 1
                elif sub > best:
                    best = sub
        if n5 >= 2:
            res = P_OPEN4
        elif n5 == 1:
            res = P_FOUR
        elif best == P_OPEN4:
            res = P_OPEN3
        elif best == P_FOUR:
            res = P_THREE
        elif best == P_OPEN3:
            res = P_OPEN2
        elif best == P_THREE:
            res = P_TWO
        elif best == P_OPEN2 or best == P_TWO:
            res = P_ONE
        else:
            res = P_NONE
    PAT[key] = res
    return res


cdef void init_tables() noexcept nogil:
    cdef int key, d, k
    memset(PAT, 255, sizeof(PAT))
    for key in range(65536):
        pattern_of(key)
    memset(ON_LINE, 0, sizeof(ON_LINE))
    for d in range(4):
        for k in range(-4, 5):
            ON_LINE[k * DIR[d] + 160] = 1
    # splitmix64 with a fixed seed: the same keys in every process
    cdef u64 x = 0x9E3779B97F4A7C15ULL, z
    cdef int side, sq
    for side in range(2):
        for sq in range(NSQ):
            x += 0x9E3779B97F4A7C15ULL
            z = x
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
            ZOBRIST[side][sq] = z ^ (z >> 31)


init_tables()


# The key as `side` sees it: PAT is written for black (own stone = 1), so
# white swaps the two stone codes in every 2-bit field (OFF = 3 stays).
cdef inline int view(int key, int side) noexcept nogil:
    if side == 0:
        return key
    return ((key & 0x5555) << 1) | ((key & 0xAAAA) >> 1)


# --- the board -----------------------------------------------------------------

# Class and score of the empty point sq for both sides, from its four keys,
# kept in the board's counters; an occupied point gets C_NONE and 0.
cdef inline void refresh(GPos *p, int sq) noexcept nogil:
    cdef int side, d, pat, n5, n4o, n4, n3o, cls, vl
    for side in range(2):
        p.cnt[side][p.cls[side][sq]] -= 1
        p.total[side] -= p.vl[side][sq]
        if p.board[sq] != EMPTY:
            cls = C_NONE
            vl = 0
        else:
            n5 = n4o = n4 = n3o = 0
            vl = 0
            for d in range(4):
                pat = PAT[view(p.key[d][sq], side)]
                vl += PAT_VL[pat]
                if pat == P_FIVE:
                    n5 += 1
                elif pat == P_OPEN4:
                    n4o += 1
                elif pat == P_FOUR:
                    n4 += 1
                elif pat == P_OPEN3:
                    n3o += 1
            if n5:
                cls = C_FIVE
            elif n4o or n4 >= 2:
                cls = C_FLEX4
            elif n4 and n3o:
                cls = C_43
            elif n4:
                cls = C_FOUR
            elif n3o >= 2:
                cls = C_33
            elif n3o:
                cls = C_OPEN3
            else:
                cls = C_NONE
            vl += CLS_VL[cls]
        p.cls[side][sq] = cls
        p.vl[side][sq] = vl
        p.cnt[side][cls] += 1
        p.total[side] += vl


cdef void gpos_init(GPos *p, int size) noexcept nogil:
    memset(p, 0, sizeof(GPos))
    p.size = size
    cdef int r, c, d, k, sq, key, st
    for sq in range(NSQ):
        p.board[sq] = OFF
    for r in range(size):
        for c in range(size):
            p.board[sq_of(r, c)] = EMPTY
    for r in range(size):
        for c in range(size):
            sq = sq_of(r, c)
            for d in range(4):
                key = 0
                for k in range(-4, 5):
                    if k != 0:
                        st = p.board[sq + k * DIR[d]]
                        key |= st << SHIFT[k + 4]
                p.key[d][sq] = key
            # refresh() takes the old values off the counters first
            p.cnt[0][C_NONE] += 1
            p.cnt[1][C_NONE] += 1
            refresh(p, sq)


# Changes the keys of the points on the four lines through sq (at most four
# steps away) by stone code st (added when `put`, removed otherwise) and
# refreshes them.
cdef inline void update_lines(GPos *p, int sq, int st, bint put) noexcept nogil:
    cdef int d, k, q, dd
    for d in range(4):
        dd = DIR[d]
        for k in range(1, 5):
            # sq is k steps after q = sq - k*dd, and k steps before q = sq + k*dd
            q = sq - k * dd
            if p.board[q] != OFF:
                if put:
                    p.key[d][q] |= st << SHIFT[k + 4]
                else:
                    p.key[d][q] &= ~(3 << SHIFT[k + 4])
                if p.board[q] == EMPTY:
                    refresh(p, q)
            q = sq + k * dd
            if p.board[q] != OFF:
                if put:
                    p.key[d][q] |= st << SHIFT[4 - k]
                else:
                    p.key[d][q] &= ~(3 << SHIFT[4 - k])
                if p.board[q] == EMPTY:
                    refresh(p, q)


cdef void gpos_make(GPos *p, int sq) noexcept nogil:
    cdef int side = p.n & 1
    cdef int st = STONE + side
    cdef int dr, dc
    p.board[sq] = st
    refresh(p, sq)
    update_lines(p, sq, st, True)
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            p.near[sq + dr * 32 + dc] += 1
    p.hash ^= ZOBRIST[side][sq]
    p.stack[p.n] = sq
    p.n += 1


cdef void gpos_unmake(GPos *p) noexcept nogil:
    p.n -= 1
    cdef int sq = p.stack[p.n]
    cdef int side = p.n & 1
    cdef int dr, dc
    p.board[sq] = EMPTY
    update_lines(p, sq, STONE + side, False)
    refresh(p, sq)
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            p.near[sq + dr * 32 + dc] -= 1
    p.hash ^= ZOBRIST[side][sq]


cdef int gpos_run(const GPos *p, int sq, int d) noexcept nogil:
    cdef int st = p.board[sq]
    cdef int dd = DIR[d]
    cdef int n = 1
    cdef int q = sq + dd
    while p.board[q] == st:
        n += 1
        q += dd
    q = sq - dd
    while p.board[q] == st:
        n += 1
        q -= dd
    return n


cdef bint gpos_is_five(const GPos *p, int sq) noexcept nogil:
    cdef int d
    if p.board[sq] != STONE and p.board[sq] != STONE + 1:
        return False
    for d in range(4):
        if gpos_run(p, sq, d) >= 5:
            return True
    return False


# 1 when side can make a four (or five) with one stone
cdef inline bint has_four(const GPos *p, int side) noexcept nogil:
    return (p.cnt[side][C_FIVE] + p.cnt[side][C_FLEX4] + p.cnt[side][C_43]
            + p.cnt[side][C_FOUR]) > 0


# The first empty point (row by row) of class cls for side, or 0.
cdef int find_cls(const GPos *p, int side, int cls) noexcept nogil:
    cdef int r, c, sq
    for r in range(p.size):
        sq = sq_of(r, 0)
        for c in range(p.size):
            if p.board[sq + c] == EMPTY and p.cls[side][sq + c] == cls:
                return sq + c
    return 0


# The point on the four lines through sq (four steps each way) where side
# makes five, or 0: after side's four on sq, the opponent's only answer.
cdef int five_point_near(const GPos *p, int sq, int side) noexcept nogil:
    cdef int d, k, q
    for d in range(4):
        for k in range(-4, 5):
            q = sq + k * DIR[d]
            if p.board[q] == EMPTY and p.cls[side][q] == C_FIVE:
                return q
    return 0


# --- search --------------------------------------------------------------------

cdef enum:
    # how think() chose its move
    R_NONE = 0
    R_WIN = 1               # five now
    R_BLOCK = 2             # the opponent's only five point
    R_FLEX4 = 3             # open four or double four: wins
    R_VCF = 4               # first of a win by continuous fours
    R_ONLY = 5              # the only move that does not lose at once
    R_SEARCH = 6            # alpha-beta
    R_CENTER = 7            # empty board

cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint out_of_budget(Search *s) noexcept nogil:
    if s.stop:
        return True
    if (s.node_limit and s.nodes >= s.node_limit) or (s.deadline > 0 and now() >= s.deadline):
        s.stop = 1
    return s.stop != 0


# Static evaluation for the side to move: its threat scores less the
# opponent's, weighted for having the move.
cdef inline int evaluate(const GPos *p) noexcept nogil:
    cdef int side = p.n & 1
    return p.total[side] * 6 // 5 - p.total[side ^ 1]


# 1 when the side to move wins by continuous fours (each answered by the one
# forced block) within `depth` fours; the first four goes to s.vcf_sq.
cdef bint vcf(Search *s, int depth, int ply) noexcept nogil:
    cdef GPos *p = &s.pos
    cdef int side = p.n & 1
    cdef int opp = side ^ 1
    cdef int r, c, sq, q, b
    cdef bint won
    s.nodes += 1
    if s.nodes >= s.check_at:
        s.check_at = s.nodes + NODE_CHECK
        out_of_budget(s)
    s.vcf_left -= 1
    if s.vcf_left < 0 or s.stop:
        return False
    if p.cnt[side][C_FIVE]:
        if ply == 0:
            s.vcf_sq = find_cls(p, side, C_FIVE)
        return True
    q = 0
    if p.cnt[opp][C_FIVE]:
        # the opponent threatens five: the block must itself be a four
        if p.cnt[opp][C_FIVE] > 1:
            return False
        q = find_cls(p, opp, C_FIVE)
        if p.cls[side][q] < C_FOUR:
            return False
    elif p.cnt[side][C_FLEX4]:
        if ply == 0:
            s.vcf_sq = find_cls(p, side, C_FLEX4)
        return True
    if depth <= 0:
        return False
    for r in range(p.size):
        sq = sq_of(r, 0)
        for c in range(p.size):
            if q:
                if sq + c != q:
                    continue
            elif p.board[sq + c] != EMPTY or p.cls[side][sq + c] < C_FOUR:
                continue
            gpos_make(p, sq + c)
            if p.cnt[side][C_FIVE] >= 2:
                won = True
            else:
                b = five_point_near(p, sq + c, side)
                if b == 0:          # cannot happen: a four has its five point
                    gpos_unmake(p)
                    continue
                gpos_make(p, b)
                won = vcf(s, depth - 1, ply + 2)
                gpos_unmake(p)
            gpos_unmake(p)
            if won:
                if ply == 0:
                    s.vcf_sq = sq + c
                return True
            if s.vcf_left < 0 or s.stop:
                return False
    return False


# Move-ordering score of the empty point sq for the side to move: what it
# makes for itself plus most of what it takes from the opponent.  (Killer
# and history bonuses were tried and dropped: on 24 middle-game positions
# searched to depth 8 they cost 2.5x the nodes, because they push quiet
# points past threats within the node's width.)
cdef inline int order_score(const GPos *p, int sq, int side) noexcept nogil:
    return p.vl[side][sq] + p.vl[side ^ 1][sq] * 7 // 8


# Puts the best of vls[i:n] at i (selection sort, one step at a time: most
# nodes cut off after the first few moves).
cdef inline void pick(u16 *sqs, int *vls, int n, int i) noexcept nogil:
    cdef int j, best = i, t
    for j in range(i + 1, n):
        if vls[j] > vls[best]:
            best = j
    if best != i:
        t = sqs[i]; sqs[i] = sqs[best]; sqs[best] = t
        t = vls[i]; vls[i] = vls[best]; vls[best] = t


# The moves to search for the side to move, with ordering scores; returns
# their count.  If the opponent threatens an open four (or a double four),
# only moves that stop every such threat, and the side's own fours, are
# returned (0 when there is none: the side is lost).  Otherwise every empty
# point within two steps of a stone.
cdef int gen_moves(Search *s, u16 *sqs, int *vls, int tt_sq) noexcept nogil:
    cdef GPos *p = &s.pos
    cdef int side = p.n & 1
    cdef int opp = side ^ 1
    cdef int r, c, sq, n = 0, threat = 0, i, m
    for r in range(p.size):
        sq = sq_of(r, 0)
        for c in range(p.size):
            if p.board[sq + c] == EMPTY and p.near[sq + c]:
                sqs[n] = sq + c
                n += 1
    if p.cnt[opp][C_FLEX4]:
        threat = find_cls(p, opp, C_FLEX4)
        m = 0
        for i in range(n):
            sq = sqs[i]
            if p.cls[side][sq] >= C_FOUR:
                sqs[m] = sq
                m += 1
            elif on_line(sq, threat):
                gpos_make(p, sq)
                if p.cnt[opp][C_FLEX4] == 0 and p.cnt[opp][C_FIVE] == 0:
                    sqs[m] = sq
                    m += 1
                gpos_unmake(p)
        n = m
    for i in range(n):
        vls[i] = order_score(p, sqs[i], side)
        if sqs[i] == tt_sq:
            vls[i] = 1 << 30
    return n


cdef inline int tt_vl_in(int vl, int ply) noexcept nogil:
    if vl > WIN_MIN:
        return vl + ply
    if vl < -WIN_MIN:
        return vl - ply
    return vl

cdef inline int tt_vl_out(int vl, int ply) noexcept nogil:
    if vl > WIN_MIN:
        return vl - ply
    if vl < -WIN_MIN:
        return vl + ply
    return vl


# The proven results the threat counters give for the side to move, or 0:
# five now; the opponent has two five points; an open/double four; a
# four-three or double three with no four to answer it.  (A single
# opponent five point is a forced block, handled by the caller.)
cdef inline int threat_result(const GPos *p, int ply) noexcept nogil:
    cdef int side = p.n & 1
    cdef int opp = side ^ 1
    if p.cnt[side][C_FIVE]:
        return WIN - ply
    if p.cnt[opp][C_FIVE] >= 2:
        return -(WIN - ply - 1)
    if p.cnt[opp][C_FIVE]:
        return 0
    if p.cnt[side][C_FLEX4]:
        return WIN - ply - 2
    if (p.cnt[side][C_43] or p.cnt[side][C_33]) and not has_four(p, opp):
        return WIN - ply - 4
    return 0


# Principal-variation alpha-beta; the score is the side to move's.
cdef int search(Search *s, int depth, int alpha, int beta, int ply) noexcept nogil:
    cdef GPos *p = &s.pos
    cdef int side = p.n & 1
    cdef int opp = side ^ 1
    cdef int vl, best, i, n, sq, best_sq = 0, tt_sq = 0, flag, alpha0 = alpha
    cdef u16 sqs[MAX_STONES]
    cdef int vls[MAX_STONES]
    cdef TTEntry *e

    # 1. budget
    s.nodes += 1
    if s.nodes >= s.check_at:
        s.check_at = s.nodes + NODE_CHECK
        out_of_budget(s)
    if s.stop:
        return 0

    # 2. results the threat counters prove; a full board is a draw
    vl = threat_result(p, ply)
    if vl:
        return vl
    if p.n >= p.size * p.size:
        return 0

    # 3. one opponent five point: the block is forced and costs no depth
    if p.cnt[opp][C_FIVE]:
        if ply >= MAX_PLY - 1:
            return evaluate(p)
        sq = find_cls(p, opp, C_FIVE)
        gpos_make(p, sq)
        vl = -search(s, depth, -beta, -alpha, ply + 1)
        gpos_unmake(p)
        return vl

    # 4. horizon: a threat search for the side to move, then the evaluation
    if depth <= 0 or ply >= MAX_PLY - 2:
        if s.leaf_vcf and has_four(p, side):
            s.vcf_left = s.leaf_vcf_nodes
            if vcf(s, s.leaf_vcf, 1):
                return WIN - ply - 2 * s.leaf_vcf
        return evaluate(p)

    # 5. transposition table
    e = &s.tt[p.hash & s.tt_mask]
    if e.key == p.hash:
        tt_sq = e.sq
        if e.depth >= depth:
            vl = tt_vl_out(e.vl, ply)
            if (e.flag == TT_EXACT or (e.flag == TT_LOWER and vl >= beta)
                    or (e.flag == TT_UPPER and vl <= alpha)):
                return vl

    # 6. moves: threat answers only, or the best `width` near the stones
    n = gen_moves(s, sqs, vls, tt_sq)
    if n == 0:
        # nothing stops the opponent's open four
        return -(WIN - ply - 3)
    if not p.cnt[opp][C_FLEX4] and n > s.width:
        for i in range(s.width):
            pick(sqs, vls, n, i)
        n = s.width

    # 7. principal-variation search
    best = -INF
    for i in range(n):
        pick(sqs, vls, n, i)
        sq = sqs[i]
        gpos_make(p, sq)
        if i == 0:
            vl = -search(s, depth - 1, -beta, -alpha, ply + 1)
        else:
            vl = -search(s, depth - 1, -alpha - 1, -alpha, ply + 1)
            if vl > alpha and vl < beta:
                vl = -search(s, depth - 1, -beta, -alpha, ply + 1)
        gpos_unmake(p)
        if s.stop:
            return 0
        if vl > best:
            best = vl
            best_sq = sq
        if vl > alpha:
            alpha = vl
            if vl >= beta:
                break

    # 8. store
    if best >= beta:
        flag = TT_LOWER
    elif best > alpha0:
        flag = TT_EXACT
    else:
        flag = TT_UPPER
    e.key = p.hash
    e.vl = tt_vl_in(best, ply)
    e.sq = best_sq
    e.depth = depth if depth < 255 else 255
    e.flag = flag
    return best


# One iteration over the root moves (kept in s.root_sq, best first).
cdef int search_root(Search *s, int depth) noexcept nogil:
    cdef GPos *p = &s.pos
    cdef int alpha = -INF, beta = INF, best = -INF, vl, i, k, sq
    for i in range(s.n_root):
        sq = s.root_sq[i]
        gpos_make(p, sq)
        if s.exact_root or i == 0:
            vl = -search(s, depth - 1, -INF, INF, 1)
        else:
            vl = -search(s, depth - 1, -alpha - 1, -alpha, 1)
            if vl > alpha:
                vl = -search(s, depth - 1, -beta, -alpha, 1)
        gpos_unmake(p)
        if s.stop:
            break
        s.root_vl[i] = vl
        if vl > best:
            best = vl
            s.best_sq = sq
            s.best_vl = vl
            # move it to the front for the next iteration
            for k in range(i, 0, -1):
                s.root_sq[k] = s.root_sq[k - 1]
                s.root_vl[k] = s.root_vl[k - 1]
            s.root_sq[0] = sq
            s.root_vl[0] = vl
        if vl > alpha:
            alpha = vl
    return best


# Chooses the move for the side to move into s.best_sq (s.reason says how).
# Assumes the game is not over and the board is not full.
cdef void think(Search *s) noexcept nogil:
    cdef GPos *p = &s.pos
    cdef int side = p.n & 1
    cdef int opp = side ^ 1
    cdef int i, n, d, vl
    cdef int vls[MAX_STONES]
    s.best_vl = 0
    s.depth_done = 0
    s.n_root = 0
    # 1. the shortcuts: a five, the block of the opponent's five, a winning four
    if p.n == 0:
        s.best_sq = sq_of(p.size // 2, p.size // 2)
        s.reason = R_CENTER
        return
    if p.cnt[side][C_FIVE]:
        s.best_sq = find_cls(p, side, C_FIVE)
        s.best_vl = WIN
        s.reason = R_WIN
        return
    if p.cnt[opp][C_FIVE]:
        s.best_sq = find_cls(p, opp, C_FIVE)
        s.best_vl = -WIN if p.cnt[opp][C_FIVE] > 1 else 0
        s.reason = R_BLOCK
        return
    if p.cnt[side][C_FLEX4]:
        s.best_sq = find_cls(p, side, C_FLEX4)
        s.best_vl = WIN - 2
        s.reason = R_FLEX4
        return
    # 2. a win by continuous fours
    if s.vcf_depth and has_four(p, side):
        s.vcf_left = s.vcf_nodes
        if vcf(s, s.vcf_depth, 0):
            s.best_sq = s.vcf_sq
            s.best_vl = WIN - 3
            s.reason = R_VCF
            return
    # 3. the root moves, best first
    n = gen_moves(s, s.root_sq, vls, 0)
    if n == 0:
        # lost whatever we do: block the first open-four point
        s.best_sq = find_cls(p, opp, C_FLEX4)
        s.best_vl = -(WIN - 3)
        s.reason = R_ONLY
        return
    for i in range(n):
        pick(s.root_sq, vls, n, i)
    if not p.cnt[opp][C_FLEX4] and n > s.root_width:
        n = s.root_width
    s.n_root = n
    s.best_sq = s.root_sq[0]
    s.reason = R_SEARCH if n > 1 else R_ONLY
    if n == 1 and not s.exact_root:
        return
    # 4. iterative deepening
    for d in range(1, s.max_depth + 1):
        vl = search_root(s, d)
        if s.stop:
            break
        s.depth_done = d
        if vl > WIN_MIN or vl < -WIN_MIN:
            break


# --- the Python shell ----------------------------------------------------------

cdef class Position:
    """A gomoku board for the Python API (cxiangqi.gomoku.Board).  Private.

    Points are Python points, row * size + col.  Every argument is checked
    here; past this class the core trusts its inputs.
    """

    cdef GPos *p

    def __cinit__(self, int size=15):
        if size < MIN_SIZE or size > MAX_SIZE:
            raise ValueError(f"board size must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
        self.p = <GPos *> calloc(1, sizeof(GPos))
        if self.p == NULL:
            raise MemoryError()
        gpos_init(self.p, size)

    def __dealloc__(self):
        free(self.p)

    cdef int _sq(self, int pt) except -1:
        if pt < 0 or pt >= self.p.size * self.p.size:
            raise ValueError(f"point {pt} is not on the {self.p.size}x{self.p.size} board")
        return sq_of(pt // self.p.size, pt % self.p.size)

    cdef int _pt(self, int sq):
        return row_of(sq) * self.p.size + col_of(sq)

    @property
    def size(self):
        return self.p.size

    @property
    def count(self):
        """Stones on the board."""
        return self.p.n

    def stone_at(self, int pt):
        """0 for an empty point, 1 black, 2 white."""
        return self.p.board[self._sq(pt)]

    def push(self, int pt):
        """Puts the side to move's stone on the empty point pt; returns True
        when it makes five or more in a row."""
        cdef int sq = self._sq(pt)
        if self.p.board[sq] != EMPTY:
            raise ValueError(f"point {pt} is occupied")
        gpos_make(self.p, sq)
        return gpos_is_five(self.p, sq)

    def pop(self):
        """Takes back the last stone; returns its point."""
        if self.p.n == 0:
            raise IndexError("pop from an empty board")
        cdef int sq = self.p.stack[self.p.n - 1]
        gpos_unmake(self.p)
        return self._pt(sq)

    def moves(self):
        """The points played, in order."""
        return [self._pt(self.p.stack[i]) for i in range(self.p.n)]

    def run(self, int pt, int d):
        """The points of the unbroken line through the stone on pt along
        direction d (0 horizontal, 1 vertical, 2 diagonal, 3 anti-diagonal),
        from one end to the other; [] for an empty point."""
        cdef int sq = self._sq(pt)
        if d < 0 or d > 3:
            raise ValueError(f"direction must be 0..3, got {d}")
        cdef int st = self.p.board[sq]
        if st == EMPTY:
            return []
        cdef int dd = DIR[d], q = sq
        while self.p.board[q - dd] == st:
            q -= dd
        cdef list out = []
        while self.p.board[q] == st:
            out.append(self._pt(q))
            q += dd
        return out

    def is_five(self, int pt):
        """True when the stone on pt is in five or more in a row."""
        return gpos_is_five(self.p, self._sq(pt))

    def copy(self):
        cdef Position other = Position(self.p.size)
        other.p[0] = self.p[0]
        return other

    def hash(self):
        return self.p.hash

    def point_class(self, int pt, int side):
        """What a stone of side (0 black, 1 white) on the empty point pt
        makes: 0 nothing special, 1 open three, 2 double three, 3 four,
        4 four-three, 5 open or double four, 6 five."""
        cdef int sq = self._sq(pt)
        if side != 0 and side != 1:
            raise ValueError(f"side must be 0 or 1, got {side}")
        return self.p.cls[side][sq]

    def line_patterns(self, int pt, int side):
        """The pattern a stone of side on pt makes along each direction
        (0 none, 1 one, 2 two, 3 open two, 4 three, 5 open three, 6 four,
        7 open four, 8 five)."""
        cdef int sq = self._sq(pt)
        if side != 0 and side != 1:
            raise ValueError(f"side must be 0 or 1, got {side}")
        return [PAT[view(self.p.key[d][sq], side)] for d in range(4)]

    def threat_counts(self, int side):
        """Empty points of each class for side, as a list indexed by class."""
        if side != 0 and side != 1:
            raise ValueError(f"side must be 0 or 1, got {side}")
        return [self.p.cnt[side][c] for c in range(N_CLS)]

    def evaluate(self):
        """Static evaluation for the side to move."""
        return evaluate(self.p)

    def think(self, int max_depth=4, int width=12, int root_width=20,
              double time_limit=0.0, unsigned long long node_limit=0,
              int vcf_depth=0, int leaf_vcf=0, long vcf_nodes=20000, long leaf_vcf_nodes=200,
              bint exact_root=False, int tt_bits=16):
        """Searches the position; returns a dict with the move (a point),
        its score, the depth completed, the nodes searched, how the move
        was chosen, and (with exact_root) every root move's score.
        The GIL is released throughout the search."""
        if self.p.n >= self.p.size * self.p.size:
            raise ValueError("the board is full")
        if max_depth < 1 or max_depth > MAX_PLY - 4:
            raise ValueError(f"max_depth must be 1..{MAX_PLY - 4}")
        if width < 1 or root_width < 1:
            raise ValueError("width and root_width must be positive")
        if vcf_depth < 0 or vcf_depth > 30 or leaf_vcf < 0 or leaf_vcf > 30:
            raise ValueError("vcf depths must be 0..30")
        if tt_bits < 10 or tt_bits > 24:
            raise ValueError("tt_bits must be 10..24")
        if time_limit < 0:
            raise ValueError("time_limit must not be negative")
        cdef Search *s = <Search *> calloc(1, sizeof(Search))
        if s == NULL:
            raise MemoryError()
        s.tt = <TTEntry *> calloc((<size_t> 1) << tt_bits, sizeof(TTEntry))
        if s.tt == NULL:
            free(s)
            raise MemoryError()
        s.tt_mask = ((<u64> 1) << tt_bits) - 1
        s.pos = self.p[0]
        s.max_depth = max_depth
        s.width = width
        s.root_width = root_width
        s.node_limit = node_limit
        s.vcf_depth = vcf_depth
        s.leaf_vcf = leaf_vcf
        s.vcf_nodes = vcf_nodes
        s.leaf_vcf_nodes = leaf_vcf_nodes
        s.exact_root = exact_root
        cdef double t0 = 0.0
        cdef bint caught = False
        cdef dict out
        try:
            # in the main thread, Ctrl-C stops the search (see _sigint.pxd)
            caught = sigint_catch(&s.stop, _interrupt.catchable())
            with nogil:
                t0 = now()
                s.deadline = t0 + time_limit if time_limit > 0 else 0.0
                think(s)
            if caught:
                caught = False
                if cx_sigint_release():
                    _interrupt.deliver()
            out = {
                "move": self._pt(s.best_sq),
                "score": s.best_vl,
                "depth": s.depth_done,
                "nodes": s.nodes,
                "reason": ["none", "win", "block", "four", "vcf", "only", "search",
                           "center"][s.reason],
                "time": now() - t0,
            }
            if exact_root:
                out["root"] = [(self._pt(s.root_sq[i]), s.root_vl[i]) for i in range(s.n_root)]
            return out
        finally:
            if caught:
                cx_sigint_release()
            free(s.tt)
            free(s)


MIN_BOARD_SIZE = MIN_SIZE
MAX_BOARD_SIZE = MAX_SIZE
WIN_SCORE = WIN
PROVEN_SCORE = WIN_MIN
