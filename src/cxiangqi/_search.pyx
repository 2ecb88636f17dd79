# The tree walk: principal-variation alpha-beta over the C position, run
# without the GIL.  The evaluation is in _eval, the transposition table in
# _tt, move ordering and history in _order, exchange evaluation in _see and
# the repetition rules in _rules.
#
# Python (cxiangqi.engine) drives iterative deepening: it calls
# Searcher.search_depth() once per iteration (and again with a wider window
# when an aspiration window fails), releasing the GIL for the whole
# iteration, and reports progress between iterations.
#
# At a node (search()), in order:
#   1. repetition: perpetual check or chase loses, other repetitions and the
#      move limit draw (the referee's rules, _rules)
#   2. check extension, quiescence at the horizon
#   3. mate-distance pruning
#   4. transposition table cut-off
#   5. static evaluation (the table's, else through a small evaluation
#      cache), corrected by the correction history, and the "improving" flag
#   6. razoring, reverse futility pruning, null move (not in check, not PV)
#   7. internal iterative reduction (no hash move)
#   8. the moves, best first (_order): late-move pruning, futility pruning
#      (once they would prune every quiet move left, the picker skips those
#      that cannot check, unscored) and SEE pruning of losing captures near
#      the horizon (of quiet moves too with see_quiet, off by default),
#      singular extension of the hash move,
#      late-move reductions from a depth x move-number table adjusted by
#      history (a capture SEE does not lose: half the table's reduction),
#      principal-variation re-searches
#   9. history, killer and counter-move updates on a cut-off; mate or
#      stalemate (both lose) when no move is legal; the correction
#      history's update; the table store

from libc.math cimport log
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

import os

from cxiangqi import _checks, _interrupt

from cxiangqi._types cimport *
from cxiangqi._sigint cimport sigint_catch, cx_sigint_release
from cxiangqi._tables cimport PTYPE, KIND, PST, SQ_TO_SQ90, SQ90_TO_SQ, ZOBRIST, IN_BOARD
from cxiangqi._position cimport (Position, Undo, make_move, unmake_move, make_null, key_after,
                                 unmake_null)
from cxiangqi._movegen cimport (gen_moves, gen_legal, in_check, is_pseudo_legal, gives_check,
                                KingGuard,
                                guard_init, guard_needs_test, may_give_check)
from cxiangqi._core cimport Position as PyPosition
from cxiangqi._rules cimport count_repetitions, perpetual_mask, chase_mask
from cxiangqi._eval cimport (evaluate, eval_trace, T_SIZE, EVAL_PARTS,
                             eval_part_costs as c_eval_part_costs)
from cxiangqi import _eval
from cxiangqi._see cimport see_ge, SEE_VALUE
from cxiangqi._tt cimport (TT, TTBucket, TTHit, tt_probe, tt_store, tt_prefetch, TT_UPPER,
                           TT_LOWER, TT_EXACT, TT_GENERATIONS, tt_gen_of)
from cxiangqi._order cimport (History, N_KEYS, capt_key, stat_bonus, HIST_MAX, CORR_SIZE,
                              CORR_GRAIN, CORR_MAX,
                              SCORE_HASH, SCORE_GOOD_CAPTURE,
                              SCORE_KILLER, SCORE_BAD_CAPTURE, move_key, hist_add, cont_add,
                              capture_score, quiet_score, score_moves, pick, MovePicker,
                              picker_init, next_move)

# The stop flag is written by another thread while the search reads it:
# relaxed atomic loads and stores (plain moves on x86, but the compiler may
# neither cache the value in a register nor tear it).
cdef extern from *:
    """
    static inline int cx_load(const int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void cx_store(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline int cx_load_sc(const int *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline void cx_store_sc(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    """
    int cx_load(const int *p) noexcept nogil
    void cx_store(int *p, int v) noexcept nogil
    # sequentially consistent: a helper's "clear my stop, then is the search
    # over?" against the main thread's "the search is over, then stop"
    int cx_load_sc(const int *p) noexcept nogil
    void cx_store_sc(int *p, int v) noexcept nogil


# The transposition table is probed at random on every node: with 4 KB pages
# nearly every probe also misses the TLB.  On Linux the table is aligned to
# 2 MB and advised to use transparent huge pages (the kernel's "madvise"
# mode); elsewhere, or if that fails, it is plain zeroed memory.  free()
# releases either.
cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void *cx_table_alloc(size_t bytes) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        size_t huge = (size_t)2 << 20;
        if (bytes >= huge && bytes % huge == 0) {
            void *p = NULL;
            if (posix_memalign(&p, huge, bytes) == 0 && p != NULL) {
                madvise(p, bytes, MADV_HUGEPAGE);
                memset(p, 0, bytes);
                return p;
            }
        }
    #endif
        return calloc(1, bytes);
    }
    """
    void *cx_table_alloc(size_t bytes) noexcept nogil


# Default search parameters, and their names for CXIANGQI_SEARCH_PARAMS
# ("name=value,name=value": a developer's switch to test one change against
# the build without it in a match; see benchmarks/match.py --sprt).
PARAM_NAMES = ["rfp", "razor", "null", "lmp", "futility", "see_quiet", "see_capture", "lmr",
               "lmr_div", "hist_div", "iir", "singular", "qs_see", "cont", "qs_tt", "corr",
               "corr_np", "qs_fut", "cont4", "deeper", "sing_dbl", "capt_hist", "hist_prune", "asp",
               "corr_cont", "lmr_capt", "corr_minor", "hist_bonus",
               "fut_nobest", "corr_major"]
PARAM_DEFAULTS = [92, 500, 1, 100, 104, 0, 90, 1, 225, 6000, 1, 8, 1, 1, 1, 50, 50, 200, 1, 43,
                  40, 100, 3000, 25, 50, 50, 50, 200, 150, 50]
# the parameters with a least value (set_params refuses less), and why
PARAM_LEAST = {
    "lmr_div": (1, "must be positive (it divides)"),
    "hist_div": (1, "must be positive (it divides)"),
    "singular": (0, "is the least depth of a singular extension, or 0 for none: it must not "
                    "be negative"),
    "sing_dbl": (0, "is a margin below the singular beta, or 0 for none: it must not be "
                    "negative"),
    "asp": (0, "is the aspiration window's first half-width, or 0 for the old windows: it "
               "must not be negative"),
    "fut_nobest": (0, "widens the futility margin until a move raises alpha, or 0 for "
                      "never: it must not be negative (a late move once pruned must stay so)"),
}

# st.lmr[depth][moves]: the reduction of a late quiet move (log x log, as
# Stockfish), rebuilt when the searcher's divisor changes.  (One table
# shared by all searchers let one searcher's lmr_div change another's tree.)
cdef void build_lmr(SearchState *st, int div) noexcept nogil:
    cdef int d, m
    if div == st.lmr_div:
        return
    for d in range(64):
        for m in range(64):
            if d == 0 or m == 0:
                st.lmr[d][m] = 0
            else:
                st.lmr[d][m] = <int> (0.5 + log(d) * log(m) * 100.0 / div)
    st.lmr_div = div


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# A move as Python sees it, from * 90 + to (cxiangqi.move.MOVES), or -1 when
# either square is off the board (a table entry's move is not checked).
cdef inline int move_code(int mv) noexcept nogil:
    cdef int src = mv & 255, dst = (mv >> 8) & 255
    if not (IN_BOARD[src] and IN_BOARD[dst]) or src == dst:
        return -1
    return SQ_TO_SQ90[src] * 90 + SQ_TO_SQ90[dst]


# --- scores in the table ----------------------------------------------------

# Mate scores are stored relative to the node, not the root.
cdef inline int score_to_tt(int score, int ply) noexcept nogil:
    if score > WIN:
        return score + ply
    if score < -WIN:
        return score - ply
    return score

cdef inline int score_from_tt(int score, int ply) noexcept nogil:
    if score > WIN:
        return score - ply
    if score < -WIN:
        return score + ply
    return score


# --- repetition ----------------------------------------------------------------

# True when the current position occurred before on the path or in the game
# (same side to move, no capture since); *score gets its value for the side
# to move by the referee's rules: a side that checked with every move of the
# cycle loses (unless both did); failing that, a side that chased one piece
# with every move loses (unless both did); any other cycle is a draw.  One
# earlier occurrence is enough inside the search; the referee waits for a
# third.
cdef bint repetition(SearchState *st, int *score) noexcept nogil:
    cdef int idx = st.root + st.ply
    cdef int first
    if count_repetitions(st.keys, idx, idx - st.pos.halfmove, 2, &first) < 2:
        return False
    cdef int mask = perpetual_mask(st.checks, first, idx)
    if mask == 0:
        mask = chase_mask(&st.pos, st.line, first, idx)
    if mask == 1:           # the opponent (who just moved) checked or chased throughout
        score[0] = BAN
    elif mask == 2:         # we did
        score[0] = -BAN
    else:
        score[0] = 0
    return True


# --- correction history ---------------------------------------------------------
#
# The static evaluation errs the same way in positions that share their
# slow-moving structure: the kings, advisors, elephants and pawns of both
# sides (xiangqi's "pawn structure"), or one colour's pieces.  The search
# learns, per side to move and per structure (and per colour's king, horses,
# rooks and cannons), how far its results fell from the static evaluation,
# and adds that to the static evaluation it prunes with (Stockfish's
# correction histories: pawn and non-pawn).  The table keeps the raw
# evaluation.  Two more keys: both sides' kings, horses and cannons (as
# Stockfish's minor-piece correction), and both sides' kings and rooks (as
# its major-piece one, since dropped there).

# The hashes from scratch: ck[0] the structure's, ck[1 + colour] that
# colour's pieces', ck[3] the kings', horses' and cannons', ck[4] the
# kings' and rooks'.  The search keeps them per ply (step()).
cdef inline bint in_structure(int pc) noexcept nogil:
    return (pc & 15) < SLOT_HORSE or (pc & 15) >= SLOT_PAWN

cdef inline bint in_pieces(int pc) noexcept nogil:
    return (pc & 15) == SLOT_KING or (SLOT_HORSE <= (pc & 15) < SLOT_PAWN)

cdef inline bint in_minor(int pc) noexcept nogil:
    return in_pieces(pc) and not (SLOT_ROOK <= (pc & 15) < SLOT_CANNON)

cdef inline bint in_major(int pc) noexcept nogil:
    return (pc & 15) == SLOT_KING or (SLOT_ROOK <= (pc & 15) < SLOT_CANNON)

# XORs z into the hashes piece pc belongs to
cdef inline void corr_toggle(u64 *ck, int pc, u64 z) noexcept nogil:
    if in_structure(pc):
        ck[0] ^= z
    if in_pieces(pc):
        ck[1 + (pc >> 5)] ^= z
    if in_minor(pc):
        ck[3] ^= z
    if in_major(pc):
        ck[4] ^= z

cdef inline void corr_hashes(const Position *pos, u64 *ck) noexcept nogil:
    cdef int pc
    memset(ck, 0, N_CKEYS * sizeof(u64))
    for pc in range(16, 48):
        if pos.pieces[pc] != 0:
            corr_toggle(ck, pc, ZOBRIST[KIND[pc]][pos.pieces[pc]])

# ck after pc moved from src to dst and took cap (EMPTY: none)
cdef inline void corr_hashes_after(const u64 *ck, u64 *out, int pc, int src, int dst,
                                   int cap) noexcept nogil:
    memcpy(out, ck, N_CKEYS * sizeof(u64))
    corr_toggle(out, pc, ZOBRIST[KIND[pc]][src] ^ ZOBRIST[KIND[pc]][dst])
    if cap != EMPTY:
        corr_toggle(out, cap, ZOBRIST[KIND[cap]][dst])

# whether any correction is on (the hashes are kept only then)
cdef inline bint corr_on(const int *prm) noexcept nogil:
    return prm[P_CORR] != 0 or prm[P_CORR_NP] != 0 or prm[P_CORR_CONT] != 0 \
        or prm[P_CORR_MINOR] != 0 or prm[P_CORR_MAJOR] != 0

cdef inline int corr_index(u64 h) noexcept nogil:
    return <int> (h >> 40) & (CORR_SIZE - 1)

# The entries that correct the static evaluation of a position with hashes
# ck and side to move `side`: the structure's, then each colour's pieces'
# (NULL when corr_np is off), then the last two moves' (k2: the key of the
# move before the last, k1: of the last; NULL when corr_cont is off or
# either is unknown or a null move: Stockfish's continuation correction),
# then the kings', horses' and cannons' (NULL when corr_minor is off), then
# the kings' and rooks' (NULL when corr_major is off).
ctypedef struct Corr:
    short *e[6]

cdef inline void corr_find(History *h, int side, const u64 *ck, int k2, int k1,
                           const int *prm, Corr *c) noexcept nogil:
    c.e[0] = &h.corr[side][corr_index(ck[0])]
    if prm[P_CORR_NP]:
        c.e[1] = &h.corr_np[side][0][corr_index(ck[1])]
        c.e[2] = &h.corr_np[side][1][corr_index(ck[2])]
    else:
        c.e[1] = c.e[2] = NULL
    if prm[P_CORR_CONT] and k1 >= 0 and k2 >= 0:
        c.e[3] = &h.corr_cont[k2][k1]
    else:
        c.e[3] = NULL
    c.e[4] = &h.corr_minor[side][corr_index(ck[3])] if prm[P_CORR_MINOR] else NULL
    c.e[5] = &h.corr_major[side][corr_index(ck[4])] if prm[P_CORR_MAJOR] else NULL

# The entries for the node at ply on the search path: its hashes, and the
# keys of the two moves that led to it.
cdef inline void corr_find_at(SearchState *st, int ply, Corr *c) noexcept nogil:
    corr_find(&st.hist, st.pos.side, st.ckeys[ply], st.mkey[ply - 1] if ply >= 1 else -1,
              st.mkey[ply], st.params, c)

# raw plus the corrections (prm: the search's parameters, their percentages),
# kept off the mate scores
cdef inline int corrected(int raw, const Corr *c, const int *prm) noexcept nogil:
    cdef int sum = c.e[0][0] * prm[P_CORR]
    if c.e[1] != NULL:
        sum += (c.e[1][0] + c.e[2][0]) * prm[P_CORR_NP]
    if c.e[3] != NULL:
        sum += c.e[3][0] * prm[P_CORR_CONT]
    if c.e[4] != NULL:
        sum += c.e[4][0] * prm[P_CORR_MINOR]
    if c.e[5] != NULL:
        sum += c.e[5][0] * prm[P_CORR_MAJOR]
    cdef int v = raw + sum // (100 * CORR_GRAIN)
    if v >= WIN:
        return WIN - 1
    if v <= -WIN:
        return -WIN + 1
    return v

# Moves an entry towards the error seen (result - static evaluation, in
# centipawns), more for a deeper search; "gravity" as the move histories.
cdef inline void corr_add(short *e, int bonus) noexcept nogil:
    cdef int v = e[0]
    v += bonus - v * (bonus if bonus > 0 else -bonus) // CORR_MAX
    e[0] = <short> v

cdef inline void corr_update(Corr *c, int diff, int depth) noexcept nogil:
    cdef int bonus = diff * depth * CORR_GRAIN // 8
    if bonus > CORR_MAX // 4:
        bonus = CORR_MAX // 4
    elif bonus < -CORR_MAX // 4:
        bonus = -CORR_MAX // 4
    corr_add(c.e[0], bonus)
    if c.e[1] != NULL:
        corr_add(c.e[1], bonus)
        corr_add(c.e[2], bonus)
    if c.e[3] != NULL:
        corr_add(c.e[3], bonus)
    if c.e[4] != NULL:
        corr_add(c.e[4], bonus)
    if c.e[5] != NULL:
        corr_add(c.e[5], bonus)


# Enough pieces that passing is unlikely to be a mistake (zugzwang guard for
# the null move): two of rook, horse, cannon, or one rook.
cdef inline bint null_ok(const Position *pos) noexcept nogil:
    cdef int tag = side_tag(pos.side)
    cdef int i, n = 0
    for i in range(SLOT_HORSE, SLOT_PAWN):
        if pos.pieces[tag + i] != 0:
            n += 2 if PTYPE[tag + i] == ROOK else 1
    return n >= 2


# --- making moves on the search path ----------------------------------------------

cdef inline bint out_of_budget(SearchState *st) noexcept nogil:
    st.nodes += 1
    if st.node_limit and st.nodes >= st.node_limit:
        cx_store(&st.stop, 1)
    elif (st.nodes & NODE_CHECK) == 0 and st.deadline > 0 and now() >= st.deadline:
        cx_store(&st.stop, 1)
    return cx_load(&st.stop) != 0


# Plays mv on the search path; False (and nothing changed) if it leaves the
# mover in check.  g says which moves need that test (most do not); the
# check flag of the new position is worked out only for moves that
# may_give_check lets through.
cdef inline bint step(SearchState *st, int mv, const KingGuard *g) noexcept nogil:
    cdef int idx = st.root + st.ply
    cdef int key = move_key(st.pos.board, mv)
    cdef bint maybe = may_give_check(&st.pos, mv)
    make_move(&st.pos, mv, &st.line[idx])
    if guard_needs_test(g, mv) and in_check(&st.pos, st.pos.side ^ 1):
        unmake_move(&st.pos, &st.line[idx])
        return False
    st.ply += 1
    st.keys[idx + 1] = st.pos.key
    st.checks[idx + 1] = maybe and in_check(&st.pos, st.pos.side)
    st.mkey[st.ply] = key
    if corr_on(st.params):
        corr_hashes_after(st.ckeys[st.ply - 1], st.ckeys[st.ply], st.pos.board[mv >> 8],
                          mv & 255, mv >> 8, st.line[idx].captured)
    return True

cdef inline void unstep(SearchState *st) noexcept nogil:
    st.ply -= 1
    unmake_move(&st.pos, &st.line[st.root + st.ply])


cdef inline void update_pv(SearchState *st, int mv) noexcept nogil:
    cdef int ply = st.ply
    cdef int k
    st.pv[ply][0] = mv
    for k in range(st.pv_len[ply + 1]):
        st.pv[ply][k + 1] = st.pv[ply + 1][k]
    st.pv_len[ply] = st.pv_len[ply + 1] + 1


# Rewards the quiet move that caused a cut-off and punishes the quiet moves
# tried before it, in the butterfly and continuation tables; updates the
# killers and the counter-move.  mp: the node's picker, whose continuation
# keys (-1 where the search leaves a table out) say which tables learn.
cdef void update_quiet_stats(SearchState *st, const MovePicker *mp, int mv, const int *tried,
                             int n_tried, int depth) noexcept nogil:
    cdef int ply = st.ply
    cdef int side = st.pos.side
    # hist_bonus percent of stat_bonus (twice it by default), within
    # +-HIST_MAX so that hist_add's product stays an int for any value
    cdef long long lb = <long long> stat_bonus(depth) * st.params[P_HIST_BONUS] // 100
    cdef int bonus = <int> (lb if -HIST_MAX <= lb <= HIST_MAX
                            else (HIST_MAX if lb > 0 else -HIST_MAX))
    cdef int k1 = st.mkey[ply]
    cdef int i, m, key, b
    if st.killers[ply][0] != mv:
        st.killers[ply][1] = st.killers[ply][0]
        st.killers[ply][0] = mv
    if k1 >= 0:
        st.hist.counter[k1] = mv
    for i in range(n_tried + 1):
        m = mv if i == n_tried else tried[i]
        b = bonus if i == n_tried else -bonus
        hist_add(&st.hist.butterfly[side][SQ_TO_SQ90[m & 255]][SQ_TO_SQ90[m >> 8]], b)
        if mp.k1 >= 0 or mp.k2 >= 0 or mp.k4 >= 0:
            key = move_key(st.pos.board, m)
            if mp.k1 >= 0:
                cont_add(&st.hist.cont[mp.k1][key], b)
            if mp.k2 >= 0:
                cont_add(&st.hist.cont[mp.k2][key], b)
            if mp.k4 >= 0:
                cont_add(&st.hist.cont[mp.k4][key], b)


# Rewards the capture that caused a cut-off (when mv is one) and punishes the
# captures tried before it, in the capture history.
cdef void update_capture_stats(SearchState *st, int mv, bint quiet, const int *captures,
                               int n_captures, int depth) noexcept nogil:
    cdef int bonus = stat_bonus(depth)
    cdef int i
    if not quiet:
        cont_add(&st.hist.capt[capt_key(st.pos.board, mv)], bonus)
    for i in range(n_captures):
        cont_add(&st.hist.capt[capt_key(st.pos.board, captures[i])], -bonus)


# The static evaluation of the current position through a small cache by key
# (per searcher, cleared with the histories): the deeper quiescence plies do
# not probe the table, and iterative deepening meets their positions again.
# The same value as evaluate(), so the same tree.
cdef inline int cached_eval(SearchState *st) noexcept nogil:
    cdef EvalEntry *e = &st.ecache[st.pos.key & (EVAL_CACHE - 1)]
    if e.key != st.pos.key:
        e.key = st.pos.key
        e.eval = evaluate(&st.pos)
    return e.eval


# --- quiescence ---------------------------------------------------------------------

# Captures only (all evasions when in check), from a stand-pat evaluation;
# captures that lose material by SEE are skipped.
cdef int qsearch(SearchState *st, int alpha, int beta, int qply) noexcept nogil:
    cdef int ply = st.ply
    cdef Position *pos = &st.pos
    st.pv_len[ply] = 0
    if out_of_budget(st):
        return 0
    if ply > st.seldepth:
        st.seldepth = ply
    cdef bint checked = st.checks[st.root + ply]
    if ply >= MAX_PLY - 1:
        return 0 if checked else evaluate(pos)

    cdef bint pv_node = beta - alpha > 1
    cdef TTHit hit
    # the table at the first qs_tt quiescence plies (default 1): the deeper
    # plies' probes mostly miss the cache and rarely cut off
    cdef bint use_tt = qply < st.params[P_QS_TT]
    cdef bint found = use_tt and tt_probe(&st.tt, pos.key, &hit)
    cdef int tt_score = 0
    cdef bint tt_pv = pv_node
    if found:
        tt_pv = tt_pv or hit.pv
        tt_score = score_from_tt(hit.score, ply)
        if not pv_node and (hit.bound == TT_EXACT or (hit.bound == TT_LOWER and tt_score >= beta)
                            or (hit.bound == TT_UPPER and tt_score <= alpha)):
            return tt_score

    cdef int best, score, stand = NO_EVAL
    cdef int mvs[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef int n, i, mv, legal = 0, best_mv = 0
    cdef int old_alpha = alpha
    cdef int raw = NO_EVAL
    cdef Corr cr
    if checked:
        best = -MATE + ply
        n = gen_moves(pos, mvs, False)
    else:
        raw = hit.eval if found and hit.eval != NO_EVAL else cached_eval(st)
        stand = raw
        if corr_on(st.params):
            corr_find_at(st, ply, &cr)
            stand = corrected(raw, &cr, st.params)
        best = stand
        if found and (hit.bound & (TT_LOWER if tt_score > stand else TT_UPPER)):
            best = tt_score
        if best >= beta:
            if use_tt and not found:
                tt_store(&st.tt, pos.key, 0, score_to_tt(best, ply), raw, -1, TT_LOWER, tt_pv)
            return best
        if best > alpha:
            alpha = best
        n = gen_moves(pos, mvs, True)
    score_moves(&st.hist, pos.board, pos.side, mvs, scores, n, hit.mv if found else 0,
                st.killers[ply][0], st.killers[ply][1], 0, st.mkey[ply], -1, -1)
    cdef KingGuard g
    guard_init(pos, &g, checked)
    # futility (delta pruning): a capture that cannot lift the standing
    # score to alpha even with the victim's whole value (material and
    # placement, the larger of its two phases) and a margin is not made,
    # unless it checks
    cdef bint futile = not checked and st.params[P_QS_FUT] > 0
    cdef int fut, v
    for i in range(n):
        mv = pick(mvs, scores, n, i)
        if not checked and st.params[P_QS_SEE] and not see_ge(pos, mv, 0):
            continue
        if futile:
            v = PST[KIND[pos.board[mv >> 8]]][mv >> 8]
            fut = stand + st.params[P_QS_FUT] + (mg_of(v) if mg_of(v) > eg_of(v) else eg_of(v))
            if fut <= alpha and not (may_give_check(pos, mv) and gives_check(pos, mv)):
                if fut > best:
                    best = fut
                continue
        if qply + 1 < st.params[P_QS_TT]:
            tt_prefetch(&st.tt, key_after(pos, mv))
        if not step(st, mv, &g):
            continue
        legal += 1
        score = -qsearch(st, -beta, -alpha, qply + 1)
        unstep(st)
        if cx_load(&st.stop):
            return 0
        if score > best:
            best = score
            if score > alpha:
                best_mv = mv
                alpha = score
                update_pv(st, mv)
                if score >= beta:
                    break
    if checked and legal == 0:
        return -MATE + ply          # mated (or stalemated: a loss too)
    if use_tt:
        tt_store(&st.tt, pos.key, best_mv, score_to_tt(best, ply), raw, -1,
                 TT_LOWER if best >= beta else (TT_EXACT if pv_node and best > old_alpha
                                                else TT_UPPER), tt_pv)
    return best


# --- the main search --------------------------------------------------------------------

cdef int search(SearchState *st, int depth, int alpha, int beta, bint cut_node) noexcept nogil:
    cdef int ply = st.ply
    cdef Position *pos = &st.pos
    cdef bint pv_node = beta - alpha > 1
    cdef int score
    cdef int *prm = st.params
    st.pv_len[ply] = 0

    # 1. repetition (perpetual check or chase loses), the move limit, the ply limit
    if repetition(st, &score):
        return score
    cdef bint checked = st.checks[st.root + ply]
    if pos.halfmove >= MOVE_LIMIT and not checked:
        return 0
    if ply >= MAX_PLY - 1:
        return 0 if checked else evaluate(pos)

    # 2. check extension (within reason), then quiescence at the horizon
    if checked and ply < 2 * st.root_depth + 8:
        depth += 1
    if depth <= 0:
        return qsearch(st, alpha, beta, 0)
    if out_of_budget(st):
        return 0
    if ply > st.seldepth:
        st.seldepth = ply

    # 3. mate distance pruning
    if alpha < -MATE + ply:
        alpha = -MATE + ply
    if beta > MATE - ply - 1:
        beta = MATE - ply - 1
    if alpha >= beta:
        return alpha

    # 4. transposition table
    cdef int excluded = st.excluded[ply]
    cdef TTHit hit
    cdef bint found = excluded == 0 and tt_probe(&st.tt, pos.key, &hit)
    cdef int hash_mv = 0, tt_score = 0
    # tt_pv: on a principal variation now or (says the table) before; kept
    # in the table for Engine.probe (reducing less at such nodes, as
    # Stockfish's ttPv, was tried and not kept: README)
    cdef bint tt_pv = pv_node
    if found:
        tt_pv = tt_pv or hit.pv
        tt_score = score_from_tt(hit.score, ply)
        hash_mv = hit.mv
        if hash_mv and not is_pseudo_legal(pos, hash_mv):
            hash_mv = 0
        if not pv_node and hit.depth >= depth and (
                hit.bound == TT_EXACT or (hit.bound == TT_LOWER and tt_score >= beta)
                or (hit.bound == TT_UPPER and tt_score <= alpha)):
            return tt_score

    # 5. static evaluation (corrected by the correction history); improving:
    # better than two plies ago
    cdef int static_eval = NO_EVAL, eval_ = NO_EVAL, raw_eval = NO_EVAL
    cdef Corr cr
    cdef bint corr = False
    cdef bint improving = False
    if not checked:
        if found and hit.eval != NO_EVAL:
            raw_eval = hit.eval
        else:
            raw_eval = cached_eval(st)
        static_eval = raw_eval
        if corr_on(prm):
            corr = True
            corr_find_at(st, ply, &cr)
            static_eval = corrected(raw_eval, &cr, prm)
        eval_ = static_eval
        if found and abs(tt_score) < WIN and (
                hit.bound & (TT_LOWER if tt_score > static_eval else TT_UPPER)):
            eval_ = tt_score
        if ply >= 2 and st.static_eval[ply - 2] != NO_EVAL:
            improving = static_eval > st.static_eval[ply - 2]
        elif ply >= 4 and st.static_eval[ply - 4] != NO_EVAL:
            improving = static_eval > st.static_eval[ply - 4]
        else:
            improving = True
    st.static_eval[ply] = static_eval
    st.killers[ply + 1][0] = 0
    st.killers[ply + 1][1] = 0

    # 6. pruning from the static evaluation: not in check, not on the PV
    cdef Undo nu
    cdef int r
    if not checked and not pv_node and excluded == 0:
        # razoring: hopeless near the horizon, unless captures save it
        if prm[P_RAZOR] and depth <= 3 and eval_ + prm[P_RAZOR] * depth < alpha:
            score = qsearch(st, alpha, alpha + 1, 0)
            if score <= alpha:
                return score
        # reverse futility: so far above beta that a quiet move will not fall below
        if prm[P_RFP] and depth <= 7 and abs(beta) < WIN \
                and eval_ - prm[P_RFP] * (depth - improving) >= beta:
            return eval_
        # null move: if passing still fails high, so will a real move
        if prm[P_NULL] and depth >= 2 and st.mkey[ply] >= 0 and eval_ >= beta \
                and static_eval >= beta - 20 * depth and abs(beta) < WIN and null_ok(pos):
            r = 3 + depth // 4
            if eval_ - beta >= 200:
                r += 1
            make_null(pos, &nu)
            tt_prefetch(&st.tt, pos.key)
            st.ply += 1
            st.keys[st.root + st.ply] = pos.key
            st.checks[st.root + st.ply] = 0
            st.line[st.root + ply] = nu
            st.mkey[st.ply] = -1
            st.dext[st.ply] = st.dext[ply]
            memcpy(st.ckeys[st.ply], st.ckeys[ply], N_CKEYS * sizeof(u64))
            score = -search(st, depth - r, -beta, -beta + 1, not cut_node)
            st.ply -= 1
            unmake_null(pos, &nu)
            if cx_load(&st.stop):
                return 0
            if score >= beta:
                return beta if score > WIN else score

    # 7. internal iterative reduction: no hash move, likely not worth full depth
    if prm[P_IIR] and depth >= 4 and hash_mv == 0 and excluded == 0 and (pv_node or cut_node):
        depth -= 1

    # 8. the moves, from the staged picker (_order): the hash move before any
    # generation, good captures, killers and counter-move, quiet moves by
    # history, losing captures
    cdef MovePicker mp
    cdef int tried[MAX_MOVES]
    cdef int n_tried = 0
    cdef int captures[MAX_MOVES]        # the captures tried (for the capture history)
    cdef int n_captures = 0
    cdef int k1 = st.mkey[ply] if prm[P_CONT] else -1
    cdef int k2 = st.mkey[ply - 1] if ply >= 1 and prm[P_CONT] else -1
    cdef int k4 = st.mkey[ply - 3] if ply >= 3 and prm[P_CONT] and prm[P_CONT4] else -1
    cdef int counter = st.hist.counter[st.mkey[ply]] if st.mkey[ply] >= 0 else 0
    cdef int best = -INF, best_mv = 0, legal = 0
    cdef int old_alpha = alpha
    cdef int mv, new_depth, ext, lmr_depth, sbeta, d, mscore
    cdef bint quiet, gives, prune, late, lmp
    # late-move pruning's move count: lmp percent of (3 + depth^2) / (2 - improving)
    # (in 64 bits: a large lmp times a deep node's depth^2 passes an int)
    cdef int lmp_limit = <int> ((3 + depth * depth) * <long long> prm[P_LMP]
                                // (100 * (2 - improving)))
    cdef KingGuard g
    guard_init(pos, &g, checked)
    picker_init(&mp, hash_mv, st.killers[ply][0], st.killers[ply][1], counter, k1, k2, k4)
    mp.capt_w = prm[P_CAPT_HIST]
    while True:
        # 8a's verdict on a late quiet move (late-move or futility pruning),
        # made before the picker hands the next move out: it depends only on
        # legal, alpha, best and whether a move has raised alpha (best_mv;
        # fut_nobest widens the margin until one has), which only grow, so
        # once it holds it holds for every quiet move left (with a positive
        # futility margin), and the picker may skip, unscored, those that
        # cannot check: the same nodes
        late = False
        if best > -WIN:
            lmr_depth = depth - 1 - (st.lmr[depth if depth < 64 else 63][legal if legal < 64 else 63]
                                     if prm[P_LMR] else 0)
            if lmr_depth < 0:
                lmr_depth = 0
            if not checked:
                lmp = prm[P_LMP] and not pv_node and legal >= lmp_limit
                late = lmp or (prm[P_FUTILITY] and lmr_depth <= 6
                               and static_eval + 100 + prm[P_FUTILITY] * lmr_depth
                               + (prm[P_FUT_NOBEST] if best_mv == 0 else 0) <= alpha)
                if late and (lmp or prm[P_FUTILITY] > 0):
                    mp.skip_quiets = True
        mv = next_move(&mp, pos, &st.hist)
        if mv == 0:
            break
        mscore = mp.score
        if mv == excluded:
            continue
        quiet = pos.board[mv >> 8] == EMPTY
        tt_prefetch(&st.tt, key_after(pos, mv))

        # 8a. pruning near the horizon, once a move is known not to be mated;
        # checking moves are never pruned (in xiangqi most attacks are checks)
        if best > -WIN and (quiet or mscore < 0):
            prune = False
            if quiet and mscore < SCORE_KILLER:
                if late:
                    prune = True
                elif prm[P_HIST_PRUNE] and lmr_depth <= 5 and mscore < -prm[P_HIST_PRUNE] * depth:
                    prune = True
                elif prm[P_SEE_QUIET] and lmr_depth <= 7 \
                        and not see_ge(pos, mv, -prm[P_SEE_QUIET] * lmr_depth * lmr_depth):
                    prune = True
            elif not quiet and prm[P_SEE_CAPTURE] and depth <= 6 \
                    and not see_ge(pos, mv, -prm[P_SEE_CAPTURE] * depth):
                prune = True
            if prune and not (may_give_check(pos, mv) and gives_check(pos, mv)):
                continue

        # 8b. singular extension: is the hash move much better than the rest?
        ext = 0
        if prm[P_SINGULAR] and not st.smp and mv == hash_mv and depth >= prm[P_SINGULAR] \
                and ply > 0 and excluded == 0 \
                and (hit.bound & TT_LOWER) and hit.depth >= depth - 3 and abs(tt_score) < WIN \
                and ply < 2 * st.root_depth:
            sbeta = tt_score - 2 * depth
            st.excluded[ply] = mv
            score = search(st, (depth - 1) // 2, sbeta - 1, sbeta, cut_node)
            st.excluded[ply] = 0
            if cx_load(&st.stop):
                return 0
            if score < sbeta:
                ext = 1
                # far below: the only move, worth two plies (a few times a path)
                if prm[P_SING_DBL] and not pv_node and score < sbeta - prm[P_SING_DBL] \
                        and st.dext[ply] < MAX_DOUBLE_EXT:
                    ext = 2
            elif sbeta >= beta:
                return sbeta            # several moves beat beta: multi-cut
            st.pv_len[ply] = 0

        if not step(st, mv, &g):
            continue
        legal += 1
        gives = st.checks[st.root + st.ply]
        new_depth = depth - 1 + ext
        st.dext[ply + 1] = st.dext[ply] + (ext > 1)

        # 8c. late-move reductions, then principal-variation re-searches
        if prm[P_LMR] and depth >= 2 and legal > 1 + pv_node \
                and (quiet or mscore < 0 or prm[P_LMR_CAPT]):
            r = st.lmr[depth if depth < 64 else 63][legal if legal < 64 else 63]
            if not quiet and mscore >= 0:
                # a capture that SEE does not lose: a share of a quiet move's reduction
                r = r * prm[P_LMR_CAPT] // 100
            r += not improving
            r += cut_node
            r -= pv_node
            if mscore >= SCORE_KILLER and quiet:
                r -= 1
            if quiet and mscore < SCORE_KILLER:
                r -= mscore // prm[P_HIST_DIV]     # the history score
            if gives:
                r -= 1
            d = new_depth - r
            if d > new_depth:
                d = new_depth
            if d < 1:
                d = 1
            score = -search(st, d, -alpha - 1, -alpha, True)
            if score > alpha and d < new_depth:
                if prm[P_DEEPER]:
                    # (Stockfish's doDeeperSearch / doShallowerSearch)
                    if score > best + prm[P_DEEPER] + 2 * new_depth:
                        new_depth += 1
                    elif score < best + 9:
                        new_depth -= 1
                if new_depth > d:
                    score = -search(st, new_depth, -alpha - 1, -alpha, not cut_node)
        elif not pv_node or legal > 1:
            score = -search(st, new_depth, -alpha - 1, -alpha, not cut_node)
        if pv_node and (legal == 1 or score > alpha):
            score = -search(st, new_depth, -beta, -alpha, False)
        unstep(st)
        if cx_load(&st.stop):
            return 0

        if score > best:
            best = score
            if score > alpha:
                best_mv = mv
                alpha = score
                if pv_node:
                    update_pv(st, mv)
                if score >= beta:
                    if quiet:
                        update_quiet_stats(st, &mp, mv, tried, n_tried, depth)
                    if prm[P_CAPT_HIST]:
                        update_capture_stats(st, mv, quiet, captures, n_captures, depth)
                    break
        if quiet:
            if n_tried < MAX_MOVES:
                tried[n_tried] = mv
                n_tried += 1
        elif n_captures < MAX_MOVES:
            captures[n_captures] = mv
            n_captures += 1

    # 9. no legal move: mated or stalemated, and both lose in xiangqi
    if legal == 0:
        return alpha if excluded else -MATE + ply
    if excluded == 0:
        # the correction history learns from results the static evaluation
        # could not see (not a capture's), when the bound says on which side
        # of it the true score lies
        if corr and (best_mv == 0 or pos.board[best_mv >> 8] == EMPTY) \
                and abs(best) < BAN and not (best >= beta and best <= static_eval) \
                and not (best <= old_alpha and best >= static_eval):
            corr_update(&cr, best - static_eval, depth)
        tt_store(&st.tt, pos.key, best_mv, score_to_tt(best, ply), raw_eval, depth,
                 TT_LOWER if best >= beta else (TT_EXACT if pv_node and best > old_alpha
                                                else TT_UPPER), tt_pv)
    return best


# One iteration at the root over st.root_moves (all legal).  The best move
# goes to the front of the list, and to st.best_mv / st.pv[0], as soon as it
# is found, so an interrupted iteration still leaves its best move so far.
cdef int search_root(SearchState *st, int depth, int alpha, int beta) noexcept nogil:
    cdef int i, k, mv, score, best = -INF, d, r
    cdef bint quiet
    st.ply = 0
    corr_hashes(&st.pos, st.ckeys[0])
    st.pv_len[0] = 0
    st.root_depth = depth
    st.static_eval[0] = NO_EVAL if st.checks[st.root] else evaluate(&st.pos)
    st.excluded[0] = 0
    st.dext[0] = 0
    st.dext[1] = 0
    cdef KingGuard g
    guard_init(&st.pos, &g, st.checks[st.root])
    for i in range(st.n_root):
        mv = st.root_moves[i]
        quiet = st.pos.board[mv >> 8] == EMPTY
        tt_prefetch(&st.tt, key_after(&st.pos, mv))
        step(st, mv, &g)
        if i == 0:
            score = -search(st, depth - 1, -beta, -alpha, False)
        else:
            # late root moves: a reduced null-window look first
            r = 0
            if st.params[P_LMR] and depth >= 3 and i >= 3 and quiet and not st.checks[st.root + 1]:
                r = st.lmr[depth if depth < 64 else 63][i if i < 64 else 63] - 1
                if r < 0:
                    r = 0
                if r > depth - 2:
                    r = depth - 2
            score = -search(st, depth - 1 - r, -alpha - 1, -alpha, True)
            if score > alpha and r > 0:
                score = -search(st, depth - 1, -alpha - 1, -alpha, True)
            if score > alpha and score < beta:
                score = -search(st, depth - 1, -beta, -alpha, False)
        unstep(st)
        if cx_load(&st.stop):
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


# A Lazy SMP helper's iterative deepening, without the GIL, with the full
# window: each iteration at least `ahead` plies beyond the main thread's
# current one (an iteration cut short by stop() is not counted: the helper
# goes on from there), until the main thread's search is over or the
# deadline passes.  What the helper finds reaches the main thread through
# the shared table.
cdef void helper_run(SearchState *st, int ahead, int max_depth) noexcept nogil:
    cdef SearchState *main = st.owner
    cdef int depth = 1, target
    while True:
        # in this order (and the main thread sets smp_done before it stops
        # the helpers): a stop that ends the search is never cleared unseen
        cx_store_sc(&st.stop, 0)
        if cx_load_sc(&main.smp_done):
            break
        target = cx_load(&main.smp_depth) + ahead
        if depth < target:
            depth = target
        if depth > max_depth:
            break
        cx_store(&st.smp_current, depth)
        search_root(st, depth, -INF, INF)
        if st.deadline > 0 and now() >= st.deadline:
            break
        if not cx_load(&st.stop):
            depth += 1
    cx_store(&st.smp_current, 0)


# Plays the principal variation of the quiescence search from pos (at most
# max_moves moves): the quiet position the evaluation of pos rests on (the
# tuner's positions).  Writes the moves to out; returns their number.
cdef int quiet_line(SearchState *st, int *out, int max_moves) noexcept nogil:
    st.ply = 0
    corr_hashes(&st.pos, st.ckeys[0])
    st.nodes = 0
    st.node_limit = 200000
    cx_store(&st.stop, 0)
    qsearch(st, -INF, INF, 0)
    cdef int n = st.pv_len[0]
    if n > max_moves:
        n = max_moves
    cdef int k
    for k in range(n):
        out[k] = st.pv[0][k]
    st.node_limit = 0
    return n


cdef class Searcher:
    """The C search state.  Private: use cxiangqi.engine.Engine."""

    cdef SearchState *st
    cdef size_t tt_buckets
    cdef bint owns_tt
    cdef object tt_owner        # the Searcher whose table this one uses (Lazy SMP)

    def __cinit__(self, int hash_mb=64):
        self.st = <SearchState *> calloc(1, sizeof(SearchState))
        if self.st == NULL:
            raise MemoryError()
        self.owns_tt = False
        self.set_hash(hash_mb)
        cdef int i
        for i in range(N_PARAMS):
            self.st.params[i] = PARAM_DEFAULTS[i]
        spec = os.environ.get("CXIANGQI_SEARCH_PARAMS", "")
        if spec:
            self.set_params(spec)

    def __dealloc__(self):
        if self.st != NULL:
            if self.owns_tt:
                free(self.st.tt.buckets)
            free(self.st)

    def set_params(self, spec):
        """Sets search parameters from "name=value,..." (names in PARAM_NAMES;
        integers, |value| <= 100000).  All or nothing: a bad item raises
        ValueError and changes no parameter."""
        values = {}
        for item in spec.split(","):
            name, sep, value = item.partition("=")
            name = name.strip()
            if not sep or name not in PARAM_NAMES:
                raise ValueError(f"bad search parameter {item!r}: use name=value with a name "
                                 f"from {PARAM_NAMES}")
            try:
                v = int(value)
            except ValueError:
                raise ValueError(f"bad search parameter {item!r}: the value must be an integer")
            if not -100000 <= v <= 100000:
                raise ValueError(f"bad search parameter {item!r}: out of range (|value| <= 100000)")
            if name in PARAM_LEAST and v < PARAM_LEAST[name][0]:
                raise ValueError(f"{name} {PARAM_LEAST[name][1]}")
            values[name] = v
        for name, v in values.items():
            self.st.params[PARAM_NAMES.index(name)] = v

    def params(self):
        return {name: self.st.params[i] for i, name in enumerate(PARAM_NAMES)}

    def set_hash(self, int mb):
        """Transposition table of about `mb` megabytes (a power of two of
        buckets, at least 1 MB)."""
        if mb < 1 or mb > 65536:
            raise ValueError(f"hash size must be 1..65536 MB, got {mb}")
        cdef size_t n = 1
        while n * 2 * sizeof(TTBucket) <= <size_t> mb * 1024 * 1024:
            n *= 2
        # memory is promised before it is touched: a table the machine
        # cannot hold would be granted, then the clearing memset would
        # bring the kernel's OOM killer (the old table stays on failure)
        free_bytes = _checks.memory_available()
        if free_bytes is not None and n * sizeof(TTBucket) > free_bytes:
            raise MemoryError(f"a {mb} MB hash table does not fit the {free_bytes >> 20} MB "
                              f"of memory available")
        cdef TTBucket *buckets = <TTBucket *> cx_table_alloc(n * sizeof(TTBucket))
        if buckets == NULL:
            raise MemoryError(f"cannot allocate a {mb} MB hash table")
        if self.owns_tt:
            free(self.st.tt.buckets)
        self.st.tt.buckets = buckets
        self.st.tt.mask = n - 1
        self.tt_buckets = n
        self.owns_tt = True
        self.tt_owner = None

    def share_table(self, Searcher owner not None):
        """Searches with owner's transposition table from now on (the helper
        threads of a Lazy SMP search share the main searcher's table: the
        entries are written lock-free, see _tt.pxd).  The owner keeps the
        memory; call again after the owner's set_hash()."""
        if owner is self:
            return
        if self.owns_tt:
            free(self.st.tt.buckets)
        self.st.tt.buckets = owner.st.tt.buckets
        self.st.tt.mask = owner.st.tt.mask
        self.st.tt.generation = owner.st.tt.generation
        self.st.owner = owner.st
        self.tt_buckets = owner.tt_buckets
        self.owns_tt = False
        self.tt_owner = owner

    @property
    def generation(self):
        return self.st.tt.generation

    @generation.setter
    def generation(self, int value):
        self.st.tt.generation = value % TT_GENERATIONS

    def clear(self):
        """Forgets everything learnt: hash table (when this searcher owns
        it), killers, history."""
        if self.owns_tt:
            memset(self.st.tt.buckets, 0, self.tt_buckets * sizeof(TTBucket))
        self.st.tt.generation = 0
        memset(self.st.killers, 0, sizeof(self.st.killers))
        memset(&self.st.hist, 0, sizeof(History))
        memset(self.st.ecache, 0, sizeof(self.st.ecache))

    def new_search(self):
        """Starts a new search generation: older table entries become the
        first to be replaced."""
        self.st.tt.generation = (self.st.tt.generation + 1) % TT_GENERATIONS

    def hashfull(self):
        """Permille of the table's first 500 buckets used by this search."""
        cdef int i, k, used = 0
        cdef int n = 500 if self.tt_buckets >= 500 else <int> self.tt_buckets
        for i in range(n):
            for k in range(2):
                if self.st.tt.buckets[i].slot[k].data != 0 and \
                        tt_gen_of(self.st.tt.buckets[i].slot[k].data) == self.st.tt.generation:
                    used += 1
        return used * 1000 // (2 * n)

    def probe(self, PyPosition position not None):
        """The table's entry for position: (move as from * 90 + to, or None;
        score; static evaluation or None; depth (-1: quiescence); bound, 1
        upper / 2 lower / 3 exact; pv flag), or None.  Only reads the table
        (with the GIL, so no resize meets it); safe while a search writes to
        it.  The move is as stored: not checked for legality."""
        cdef TTHit hit
        if not tt_probe(&self.st.tt, position.pos.key, &hit):
            return None
        cdef int code = move_code(hit.mv)
        return (None if code < 0 else code, hit.score,
                None if hit.eval == NO_EVAL else hit.eval, hit.depth, hit.bound, bool(hit.pv))

    def correction(self, PyPosition position not None):
        """What the correction histories add to position's static evaluation
        (side to move's view) with this searcher's parameters, in
        centipawns; 0 until the search learns something."""
        cdef Corr c
        cdef u64 ck[N_CKEYS]
        corr_hashes(&position.pos, ck)
        corr_find(&self.st.hist, position.pos.side, ck, -1, -1, self.st.params, &c)
        return corrected(0, &c, self.st.params)

    def setup(self, PyPosition position not None, excluded=()):
        """Takes the position to search and its repetition history (the
        game's moves since the last capture) from a _core.Position; the root
        moves are its legal moves less `excluded` (move codes from * 90 + to)."""
        cdef SearchState *st = self.st
        st.pos = position.pos
        # walk back through the game to collect keys, check flags and moves
        cdef int back = position.n_undo
        if back > st.pos.halfmove:
            back = st.pos.halfmove
        if back > MAX_HISTORY:
            back = MAX_HISTORY
        if back < 0:
            back = 0
        cdef int i
        st.root = back
        st.keys[back] = st.pos.key
        st.checks[back] = in_check(&st.pos, st.pos.side)
        for i in range(back):
            st.line[back - 1 - i] = position.undo[position.n_undo - 1 - i]
            unmake_move(&st.pos, &st.line[back - 1 - i])
            st.keys[back - 1 - i] = st.pos.key
            st.checks[back - 1 - i] = in_check(&st.pos, st.pos.side)
        st.pos = position.pos
        # the repetition window must not reach before the collected history
        # (the move limit still counts from the real clock)
        if st.pos.halfmove < 0:
            st.pos.halfmove = 0
        cdef int mvs[MAX_MOVES]
        cdef int n = gen_legal(&st.pos, mvs, False)
        cdef set skip = set(excluded)
        st.n_root = 0
        for i in range(n):
            if move_code(mvs[i]) not in skip:
                st.root_moves[st.n_root] = mvs[i]
                st.root_scores[st.n_root] = 0
                st.n_root += 1
        st.seldepth = 0
        cx_store(&st.stop, 0)
        st.ply = 0
        st.mkey[0] = -1
        if back > 0:
            # the last game move, for the counter-move and continuation tables
            st.pos = position.pos
            unmake_move(&st.pos, &st.line[back - 1])
            st.mkey[0] = move_key(st.pos.board, st.line[back - 1].mv)
            st.pos = position.pos
        memset(st.killers, 0, sizeof(st.killers))
        memset(st.pv_len, 0, sizeof(st.pv_len))
        memset(st.excluded, 0, sizeof(st.excluded))
        build_lmr(st, st.params[P_LMR_DIV])
        # a first guess at the order: hash move, then captures by MVV/LVA and
        # quiet moves by history
        cdef TTHit hit
        cdef int hash_mv = hit.mv if tt_probe(&st.tt, st.pos.key, &hit) else 0
        score_moves(&st.hist, st.pos.board, st.pos.side, st.root_moves, st.root_scores,
                    st.n_root, hash_mv, 0, 0, 0, -1, -1, -1)
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
        cx_store(&self.st.stop, 1)

    @property
    def stopped(self):
        return cx_load(&self.st.stop) != 0

    @property
    def smp(self):
        """True while this searcher is one of the threads of a Lazy SMP
        search.  Such a search makes no singular extensions: they depend on
        what the table holds, so with the entries of other threads the main
        thread's tree grew instead of shrinking (time to depth 16, two
        threads against one: about 1.1x with them, 1.35x without; see
        benchmarks/threads_speedup.py)."""
        return self.st.smp != 0

    def smp_start(self):
        """The main thread of a Lazy SMP search: before the helpers start."""
        self.st.smp = 1
        cx_store(&self.st.smp_depth, 0)
        cx_store(&self.st.smp_done, 0)

    def smp_iteration(self, int depth):
        """The main thread of a Lazy SMP search begins iteration `depth`."""
        cx_store(&self.st.smp_depth, depth)

    def smp_finish(self):
        """The main thread's search is over: the helpers return."""
        self.st.smp = 0
        cx_store_sc(&self.st.smp_done, 1)

    @property
    def smp_current(self):
        """The depth a helper is searching (0: none)."""
        return cx_load(&self.st.smp_current)

    def run_helper(self, int ahead, int max_depth):
        """Runs as a Lazy SMP helper of the searcher whose table this one
        shares (share_table), until that one's smp_finish() or the
        deadline; see helper_run.  The GIL is released throughout."""
        if self.st.owner == NULL:
            raise ValueError("a helper must share another searcher's table first")
        if max_depth < 1 or max_depth >= MAX_PLY - 1 or ahead < 0:
            raise ValueError("bad helper depths")
        self.st.smp = 1
        with nogil:
            helper_run(self.st, ahead, max_depth)

    def search_depth(self, int depth, int alpha=-INF, int beta=INF):
        """One iteration to `depth` plies; returns its score (side to move's
        view).  The GIL is released throughout.  In the main thread, with
        Python's default SIGINT handler, Ctrl-C stops the search with
        KeyboardInterrupt (see _sigint.pxd)."""
        if depth < 1 or depth >= MAX_PLY - 1:
            raise ValueError(f"depth must be 1..{MAX_PLY - 2}")
        if not (-INF <= alpha < beta <= INF):
            raise ValueError(f"bad window ({alpha}, {beta})")
        cdef int score
        cdef bint caught = sigint_catch(&self.st.stop, _interrupt.catchable())
        with nogil:
            score = search_root(self.st, depth, alpha, beta)
        if caught and cx_sigint_release():
            _interrupt.deliver()
        return score

    def best_move(self):
        """Best root move so far as from * 90 + to, or None."""
        cdef int mv = self.st.best_mv
        if mv == 0:
            return None
        return move_code(mv)

    def pv(self):
        """Principal variation of the last completed root update."""
        cdef int k, mv
        cdef list out = []
        for k in range(self.st.pv_len[0]):
            mv = self.st.pv[0][k]
            out.append(move_code(mv))
        return out

    def root_moves(self):
        return [move_code(self.st.root_moves[i]) for i in range(self.st.n_root)]

    @property
    def nodes(self):
        return self.st.nodes

    @property
    def seldepth(self):
        return self.st.seldepth

    def evaluate(self, PyPosition position not None):
        """Static evaluation of a position, side to move's view."""
        return evaluate(&position.pos)

    def quiet_line(self, PyPosition position not None):
        """The quiescence search's principal variation from the position
        (moves as from * 90 + to): playing it reaches the quiet position
        whose evaluation the position's value rests on."""
        self.setup(position)
        cdef int out[MAX_PLY]
        cdef int n
        with nogil:
            n = quiet_line(self.st, out, MAX_PLY)
        return [move_code(out[k]) for k in range(n)]


def see_at_least(PyPosition position not None, int move, int threshold):
    """Static exchange evaluation as the search uses it: True when `move`
    (from * 90 + to, a pseudo-legal move of the side to move) and the best
    recaptures on its target that either side may stop gain at least
    `threshold` centipawns for the mover."""
    if not 0 <= move < 90 * 90:
        raise ValueError(f"move code out of range: {move} (expected from * 90 + to, 0..8099)")
    if not -100000 <= threshold <= 100000:
        raise ValueError(f"threshold out of range: {threshold} (expected -100000..100000)")
    cdef int mv = SQ90_TO_SQ[move // 90] | (SQ90_TO_SQ[move % 90] << 8)
    if not is_pseudo_legal(&position.pos, mv):
        raise ValueError(f"not a move of the side to move: {move}")
    return see_ge(&position.pos, mv, threshold)


def eval_features(PyPosition position not None):
    """(score, counts, phase, scale): the static evaluation (side to move's
    view) and what it is made of: the feature counts (Red minus Black, in
    the order of _eval.FEATURE_BLOCKS), the phase and the scale factor."""
    cdef int tr[T_SIZE]
    cdef int score = eval_trace(&position.pos, tr)
    cdef int n = T_SIZE - 2
    return score, [tr[k] for k in range(n)], tr[n], tr[n + 1]


def eval_part_costs(positions, reps):
    """Nanoseconds per position of the evaluation and of each of its parts
    (_eval.EVAL_PART_NAMES: the whole, the bare timing loop, the piece
    counts with phase and scale factor, then mobility, the king's lines,
    defence and pawns, both sides each), each timed over `reps` passes
    through `positions` (_core.Position objects, copied first): a
    measurement for benchmarks/eval_terms.py, not a search feature."""
    cdef list ps = list(positions)
    cdef Py_ssize_t n = len(ps)
    if n == 0 or n > 1_000_000:
        raise ValueError(f"need 1..1000000 positions, got {n}")
    reps = _checks.integer(reps, "reps", 1, 1_000_000)
    if n * reps > 100_000_000:
        raise ValueError(f"positions x reps must be at most 100000000 (a minute of work), "
                         f"got {n} x {reps}")
    for p in ps:
        if not isinstance(p, PyPosition):
            raise TypeError(f"expected cxiangqi._core.Position objects, got {type(p).__name__}")
    cdef Position *cps = <Position *> malloc(n * sizeof(Position))
    if cps == NULL:
        raise MemoryError("no memory for the positions")
    cdef double out[EVAL_PARTS]
    cdef int i
    cdef int c_reps = reps
    try:
        for i in range(n):
            cps[i] = (<PyPosition> ps[i]).pos
        with nogil:
            c_eval_part_costs(cps, <int> n, c_reps, out)
    finally:
        free(cps)
    if out[0] < 0:
        raise MemoryError("no memory for the piece counts")
    return {name: out[i] for i, name in enumerate(_eval.EVAL_PART_NAMES)}


MATE_SCORE = MATE
WIN_SCORE = WIN
BAN_SCORE = BAN
INFINITE = INF
MAX_DEPTH = MAX_PLY - 2
