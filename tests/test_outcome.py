"""Game end as a referee rules it: every Termination on hand-made move
sequences, each chase clause of cxiangqi.rules, and pyffish agreeing on
perpetual check and chase."""
from __future__ import annotations

import pyffish
import pytest

from cxiangqi import BLACK, RED, Board, Move, parse_square
from cxiangqi.board import Outcome, Termination
from cxiangqi.rules import chased_squares

from conftest import games, iccs_to_ffish, positions


def _play(fen: str, moves):
    board = Board(fen)
    for m in moves:
        board.push_iccs(m)
    return board


def _ffish_verdict(fen: str, moves):
    """pyffish's view, from the side to move: (game over?, result sign)."""
    ff = [iccs_to_ffish(m) for m in moves]
    ended, value = pyffish.is_optional_game_end("xiangqi", fen, ff)
    return ended, (value > 0) - (value < 0)


# --- no legal move ---------------------------------------------------------------

def test_checkmate_and_stalemate_are_losses():
    # the last move of a real game: black's rook mates on g0
    mate = _play("3ak1b2/2CR5/3ab4/8p/1np6/1R7/9/4N4/4A4/4KABrc b - - 0 36", ["i0g0"])
    assert mate.outcome() == Outcome(Termination.CHECKMATE, BLACK)
    assert mate.outcome().result() == "0-1"
    stalemates = [p["fen"] for p in positions() if p["stalemate"]]
    assert stalemates
    for fen in stalemates:
        board = Board(fen)
        loser = board.turn
        assert board.outcome() == Outcome(Termination.STALEMATE, not loser)   # 困毙 loses


# --- repetition -------------------------------------------------------------------

CHECK_CYCLE = ("4k4/R8/9/9/9/9/9/9/8r/3K5 w - - 0 1", ["a8a9", "e9e8", "a9a8", "e8e9"])
CHASE_CYCLE = ("4k4/9/2c6/9/9/9/9/9/9/1R1K5 w - - 0 1", ["b0c0", "c7b7", "c0b0", "b7c7"])
# the same chase, but the cannon is protected by horses on a8 and d8: no chase
PROTECTED_CYCLE = ("4k4/n2n5/2c6/9/9/9/9/9/9/1R1K5 w - - 0 1", ["b0c0", "c7b7", "c0b0", "b7c7"])
# both sides only shuffle: a plain draw by repetition
IDLE_CYCLE = ("4k4/4a4/9/p8/9/9/P8/9/4A4/3K5 w - - 0 1", ["e1f2", "e8d7", "f2e1", "d7e8"])


@pytest.mark.parametrize("fen,cycle,termination,winner", [
    (*CHECK_CYCLE, Termination.PERPETUAL_CHECK, BLACK),
    (*CHASE_CYCLE, Termination.PERPETUAL_CHASE, BLACK),
])
def test_perpetual_loses_on_the_third_occurrence(fen, cycle, termination, winner):
    moves = cycle * 2
    board = Board(fen)
    for i, m in enumerate(moves):
        board.push_iccs(m)
        if i < len(moves) - 1:
            assert board.outcome(claim_draw=True) is None, (i, m)
            assert not _ffish_verdict(fen, moves[: i + 1])[0]
    assert board.is_repetition(3)
    assert board.outcome() == Outcome(termination, winner)
    # pyffish: the game is over and the side to move (Red, the offender) lost
    assert _ffish_verdict(fen, moves) == (True, -1)


@pytest.mark.parametrize("fen,cycle", [PROTECTED_CYCLE, IDLE_CYCLE])
def test_other_repetitions_are_draws(fen, cycle):
    moves = cycle * 2
    board = _play(fen, moves)
    assert board.outcome() is None                       # a draw must be claimed
    assert board.outcome(claim_draw=True) == Outcome(Termination.REPETITION, None)
    assert board.is_game_over(claim_draw=True) and not board.is_game_over()
    assert _ffish_verdict(fen, moves) == (True, 0)


def test_repetition_needs_the_same_side_to_move_and_no_capture_between():
    board = _play(IDLE_CYCLE[0], IDLE_CYCLE[1])
    assert board.is_repetition(2) and not board.is_repetition(3)
    board.pop()
    assert not board.is_repetition(2)


def test_black_perpetual_check_loses_too():
    # Black's rook checks on rank 0 and rank 1 in turn; the red king steps up
    # and back: Black is the offender
    fen = "3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1"
    board = _play(fen, ["a1a0", "e0e1", "a0a1", "e1e0"] * 2)
    assert board.outcome() == Outcome(Termination.PERPETUAL_CHECK, RED)
    assert _ffish_verdict(fen, ["a1a0", "e0e1", "a0a1", "e1e0"] * 2) == (True, -1)


def test_every_repetition_in_real_games_agrees_with_pyffish():
    """The first threefold repetition of each of the 3,000 games, replayed
    from the first of its three occurrences: the verdict (who loses, or a
    draw) equals pyffish's.  (With the whole game before it pyffish judges
    6 of these cycles a draw where the cycle alone is a chase: its chase
    detection depends on moves before the cycle.)"""
    kinds = {}
    for g in games():
        board = Board()
        for m in g["moves"]:
            board.push_iccs(m)
            if not board.is_repetition(3):
                continue
            keys = board.history_keys()
            first = [i for i, k in enumerate(keys) if k == keys[-1]][-3]   # 3rd occurrence back
            plies = len(keys) - 1 - first
            cycle = [board.pop() for _ in range(plies)][::-1]
            fen = board.fen()
            replay = Board(fen)
            for mv in cycle:
                replay.push(mv)
            outcome = replay.outcome(claim_draw=True)
            ours = 0 if outcome.winner is None else (1 if outcome.winner == replay.turn else -1)
            assert _ffish_verdict(fen, [mv.iccs() for mv in cycle]) == (True, ours), \
                (fen, [mv.iccs() for mv in cycle], outcome)
            kinds[outcome.termination] = kinds.get(outcome.termination, 0) + 1
            break
    # the data holds all three kinds, so each verdict was really compared
    assert kinds.get(Termination.PERPETUAL_CHECK, 0) >= 20
    assert kinds.get(Termination.PERPETUAL_CHASE, 0) >= 20
    assert kinds.get(Termination.REPETITION, 0) >= 20


# --- chase clauses ------------------------------------------------------------------

def _chased(fen: str, move: str):
    board = Board(fen)
    result = chased_squares(board, Move.from_iccs(move))
    assert board.fen() == fen                                # untouched
    return {s for s in result}


def sq(name):
    return parse_square(name)


def test_rook_chases_an_unprotected_piece_only():
    assert _chased("4k4/9/2c6/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0c0") == {sq("c7")}
    assert _chased("4k4/n8/2c6/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0c0") == set()


def test_horse_chases_a_rook_even_when_protected():
    assert _chased("4k4/n8/2r6/9/9/9/2N6/9/9/3K5 w - - 0 1", "c3b5") == {sq("c7")}


def test_elephant_chases_a_protected_horse():
    assert _chased("3k5/9/9/9/6p2/6n2/9/9/9/4K1B2 w - - 0 1", "g0e2") == {sq("g4")}


def test_same_type_mutual_attack_is_not_a_chase():
    assert _chased("4k4/9/2r6/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0c0") == set()


def test_pawns_before_the_river_are_not_chased():
    assert _chased("4k4/9/9/2p6/9/9/9/9/9/1R1K5 w - - 0 1", "b0c0") == set()
    assert _chased("4k4/9/9/9/9/2p6/9/9/9/1R1K5 w - - 0 1", "b0c0") == {sq("c4")}


def test_pawns_never_chase():
    assert _chased("4k4/9/3n5/9/3P5/9/9/9/9/3K5 w - - 0 1", "d5d6") == set()


def test_pinned_attacker_does_not_chase():
    # the red rook is pinned on the e-file by the black rook: taking b4 would
    # expose the king, so its new attack on the horse is no chase
    assert _chased("3k5/9/4r4/9/9/1n7/4R4/9/9/4K4 w - - 0 1", "e3e4") == set()
    assert _chased("3k5/9/9/9/9/1n7/4R4/9/9/4K4 w - - 0 1", "e3e4") == {sq("b4")}


def test_an_old_attack_is_not_a_new_chase():
    # the rook already attacked the cannon before moving along the same file
    assert _chased("4k4/9/2c6/9/9/9/9/9/9/2RK5 w - - 0 1", "c0c1") == set()


# --- move limit and material ----------------------------------------------------------

def test_move_limit_after_120_plies_without_capture():
    board = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 119 80")
    assert board.outcome() is None
    board.push_iccs("e1f1")
    assert board.halfmove_clock == 120
    assert board.outcome() == Outcome(Termination.MOVE_LIMIT, None)
    assert board.outcome().result() == "1/2-1/2"


def test_checkmate_beats_the_move_limit():
    # a real game's quiet mating move, with the clock set one ply short
    board = Board("5R3/1N1kn4/9/pr4p1p/9/2P3P2/P3c3P/3CB4/4A4/4KAB2 w - - 119 38")
    board.push_iccs("f9d9")
    assert board.halfmove_clock == 120
    assert board.outcome() == Outcome(Termination.CHECKMATE, RED)


def test_insufficient_material():
    board = Board("3akab2/9/9/9/9/9/9/9/4A4/2BK1A3 w - - 0 1")
    assert board.outcome() == Outcome(Termination.INSUFFICIENT_MATERIAL, None)
    # one pawn left on either side is enough to play on
    assert Board("3akab2/9/9/9/9/6P2/9/9/4A4/2BK1A3 w - - 0 1").outcome() is None


def test_game_goes_on():
    assert Board().outcome() is None
    assert not Board().is_game_over(claim_draw=True)
