"""cxiangqi: Xiangqi (Chinese chess) for Python, with a compiled Cython core.

>>> import cxiangqi
>>> board = cxiangqi.Board()
>>> board.push(cxiangqi.Move.from_iccs("h2e2"))
>>> board.fen()
'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
"""

# The compiled core is required: there is no pure-Python fallback, so a
# broken build fails here, at import.
from . import _core  # noqa: F401

from .board import Board, LegalMoveGenerator, Outcome, PseudoLegalMoveGenerator, Termination
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError
from .fen import STARTING_BOARD_FEN, STARTING_FEN
from .move import Move
from .piece import Piece
from .square import *  # noqa: F401,F403  (colours, piece types, squares A0..I9)
from .square import __all__ as _square_all

from ._version import __version__  # noqa: E402

__all__ = [
    "Board", "LegalMoveGenerator", "PseudoLegalMoveGenerator", "Outcome", "Termination",
    "Move", "Piece", "STARTING_FEN", "STARTING_BOARD_FEN",
    "InvalidFenError", "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError",
] + list(_square_all)
