# The alpha-beta search: the tree walk over the C position.  See
# _search.pyx; Python drives it through cxiangqi.engine.Engine.

from cxiangqi._types cimport *
from cxiangqi._position cimport Position, Undo
from cxiangqi._tt cimport TT
from cxiangqi._order cimport History

cdef enum:
    MATE = 30000            # mated at the root: -MATE; mate in p plies: MATE - p
    WIN = 29000             # |score| above this is a mate score
    BAN = 20000             # losing by perpetual check or chase (长将, 长捉) in the tree
    INF = 32000
    NO_EVAL = -32001        # no static evaluation (in check)
    MAX_PLY = 96            # search plies from the root
    MAX_HISTORY = 1024      # game plies kept for repetition before the root
    LINE = MAX_HISTORY + MAX_PLY + 2
    NODE_CHECK = 1023       # look at the clock every 1024 nodes
    MOVE_LIMIT = 120        # plies without a capture: a draw (the referee's rule)
    EVAL_CACHE = 8192       # entries of the evaluation cache (a power of two)
    MAX_DOUBLE_EXT = 6      # double singular extensions on one path, at most

ctypedef struct EvalEntry:
    u64 key
    int eval


# Tunable search parameters (developer knobs: CXIANGQI_SEARCH_PARAMS, see
# _search.pyx); each is an int.
cdef enum:
    P_RFP = 0               # reverse futility margin per ply (0: off)
    P_RAZOR                 # razoring margin per ply (0: off)
    P_NULL                  # 1: null move on
    P_LMP                   # late-move pruning after this percent of its move count (0: off)
    P_FUTILITY              # futility margin per ply of reduced depth (0: off)
    P_SEE_QUIET             # SEE pruning of quiet moves, margin per ply^2 (0: off, the default)
    P_SEE_CAPTURE           # SEE pruning of captures, margin per ply (0: off)
    P_LMR                   # 1: late-move reductions on
    P_LMR_DIV               # LMR table divisor, x100
    P_HIST_DIV              # history points per ply of LMR adjustment
    P_IIR                   # 1: internal iterative reduction on
    P_SINGULAR              # singular extensions from this depth on (0: off)
    P_QS_SEE                # 1: skip losing captures in quiescence (by SEE)
    P_CONT                  # 1: continuation history in ordering and LMR
    P_QS_TT                 # quiescence plies that probe and store the table (0: none)
    P_CORR                  # percent of the structure's correction added to the static evaluation (0: off)
    P_CORR_NP               # percent of each colour's piece correction added (0: off)
    P_QS_FUT                # quiescence futility margin over the victim's value (0: off)
    P_CONT4                 # 1: the continuation history of the side to move's move before its last too
    P_DEEPER                # LMR re-search one ply deeper when far above the best, shallower when not above it (0: off)
    P_SING_DBL              # singular margin below which the hash move extends by 2 plies (0: off)
    P_CAPT_HIST             # percent of a quarter of the capture history added to MVV/LVA (0: off)
    P_HIST_PRUNE            # quiet moves with history below -hist_prune * depth pruned near the horizon (0: off)
    P_ASP                   # engine.py's first aspiration half-window, Stockfish's widening (0: the old windows)
    P_CORR_CONT             # percent of the last two moves' correction added (0: off)
    P_LMR_CAPT              # percent of the LMR table's reduction for a late capture SEE does not lose (0: none)
    P_CORR_MINOR            # percent of the kings', horses' and cannons' correction added (0: off)
    P_HIST_BONUS            # percent of stat_bonus a quiet cut-off's histories learn
    P_FUT_NOBEST            # futility margin added while no move has raised alpha (0: none)
    P_CORR_MAJOR            # percent of the kings' and rooks' correction added (0: off)
    N_PARAMS


cdef enum:
    N_CKEYS = 5                     # the correction histories' position keys (_search.pyx)


ctypedef struct SearchState:
    Position pos
    # The game line and the search path, one index per position: keys[i],
    # checks[i] ("the move into position i gave check") and line[i] (the
    # undo record of the move from position i to i + 1).  Positions
    # 0..root - 1 are the game before the root, root + ply the search path.
    u64 keys[LINE]
    u8 checks[LINE]
    Undo line[LINE]
    int root
    int ply
    int root_depth
    # per ply of the search path
    int static_eval[MAX_PLY + 2]
    int excluded[MAX_PLY + 2]       # the move a singular search leaves out
    int mkey[MAX_PLY + 2]           # key (_order) of the move into this ply, -1 for none/null
    int dext[MAX_PLY + 2]           # double extensions on the path to this ply
    # the correction histories' hashes (_search.pyx) of each ply's position:
    # the structure's, Red's pieces', Black's pieces', both kings', horses'
    # and cannons' (kept up to date only while a correction is on)
    u64 ckeys[MAX_PLY + 2][N_CKEYS]
    int killers[MAX_PLY + 2][2]
    int pv[MAX_PLY + 2][MAX_PLY + 2]
    int pv_len[MAX_PLY + 2]
    History hist
    EvalEntry ecache[EVAL_CACHE]
    int root_moves[MAX_MOVES]
    int root_scores[MAX_MOVES]
    int n_root
    int best_mv             # best root move of the current iteration
    int seldepth
    u64 nodes
    u64 node_limit          # 0 = none
    double deadline         # monotonic seconds; 0 = none
    int stop                # set by stop() from any thread: read and written atomically
    TT tt
    int smp                 # one of the threads of a Lazy SMP search
    # Lazy SMP depths (atomic): on the main thread's state, the iteration it
    # is on and whether the search is over; on a helper's, the depth it is
    # on, and the main thread's state (owner)
    int smp_depth
    int smp_done
    int smp_current
    SearchState *owner
    int params[N_PARAMS]
    # lmr[depth][moves]: the reduction of a late quiet move, built from the
    # lmr_div parameter (each searcher its own: parameters are per searcher)
    int lmr[64][64]
    int lmr_div
