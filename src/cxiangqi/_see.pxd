# Static exchange evaluation: what a capture sequence on one square wins.
# See _see.pyx.

from cxiangqi._types cimport *
from cxiangqi._position cimport Position

# Piece values for exchanges and for ordering captures (MVV/LVA), by type.
cdef int SEE_VALUE[7]

# True when mv, and the best sequence of recaptures on its target square
# that both sides can choose to stop, gains at least `threshold` centipawns
# for the side to move (a quiet move gains 0, then may lose the piece).
cdef bint see_ge(const Position *pos, int mv, int threshold) noexcept nogil
