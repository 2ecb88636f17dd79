# Move ordering: the history tables the search learns from its cut-offs, and
# the scores that put the likeliest best move first.  Everything is inline.
#
# Order of the moves at a node: the hash move; captures that do not lose
# material (SEE, tested lazily when picked) by most valuable victim, least
# valuable attacker; the two killers and the counter-move; the other quiet
# moves by history (butterfly + continuation history of the last two moves);
# last the losing captures.
#
# A move's "key" for the continuation tables is kind * 90 + target (Python
# square), kind = side * 7 + piece type of the moving piece.

from cxiangqi._types cimport *
from cxiangqi._tables cimport KIND, PTYPE, SQ_TO_SQ90
from cxiangqi._see cimport SEE_VALUE

cdef enum:
    N_KEYS = 14 * 90
    HIST_MAX = 16384            # every history entry stays within +-HIST_MAX
    SCORE_HASH = 1 << 30
    SCORE_GOOD_CAPTURE = 1 << 28
    SCORE_KILLER = 1 << 27      # + 2, + 1: first and second killer; + 0: counter-move
    SCORE_BAD_CAPTURE = -(1 << 28)
    SCORE_CAPTURE_BAND = 1 << 20    # captures' MVV/LVA part stays below this

ctypedef struct History:
    int butterfly[2][90][90]            # [side][from][to]
    int counter[N_KEYS]                 # the move that refuted the move with this key
    short cont[N_KEYS][N_KEYS]          # [previous move's key][this move's key]


cdef inline int move_key(const u8 *board, int mv) noexcept nogil:
    return KIND[board[mv & 255]] * 90 + SQ_TO_SQ90[mv >> 8]


# History "gravity": a bonus moves the entry towards +-HIST_MAX, less the
# closer it already is, so old lessons fade instead of saturating.
cdef inline void hist_add(int *h, int bonus) noexcept nogil:
    h[0] += bonus - h[0] * (bonus if bonus > 0 else -bonus) // HIST_MAX

cdef inline void cont_add(short *h, int bonus) noexcept nogil:
    cdef int v = h[0]
    v += bonus - v * (bonus if bonus > 0 else -bonus) // HIST_MAX
    h[0] = <short> v


cdef inline int capture_score(const u8 *board, int mv) noexcept nogil:
    return SEE_VALUE[PTYPE[board[mv >> 8]]] * 16 - SEE_VALUE[PTYPE[board[mv & 255]]] // 16


# History score of a quiet move for `side`; k1, k2: keys of the last two
# moves (-1 when none or a null move).
cdef inline int quiet_score(const History *h, const u8 *board, int side, int mv,
                            int k1, int k2) noexcept nogil:
    cdef int key = move_key(board, mv)
    cdef int s = h.butterfly[side][SQ_TO_SQ90[mv & 255]][SQ_TO_SQ90[mv >> 8]]
    if k1 >= 0:
        s += h.cont[k1][key]
    if k2 >= 0:
        s += h.cont[k2][key]
    return s


# Scores mvs[0..n) for picking: see the order above.
cdef inline void score_moves(const History *h, const u8 *board, int side, const int *mvs,
                             int *scores, int n, int hash_mv, int killer1, int killer2,
                             int counter, int k1, int k2) noexcept nogil:
    cdef int i, mv
    for i in range(n):
        mv = mvs[i]
        if mv == hash_mv:
            scores[i] = SCORE_HASH
        elif board[mv >> 8] != EMPTY:
            scores[i] = SCORE_GOOD_CAPTURE + capture_score(board, mv)
        elif mv == killer1:
            scores[i] = SCORE_KILLER + 2
        elif mv == killer2:
            scores[i] = SCORE_KILLER + 1
        elif mv == counter:
            scores[i] = SCORE_KILLER
        else:
            scores[i] = quiet_score(h, board, side, mv, k1, k2)


# Swaps the best-scored of mvs[i..n) into place i and returns it.
cdef inline int pick(int *mvs, int *scores, int n, int i) noexcept nogil:
    cdef int best = i, k, t
    for k in range(i + 1, n):
        if scores[k] > scores[best]:
            best = k
    if best != i:
        t = mvs[i]; mvs[i] = mvs[best]; mvs[best] = t
        t = scores[i]; scores[i] = scores[best]; scores[best] = t
    return mvs[i]


# Sorts mvs[i..n) by score, best first (insertion sort: the quiet moves
# left once the hash move, captures and killers are picked; picking them one
# by one cost a selection pass per move, 11% of the search's instructions).
cdef inline void sort_rest(int *mvs, int *scores, int n, int i) noexcept nogil:
    cdef int k, j, m, sc
    for k in range(i + 1, n):
        m = mvs[k]
        sc = scores[k]
        j = k - 1
        while j >= i and scores[j] < sc:
            mvs[j + 1] = mvs[j]
            scores[j + 1] = scores[j]
            j -= 1
        mvs[j + 1] = m
        scores[j + 1] = sc
