# Evaluation tables and the evaluation function.  See _eval.pyx.

from cxiangqi._types cimport *

# PST[kind][sq]: material + placement value of a piece of that kind on sq,
# from its own side's point of view.  make_move keeps Position.vl[side] as
# the sum of PST over the side's pieces, so material + placement costs one
# subtraction at a node.
cdef int PST[14][256]
