"""The chase rule (长捉) as the referee and the search apply it.

The rule is implemented once in C (_rules.pyx); here it is checked against
the plain-Python reference implementation (tests/chase_reference.py) on
moves and repetition cycles from real games, and the engine is checked to
play by it: it does not walk into a perpetual-chase loss when it has
another move, it scores the opponent's perpetual chase as a win, and a
chase of a protected piece, like any other repetition, as a draw.  Every
hand position is cross-checked with Board.outcome().
"""
from __future__ import annotations

import random
import zlib

import pytest

import chase_reference as ref
from cxiangqi import BLACK, RED, Board, Move
from cxiangqi.board import Outcome, Termination
from cxiangqi.engine import BAN_SCORE, Engine, Limit
from cxiangqi.rules import chased_squares

from conftest import games


def _play(fen: str, moves) -> Board:
    board = Board(fen)
    for m in moves:
        board.push_iccs(m)
    return board


def _score_of(board: Board, move: str, depth: int = 3) -> int:
    """The engine's score (side to move's view) for playing `move`."""
    others = [m for m in board.legal_moves if m.iccs() != move]
    result = Engine(hash_mb=4).search(board, Limit(depth=depth), banmoves=others)
    assert result.move == Move.from_iccs(move)
    return result.score


# --- the C rule agrees with the reference ---------------------------------------------

def _sample_games(n: int, salt: str):
    rng = random.Random(zlib.crc32(salt.encode()))
    pool = [g for g in games() if g["plies"] >= 20]
    return rng.sample(pool, n)


def test_chased_pieces_agree_with_the_reference_on_real_games():
    compared = chases = 0
    for game in _sample_games(30, "chased"):
        board = Board()
        for text in game["moves"]:
            for move in board.legal_moves:
                ours = chased_squares(board, move)
                assert ours == ref.chased_squares(board, move), (board.fen(), move.iccs())
                compared += 1
                chases += bool(ours)
            board.push_iccs(text)
    assert compared > 25_000 and chases > 500, (compared, chases)


def test_every_repetition_cycle_in_real_games_agrees_with_the_reference():
    from cxiangqi._core import Position as _P
    masks = {}
    for game in games():
        board = Board()
        seen = set()                    # keys since the last capture
        for text in game["moves"]:
            if board.is_capture(Move.from_iccs(text)):
                seen.clear()
            board.push_iccs(text)
            key = board.zobrist_hash()
            if key not in seen:
                seen.add(key)
                continue
            keys = board.history_keys()
            count, first = _P.repetitions(keys, 2)
            if count < 2:
                continue
            plies = len(keys) - 1 - first
            ours = board.chase_mask(plies)
            assert ours == ref.chase_mask(board, plies), (board.fen(), plies)
            masks[ours] = masks.get(ours, 0) + 1
    # both "the last mover chased" and "the other side chased" occur
    assert masks.get(1, 0) >= 20 and masks.get(2, 0) >= 20, masks


# --- hand positions: the referee and the engine agree ----------------------------------

# Red's rook chases Black's unprotected cannon between b7 and a7: Red is the
# chaser and loses at the third occurrence.
CHASE = ("5k3/9/1c7/9/9/9/9/R8/9/3K5 w - - 0 1", ["a2b2", "b7a7", "b2a2", "a7b7"])
# The same dance against a horse that Black's rook on a9 protects on both
# squares (a7 and b9): a rook on a protected horse is no chase, so a draw.
PROTECTED = ("r4k3/9/n8/9/9/9/9/1R7/9/3K5 w - - 0 1", ["b2a2", "a7b9", "a2b2", "b9a7"])
# Red's rook checks the black king back and forth: perpetual check.
CHECK = ("4k4/R8/9/9/9/9/9/9/8r/3K5 w - - 0 1", ["a8a9", "e9e8", "a9a8", "e8e9"])


@pytest.mark.parametrize("fen,cycle,expected", [
    (*CHASE, Outcome(Termination.PERPETUAL_CHASE, BLACK)),
    (*PROTECTED, None),
    (*CHECK, Outcome(Termination.PERPETUAL_CHECK, BLACK)),
])
def test_referee_verdicts(fen, cycle, expected):
    board = _play(fen, cycle * 2)
    assert board.is_repetition(3)
    assert board.outcome() == expected
    if expected is None:
        assert board.outcome(claim_draw=True) == Outcome(Termination.REPETITION, None)


@pytest.mark.parametrize("fen,cycle,loses", [
    (*CHASE, True),
    (*PROTECTED, False),
    (*CHECK, True),
])
def test_engine_scores_the_offenders_repeat_as_the_referee_would(fen, cycle, loses):
    # after one cycle, Red's next move repeats a position (the second time):
    # the search judges the cycle at once, the referee at the third time
    board = _play(fen, cycle)
    score = _score_of(board, cycle[0])
    if loses:
        assert score <= -BAN_SCORE + 100
        # and the referee agrees, once the cycle has come round the third time
        final = _play(fen, cycle * 2)
        assert final.outcome().winner == BLACK
    else:
        assert abs(score) < BAN_SCORE - 100


@pytest.mark.parametrize("fen,cycle", [CHASE, CHECK])
def test_engine_does_not_play_the_losing_repeat(fen, cycle):
    board = _play(fen, cycle)
    for limit in (Limit(depth=1), Limit(depth=4), Limit(nodes=20_000)):
        result = Engine(hash_mb=4).search(board, limit)
        assert result.move != Move.from_iccs(cycle[0]), limit
        after = board.copy()
        after.push(result.move)
        assert after.outcome() is None


@pytest.mark.parametrize("fen,cycle", [CHASE, CHECK])
def test_engine_claims_the_win_when_the_opponent_repeats_a_chase(fen, cycle):
    # Black to move after Red's fourth offending move: Black's repeat
    # completes a cycle in which Red chased (or checked) with every move
    board = _play(fen, cycle + cycle[:1])
    score = _score_of(board, cycle[1])
    assert score >= BAN_SCORE - 100


# --- the game from the issue ----------------------------------------------------------

# cxiangqi (Black) against ElephantEye: Black's cannon chased the rook with
# every move (c8c7, c7c8, ...) and lost by 长捉 at ply 29.
ISSUE_GAME = ("h2e2 h7e7 e2e6 f9e8 b2e2 h9g7 e6e5 i9h9 a0a1 b7c7 a1f1 h9h3 h0i2 b9a7 i0h0 "
              "h3i3 h0h6 a9b9 b0a2 g6g5 f1f8 c7c8 f8f7 c8c7 f7f8 c7c8 f8f7 c8c7 f7f8").split()


def test_the_issue_game_was_a_perpetual_chase():
    board = _play(Board().fen(), ISSUE_GAME)
    assert board.outcome() == Outcome(Termination.PERPETUAL_CHASE, RED)


@pytest.mark.parametrize("limit", [Limit(depth=1), Limit(depth=6), Limit(nodes=50_000)], ids=repr)
def test_engine_does_not_repeat_the_issue_games_chase(limit):
    board = _play(Board().fen(), ISSUE_GAME[:27])      # Black to move, before c8c7
    result = Engine(hash_mb=16).search(board, limit)
    assert result.move != Move.from_iccs("c8c7")
    after = board.copy()
    after.push(result.move)
    if after.is_legal(Move.from_iccs("f7f8")):
        after.push_iccs("f7f8")
    outcome = after.outcome()
    assert outcome is None or outcome.winner != RED
    assert _score_of(board, "c8c7") <= -BAN_SCORE + 100
