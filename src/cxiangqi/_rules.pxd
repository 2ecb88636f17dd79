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


from cxiangqi._position cimport Position, Undo

# Enemy pieces that mv (legal for pos.side) chases, as a mask of their ids
# (bit pc - 16); pos is unchanged on return.  The rule is the referee's, see
# cxiangqi.rules: a new attack, by a piece that could legally take, on a
# piece it may take.
cdef unsigned int chase_targets(Position *pos, int mv) noexcept nogil
# Like perpetual_mask, for chasing: the cycle is the moves line[first..idx)
# (line[j] the undo record of the move from position j to j + 1) that led to
# `now`.  Bit 1: the side that made the last move chased one same piece with
# every move of the cycle; bit 2: the other side did.
cdef int chase_mask(const Position *now, const Undo *line, int first, int idx) noexcept nogil
