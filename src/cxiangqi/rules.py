"""How a referee ends a xiangqi game: repetition, perpetual check and chase,
the move limit and insufficient material.

Reference: the Asian Xiangqi Federation / Chinese Xiangqi Association rules
as engines implement them, following Fairy-Stockfish and Pikafish
(``Position::chased`` and the repetition verdict in ``Position::is_repetition``):

- A repetition is judged when a position occurs for the third time with the
  same side to move, counting only positions since the last capture.
- Over the cycle from the first of those occurrences to now: a side that
  gave check with every one of its moves, while the other side did not,
  loses (perpetual check, 长将).  Otherwise a side that chased the same
  piece with every one of its moves, while the other side neither checked
  nor chased throughout, loses (perpetual chase, 长捉).  Any other
  repetition is a draw.
- A move chases (捉) when it creates a new attack on an enemy piece that
  the attacker could legally take next move, where:
  kings and pawns never chase; a king is never chased (that is a check) and
  neither is a pawn that has not crossed the river; a horse or cannon
  attacking a rook, and an advisor or elephant attacking a rook, horse or
  cannon, chase even when the target is protected; any other attack chases
  only an unprotected target (one the owner cannot legally retake); a piece
  attacking another of the same type does not chase unless the target
  cannot take it back (a blocked horse leg, a pin); a pinned attacker,
  whose capture would be illegal, chases only the piece pinning it.
- 60 moves by each side (120 plies) without a capture is a draw (Chinese
  rules), and so is a position where neither side has a rook, horse,
  cannon or pawn left: nothing can cross the river to attack.

The rules are implemented once, in C (``_rules.pxd``/``_rules.pyx``): the
referee (``Board.outcome`` through this module) and the search
(``_search.pyx``) judge repetitions, perpetual checks and perpetual chases
with the same code, so the engine plays by the rules it is judged by.  A
plain-Python reference implementation of the chase rule lives with the
tests (``tests/chase_reference.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Set, Tuple

from ._core import Position as _Position
from .move import Move
from .square import BLACK, CANNON, HORSE, PAWN, RED, ROOK, Color, Square

if TYPE_CHECKING:
    from .board import Board

__all__ = ["MOVE_LIMIT_PLIES", "REPETITION_COUNT", "chased_squares", "repetition_verdict",
           "insufficient_material"]

MOVE_LIMIT_PLIES = 120
REPETITION_COUNT = 3


def chased_squares(board: "Board", move: Move) -> Set[Square]:
    """Squares (after `move`) of the enemy pieces that `move`, legal for the
    side to move of `board`, chases.  `board` is left unchanged."""
    return board.chased_squares(move)


def repetition_verdict(board: "Board") -> Optional[Tuple[str, Optional[Color]]]:
    """None unless the current position occurs for the third time (same side
    to move, no capture since).  Otherwise ("perpetual_check", loser),
    ("perpetual_chase", loser) or ("repetition", None)."""
    keys = board.history_keys()
    count, first = _Position.repetitions(keys, REPETITION_COUNT)
    if count < REPETITION_COUNT:
        return None
    # bit 1: the side that just moved, bit 2: the side to move
    last_mover: Color = not board.turn
    check_mask = _Position.perpetual(bytes(board.history_checks()), first)
    if check_mask in (1, 2):
        return ("perpetual_check", last_mover if check_mask == 1 else board.turn)
    chase_mask = board.chase_mask(len(keys) - 1 - first)
    if chase_mask in (1, 2) and check_mask == 0:
        return ("perpetual_chase", last_mover if chase_mask == 1 else board.turn)
    return ("repetition", None)


def insufficient_material(board: "Board") -> bool:
    """Neither side has a rook, horse, cannon or pawn: no piece can cross
    the river, so nobody can be mated."""
    return not any(board.pieces(pt, color) for pt in (HORSE, ROOK, CANNON, PAWN)
                   for color in (RED, BLACK))
