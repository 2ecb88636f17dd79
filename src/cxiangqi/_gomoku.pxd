# Gomoku (五子棋): the board, its line patterns and the search.  See
# _gomoku.pyx for details; Python uses it through cxiangqi.gomoku.
#
# Glossary of the short names used in the gomoku core
#   sq    a point of the padded 32x32 board: sq = ((row + PAD) << 5) | (col + PAD)
#   pt    a point as Python sees it: row * size + col (0-based)
#   side  0 = black (moves first), 1 = white
#   st    a stone code on the board: EMPTY, STONE (+ side), OFF
#   d     a direction 0..3: horizontal, vertical, diagonal, anti-diagonal
#   key   the 8 neighbours of a point along one direction, 2 bits each
#   pat   what a stone at a point makes along one direction (P_NONE..P_FIVE)
#   cls   what a stone at a point makes over all four directions (C_NONE..C_FIVE)
#   vl    a value: pattern scores and search scores
#
# Board layout: the board sits in a 32x32 array with PAD = 5 rows and columns
# of OFF above and to the left of it (and at least 8 below and to the right),
# so every point's neighbours up to four steps away in any direction (the
# line keys) are inside the array without a bounds test, a row wraps into
# OFF columns, and the four directions are the constant offsets 1, 32, 33
# and 31.  The power-of-two stride makes row and column a shift and a mask.
# A 19x19 board uses rows and columns 5..23; lookups reach 1..27.

from libc.stdint cimport uint8_t, uint16_t, int32_t, uint64_t

ctypedef uint8_t u8
ctypedef uint16_t u16
ctypedef uint64_t u64

cdef enum:
    MIN_SIZE = 5
    MAX_SIZE = 19
    PAD = 5
    NSQ = 1024              # 32 x 32
    MAX_STONES = 361        # MAX_SIZE * MAX_SIZE

# stone codes, as stored on the board and in the line keys
cdef enum:
    EMPTY = 0
    STONE = 1               # STONE + side: 1 black, 2 white
    OFF = 3                 # outside the board: blocks both sides

# What one stone makes along one line (the centre of a 9-point key).
# The levels are defined from each other, so the table is exact for the
# standard definitions: a four has one point that makes five, an open four
# two; a three is one move from a four, an open three one move from an open
# four; a two is one move from a three; a one from a two.
cdef enum:
    P_NONE = 0              # no five can ever pass through the point here
    P_ONE = 1
    P_TWO = 2               # one move from a (closed) three
    P_OPEN2 = 3             # one move from an open three
    P_THREE = 4             # one move from a four (closed three)
    P_OPEN3 = 5             # one move from an open four
    P_FOUR = 6              # one point makes five
    P_OPEN4 = 7             # two or more points make five
    P_FIVE = 8              # five or more in a row (overlines win: freestyle)
    N_PAT = 9

# What a stone at an empty point makes over its four lines, the threats the
# search is built on; cnt[side][cls] counts the empty points of each class.
cdef enum:
    C_NONE = 0
    C_OPEN3 = 1             # one open three
    C_33 = 2                # two open threes: wins unless countered
    C_FOUR = 3              # a (closed) four
    C_43 = 4                # a four and an open three
    C_FLEX4 = 5             # an open four or two fours: wins unless countered
    C_FIVE = 6
    N_CLS = 7


ctypedef struct GPos:
    u8 board[NSQ]           # EMPTY, STONE + side or OFF
    u16 key[4][NSQ]         # line keys of every point, kept up to date
    u8 cls[2][NSQ]          # class of each empty point for each side
    int32_t vl[2][NSQ]      # pattern score of each empty point for each side
    u8 near[NSQ]            # stones within two steps (a 5x5 box)
    int cnt[2][N_CLS]       # empty points of each class, by side
    int total[2]            # sum of vl over the empty points, by side
    int size
    int n                   # stones on the board; side to move = n & 1
    u16 stack[MAX_STONES]   # the stones in the order they were played
    u64 hash                # Zobrist key


# ((row + PAD) << 5) | (col + PAD)
cdef inline int sq_of(int row, int col) noexcept nogil:
    return ((row + PAD) << 5) | (col + PAD)

cdef inline int row_of(int sq) noexcept nogil:
    return (sq >> 5) - PAD

cdef inline int col_of(int sq) noexcept nogil:
    return (sq & 31) - PAD

# Set up an empty board of `size` (MIN_SIZE..MAX_SIZE, checked by the caller).
cdef void gpos_init(GPos *p, int size) noexcept nogil

# Put the side to move's stone on the empty point sq / take back the last one.
cdef void gpos_make(GPos *p, int sq) noexcept nogil
cdef void gpos_unmake(GPos *p) noexcept nogil

# Length of the unbroken line of sq's colour through sq along direction d.
cdef int gpos_run(const GPos *p, int sq, int d) noexcept nogil

# 1 when the stone on sq is part of five or more in a row.
cdef bint gpos_is_five(const GPos *p, int sq) noexcept nogil


# --- search ------------------------------------------------------------------

cdef enum:
    WIN = 1000000           # five made at the root: WIN; at ply p: WIN - p
    WIN_MIN = WIN - 1000    # |score| above this is a proven win or loss
    INF = 2000000
    MAX_PLY = 64            # search plies from the root
    NODE_CHECK = 1024       # look at the clock every 1024 nodes

cdef enum:
    TT_UPPER = 1            # score <= stored (fail low)
    TT_LOWER = 2            # score >= stored (fail high)
    TT_EXACT = 3

ctypedef struct TTEntry:
    u64 key
    int32_t vl
    u16 sq
    uint8_t depth
    uint8_t flag

ctypedef struct Search:
    GPos pos
    TTEntry *tt
    u64 tt_mask
    u64 nodes
    u64 node_limit          # 0 = none
    u64 check_at            # nodes at the next look at the clock
    double deadline         # monotonic seconds; 0 = none
    int stop
    int max_depth
    int width               # moves searched at a node (the best by move order)
    int root_width
    int vcf_depth           # fours tried at the root (0 = no threat search)
    int leaf_vcf            # fours tried at the horizon (0 = none)
    long vcf_nodes          # nodes of the threat search at the root
    long leaf_vcf_nodes     # ... and of one at the horizon
    long vcf_left           # nodes left to the threat search under way
    int vcf_sq              # first move of the winning fours found by vcf()
    int exact_root          # every root move gets an exact score (a full window)
    u16 root_sq[MAX_STONES]
    int root_vl[MAX_STONES]
    int n_root
    int best_sq
    int best_vl
    int depth_done          # last completed iteration
    int reason              # how the move was chosen (R_* in _gomoku.pyx)
