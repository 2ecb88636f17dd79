# The transposition table: buckets of two entries, one kept by depth
# (replaced only by a search at least as deep, or when it is from an older
# search), one always replaced.  Everything here is inline: probe and store
# run at every node.
#
# An entry is two 64-bit words, the data and the key xor-ed with the data
# (Hyatt's lockless hashing): a torn write from another thread shows as a
# key mismatch, never as a wrong move, so threads may share one table
# without locks.  Data layout, low bits first:
#   move 16 | score 16 (signed) | static eval 16 (signed) | depth 8 (+ 64)
#   | bound 2 | pv 1 (the position was on a principal variation) | generation 5

from cxiangqi._types cimport u64

cdef enum:
    TT_UPPER = 1            # score <= stored (fail low)
    TT_LOWER = 2            # score >= stored (fail high)
    TT_EXACT = 3
    TT_DEPTH_OFFSET = 64
    TT_GENERATIONS = 32

ctypedef struct TTEntry:
    u64 check               # key ^ data
    u64 data

ctypedef struct TTBucket:
    TTEntry slot[2]         # [0] depth-preferred, [1] always-replace

ctypedef struct TTHit:
    int mv
    int score               # as stored (mate scores relative to the node)
    int eval
    int depth
    int bound
    bint pv                 # stored by a PV node, or by a node whose entry had it

ctypedef struct TT:
    TTBucket *buckets
    u64 mask                # number of buckets - 1 (a power of two)
    int generation          # of the current search, 0..TT_GENERATIONS-1


cdef inline u64 tt_pack(int mv, int score, int ev, int depth, int bound, bint pv,
                        int gen) noexcept nogil:
    return (<u64> (mv & 0xffff)
            | (<u64> (score & 0xffff)) << 16
            | (<u64> (ev & 0xffff)) << 32
            | (<u64> ((depth + TT_DEPTH_OFFSET) & 0xff)) << 48
            | (<u64> (bound & 3)) << 56
            | (<u64> (pv & 1)) << 58
            | (<u64> (gen & 31)) << 59)

cdef inline int tt_depth_of(u64 data) noexcept nogil:
    return <int> ((data >> 48) & 0xff) - TT_DEPTH_OFFSET

cdef inline int tt_gen_of(u64 data) noexcept nogil:
    return <int> (data >> 59)


# Fills *hit and returns True when key is in the table.  A stored entry's
# data is never 0 (its bound is 1 to 3), so an empty slot, whose check and
# data are 0, is a miss also for a key of 0.
cdef inline bint tt_probe(const TT *tt, u64 key, TTHit *hit) noexcept nogil:
    cdef const TTBucket *b = &tt.buckets[key & tt.mask]
    cdef u64 data
    cdef int i
    for i in range(2):
        data = b.slot[i].data
        if b.slot[i].check ^ data == key and data != 0:
            hit.mv = <int> (data & 0xffff)
            hit.score = <int> (<short> ((data >> 16) & 0xffff))
            hit.eval = <int> (<short> ((data >> 32) & 0xffff))
            hit.depth = tt_depth_of(data)
            hit.bound = <int> ((data >> 56) & 3)
            hit.pv = <bint> ((data >> 58) & 1)
            return True
    return False


# Stores a search result.  A result without a move keeps the move stored
# before for the same position.
cdef inline void tt_store(TT *tt, u64 key, int mv, int score, int ev, int depth,
                          int bound, bint pv) noexcept nogil:
    cdef TTBucket *b = &tt.buckets[key & tt.mask]
    cdef TTEntry *e = &b.slot[0]
    cdef u64 old = e.data
    cdef bint same = (e.check ^ old) == key
    # the deep slot takes the result unless that would throw away a deeper
    # search of this or another position from the current search
    if not ((same and (depth >= tt_depth_of(old) - 2 or bound == TT_EXACT))
            or (not same and (depth >= tt_depth_of(old) or tt_gen_of(old) != tt.generation))):
        e = &b.slot[1]
        old = e.data
        same = (e.check ^ old) == key
    if mv == 0 and same:
        mv = <int> (old & 0xffff)
    cdef u64 data = tt_pack(mv, score, ev, depth, bound, pv, tt.generation)
    e.data = data
    e.check = key ^ data


# Issues a prefetch of key's bucket: the next probe then finds it in cache.
cdef extern from *:
    """
    #define cx_prefetch(p) __builtin_prefetch((const void *)(p))
    """
    void cx_prefetch(const void *p) noexcept nogil

cdef inline void tt_prefetch(const TT *tt, u64 key) noexcept nogil:
    cx_prefetch(&tt.buckets[key & tt.mask])
