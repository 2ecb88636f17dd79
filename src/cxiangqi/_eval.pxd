# The evaluation: every number the engine's judgement rests on.  See
# _eval.pyx for the terms; the weights are in eval_weights.py (written by
# tools/tune.py, Texel's method).
#
# The evaluation is linear in its weights: each term is a count (how many
# times a feature is present for Red, minus for Black) times a packed Score
# weight (opening and endgame value).  eval_trace() writes those counts, so
# the tuner fits exactly the function the search uses.

from cxiangqi._types cimport *
from cxiangqi._position cimport Position

cdef enum:
    # feature blocks (weights W[F_...]); see FEATURE_NAMES in _eval.pyx
    F_MATERIAL = 0                  # 7 piece types (the king's stays 0)
    F_PST = 7                       # 7 piece types x 50 squares (files folded: a = i, ...)
    F_ROOK_MOB = F_PST + 7 * 50     # per empty point a rook reaches
    F_HORSE_MOB = F_ROOK_MOB + 1    # 9: by the number of free jumps, 0..8
    F_CANNON_MOB = F_HORSE_MOB + 9  # per empty point a cannon can move to
    F_HOLLOW_CANNON = F_CANNON_MOB + 1  # enemy cannon on the king's file, nothing between (空头炮)
    F_CANNON_SCREEN_FILE = F_HOLLOW_CANNON + 1  # ... one piece between (炮镇中路)
    F_CANNON_SCREEN_RANK = F_CANNON_SCREEN_FILE + 1  # enemy cannon on the king's rank, one between (沉底炮)
    F_ROOK_PIN = F_CANNON_SCREEN_RANK + 1   # enemy rook on the king's line behind one own piece
    F_MISSING_ADVISOR = F_ROOK_PIN + 1      # 3: missing advisor x enemy rooks / horses / cannons
    F_MISSING_ELEPHANT = F_MISSING_ADVISOR + 3  # 3: missing elephant x enemy rooks / horses / cannons
    F_FULL_DEFENCE = F_MISSING_ELEPHANT + 3     # both advisors and both elephants (士象全)
    F_CONNECTED_PAWNS = F_FULL_DEFENCE + 1  # crossed pawns side by side
    F_ATTACKERS = F_CONNECTED_PAWNS + 1     # 4: enemy rooks, horses and cannons across the
                                            #    river, by their number (0..3, 3 = three or more)
    F_TEMPO = F_ATTACKERS + 4       # the side to move's bonus
    N_FEATURES = F_TEMPO + 1
    # eval_trace also writes these after the feature counts
    T_PHASE = N_FEATURES            # game phase, 0 (bare) .. PHASE_MAX (all pieces)
    T_SCALE = N_FEATURES + 1        # endgame scale factor for the side ahead, 0..SCALE_ONE
    T_SIZE = N_FEATURES + 2
    PHASE_MAX = 48                  # rook 6, horse 3, cannon 3, both sides
    SCALE_ONE = 16

# Parts of the evaluation that eval_part_costs times (EVAL_PART_NAMES in
# _eval.pyx, same order): the whole; the timing loop alone (material and
# placement are kept by make_move: the loop reads them); the piece counts,
# phase and scale factor; and the four groups of terms, both sides each.
cdef enum:
    PART_EVALUATE = 0
    PART_LOOP
    PART_COUNTS
    PART_MOBILITY
    PART_KING_LINES
    PART_DEFENCE
    PART_PAWNS
    EVAL_PARTS

# Packed weights, indexed by the F_ constants.
cdef int W[N_FEATURES]

# Static evaluation of pos for the side to move, in centipawns.
cdef int evaluate(const Position *pos) noexcept nogil
# The same evaluation, writing the feature counts (Red minus Black), the
# phase and the scale factor to tr[0..T_SIZE); returns evaluate(pos).
cdef int eval_trace(const Position *pos, int *tr) noexcept nogil
# Nanoseconds per position of each part (out[0..EVAL_PARTS)), each timed
# over reps passes through ps[0..n); all -1 if memory runs out.
cdef void eval_part_costs(const Position *ps, int n, int reps, double *out) noexcept nogil
