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

The search (_search.pyx) uses the same repetition detection (``_rules.pxd``)
and the perpetual-check verdict; it treats a repeated chase as a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Optional, Set, Tuple

from ._core import Position as _Position
from .move import Move
from .square import (ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, KING, PAWN, RED, ROOK, Color,
                     Square, square_rank)

if TYPE_CHECKING:
    from .board import Board

__all__ = ["MOVE_LIMIT_PLIES", "REPETITION_COUNT", "chased_squares", "repetition_verdict",
           "insufficient_material"]

MOVE_LIMIT_PLIES = 120
REPETITION_COUNT = 3

# (attacker type, target type) pairs that chase even a protected target
_ALWAYS_CHASED = {
    (HORSE, ROOK), (CANNON, ROOK),
    (ADVISOR, ROOK), (ADVISOR, HORSE), (ADVISOR, CANNON),
    (ELEPHANT, ROOK), (ELEPHANT, HORSE), (ELEPHANT, CANNON),
}


def _crossed(sq: Square, color: Color) -> bool:
    return square_rank(sq) >= 5 if color == RED else square_rank(sq) <= 4


def _attack_pairs(board: "Board", color: Color) -> Set[Tuple[Square, Square]]:
    """(attacker, target) for every piece of `color` attacking an enemy piece."""
    pairs = set()
    enemy = not color
    for pt in (KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN):
        for target in board.pieces(pt, enemy):
            for a in board.attackers(color, target):
                pairs.add((a, target))
    return pairs


def _legal_for(board: "Board", color: Color, move: Move) -> bool:
    """Could `color` legally play `move` if it were its turn?"""
    if board.turn == color:
        return board.is_legal(move)
    probe = board.copy(stack=False)
    probe.turn = color
    return probe.is_legal(move)


def _protected(board: "Board", attacker: Square, target: Square) -> bool:
    """After the attacker takes on `target`, can the owner legally retake?"""
    owner = board.piece_at(target).color
    probe = board.copy(stack=False)
    probe.turn = not owner
    probe.push(Move(attacker, target))
    return any(probe.is_legal(Move(d, target)) for d in probe.attackers(owner, target))


def chased_squares(board: "Board", move: Move) -> Set[Square]:
    """Squares (after `move`) of the enemy pieces that `move`, played by the
    side to move of `board`, chases.  `board` is left unchanged."""
    color = board.turn
    before = _attack_pairs(board, color)
    after_board = board.copy(stack=False)
    after_board.push(move)
    after = _attack_pairs(after_board, color)
    # the moved piece keeps its identity: an attack it already had from
    # its old square is not new
    moved = {(move.to_square if a == move.from_square else a, t) for a, t in before}
    chased: Set[Square] = set()
    for attacker, target in after - moved:
        a_piece = after_board.piece_at(attacker)
        t_piece = after_board.piece_at(target)
        if a_piece.piece_type in (KING, PAWN) or t_piece.piece_type == KING:
            continue
        if t_piece.piece_type == PAWN and not _crossed(target, t_piece.color):
            continue
        # a pinned attacker cannot really take (except the piece pinning it)
        if not _legal_for(after_board, color, Move(attacker, target)):
            continue
        if a_piece.piece_type == t_piece.piece_type and \
                _legal_for(after_board, t_piece.color, Move(target, attacker)):
            continue            # mutual attack between equals
        if (a_piece.piece_type, t_piece.piece_type) in _ALWAYS_CHASED \
                or not _protected(after_board, attacker, target):
            chased.add(target)
    return chased


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
    chase_mask = _chase_mask(board, len(keys) - 1 - first)
    if chase_mask in (1, 2) and check_mask == 0:
        return ("perpetual_chase", last_mover if chase_mask == 1 else board.turn)
    return ("repetition", None)


def _chase_mask(board: "Board", plies: int) -> int:
    """Like the check mask, for chasing the same piece throughout the last
    `plies` plies: bit 1 the side that just moved, bit 2 the other."""
    replay = board.copy()
    moves = [replay.pop() for _ in range(plies)][::-1]
    # per side: the set of chased pieces still chased by every move so far,
    # following each chased piece when its owner moves it
    chased: Dict[Color, Optional[Set[Square]]] = {RED: None, BLACK: None}
    for move in moves:
        mover = replay.turn
        other = not mover
        now = chased_squares(replay, move)
        chased[mover] = now if chased[mover] is None else (chased[mover] & now)
        if chased[other]:
            chased[other] = {move.to_square if s == move.from_square else s
                             for s in chased[other]}
        replay.push(move)
    last_mover = not board.turn
    mask = 0
    if chased[last_mover]:
        mask |= 1
    if chased[board.turn]:
        mask |= 2
    return mask


def insufficient_material(board: "Board") -> bool:
    """Neither side has a rook, horse, cannon or pawn: no piece can cross
    the river, so nobody can be mated."""
    return not any(board.pieces(pt, color) for pt in (HORSE, ROOK, CANNON, PAWN)
                   for color in (RED, BLACK))
