# The Python-visible position class, declared here so the search module can
# read its C position and undo stack (for the game's repetition history).

from cxiangqi._position cimport Position as CPosition, Undo


cdef class Position:
    cdef CPosition pos
    cdef Undo *undo
    cdef int n_undo
    cdef int cap_undo
    cdef int _reserve(self, int n) except -1
