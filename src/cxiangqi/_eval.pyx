# The evaluation (declared in _eval.pxd).
#
# Terms, each a feature count times a tuned (opening, endgame) weight:
#   material and piece-square tables   kept incrementally in Position.vl
#   rook, horse and cannon mobility    empty points reached; a horse by its number of free jumps,
#                                      so blocked legs and trapped horses cost
#   threats on the king's lines        enemy cannon facing the king with no screen (空头炮) or
#                                      one (炮镇中路), on the king's rank (沉底炮), a rook pinning
#                                      a piece to the king
#   defenders and attackers            missing advisors/elephants weighed by the enemy rooks,
#                                      horses and cannons left; both advisors and elephants
#                                      (士象全); the number of enemy pieces across the river
#   pawn structure                     crossed pawns side by side (连兵); placement by the PST
#   tempo                              the side to move
# The sum is blended between its opening and endgame values by the phase
# (rooks, horses and cannons left), then scaled down for material that
# cannot win (a lone horse or cannon, a lone rook against full defence, a
# lone pawn against an advisor, nothing that can cross the river).

from libc.stdlib cimport malloc, free
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from cxiangqi._types cimport *
from cxiangqi._tables cimport (SQ90_TO_SQ, PTYPE, KIND, PST, ORTH, HORSE_JUMP, Slide,
                               RANK_SLIDE, FILE_SLIDE)
from cxiangqi._position cimport Position, lines_of

from cxiangqi.eval_weights import WEIGHTS

# Feature blocks: name in eval_weights.WEIGHTS, first index, length.
FEATURE_BLOCKS = [
    ("material", F_MATERIAL, 7),
    ("pst_king", F_PST + 0 * 50, 50),
    ("pst_advisor", F_PST + 1 * 50, 50),
    ("pst_elephant", F_PST + 2 * 50, 50),
    ("pst_horse", F_PST + 3 * 50, 50),
    ("pst_rook", F_PST + 4 * 50, 50),
    ("pst_cannon", F_PST + 5 * 50, 50),
    ("pst_pawn", F_PST + 6 * 50, 50),
    ("rook_mobility", F_ROOK_MOB, 1),
    ("horse_mobility", F_HORSE_MOB, 9),
    ("cannon_mobility", F_CANNON_MOB, 1),
    ("hollow_cannon", F_HOLLOW_CANNON, 1),
    ("cannon_screen_file", F_CANNON_SCREEN_FILE, 1),
    ("cannon_screen_rank", F_CANNON_SCREEN_RANK, 1),
    ("rook_pin", F_ROOK_PIN, 1),
    ("missing_advisor", F_MISSING_ADVISOR, 3),
    ("missing_elephant", F_MISSING_ELEPHANT, 3),
    ("full_defence", F_FULL_DEFENCE, 1),
    ("connected_pawns", F_CONNECTED_PAWNS, 1),
    ("attackers", F_ATTACKERS, 4),
    ("tempo", F_TEMPO, 1),
]
EVAL_PART_NAMES = ["evaluate", "loop", "counts", "mobility", "king_lines", "defence", "pawns"]
N_FEATURE_COUNT = N_FEATURES
TRACE_SIZE = T_SIZE
TRACE_PHASE = T_PHASE
TRACE_SCALE = T_SCALE
PHASE_FULL = PHASE_MAX
SCALE_FULL = SCALE_ONE


# Index of sq (mailbox) in a 50-square piece-square block for `side`.
cdef inline int pst_index(int sq, int side) noexcept nogil:
    cdef int r = rank_of(sq)
    cdef int f = file_of(sq)
    if side == BLACK:
        r = 9 - r
    if f > 4:
        f = 8 - f
    return r * 5 + f


# Adds count * weight f to *s and, tracing, count to the feature (negated
# for Black).
cdef inline void add(int *s, int *tr, int sign, int f, int count) noexcept nogil:
    s[0] += count * W[f]
    if tr != NULL:
        tr[f] += sign * count


# How many pieces of each kind a side has left: a piece id's slot says its
# type, so one look at each slot counts them (no type test, no branch).
ctypedef struct Counts:
    int advisors
    int elephants
    int horses
    int rooks
    int cannons
    int pawns


cdef inline void count_pieces(const Position *pos, int side, Counts *c) noexcept nogil:
    cdef const u8 *p = &pos.pieces[side_tag(side)]
    c.advisors = (p[SLOT_ADVISOR] != 0) + (p[SLOT_ADVISOR + 1] != 0)
    c.elephants = (p[SLOT_ELEPHANT] != 0) + (p[SLOT_ELEPHANT + 1] != 0)
    c.horses = (p[SLOT_HORSE] != 0) + (p[SLOT_HORSE + 1] != 0)
    c.rooks = (p[SLOT_ROOK] != 0) + (p[SLOT_ROOK + 1] != 0)
    c.cannons = (p[SLOT_CANNON] != 0) + (p[SLOT_CANNON + 1] != 0)
    c.pawns = ((p[SLOT_PAWN] != 0) + (p[SLOT_PAWN + 1] != 0) + (p[SLOT_PAWN + 2] != 0)
               + (p[SLOT_PAWN + 3] != 0) + (p[SLOT_PAWN + 4] != 0))


# The terms other than material and placement come in four groups, each
# for `side` (Score packed, side's own point of view); side_terms adds
# them.  (Separate so that benchmarks/eval_terms.py can time each one.)

# 1. mobility: the empty points on a slider's rank and file up to the first
# piece each way (line masks: hi - lo - 2 on each line); a horse by its
# number of free jumps
cdef inline int mobility_terms(const Position *pos, int side, int *tr) noexcept nogil:
    cdef const u8 *b = pos.board
    cdef int tag = side_tag(side)
    cdef int sign = 1 - 2 * side
    cdef int s = 0
    cdef int i, k, sq, n
    cdef const Slide *e
    cdef int f, r
    cdef int rook_mob = 0, cannon_mob = 0
    for i in range(SLOT_ROOK, SLOT_PAWN):
        sq = pos.pieces[tag + i]
        if sq != 0:
            f = (sq & 15) - 3
            r = (sq >> 4) - 3
            e = &RANK_SLIDE[f][pos.rank_bits[r]]
            n = e.hi - e.lo - 2
            e = &FILE_SLIDE[r][pos.file_bits[f]]
            n += e.hi - e.lo - 2
            if i < SLOT_CANNON:
                rook_mob += n
            else:
                cannon_mob += n
    add(&s, tr, sign, F_ROOK_MOB, rook_mob)
    add(&s, tr, sign, F_CANNON_MOB, cannon_mob)
    cdef int blocked = tag | OFF
    for i in range(SLOT_HORSE, SLOT_ROOK):
        sq = pos.pieces[tag + i]
        if sq != 0:
            # jumps 2k and 2k + 1 share the leg ORTH[k]; counted without a
            # branch on the leg (a coin toss for the predictor): every jump
            # from a board point lands inside the padded board
            n = 0
            for k in range(4):
                n += (b[sq + ORTH[k]] == EMPTY) \
                    * (((b[sq + HORSE_JUMP[2 * k]] & blocked) == 0)
                       + ((b[sq + HORSE_JUMP[2 * k + 1]] & blocked) == 0))
            add(&s, tr, sign, F_HORSE_MOB + n, 1)
    return s


# 2. the enemy's lines onto our king (left, right, down, up)
cdef inline int king_line_terms(const Position *pos, int side, int *tr) noexcept nogil:
    cdef const u8 *b = pos.board
    cdef int tag = side_tag(side)
    cdef int opp = opp_tag(side)
    cdef int sign = 1 - 2 * side
    cdef int s = 0
    cdef int k, pc
    cdef int ksq = pos.pieces[tag]
    cdef int firsts[4]
    cdef int seconds[4]
    if ksq != 0:
        lines_of(pos.rank_bits, pos.file_bits, ksq, firsts, seconds)
        for k in range(4):
            pc = b[firsts[k]]
            if (pc & opp) and PTYPE[pc] == CANNON and k >= 2:
                add(&s, tr, sign, F_HOLLOW_CANNON, 1)
                continue
            pc = b[seconds[k]]
            if (pc & opp) == 0:
                continue
            if PTYPE[pc] == CANNON:
                add(&s, tr, sign, F_CANNON_SCREEN_FILE if k >= 2 else F_CANNON_SCREEN_RANK, 1)
            elif PTYPE[pc] == ROOK and (b[firsts[k]] & tag):
                add(&s, tr, sign, F_ROOK_PIN, 1)
    return s


# 3. defenders against the attackers left
cdef inline int defence_terms(const Position *pos, int side, const Counts *own,
                              const Counts *enemy, int *tr) noexcept nogil:
    cdef int opp = opp_tag(side)
    cdef int sign = 1 - 2 * side
    cdef int s = 0
    cdef int i, sq
    cdef int advisors = own.advisors
    cdef int elephants = own.elephants
    cdef int rooks = enemy.rooks, horses = enemy.horses, cannons = enemy.cannons
    cdef int across = 0
    for i in range(SLOT_HORSE, SLOT_PAWN):
        sq = pos.pieces[opp + i]
        across += (sq != 0) & own_half(sq, side)
    if advisors < 2:
        add(&s, tr, sign, F_MISSING_ADVISOR, (2 - advisors) * rooks)
        add(&s, tr, sign, F_MISSING_ADVISOR + 1, (2 - advisors) * horses)
        add(&s, tr, sign, F_MISSING_ADVISOR + 2, (2 - advisors) * cannons)
    if elephants < 2:
        add(&s, tr, sign, F_MISSING_ELEPHANT, (2 - elephants) * rooks)
        add(&s, tr, sign, F_MISSING_ELEPHANT + 1, (2 - elephants) * horses)
        add(&s, tr, sign, F_MISSING_ELEPHANT + 2, (2 - elephants) * cannons)
    elif advisors == 2:
        add(&s, tr, sign, F_FULL_DEFENCE, 1)
    if across > 0:
        add(&s, tr, sign, F_ATTACKERS + (across if across < 3 else 3), 1)
    return s


# 4. crossed pawns side by side
cdef inline int pawn_terms(const Position *pos, int side, int *tr) noexcept nogil:
    cdef const u8 *b = pos.board
    cdef int tag = side_tag(side)
    cdef int sign = 1 - 2 * side
    cdef int s = 0
    cdef int i, sq, pc
    cdef int n = 0
    for i in range(SLOT_PAWN, SLOT_END):
        sq = pos.pieces[tag + i]
        if sq != 0 and not own_half(sq, side):
            pc = b[sq + 1]
            if (pc & tag) and PTYPE[pc] == PAWN:
                n += 1
    add(&s, tr, sign, F_CONNECTED_PAWNS, n)
    return s


cdef inline int side_terms(const Position *pos, int side, const Counts *own,
                           const Counts *enemy, int *tr) noexcept nogil:
    return (mobility_terms(pos, side, tr) + king_line_terms(pos, side, tr)
            + defence_terms(pos, side, own, enemy, tr) + pawn_terms(pos, side, tr))


# How much of its advantage `strong` can realise, out of SCALE_ONE: material
# that cannot force mate is scaled down (the search still sees every trick).
cdef inline int scale_factor(const Counts *strong, const Counts *weak) noexcept nogil:
    cdef int rooks = strong.rooks
    cdef int minors = strong.horses + strong.cannons
    cdef int pawns = strong.pawns
    if rooks + minors + pawns == 0:
        return 0                        # nothing can cross the river
    cdef int defenders = weak.advisors + weak.elephants
    if rooks == 0 and minors <= 1 and pawns == 0:
        return 1 if defenders > 0 else 4    # a lone horse or cannon
    if rooks == 0 and minors == 0 and pawns == 1 and defenders > 0:
        return 4                        # a lone pawn against a defender
    if rooks == 1 and minors == 0 and pawns == 0 and defenders == 4:
        return 2                        # a lone rook against full defence (a book draw)
    return SCALE_ONE


# Game phase from the rooks (6), horses and cannons (3 each) left.
cdef inline int phase_of(const Counts *red, const Counts *black) noexcept nogil:
    cdef int ph = (6 * (red.rooks + black.rooks)
                   + 3 * (red.horses + black.horses + red.cannons + black.cannons))
    return ph if ph < PHASE_MAX else PHASE_MAX


cdef inline int eval_impl(const Position *pos, int *tr) noexcept nogil:
    cdef int s = pos.vl[RED] - pos.vl[BLACK]
    cdef int pc, sq, side
    if tr != NULL:
        for pc in range(T_SIZE):
            tr[pc] = 0
        for pc in range(16, 48):
            sq = pos.pieces[pc]
            if sq != 0:
                side = pc >> 5
                tr[F_MATERIAL + PTYPE[pc]] += 1 - 2 * side
                tr[F_PST + PTYPE[pc] * 50 + pst_index(sq, side)] += 1 - 2 * side
    cdef Counts red, black
    count_pieces(pos, RED, &red)
    count_pieces(pos, BLACK, &black)
    s += side_terms(pos, RED, &red, &black, tr) - side_terms(pos, BLACK, &black, &red, tr)
    add(&s, tr, 1, F_TEMPO, 1 - 2 * pos.side)
    cdef int ph = phase_of(&red, &black)
    cdef int v = (mg_of(s) * ph + eg_of(s) * (PHASE_MAX - ph)) // PHASE_MAX
    cdef int sf = scale_factor(&red, &black) if v > 0 else scale_factor(&black, &red)
    if sf != SCALE_ONE:
        v = v * sf // SCALE_ONE
    if tr != NULL:
        tr[T_PHASE] = ph
        tr[T_SCALE] = sf
    return v if pos.side == RED else -v


cdef int evaluate(const Position *pos) noexcept nogil:
    return eval_impl(pos, NULL)


# --- what the evaluation's parts cost (benchmarks/eval_terms.py) ------------------

cdef unsigned _sink = 0     # every result timed goes here, so none is optimised away

cdef enum:
    EVAL_BLOCK = 64


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void eval_part_costs(const Position *ps, int n, int reps, double *out) noexcept nogil:
    global _sink
    cdef int part, r, i, lo, hi
    cdef unsigned acc = 0       # (unsigned: wraps, where an int would overflow)
    cdef double t
    cdef Counts *c
    cdef Counts *counts = <Counts *> malloc(2 * <size_t> n * sizeof(Counts) + 1)
    if counts == NULL:
        for part in range(EVAL_PARTS):
            out[part] = -1.0
        return
    for i in range(n):
        count_pieces(&ps[i], RED, &counts[2 * i])
        count_pieces(&ps[i], BLACK, &counts[2 * i + 1])
    for part in range(EVAL_PARTS):
        t = _now()
        # blocks of EVAL_BLOCK positions, each block `reps` times: the
        # positions stay in the cache as the search's do, and the branches
        # see 64 positions in turn, not one
        lo = 0
        while lo < n:
            hi = lo + EVAL_BLOCK if lo + EVAL_BLOCK < n else n
            for r in range(reps):
                # one loop per part: no test of `part` inside the timed loop
                if part == PART_EVALUATE:
                    for i in range(lo, hi):
                        acc += evaluate(&ps[i])
                elif part == PART_LOOP:
                    for i in range(lo, hi):
                        acc += ps[i].vl[RED] - ps[i].vl[BLACK]
                elif part == PART_COUNTS:
                    for i in range(lo, hi):
                        c = &counts[2 * i]
                        count_pieces(&ps[i], RED, &c[0])
                        count_pieces(&ps[i], BLACK, &c[1])
                        acc += phase_of(&c[0], &c[1]) + scale_factor(&c[0], &c[1])
                elif part == PART_MOBILITY:
                    for i in range(lo, hi):
                        acc += mobility_terms(&ps[i], RED, NULL) - mobility_terms(&ps[i], BLACK, NULL)
                elif part == PART_KING_LINES:
                    for i in range(lo, hi):
                        acc += king_line_terms(&ps[i], RED, NULL) - king_line_terms(&ps[i], BLACK, NULL)
                elif part == PART_DEFENCE:
                    for i in range(lo, hi):
                        c = &counts[2 * i]
                        acc += defence_terms(&ps[i], RED, &c[0], &c[1], NULL) \
                            - defence_terms(&ps[i], BLACK, &c[1], &c[0], NULL)
                else:
                    for i in range(lo, hi):
                        acc += pawn_terms(&ps[i], RED, NULL) - pawn_terms(&ps[i], BLACK, NULL)
                _sink += acc
            lo = hi
        out[part] = (_now() - t) * 1e9 / (<double> reps * n) if n > 0 and reps > 0 else 0.0
    free(counts)


cdef int eval_trace(const Position *pos, int *tr) noexcept nogil:
    return eval_impl(pos, tr)


# --- the weights ---------------------------------------------------------------

def set_weights(weights):
    """Loads weights ({block: [(opening, endgame), ...]}, as eval_weights.WEIGHTS)
    into W and rebuilds the piece-square tables.  Positions made before keep
    their incremental sums: call this before creating any (the module does at
    import; the tuner may call it on fresh positions only)."""
    cdef int i, f, side, pt, sq, rank, file
    for name, first, length in FEATURE_BLOCKS:
        values = weights[name]
        if len(values) != length:
            raise ValueError(f"weights[{name!r}] has {len(values)} entries, expected {length}")
        for i in range(length):
            mg, eg = values[i]
            if not (-20000 <= mg <= 20000 and -20000 <= eg <= 20000):
                raise ValueError(f"weights[{name!r}][{i}] out of range: {values[i]!r}")
            W[first + i] = make_score(mg, eg)
    W[F_MATERIAL + KING] = 0
    for side in range(2):
        for pt in range(7):
            for sq in range(256):
                PST[side * 7 + pt][sq] = 0
            for rank in range(10):
                for file in range(9):
                    sq = SQ90_TO_SQ[rank * 9 + file]
                    PST[side * 7 + pt][sq] = W[F_MATERIAL + pt] + W[F_PST + pt * 50 + pst_index(sq, side)]


def weights():
    """The weights in use, as {block: [(opening, endgame), ...]}."""
    return {name: [(mg_of(W[first + i]), eg_of(W[first + i])) for i in range(length)]
            for name, first, length in FEATURE_BLOCKS}


set_weights(WEIGHTS)
