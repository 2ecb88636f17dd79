# The alpha-beta search.  See _search.pyx; Python drives it through
# cxiangqi.engine.Engine.

from libc.stdint cimport int8_t, uint8_t, uint16_t, int32_t
from cxiangqi._types cimport *
from cxiangqi._position cimport Position, Undo

cdef enum:
    MATE = 30000            # mated at the root: -MATE; mate in p plies: MATE - p
    WIN = 29000             # |score| above this is a mate score
    BAN = 20000             # losing by perpetual check (长将) in the tree
    INF = 32000
    MAX_PLY = 96            # search plies from the root
    MAX_HISTORY = 1024      # game plies kept for repetition before the root
    NODE_CHECK = 1023       # look at the clock and the stop flag every 1024 nodes

cdef enum:
    TT_UPPER = 1            # score <= stored (fail low)
    TT_LOWER = 2            # score >= stored (fail high)
    TT_EXACT = 3


ctypedef struct TTEntry:
    u64 key
    int32_t score
    uint16_t mv
    int8_t depth
    uint8_t flag


ctypedef struct SearchState:
    Position pos
    Undo undo[MAX_PLY]
    # keys[i] and checks[i] for the game positions before the root
    # (i < root) and the search path (root + ply): the repetition history
    u64 keys[MAX_HISTORY + MAX_PLY + 2]
    u8 checks[MAX_HISTORY + MAX_PLY + 2]
    int root                # index of the root position in keys/checks
    int ply
    int killers[MAX_PLY][2]
    int history[14][256]    # by the moving piece's kind and target square
    int pv[MAX_PLY][MAX_PLY]
    int pv_len[MAX_PLY]
    int root_moves[MAX_MOVES]
    int root_scores[MAX_MOVES]
    int n_root
    int best_mv             # best root move of the current iteration
    int seldepth
    u64 nodes
    u64 node_limit          # 0 = none
    double deadline         # monotonic seconds; 0 = none
    int stop                # set by stop() from any thread
    TTEntry *tt
    u64 tt_mask
