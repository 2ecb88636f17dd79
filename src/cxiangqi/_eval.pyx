# Evaluation: every number the engine's judgement rests on is in this file.
#
# The tables are written as Red sees the board: the first row is rank 9
# (Black's back rank), the last row rank 0 (Red's).  Black's tables are the
# same tables mirrored top to bottom.  Values are centipawns.

from cxiangqi._types cimport *
from cxiangqi._tables cimport SQ90_TO_SQ

MATERIAL = {
    KING: 0, ADVISOR: 200, ELEPHANT: 200, HORSE: 400, ROOK: 900, CANNON: 450, PAWN: 100,
}

# Pawns are worth little at home and a lot near the enemy palace; a pawn on
# the last rank can only move sideways and is worth less again.
_PAWN = [
    [10, 10, 10, 20, 25, 20, 10, 10, 10],
    [40, 50, 65, 80, 85, 80, 65, 50, 40],
    [40, 50, 60, 70, 75, 70, 60, 50, 40],
    [35, 45, 50, 60, 60, 60, 50, 45, 35],
    [20, 25, 35, 40, 45, 40, 35, 25, 20],
    [0, 0, -5, 0, 10, 0, -5, 0, 0],
    [0, 0, -5, 0, 5, 0, -5, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
]
_ADVISOR = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -2, 0, -2, 0, 0, 0],
    [0, 0, 0, 0, 6, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
]
_ELEPHANT = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -2, 0, 0, 0, -2, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-3, 0, 0, 0, 6, 0, 0, 0, -3],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
]
_HORSE = [
    [0, -5, 5, 10, 0, 10, 5, -5, 0],
    [0, 10, 25, 20, 5, 20, 25, 10, 0],
    [5, 15, 20, 25, 25, 25, 20, 15, 5],
    [5, 20, 20, 28, 25, 28, 20, 20, 5],
    [0, 12, 15, 20, 20, 20, 15, 12, 0],
    [0, 5, 12, 15, 15, 15, 12, 5, 0],
    [0, 5, 10, 5, 12, 5, 10, 5, 0],
    [-5, 0, 5, 5, 0, 5, 5, 0, -5],
    [-5, -5, 0, -10, -10, -10, 0, -5, -5],
    [-10, -15, -5, -10, -20, -10, -5, -15, -10],
]
_ROOK = [
    [12, 16, 14, 26, 28, 26, 14, 16, 12],
    [12, 24, 18, 32, 60, 32, 18, 24, 12],
    [12, 16, 14, 28, 32, 28, 14, 16, 12],
    [12, 26, 26, 32, 32, 32, 26, 26, 12],
    [16, 22, 22, 28, 30, 28, 22, 22, 16],
    [16, 24, 24, 28, 30, 28, 24, 24, 16],
    [8, 18, 8, 24, 28, 24, 8, 18, 8],
    [-4, 16, 8, 24, 24, 24, 8, 16, -4],
    [10, 16, 12, 24, 0, 24, 12, 16, 10],
    [-12, 12, 8, 24, 0, 24, 8, 12, -12],
]
_CANNON = [
    [8, 8, 0, -10, -12, -10, 0, 8, 8],
    [4, 4, 0, -8, -14, -8, 0, 4, 4],
    [2, 2, 0, -10, -8, -10, 0, 2, 2],
    [0, 6, 6, 4, 8, 4, 6, 6, 0],
    [0, 0, 0, 0, 8, 0, 0, 0, 0],
    [-2, 0, 6, 0, 8, 0, 6, 0, -2],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [2, 0, 8, 6, 10, 6, 8, 0, 2],
    [0, 2, 4, 4, 4, 4, 4, 2, 0],
    [0, 0, 2, 6, 6, 6, 2, 0, 0],
]
_KING = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -20, -25, -20, 0, 0, 0],
    [0, 0, 0, -10, -10, -10, 0, 0, 0],
    [0, 0, 0, -5, 0, -5, 0, 0, 0],
]

PLACEMENT = {
    KING: _KING, ADVISOR: _ADVISOR, ELEPHANT: _ELEPHANT, HORSE: _HORSE,
    ROOK: _ROOK, CANNON: _CANNON, PAWN: _PAWN,
}


def _fill():
    cdef int pt, side, rank, file, sq, row, col
    for side in range(2):
        for pt in range(7):
            for sq in range(256):
                PST[side * 7 + pt][sq] = 0
            table = PLACEMENT[pt]
            for rank in range(10):
                for file in range(9):
                    # table row 0 is rank 9 for Red; Black sees it mirrored
                    row = 9 - rank if side == RED else rank
                    col = file if side == RED else 8 - file
                    sq = SQ90_TO_SQ[rank * 9 + file]
                    PST[side * 7 + pt][sq] = MATERIAL[pt] + table[row][col]


_fill()
