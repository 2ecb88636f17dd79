# Move generation, attacks, check detection and perft.  See _movegen.pyx.

from cxiangqi._types cimport *
from cxiangqi._position cimport Position

# Pseudo-legal moves of the side to move into mvs (MAX_MOVES long); returns
# the count.  captures_only: only moves that take a piece.
cdef int gen_moves(const Position *pos, int *mvs, bint captures_only) noexcept nogil
# Legal moves (pseudo-legal moves that leave the own king safe and the kings
# not facing); returns the count.
cdef int gen_legal(Position *pos, int *mvs, bint captures_only) noexcept nogil
# Number of legal moves, without writing them (perft's last ply).
cdef int count_legal(Position *pos) noexcept nogil
# True when side's king is attacked, or faces the other king on an open file.
# A side without a king is never in check.
cdef bint in_check(const Position *pos, int side) noexcept nogil
# True when mv (pseudo-legal) does not leave the mover in check.
# True when a piece of `by` could capture on sq (the flying general is not
# an attack here); the fast test the search uses for "is it defended".
cdef bint square_attacked(const Position *pos, int sq, int by) noexcept nogil
cdef bint is_legal_pseudo(Position *pos, int mv) noexcept nogil
cdef bint is_pseudo_legal(const Position *pos, int mv) noexcept nogil
# Squares (mailbox) of the pieces of `side` that could capture on sq, written
# to out (at least 16 long); returns the count.  Flying general not included.
cdef int attackers_of(const Position *pos, int sq, int side, int *out) noexcept nogil
# Pieces giving check to side's king (flying general included); returns count.
cdef int checkers_of(const Position *pos, int side, int *out) noexcept nogil
cdef bint gives_check(Position *pos, int mv) noexcept nogil
# True when the piece pc of `side`, standing on s, could move to or capture on
# sq by its movement rule (legality aside).
cdef bint reaches(const u8 *b, int pc, int s, int sq, int side) noexcept nogil
cdef u64 perft(Position *pos, int depth) noexcept nogil
