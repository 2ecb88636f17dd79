# Repetition, in one place: the search (_search.pyx) and the referee
# (Board.outcome through _core) both judge a repeated position with these.
#
# A history is an array of Zobrist keys, keys[i] = the position after i
# plies, and a parallel array of flags, flags[i] = "the move that led to
# position i checked" (or, for the referee, "chased").  Positions with the
# same side to move are an even number of plies apart.

from cxiangqi._types cimport *


# How many times keys[idx] occurs at idx, idx - 4, idx - 6, ... down to lim
# (no earlier: lim is the last capture), counting at most `want`; *first is
# the index of the earliest occurrence counted.
cdef inline int count_repetitions(const u64 *keys, int idx, int lim, int want,
                                  int *first) noexcept nogil:
    cdef int n = 1
    cdef int i = idx - 4
    first[0] = idx
    if lim < 0:
        lim = 0
    while i >= lim and n < want:
        if keys[i] == keys[idx]:
            n += 1
            first[0] = i
        i -= 2
    return n


# Which side flagged every one of its moves in the cycle of plies first..idx
# (moves first -> first + 1, ..., idx - 1 -> idx).  Bit 1: the side that
# made the last move; bit 2: the other side.
cdef inline int perpetual_mask(const u8 *flags, int first, int idx) noexcept nogil:
    cdef int mask = 3
    cdef int j = idx - 1
    while j >= first:
        if not flags[j + 1]:
            mask &= ~1
        j -= 2
    j = idx - 2
    while j >= first:
        if not flags[j + 1]:
            mask &= ~2
        j -= 2
    return mask
