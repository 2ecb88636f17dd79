"""benchmarks/match.py: the match harness, its referee, and two short games
against MaxQi (xboard) through it."""
from __future__ import annotations

import json
import math
import os
import sys

import pytest

from cxiangqi import Board, Move
from cxiangqi.engine import Limit
from cxiangqi.external import PlayResult

from benchmark_modules import load_benchmark

MAXQI = "/usr/games/maxqi"
ENGINE = [sys.executable, "-m", "cxiangqi.protocol"]

match = load_benchmark("match")

BAD_REASONS = ("illegal", "died", "timed out", "failed", "gave no move", "could not start",
               "lost on time")


def replay(record) -> Board:
    board = Board()
    for text in record.moves:
        board.push_iccs(text)  # raises if any move was illegal
    return board


def test_two_games_against_maxqi():
    if not os.access(MAXQI, os.X_OK):
        pytest.fail(f"MaxQi is not installed ({MAXQI}): apt-get install fairymax "
                    "(scripts/test.sh installs it)")
    result = match.play_match(ENGINE, MAXQI, games=2, proto1="uci", proto2="xboard",
                              limit1=Limit(movetime=0.04), limit2=Limit(movetime=0.05),
                              max_plies=160)
    assert len(result.games) == 2
    assert "cxiangqi" in result.name1 and "MaxQi" in result.name2
    for record, engine1_red in zip(result.games, (True, False)):
        assert record.engine1_red == engine1_red
        assert record.result in ("1-0", "0-1", "1/2-1/2")
        assert not any(bad in record.reason for bad in BAD_REASONS), record.reason
        board = replay(record)
        outcome = board.outcome(claim_draw=True)
        if record.reason.startswith("ply limit"):
            assert outcome is None and len(record.moves) == 160
        else:  # the rules ended the game, and the record says how
            assert outcome is not None, record.reason
            assert outcome.termination.name.lower().replace("_", " ") == record.reason
            assert outcome.result() == record.result
    assert result.wins + result.draws + result.losses == 2
    assert result.average_time1 > 0 and result.average_time2 > 0


def test_openings_are_legal_and_distinct():
    positions = set()
    for name, line in match.OPENINGS:
        board = Board()
        for text in line.split():
            board.push_iccs(text)
        assert board.turn, f"{name}: Red should be to move after the opening"
        positions.add(board.zobrist_hash())
    assert len(positions) == len(match.OPENINGS)


def test_elo_difference():
    assert match.elo_difference(5, 10, 5)[0] == 0.0
    diff, err = match.elo_difference(30, 0, 10)
    assert diff == pytest.approx(190.85, abs=0.01)   # 75%
    assert 0 < err < 200
    assert match.elo_difference(10, 0, 0)[0] == math.inf
    assert math.isinf(match.elo_difference(10, 0, 0)[1])
    assert match.elo_difference(0, 0, 3)[0] == -math.inf
    assert match.elo_difference(0, 0, 0) == (0.0, math.inf)
    assert match.format_elo(190.849, 80.01) == "+190.8 +/- 80.0"
    assert match.format_elo(math.inf, math.inf) == "+inf +/- inf"


def test_pentanomial_elo_is_antisymmetric_and_zero_for_even_pairs():
    assert match.pentanomial_elo([0, 0, 50, 0, 0]) == (0.0, 0.0)
    diff, err = match.pentanomial_elo([5, 10, 50, 25, 10])
    back, err_back = match.pentanomial_elo([10, 25, 50, 10, 5])
    assert diff > 0 and back == pytest.approx(-diff) and err == pytest.approx(err_back)
    assert match.pentanomial_elo([0, 0, 0, 0, 0]) == (0.0, math.inf)


def test_sprt_bounds_and_llr_by_hand():
    sprt = match.Sprt(0.0, 10.0)
    lo, hi = sprt.bounds
    assert (lo, hi) == (pytest.approx(-math.log(19)), pytest.approx(math.log(19)))
    # mean 0.5 over 100 pairs, variance (7.5 + 0.1875 from the prior) / 102,
    # s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.514387
    s1 = 1.0 / (1.0 + 10.0 ** (-10.0 / 400.0))
    expected = 100 * (s1 - 0.5) * (1.0 - 0.5 - s1) / (2.0 * 7.6875 / 102)
    assert sprt.llr([10, 20, 40, 20, 10]) == pytest.approx(expected)
    assert expected == pytest.approx(-0.1373, abs=1e-4)
    assert sprt.llr([0, 0, 0, 0, 0]) == 0.0


def test_sprt_decides_on_clear_results_only():
    sprt = match.Sprt(0.0, 10.0)
    assert sprt.verdict([1, 2, 4, 2, 1]) is None              # ten pairs, even
    assert sprt.verdict([10, 30, 100, 60, 30]) == "H1"         # +53 Elo over 230 pairs
    assert sprt.verdict([30, 60, 100, 30, 10]) == "H0"
    # the same ratio of results decides only with enough pairs
    assert sprt.verdict([1, 3, 10, 6, 3]) is None
    # a lone identical result has no variance: the prior keeps it undecided
    assert sprt.verdict([0, 0, 0, 0, 3]) is None


def test_summary_says_when_the_sprt_decided():
    def game(number, score1):
        result = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[score1]
        return match.GameRecord(number, "a", "b", True, "", [], result, "test")
    result = match.MatchResult("a", "b", games=[game(1, 1.0), game(2, 0.5)],
                               sprt=match.Sprt(0.0, 10.0))
    assert result.summary().endswith("no decision")
    result.verdict, result.verdict_games, result.verdict_llr = "H1", 594, 2.98
    text = result.summary()
    assert "pairs (0-2 points in half-points) [0, 0, 0, 1, 0]" in text
    assert text.endswith("H1 (decided at game 594, LLR 2.98)")


class Scripted:
    """An engine object playing a fixed sequence of moves (repeated)."""

    def __init__(self, name, moves):
        self.name = name
        self.moves = [Move.from_iccs(m) for m in moves]
        self.i = 0

    def play(self, board, limit, **kwargs):
        move = self.moves[self.i % len(self.moves)]
        self.i += 1
        return PlayResult(move)


def test_referee_threefold_repetition_is_a_draw():
    red = Scripted("red", ["b0c2", "c2b0"])
    black = Scripted("black", ["b9c7", "c7b9"])
    record = match.play_game(match.Player(red, limit=Limit(depth=1)),
                             match.Player(black, limit=Limit(depth=1)))
    assert record.result == "1/2-1/2"
    assert record.reason == "repetition"
    assert len(record.moves) == 8  # the start position for the third time


def test_referee_perpetual_check_loses():
    # the red rook checks on the 9th and 8th ranks in turn while the black
    # king steps between e9 and e8: at the third occurrence Red loses
    red = Scripted("red", ["a1a9"] + ["a9a8", "a8a9"] * 10)
    black = Scripted("black", ["e9e8", "e8e9"] * 10)
    record = match.play_game(match.Player(red, limit=Limit(depth=1)),
                             match.Player(black, limit=Limit(depth=1)),
                             start_fen="4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1")
    assert (record.result, record.reason) == ("0-1", "perpetual check")
    assert len(record.moves) == 9


def test_referee_illegal_move_loses():
    red = Scripted("red", ["b0c2"])
    black = Scripted("black", ["a9a5"])  # the rook cannot jump its own pawn
    record = match.play_game(match.Player(red, limit=Limit(depth=1)),
                             match.Player(black, limit=Limit(depth=1)))
    assert record.result == "1-0"
    assert "illegal move" in record.reason
    assert record.moves == ["b0c2"]


class NoMove:
    """An engine that answers "nobestmove" (external.py raises EngineError)."""
    name = "silent"

    def play(self, board, limit, **kwargs):
        from cxiangqi.external import EngineError
        raise EngineError(f"engine 'silent' gave no move in {board.fen()}")


@pytest.mark.parametrize("halfmove, result, reason", [
    (99, "0-1", "silent failed"),
    (100, "1/2-1/2", "silent claimed a draw (50-move rule)"),
])
def test_referee_no_move_is_a_loss_unless_fifty_moves_passed(halfmove, result, reason):
    # ElephantEye answers "nobestmove" after 100 plies without a capture: a
    # draw claim; anywhere else a missing move loses
    record = match.play_game(match.Player(NoMove(), limit=Limit(depth=1)),
                             match.Player(Scripted("black", ["e9e8"]), limit=Limit(depth=1)),
                             start_fen=f"4k4/9/9/9/9/9/9/9/R8/3K5 w - - {halfmove} 80")
    assert record.result == result and record.reason.startswith(reason)
    assert record.moves == []


def test_referee_ply_limit_is_a_draw():
    red = Scripted("red", ["b0c2", "c2b0"])
    black = Scripted("black", ["a6a5", "a5a4"])
    record = match.play_game(match.Player(red, limit=Limit(depth=1)),
                             match.Player(black, limit=Limit(depth=1)), max_plies=4)
    assert record.result == "1/2-1/2" and record.reason == "ply limit (4)"
    assert record.moves == ["b0c2", "a6a5", "c2b0", "a5a4"]


def test_cli_with_builtin_engines(capsys):
    assert match.main(["--engine1", "builtin:1", "--engine2", "builtin:2", "--games", "2",
                       "--depth", "1", "--max-plies", "12"]) == 0
    out = capsys.readouterr().out
    assert out.count("Game ") == 2
    assert "Elo difference" in out
    assert "cxiangqi builtin (level 1)" in out


def test_match_report_finds_an_avoidable_loss_by_the_chase_rule(tmp_path, capsys):
    from test_chase import ISSUE_GAME
    report = load_benchmark("match_report")
    moves = list(ISSUE_GAME)
    board = replay(match.GameRecord(1, "x", "y", False, "", moves, "", ""))
    outcome = board.outcome(claim_draw=True)
    assert outcome.winner is True and outcome.termination.name == "PERPETUAL_CHASE"
    chased = {"number": 1, "red": "ElephantEye", "black": "cxiangqi", "engine1_red": False,
              "opening": "", "result": "1-0", "reason": "perpetual chase", "moves": moves}
    won = dict(chased, number=2, red="cxiangqi", black="ElephantEye", engine1_red=True,
               reason="ElephantEye resigned", moves=moves[:10])
    safe = report.avoidable(chased)
    assert safe and "c7c8" not in safe and "c8c7" not in safe
    assert report.avoidable(won) is None and report.points(won) == 1.0
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in (chased, won)))
    assert report.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "+1 =0 -1" in out and "losses by a repetition rule: 1" in out
    assert "did not lose by the rule" in out


# cxiangqi (Red) lost this game to ElephantEye by perpetual check (10 s + 0.1 s);
# at its last move every other move was mated or lost by the rule as well
PERPETUAL_LOSS = ("h2e2 h7e7 h0g2 h9g7 i0i1 i9h9 i1d1 g6g5 b0c2 b9a7 d1d7 b7b5 d7d5 b5c5 d5g5 "
                  "h9h7 b2b7 c5c2 g5g7 h7h6 g2e1 e7e3 g7g9 a9b9 b7i7 h6f6 i7i9 f6f7 g9h9 b9b8 "
                  "h9h0 f9e8 g0i2 e9f9 i2g4 b8b5 h0h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 h8h9").split()


def test_match_report_counts_a_loss_by_rule_on_every_line_as_unavoidable():
    from cxiangqi.engine import Limit
    report = load_benchmark("match_report")
    board = replay(match.GameRecord(1, "x", "y", False, "", PERPETUAL_LOSS, "", ""))
    outcome = board.outcome(claim_draw=True)
    assert outcome.winner is False and outcome.termination.name == "PERPETUAL_CHECK"
    game = {"number": 1, "red": "cxiangqi", "black": "ElephantEye", "engine1_red": True,
            "opening": "", "result": "0-1", "reason": "perpetual check",
            "moves": PERPETUAL_LOSS}
    # the rule sees other moves, but a search deep enough finds that the best
    # of them (h8h0) ends in another perpetual or in mate
    assert report.avoidable(game)
    # (today: "h8h0, loses by a repetition rule too (score -20000)")
    deep = report.verify(game, Limit(depth=12))
    assert deep.startswith("unavoidable: the best other move"), deep
    assert "loses by a repetition rule" in deep or "is mated in" in deep
    # a shallow one does not see it, and says so
    assert report.verify(game, Limit(depth=4)).startswith("AVOIDABLE: ")
