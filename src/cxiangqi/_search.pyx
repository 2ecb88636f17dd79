# Alpha-beta search over the C position, run without the GIL.
#
# Python (cxiangqi.engine) drives iterative deepening: it calls
# Searcher.search_depth() once per iteration (and again with a wider window
# when an aspiration window fails), releasing the GIL for the whole
# iteration, and reports progress between iterations.  Inside an iteration
# everything is C: principal-variation search with a transposition table,
# null move, late-move reductions, check extension, killer and history move
# ordering, quiescence over captures and check evasions, and repetition
# scored by the xiangqi rule that the side giving perpetual check loses.

from libc.stdlib cimport calloc, free
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from cxiangqi._types cimport *
from cxiangqi._tables cimport PTYPE, KIND, SQ_TO_SQ90, SQ90_TO_SQ, ORTH, HORSE_JUMP, HORSE_LEG
from cxiangqi._position cimport (Position, Undo, make_move, unmake_move, make_null,
                                 unmake_null)
from cxiangqi._movegen cimport (gen_moves, gen_legal, in_check, is_pseudo_legal,
                                square_attacked)
from cxiangqi._core cimport Position as PyPosition
from cxiangqi._rules cimport count_repetitions, perpetual_mask


# Piece values for move ordering (MVV/LVA) and null-move material, by type.
cdef int[7] ORDER_VALUE = [10000, 200, 200, 400, 900, 450, 100]

cdef enum:
    TEMPO = 10
    HOLLOW_CANNON = 60      # enemy cannon facing the king on an open file
    FUTILITY_MARGIN = 150   # per ply of remaining depth
    ROOK_MOBILITY = 2       # per empty point a rook reaches
    HORSE_MOBILITY = 5      # per free jump
    HORSE_TRAPPED = 25      # a horse with at most one jump
    CONNECTED_PAWNS = 15    # two crossed pawns side by side
    DEFENDER_SHORTAGE = 4   # per missing advisor/elephant and unit of threat

cdef enum:
    SCORE_HASH = 1 << 28
    SCORE_GOOD_CAPTURE = 3 << 24
    SCORE_KILLER = 2 << 24
    SCORE_BAD_CAPTURE = 1 << 24
    HISTORY_MAX = 1 << 22


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# --- evaluation ------------------------------------------------------------

# Danger to side's king beyond what the piece-square tables see: an enemy
# cannon facing it on an open file (空头炮), and missing advisors/elephants
# weighed by how much enemy attacking material is left.
cdef int king_danger(const Position *pos, int side) noexcept nogil:
    cdef int tag = side_tag(side)
    cdef int opp = opp_tag(side)
    cdef int ksq = pos.pieces[tag]
    if ksq == 0:
        return 0
    cdef int danger = 0
    cdef int d = pawn_forward(side)
    cdef int sq = ksq + d
    while pos.board[sq] == EMPTY:
        sq += d
    cdef int pc = pos.board[sq]
    if (pc & opp) and PTYPE[pc] == CANNON:
        danger += HOLLOW_CANNON
    cdef int threat = 0
    cdef int i
    for i in range(SLOT_HORSE, SLOT_END):
        sq = pos.pieces[opp + i]
        if sq == 0:
            continue
        pc = PTYPE[opp + i]
        if pc == ROOK:
            threat += 3
        elif pc == PAWN:
            if own_half(sq, side):      # crossed into our half
                threat += 1
        else:
            threat += 2
    cdef int missing = 0
    for i in range(SLOT_ADVISOR, SLOT_HORSE):
        if pos.pieces[tag + i] == 0:
            missing += 1
    return danger + threat * missing * DEFENDER_SHORTAGE


# Piece activity of side: rook mobility (empty points a rook can reach),
# horse mobility (jumps with a free leg to a point it may take or occupy,
# a nearly trapped horse penalised) and crossed pawns side by side (连兵).
cdef int activity(const Position *pos, int side) noexcept nogil:
    cdef const u8 *b = pos.board
    cdef int tag = side_tag(side)
    cdef int vl = 0
    cdef int i, k, sq, to, d, n
    for i in range(SLOT_ROOK, SLOT_CANNON):
        sq = pos.pieces[tag + i]
        if sq == 0:
            continue
        n = 0
        for k in range(4):
            d = ORTH[k]
            to = sq + d
            while b[to] == EMPTY:
                n += 1
                to += d
        vl += n * ROOK_MOBILITY
    for i in range(SLOT_HORSE, SLOT_ROOK):
        sq = pos.pieces[tag + i]
        if sq == 0:
            continue
        n = 0
        for k in range(8):
            if b[sq + HORSE_LEG[k]] == EMPTY and (b[sq + HORSE_JUMP[k]] & (tag | OFF)) == 0:
                n += 1
        vl += n * HORSE_MOBILITY - (HORSE_TRAPPED if n <= 1 else 0)
    for i in range(SLOT_PAWN, SLOT_END):
        sq = pos.pieces[tag + i]
        if sq != 0 and not own_half(sq, side):
            n = b[sq + 1]
            if (n & tag) and PTYPE[n] == PAWN:
                vl += CONNECTED_PAWNS
    return vl


# Static evaluation from the side to move's point of view.
cdef inline int evaluate(const Position *pos) noexcept nogil:
    cdef int side = pos.side
    return (pos.vl[side] - pos.vl[side ^ 1]
            - king_danger(pos, side) + king_danger(pos, side ^ 1)
            + activity(pos, side) - activity(pos, side ^ 1) + TEMPO)


# Enough pieces that passing is unlikely to be a mistake (zugzwang guard for
# the null move): two of rook, horse, cannon, or one rook.
cdef inline bint null_ok(const Position *pos) noexcept nogil:
    cdef int tag = side_tag(pos.side)
    cdef int i, n = 0
    for i in range(SLOT_HORSE, SLOT_PAWN):
        if pos.pieces[tag + i] != 0:
            n += 2 if PTYPE[tag + i] == ROOK else 1
    return n >= 2


# --- transposition table ---------------------------------------------------

cdef inline int tt_score_in(int score, int ply) noexcept nogil:
    if score > WIN:
        return score + ply
    if score < -WIN:
        return score - ply
    return score

cdef inline int tt_score_out(int score, int ply) noexcept nogil:
    if score > WIN:
        return score - ply
    if score < -WIN:
        return score + ply
    return score

cdef inline void tt_store(SearchState *st, int depth, int score, int flag, int mv) noexcept nogil:
    cdef TTEntry *e = &st.tt[st.pos.key & st.tt_mask]
    # keep a deeper entry of the same position unless this one is exact
    if e.key == st.pos.key and e.depth > depth and flag != TT_EXACT:
        return
    # a fail-low result has no best move: keep the one stored before
    if mv != 0 or e.key != st.pos.key:
        e.mv = mv
    e.key = st.pos.key
    e.score = tt_score_in(score, st.ply)
    e.depth = depth if depth < 127 else 127
    e.flag = flag


# --- repetition --------------------------------------------------------------

# 1 when the current position occurred before on the path or in the game
# (same side to move, no capture since); *score gets its value for the side
# to move: the side that gave check with every move of the cycle loses
# (unless both did), anything else is a draw.  One earlier occurrence is
# enough inside the search; the referee (Board.outcome) waits for a third.
cdef inline bint repetition(const SearchState *st, int *score) noexcept nogil:
    cdef int idx = st.root + st.ply
    cdef int first
    if count_repetitions(st.keys, idx, idx - st.pos.halfmove, 2, &first) < 2:
        return False
    cdef int mask = perpetual_mask(st.checks, first, idx)
    if mask == 1:           # the opponent (who just moved) checked throughout
        score[0] = BAN
    elif mask == 2:         # we did
        score[0] = -BAN
    else:
        score[0] = 0
    return True


# --- move ordering ---------------------------------------------------------------

cdef inline void score_moves(const SearchState *st, const int *mvs, int *scores, int n,
                             int hash_mv) noexcept nogil:
    cdef const u8 *b = st.pos.board
    cdef int i, mv, victim, attacker, ply = st.ply
    for i in range(n):
        mv = mvs[i]
        if mv == hash_mv:
            scores[i] = SCORE_HASH
            continue
        victim = b[mv >> 8]
        if victim != EMPTY:
            attacker = b[mv & 255]
            if ORDER_VALUE[PTYPE[victim]] >= ORDER_VALUE[PTYPE[attacker]]:
                scores[i] = SCORE_GOOD_CAPTURE + ORDER_VALUE[PTYPE[victim]] * 8 - PTYPE[attacker]
            else:
                scores[i] = SCORE_BAD_CAPTURE + ORDER_VALUE[PTYPE[victim]] * 8 - PTYPE[attacker]
        elif mv == st.killers[ply][0]:
            scores[i] = SCORE_KILLER + 1
        elif mv == st.killers[ply][1]:
            scores[i] = SCORE_KILLER
        else:
            scores[i] = st.history[KIND[b[mv & 255]]][mv >> 8]


# Swaps the best-scored remaining move into place i and returns it.
cdef inline int pick(int *mvs, int *scores, int n, int i) noexcept nogil:
    cdef int best = i, k, t
    for k in range(i + 1, n):
        if scores[k] > scores[best]:
            best = k
    if best != i:
        t = mvs[i]; mvs[i] = mvs[best]; mvs[best] = t
        t = scores[i]; scores[i] = scores[best]; scores[best] = t
    return mvs[i]


cdef inline void good_quiet(SearchState *st, int mv, int depth) noexcept nogil:
    cdef int ply = st.ply
    cdef int i, k
    if st.killers[ply][0] != mv:
        st.killers[ply][1] = st.killers[ply][0]
        st.killers[ply][0] = mv
    cdef int *h = &st.history[KIND[st.pos.board[mv & 255]]][mv >> 8]
    h[0] += depth * depth
    if h[0] > HISTORY_MAX:
        for k in range(14):
            for i in range(256):
                st.history[k][i] >>= 1


# --- search ---------------------------------------------------------------------

cdef inline bint out_of_budget(SearchState *st) noexcept nogil:
    st.nodes += 1
    if st.node_limit and st.nodes >= st.node_limit:
        st.stop = 1
    elif (st.nodes & NODE_CHECK) == 0 and st.deadline > 0 and now() >= st.deadline:
        st.stop = 1
    return st.stop != 0


# Plays mv on the search path; False (and nothing changed) if it leaves the
# mover in check.
cdef inline bint step(SearchState *st, int mv) noexcept nogil:
    make_move(&st.pos, mv, &st.undo[st.ply])
    if in_check(&st.pos, st.pos.side ^ 1):
        unmake_move(&st.pos, &st.undo[st.ply])
        return False
    st.ply += 1
    st.keys[st.root + st.ply] = st.pos.key
    st.checks[st.root + st.ply] = in_check(&st.pos, st.pos.side)
    return True

cdef inline void unstep(SearchState *st) noexcept nogil:
    st.ply -= 1
    unmake_move(&st.pos, &st.undo[st.ply])


cdef inline void update_pv(SearchState *st, int mv) noexcept nogil:
    cdef int ply = st.ply
    cdef int k
    st.pv[ply][0] = mv
    for k in range(st.pv_len[ply + 1]):
        st.pv[ply][k + 1] = st.pv[ply + 1][k]
    st.pv_len[ply] = st.pv_len[ply + 1] + 1


# Quiescence: captures only (all evasions when in check), from a stand-pat
# evaluation.
cdef int qsearch(SearchState *st, int alpha, int beta) noexcept nogil:
    cdef int ply = st.ply
    st.pv_len[ply] = 0
    if out_of_budget(st):
        return 0
    if ply > st.seldepth:
        st.seldepth = ply
    if ply >= MAX_PLY - 1:
        return evaluate(&st.pos)
    cdef bint checked = st.checks[st.root + ply]
    cdef int best, score
    cdef int mvs[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef int n, i, mv, legal = 0
    if checked:
        best = -MATE + ply
        n = gen_moves(&st.pos, mvs, False)
    else:
        best = evaluate(&st.pos)
        if best >= beta:
            return best
        if best > alpha:
            alpha = best
        n = gen_moves(&st.pos, mvs, True)
    score_moves(st, mvs, scores, n, 0)
    for i in range(n):
        mv = pick(mvs, scores, n, i)
        # a capture of a cheaper, defended piece rarely gains: skip it
        # (measured: fewer qsearch nodes, same mates found; see README)
        if not checked and scores[i] < SCORE_GOOD_CAPTURE \
                and square_attacked(&st.pos, mv >> 8, st.pos.side ^ 1):
            continue
        if not step(st, mv):
            continue
        legal += 1
        score = -qsearch(st, -beta, -alpha)
        unstep(st)
        if st.stop:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                update_pv(st, mv)
                if score >= beta:
                    break
    return best


cdef int search(SearchState *st, int depth, int alpha, int beta, bint allow_null) noexcept nogil:
    cdef int ply = st.ply
    cdef Position *pos = &st.pos
    cdef bint pv_node = beta - alpha > 1
    cdef int score
    st.pv_len[ply] = 0

    # 1. repetition (perpetual check loses) and the ply limit
    if repetition(st, &score):
        return score
    if ply >= MAX_PLY - 1:
        return evaluate(pos)

    # 2. check extension, then quiescence at the horizon
    cdef bint checked = st.checks[st.root + ply]
    if checked:
        depth += 1
    if depth <= 0:
        return qsearch(st, alpha, beta)
    if out_of_budget(st):
        return 0

    # 3. mate distance pruning
    if alpha < -MATE + ply:
        alpha = -MATE + ply
    if beta > MATE - ply - 1:
        beta = MATE - ply - 1
    if alpha >= beta:
        return alpha

    # 4. transposition table
    cdef TTEntry *e = &st.tt[pos.key & st.tt_mask]
    cdef int hash_mv = 0
    if e.key == pos.key:
        hash_mv = e.mv
        if not is_pseudo_legal(pos, hash_mv):
            hash_mv = 0
        if not pv_node and e.depth >= depth:
            score = tt_score_out(e.score, ply)
            if (e.flag == TT_EXACT or (e.flag == TT_LOWER and score >= beta)
                    or (e.flag == TT_UPPER and score <= alpha)):
                return score

    # 5. null move: if passing still fails high, so will a real move
    cdef Undo nu
    cdef int static_eval = -INF
    if not checked and not pv_node:
        static_eval = evaluate(pos)
    if (allow_null and not pv_node and not checked and depth >= 2 and beta < WIN
            and null_ok(pos) and static_eval >= beta):
        make_null(pos, &nu)
        st.ply += 1
        st.keys[st.root + st.ply] = pos.key
        st.checks[st.root + st.ply] = 0
        score = -search(st, depth - 3 - (depth > 6), -beta, -beta + 1, False)
        st.ply -= 1
        unmake_null(pos, &nu)
        if st.stop:
            return 0
        if score >= beta:
            return beta if score > WIN else score

    # 6. the moves: hash move, good captures, killers, bad captures, history
    cdef int mvs[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef int n = gen_moves(pos, mvs, False)
    score_moves(st, mvs, scores, n, hash_mv)
    cdef int best = -INF, best_mv = 0, legal = 0
    cdef int old_alpha = alpha
    cdef int i, mv, r, new_depth
    cdef bint quiet, gives
    # futility: near the horizon, a quiet move cannot lift a hopeless
    # static evaluation above alpha
    cdef bint futile = (depth <= 2 and static_eval > -INF and abs(alpha) < WIN
                        and static_eval + FUTILITY_MARGIN * depth <= alpha)
    for i in range(n):
        mv = pick(mvs, scores, n, i)
        quiet = pos.board[mv >> 8] == EMPTY
        if not step(st, mv):
            continue
        legal += 1
        gives = st.checks[st.root + st.ply]
        if futile and quiet and not gives and legal > 1 and scores[i] < SCORE_KILLER:
            unstep(st)
            continue
        new_depth = depth - 1
        if legal == 1:
            score = -search(st, new_depth, -beta, -alpha, True)
        else:
            # 7. late-move reduction for quiet moves far down the list
            r = 0
            if depth >= 3 and legal > 3 and quiet and not checked and not gives \
                    and scores[i] < SCORE_KILLER:
                r = 1 if (pv_node or legal <= 8) else 2
                if depth >= 7 and legal > 16 and not pv_node:
                    r += 1
                if r > new_depth - 1:
                    r = new_depth - 1
            score = -search(st, new_depth - r, -alpha - 1, -alpha, True)
            if score > alpha and r > 0:
                score = -search(st, new_depth, -alpha - 1, -alpha, True)
            if score > alpha and score < beta:
                score = -search(st, new_depth, -beta, -alpha, True)
        unstep(st)
        if st.stop:
            return 0
        if score > best:
            best = score
            best_mv = mv
            if score > alpha:
                alpha = score
                update_pv(st, mv)
                if score >= beta:
                    if quiet:
                        good_quiet(st, mv, depth)
                    break

    # 8. no legal move: mated or stalemated, and both lose in xiangqi
    if legal == 0:
        return -MATE + ply
    if best >= beta:
        tt_store(st, depth, best, TT_LOWER, best_mv)
    elif best > old_alpha:
        tt_store(st, depth, best, TT_EXACT, best_mv)
    else:
        tt_store(st, depth, best, TT_UPPER, 0)
    return best


# One iteration at the root over st.root_moves (all legal).  The best move
# goes to the front of the list, and to st.best_mv / st.pv[0], as soon as it
# is found, so an interrupted iteration still leaves its best move so far.
cdef int search_root(SearchState *st, int depth, int alpha, int beta) noexcept nogil:
    cdef Position *pos = &st.pos
    cdef int i, k, mv, score, best = -INF
    st.ply = 0
    st.pv_len[0] = 0
    for i in range(st.n_root):
        mv = st.root_moves[i]
        step(st, mv)
        if i == 0:
            score = -search(st, depth - 1, -beta, -alpha, True)
        else:
            score = -search(st, depth - 1, -alpha - 1, -alpha, True)
            if score > alpha and score < beta:
                score = -search(st, depth - 1, -beta, -alpha, True)
        unstep(st)
        if st.stop:
            break
        if score > best:
            best = score
        if score > alpha:
            alpha = score
            st.best_mv = mv
            update_pv(st, mv)
            for k in range(i, 0, -1):
                st.root_moves[k] = st.root_moves[k - 1]
            st.root_moves[0] = mv
            if score >= beta:
                break
    return best


cdef class Searcher:
    """The C search state.  Private: use cxiangqi.engine.Engine."""

    cdef SearchState *st
    cdef size_t tt_entries

    def __cinit__(self, int hash_mb=64):
        self.st = <SearchState *> calloc(1, sizeof(SearchState))
        if self.st == NULL:
            raise MemoryError()
        self.set_hash(hash_mb)

    def __dealloc__(self):
        if self.st != NULL:
            free(self.st.tt)
            free(self.st)

    def set_hash(self, int mb):
        """Transposition table of about `mb` megabytes (a power of two of
        entries, at least 1 MB)."""
        if mb < 1 or mb > 65536:
            raise ValueError(f"hash size must be 1..65536 MB, got {mb}")
        cdef size_t n = 1
        while n * 2 * sizeof(TTEntry) <= <size_t> mb * 1024 * 1024:
            n *= 2
        cdef TTEntry *tt = <TTEntry *> calloc(n, sizeof(TTEntry))
        if tt == NULL:
            raise MemoryError(f"cannot allocate a {mb} MB hash table")
        free(self.st.tt)
        self.st.tt = tt
        self.st.tt_mask = n - 1
        self.tt_entries = n

    def clear(self):
        """Forgets everything learnt: hash table, killers, history."""
        memset(self.st.tt, 0, self.tt_entries * sizeof(TTEntry))
        memset(self.st.killers, 0, sizeof(self.st.killers))
        memset(self.st.history, 0, sizeof(self.st.history))

    def setup(self, PyPosition position, excluded=()):
        """Takes the position to search and its repetition history (the
        game's positions since the last capture) from a _core.Position;
        the root moves are its legal moves less `excluded` (move codes
        from * 90 + to)."""
        cdef SearchState *st = self.st
        st.pos = position.pos
        # walk back through the game to collect keys and check flags
        cdef int back = position.n_undo
        if back > st.pos.halfmove:
            back = st.pos.halfmove
        if back > MAX_HISTORY:
            back = MAX_HISTORY
        cdef int i
        st.root = back
        st.keys[back] = st.pos.key
        st.checks[back] = in_check(&st.pos, st.pos.side)
        for i in range(back):
            unmake_move(&st.pos, &position.undo[position.n_undo - 1 - i])
            st.keys[back - 1 - i] = st.pos.key
            st.checks[back - 1 - i] = in_check(&st.pos, st.pos.side)
        st.pos = position.pos
        # the repetition window must not reach before the collected history
        if st.pos.halfmove > back:
            st.pos.halfmove = back
        cdef int mvs[MAX_MOVES]
        cdef int n = gen_legal(&st.pos, mvs, False)
        cdef set skip = set(excluded)
        st.n_root = 0
        for i in range(n):
            if SQ_TO_SQ90[mvs[i] & 255] * 90 + SQ_TO_SQ90[mvs[i] >> 8] not in skip:
                st.root_moves[st.n_root] = mvs[i]
                st.root_scores[st.n_root] = 0
                st.n_root += 1
        st.best_mv = st.root_moves[0] if st.n_root else 0
        st.seldepth = 0
        st.stop = 0
        st.ply = 0
        memset(st.killers, 0, sizeof(st.killers))
        memset(st.pv_len, 0, sizeof(st.pv_len))
        # a first guess at the order: captures by MVV/LVA, the rest as generated
        score_moves(st, st.root_moves, st.root_scores, st.n_root, 0)
        for i in range(st.n_root):
            pick(st.root_moves, st.root_scores, st.n_root, i)
        st.best_mv = st.root_moves[0] if st.n_root else 0
        return st.n_root

    def reset_counters(self):
        """Node count back to 0 (setup() keeps counting, for multi-PV)."""
        self.st.nodes = 0

    def set_limits(self, unsigned long long nodes=0, double deadline=0.0):
        """Abort the search after `nodes` nodes / at monotonic time
        `deadline` (seconds, as time.monotonic()); 0 = no limit."""
        self.st.node_limit = nodes
        self.st.deadline = deadline

    def stop(self):
        """Asks a running search to return as soon as it can (any thread)."""
        self.st.stop = 1

    @property
    def stopped(self):
        return self.st.stop != 0

    def search_depth(self, int depth, int alpha=-INF, int beta=INF):
        """One iteration to `depth` plies; returns its score (side to move's
        view).  The GIL is released throughout."""
        if depth < 1 or depth >= MAX_PLY - 1:
            raise ValueError(f"depth must be 1..{MAX_PLY - 2}")
        cdef int score
        with nogil:
            score = search_root(self.st, depth, alpha, beta)
        return score

    def best_move(self):
        """Best root move so far as from * 90 + to, or None."""
        cdef int mv = self.st.best_mv
        if mv == 0:
            return None
        return SQ_TO_SQ90[mv & 255] * 90 + SQ_TO_SQ90[mv >> 8]

    def pv(self):
        """Principal variation of the last completed root update."""
        cdef int k, mv
        cdef list out = []
        for k in range(self.st.pv_len[0]):
            mv = self.st.pv[0][k]
            out.append(SQ_TO_SQ90[mv & 255] * 90 + SQ_TO_SQ90[mv >> 8])
        return out

    def root_moves(self):
        return [SQ_TO_SQ90[self.st.root_moves[i] & 255] * 90 + SQ_TO_SQ90[self.st.root_moves[i] >> 8]
                for i in range(self.st.n_root)]

    @property
    def nodes(self):
        return self.st.nodes

    @property
    def seldepth(self):
        return self.st.seldepth

    def evaluate(self, PyPosition position):
        """Static evaluation of a position, side to move's view."""
        return evaluate(&position.pos)


MATE_SCORE = MATE
WIN_SCORE = WIN
BAN_SCORE = BAN
INFINITE = INF
MAX_DEPTH = MAX_PLY - 2
