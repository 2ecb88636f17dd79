"""Reference implementation of the chase rule in plain Python, over the public
Board API: the rule as cxiangqi.rules states it, written for clarity.  The
referee and the search use the C implementation (src/cxiangqi/_rules.pyx);
tests/test_chase.py checks that the two agree on thousands of moves from
real games.  (It was the referee's own code before the rule moved to C.)
"""

from __future__ import annotations

from typing import Dict, Optional, Set, Tuple

from cxiangqi import Board, Move
from cxiangqi.square import (ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, KING, PAWN, RED, ROOK,
                             Color, Square, square_rank)


# (attacker type, target type) pairs that chase even a protected target
_ALWAYS_CHASED = {
    (HORSE, ROOK), (CANNON, ROOK),
    (ADVISOR, ROOK), (ADVISOR, HORSE), (ADVISOR, CANNON),
    (ELEPHANT, ROOK), (ELEPHANT, HORSE), (ELEPHANT, CANNON),
}


def _crossed(sq: Square, color: Color) -> bool:
    return square_rank(sq) >= 5 if color == RED else square_rank(sq) <= 4


def _attack_pairs(board: Board, color: Color) -> Set[Tuple[Square, Square]]:
    """(attacker, target) for every piece of `color` attacking an enemy piece."""
    pairs = set()
    enemy = not color
    for pt in (KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN):
        for target in board.pieces(pt, enemy):
            for a in board.attackers(color, target):
                pairs.add((a, target))
    return pairs


def _legal_for(board: Board, color: Color, move: Move) -> bool:
    """Could `color` legally play `move` if it were its turn?"""
    if board.turn == color:
        return board.is_legal(move)
    probe = board.copy(stack=False)
    probe.turn = color
    return probe.is_legal(move)


def _protected(board: Board, attacker: Square, target: Square) -> bool:
    """After the attacker takes on `target`, can the owner legally retake?"""
    owner = board.piece_at(target).color
    probe = board.copy(stack=False)
    probe.turn = not owner
    probe.push(Move(attacker, target))
    return any(probe.is_legal(Move(d, target)) for d in probe.attackers(owner, target))


def chased_squares(board: Board, move: Move) -> Set[Square]:
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


def chase_mask(board: Board, plies: int) -> int:
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


