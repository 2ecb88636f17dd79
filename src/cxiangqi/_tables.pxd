# Board geometry and Zobrist keys: computed once, when _tables is imported.
# See _tables.pyx for how each table is built.

from cxiangqi._types cimport u8, u64

cdef u8 IN_BOARD[256]          # 1 on the 90 points
cdef u8 IN_PALACE[256]         # 1 on the 9 points of either palace
cdef u8 PTYPE[128]             # piece id -> piece type (NO_PIECE_TYPE for 0, OFF)
cdef u8 KIND[128]              # piece id -> side * 7 + type
cdef u8 SQ90_TO_SQ[90]         # Python square -> mailbox square
cdef signed char SQ_TO_SQ90[256]  # mailbox square -> Python square, -1 off the board

# Direction offsets in the mailbox, and the horse's: constants the C
# compiler sees (static const), so a loop over them unrolls into fixed
# offsets instead of loads from a table.
cdef extern from *:
    """
    static const int ORTH[4] = {1, -1, 16, -16};
    static const int DIAG[4] = {17, 15, -15, -17};
    static const int HORSE_FROM[4][2] = {{18, 33}, {14, 31}, {-14, -31}, {-18, -33}};
    static const int HORSE_JUMP[8] = {18, -14, 14, -18, 33, 31, -31, -33};
    static const int HORSE_LEG[8] = {1, 1, -1, -1, 16, 16, -16, -16};
    """
    # the orthogonal and the diagonal steps
    const int ORTH[4]
    const int DIAG[4]
    # A horse checking from a square attacks via the leg DIAG[i] away from
    # the target: the horse stands on target + HORSE_FROM[i][0 or 1] (the
    # leg plus one of the diagonal's two components).
    const int HORSE_FROM[4][2]
    # A horse's eight jumps from its square and the leg each one needs
    # empty, in matching order: two steps along ORTH[i] and one across,
    # over the leg ORTH[i].
    const int HORSE_JUMP[8]
    const int HORSE_LEG[8]
# The leg of a horse on s that attacks sq, by HORSE_LEG_TO[sq - s + 256]; 0
# when sq is no jump away from s.  (Two board points' offset tells their rank
# and file distances apart: a file distance is at most 8 on a 16-wide board.)
cdef signed char HORSE_LEG_TO[512]

# Sliding pieces by line masks (ElephantEye's idea): Position keeps, for each
# rank, a 9-bit mask of its occupied files and, for each file, a 10-bit mask
# of its occupied ranks.  For a piece at index i of a line with mask m,
# SLIDE tells the index of the first piece below and above i (the rook's
# blockers, -1 / the line's length when none) and of the second (the
# cannon's targets).  Rook and cannon moves, attacks on a king, exchange
# evaluation and mobility then cost a table look-up instead of a ray walk.
ctypedef struct Slide:
    signed char lo          # first occupied index below i, or -1
    signed char hi          # first occupied index above i, or the length
    signed char lo2         # second occupied index below i, or -1
    signed char hi2         # second occupied index above i, or the length

cdef Slide RANK_SLIDE[9][512]  # [file][mask of the rank]
cdef Slide FILE_SLIDE[10][1024]  # [rank][mask of the file]

cdef u64 ZOBRIST[14][256]      # [kind][sq]
cdef u64 ZOBRIST_SIDE          # xor-ed in when Black is to move

# PST[kind][sq]: material + placement of a piece of that kind on sq, from
# its own side's point of view, as a packed Score (opening << 16 + endgame;
# see make_score in _types.pxd).  make_move keeps Position.vl[side] as the
# sum over the side's pieces, so material and placement cost one subtraction
# at a node.  The numbers are _eval's: it fills this table when imported.
cdef int PST[14][256]
