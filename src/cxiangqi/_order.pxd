# Move ordering: the history tables the search learns from its cut-offs, and
# the scores that put the likeliest best move first.  Everything is inline.
#
# Order of the moves at a node: the hash move; captures that do not lose
# material (SEE, tested lazily when picked) by most valuable victim, least
# valuable attacker, plus a share of the capture history (search param
# capt_hist); the two killers and the counter-move; the other quiet
# moves by history (butterfly + continuation history of the last two moves
# and of the side to move's move before its last);
# last the losing captures.  When the search would prune every quiet move
# that does not check (late-move or futility pruning), it sets skip_quiets
# and the picker passes over the quiet moves that cannot check, without
# scoring or sorting them (Stockfish's skipQuiets; the same nodes).
#
# A move's "key" for the continuation tables is kind * 90 + target (Python
# square), kind = side * 7 + piece type of the moving piece.

from cxiangqi._types cimport *
from cxiangqi._tables cimport KIND, PTYPE, SQ_TO_SQ90
from cxiangqi._see cimport SEE_VALUE, see_ge
from cxiangqi._position cimport Position
from cxiangqi._movegen cimport (gen_moves, is_pseudo_legal, may_give_check, GEN_CAPTURES,
                                GEN_QUIETS)

cdef enum:
    N_KEYS = 14 * 90
    HIST_MAX = 16384            # every history entry stays within +-HIST_MAX
    CORR_SIZE = 16384           # correction-history entries per side (a power of two)
    CORR_GRAIN = 8              # a correction entry counts 1/CORR_GRAIN of a centipawn
    CORR_MAX = 1024             # every correction entry stays within +-CORR_MAX
    SCORE_HASH = 1 << 30
    SCORE_GOOD_CAPTURE = 1 << 28
    SCORE_KILLER = 1 << 27      # + 2, + 1: first and second killer; + 0: counter-move
    SCORE_BAD_CAPTURE = -(1 << 28)
    SCORE_CAPTURE_BAND = 1 << 20    # captures' MVV/LVA part stays below this

ctypedef struct History:
    int butterfly[2][90][90]            # [side][from][to]
    int counter[N_KEYS]                 # the move that refuted the move with this key
    short cont[N_KEYS][N_KEYS]          # [previous move's key][this move's key]
    short capt[N_KEYS * 8]              # [capt_key]: capturing move's key and captured piece type
    short corr[2][CORR_SIZE]            # [side to move][structure index]: the evaluation's error
    short corr_np[2][2][CORR_SIZE]      # [side to move][colour][index of that colour's pieces]
    short corr_cont[N_KEYS][N_KEYS]     # [the move before the last's key][the last move's key]
    short corr_minor[2][CORR_SIZE]      # [side to move][index of both kings', horses' and cannons']
    short corr_major[2][CORR_SIZE]      # [side to move][index of both kings' and rooks']


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


# The capture history's index of capture mv (the board before it).
cdef inline int capt_key(const u8 *board, int mv) noexcept nogil:
    return move_key(board, mv) * 8 + PTYPE[board[mv >> 8]]


# A cut-off's history bonus at `depth` (Stockfish's stat_bonus shape).
cdef inline int stat_bonus(int depth) noexcept nogil:
    cdef int bonus = depth * depth * 16 + depth * 32
    return bonus if bonus < 1600 else 1600


# History score of a quiet move for `side`; k1, k2: keys of the last two
# moves, k4: of the move two before k2, the side to move's own (Stockfish's
# fourth continuation table; -1 when none or a null move).
cdef inline int quiet_score(const History *h, const u8 *board, int side, int mv,
                            int k1, int k2, int k4) noexcept nogil:
    cdef int key = move_key(board, mv)
    cdef int s = h.butterfly[side][SQ_TO_SQ90[mv & 255]][SQ_TO_SQ90[mv >> 8]]
    if k1 >= 0:
        s += h.cont[k1][key]
    if k2 >= 0:
        s += h.cont[k2][key]
    if k4 >= 0:
        s += h.cont[k4][key]
    return s


# Scores mvs[0..n) for picking: see the order above.
cdef inline void score_moves(const History *h, const u8 *board, int side, const int *mvs,
                             int *scores, int n, int hash_mv, int killer1, int killer2,
                             int counter, int k1, int k2, int k4) noexcept nogil:
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
            scores[i] = quiet_score(h, board, side, mv, k1, k2, k4)


# Swaps the best-scored of mvs[i..n) into place i and returns it.
# (The best score so far is kept in a local, so the compiler can choose
# with conditional moves instead of a branch it would mispredict.)
cdef inline int pick(int *mvs, int *scores, int n, int i) noexcept nogil:
    cdef int best = i, k, t
    cdef int m = scores[i]
    for k in range(i + 1, n):
        if scores[k] > m:
            m = scores[k]
            best = k
    if best != i:
        t = mvs[i]; mvs[i] = mvs[best]; mvs[best] = t
        t = scores[i]; scores[i] = scores[best]; scores[best] = t
    return mvs[i]


# The quiet moves' order: one int per move, its history score times
# KEY_SLOTS plus KEY_SLOTS - 1 - its index in the generated list.  Keys are
# distinct, a higher score comes first and equal scores keep the order of
# generation.  A history score stays within +-4 * HIST_MAX, so the key fits
# an int; no position has more than 119 pseudo-legal moves (see gen_moves),
# so an index fits its 7 bits.  Most nodes try only a few quiet moves (a
# cut-off, late-move pruning), so the first LAZY_PICKS are selected one by
# one (a pass without branches to mispredict) and only the rest, if the
# search gets that far, are sorted (insertion sort, one array); sorting all
# at once cost ~40 mispredicted branches a node, selecting them all a pass
# per move.  Either way the order is the same.
cdef enum:
    KEY_BITS = 7
    KEY_SLOTS = 1 << KEY_BITS
    LAZY_PICKS = 3

cdef inline int quiet_key(int score, int k) noexcept nogil:
    return score * KEY_SLOTS + (KEY_SLOTS - 1 - k)

cdef inline int key_index(int key) noexcept nogil:
    return KEY_SLOTS - 1 - (key & (KEY_SLOTS - 1))

cdef inline int key_score(int key) noexcept nogil:
    return key >> KEY_BITS      # floor(key / KEY_SLOTS) (an arithmetic shift)

cdef inline void sort_keys(int *keys, int n) noexcept nogil:
    cdef int k, j, x
    for k in range(1, n):
        x = keys[k]
        j = k - 1
        while j >= 0 and keys[j] < x:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = x

# Swaps the largest of keys[0..n) (n >= 1) to the front.
cdef inline void select_key(int *keys, int n) noexcept nogil:
    cdef int k, at = 0, m = keys[0]
    for k in range(1, n):
        if keys[k] > m:
            m = keys[k]
            at = k
    keys[at] = keys[0]
    keys[0] = m


# --- the staged move picker of the main search ---------------------------------
#
# Moves come in stages, each generated only when the ones before did not cut
# off: the hash move (no generation at all), the captures that do not lose
# material by SEE (most valuable victim first; the others are kept for
# last), the killers and the counter-move, the quiet moves by history, and
# the losing captures.

cdef enum:
    STAGE_HASH = 0
    STAGE_CAPTURES_INIT = 1
    STAGE_CAPTURES = 2
    STAGE_SPECIALS = 3
    STAGE_QUIETS_INIT = 4
    STAGE_QUIETS = 5
    STAGE_BAD_CAPTURES = 6
    STAGE_DONE = 7

ctypedef struct MovePicker:
    int stage
    int hash_mv
    int specials[3]         # killer 1, killer 2, counter-move
    int k1                  # continuation keys of the last two moves (-1: none)
    int k2
    int k4                  # ... and of the side to move's move before its last (-1: none)
    int mvs[MAX_MOVES]
    int scores[MAX_MOVES]
    int n
    int i
    int bad[MAX_MOVES]      # captures that lose material, tried last
    int n_bad
    int i_bad
    int score               # the ordering score of the move last returned
    int capt_w              # percent of a quarter of the capture history added to MVV/LVA
    bint skip_quiets        # set by the search: only quiet moves that may check
    bint filtered           # the quiet moves left were cut to those that may check


cdef inline void picker_init(MovePicker *mp, int hash_mv, int killer1, int killer2,
                             int counter, int k1, int k2, int k4) noexcept nogil:
    mp.stage = STAGE_HASH
    mp.hash_mv = hash_mv
    mp.specials[0] = killer1
    mp.specials[1] = killer2 if killer2 != killer1 else 0
    mp.specials[2] = counter if counter != killer1 and counter != killer2 else 0
    mp.k1 = k1
    mp.k2 = k2
    mp.k4 = k4
    mp.n = 0
    mp.i = 0
    mp.n_bad = 0
    mp.i_bad = 0
    mp.skip_quiets = False
    mp.filtered = False
    mp.capt_w = 0


# Keeps, in order, the moves of mvs[0..n) that may give check; returns their count.
cdef inline int keep_checking(const Position *pos, int *mvs, int n) noexcept nogil:
    cdef int i, m = 0
    for i in range(n):
        if may_give_check(pos, mvs[i]):
            mvs[m] = mvs[i]
            m += 1
    return m


# Keeps, in order, the quiet keys of keys[0..n) whose moves may give check;
# returns their count.
cdef inline int keep_checking_keys(const Position *pos, const int *mvs, int *keys,
                                   int n) noexcept nogil:
    cdef int i, m = 0
    for i in range(n):
        if may_give_check(pos, mvs[key_index(keys[i])]):
            keys[m] = keys[i]
            m += 1
    return m


cdef inline bint is_special(const MovePicker *mp, int mv) noexcept nogil:
    return mv == mp.specials[0] or mv == mp.specials[1] or mv == mp.specials[2]


# The next move to try (pseudo-legal), or 0 when there are none left;
# mp.score gets its ordering score (SCORE_HASH, SCORE_GOOD_CAPTURE + MVV/LVA,
# SCORE_KILLER + 2/1/0, the history score, SCORE_BAD_CAPTURE + MVV/LVA).
cdef inline int next_move(MovePicker *mp, const Position *pos, const History *h) noexcept nogil:
    cdef int mv, k
    while True:
        if mp.stage == STAGE_HASH:
            mp.stage = STAGE_CAPTURES_INIT
            if mp.hash_mv:
                mp.score = SCORE_HASH
                return mp.hash_mv
        elif mp.stage == STAGE_CAPTURES_INIT:
            mp.n = gen_moves(pos, mp.mvs, GEN_CAPTURES)
            for k in range(mp.n):
                mp.scores[k] = capture_score(pos.board, mp.mvs[k])
                if mp.capt_w:
                    mp.scores[k] += h.capt[capt_key(pos.board, mp.mvs[k])] * mp.capt_w // 400
            mp.i = 0
            mp.stage = STAGE_CAPTURES
        elif mp.stage == STAGE_CAPTURES:
            while mp.i < mp.n:
                mv = pick(mp.mvs, mp.scores, mp.n, mp.i)
                mp.i += 1
                if mv == mp.hash_mv:
                    continue
                if not see_ge(pos, mv, 0):
                    mp.bad[mp.n_bad] = mv
                    mp.n_bad += 1
                    continue
                mp.score = SCORE_GOOD_CAPTURE + mp.scores[mp.i - 1]
                return mv
            mp.i = 0
            mp.stage = STAGE_SPECIALS
        elif mp.stage == STAGE_SPECIALS:
            while mp.i < 3:
                mv = mp.specials[mp.i]
                mp.i += 1
                if mv and mv != mp.hash_mv and pos.board[mv >> 8] == EMPTY \
                        and is_pseudo_legal(pos, mv):
                    mp.score = SCORE_KILLER + 3 - mp.i
                    return mv
            mp.stage = STAGE_QUIETS_INIT
        elif mp.stage == STAGE_QUIETS_INIT:
            mp.n = gen_moves(pos, mp.mvs, GEN_QUIETS)
            if mp.skip_quiets:
                mp.n = keep_checking(pos, mp.mvs, mp.n)
                mp.filtered = True
            for k in range(mp.n):
                mp.scores[k] = quiet_key(
                    quiet_score(h, pos.board, pos.side, mp.mvs[k], mp.k1, mp.k2, mp.k4), k)
            mp.i = 0
            mp.stage = STAGE_QUIETS
        elif mp.stage == STAGE_QUIETS:
            if mp.skip_quiets and not mp.filtered:
                mp.n = mp.i + keep_checking_keys(pos, mp.mvs, mp.scores + mp.i, mp.n - mp.i)
                mp.filtered = True
            while mp.i < mp.n:
                if mp.i < LAZY_PICKS:
                    select_key(mp.scores + mp.i, mp.n - mp.i)
                elif mp.i == LAZY_PICKS:
                    sort_keys(mp.scores + mp.i, mp.n - mp.i)
                k = mp.scores[mp.i]
                mv = mp.mvs[key_index(k)]
                mp.i += 1
                if mv == mp.hash_mv or is_special(mp, mv):
                    continue
                mp.score = key_score(k)
                return mv
            mp.stage = STAGE_BAD_CAPTURES
        elif mp.stage == STAGE_BAD_CAPTURES:
            if mp.i_bad < mp.n_bad:
                mv = mp.bad[mp.i_bad]
                mp.i_bad += 1
                mp.score = SCORE_BAD_CAPTURE + capture_score(pos.board, mv)
                return mv
            mp.stage = STAGE_DONE
        else:
            return 0
