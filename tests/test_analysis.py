"""cxiangqi.analysis: per-ply evaluation, judgements, accuracy and
annotation; the same results from 1 or 2 worker threads and from an
external engine.  Engine scores change as the search evolves, so these
tests assert behaviour (a hanging rook is a blunder, a forced mate is
found, results are reproducible), never a score."""
from __future__ import annotations

import io
import os
import sys

import pytest

from conftest import games

from cxiangqi import Board, Move, pgn
from cxiangqi.analysis import (THRESHOLDS, AnalysisError, Evaluation, GameAnalysis, Thresholds,
                               analyse_game, analyse_games, analyse_task, annotate,
                               jobs_from_games, move_accuracy, side_accuracy, win_probability)
from cxiangqi.engine import Engine, ExternalEngine, Limit

# Red to move: the rook on i0 and Black's rook on a5; i0i5 puts it en prise
# (a5xi5), and Black's king and rook then beat the lone king.
HANGING_ROOK = "5k3/9/9/9/r8/9/9/9/9/3K4R w - - 0 1"


def game_from(fen: str, moves) -> pgn.Game:
    game = pgn.Game()
    game.setup(fen)
    node = game
    for m in moves:
        node = node.add_variation(Move.from_iccs(m))
    return game


def _wins_within(board: Board, n: int) -> bool:
    """Independent proof (plain Python over the Board API): can the side to
    move leave the opponent without a legal move within n of its moves?"""
    for m in sorted(board.legal_moves, key=lambda m: not board.gives_check(m)):
        board.push(m)
        replies = list(board.legal_moves)
        won = not replies
        if not won and n > 1:
            won = True
            for r in replies:
                board.push(r)
                ok = _wins_within(board, n - 1)
                board.pop()
                if not ok:
                    won = False
                    break
        board.pop()
        if won:
            return True
    return False


def mate_in_two_cases(k: int = 3):
    """(fen, the 3 mating plies played) from real games that end in mate,
    where the position 3 plies before the end is a proved mate in 2."""
    cases = []
    for g in games():
        board = Board()
        for m in g["moves"]:
            board.push_iccs(m)
        if board.legal_moves.count() != 0 or len(g["moves"]) < 3:
            continue
        start = Board()
        for m in g["moves"][:-3]:
            start.push_iccs(m)
        if _wins_within(start, 2) and not _wins_within(start, 1):
            cases.append((start.fen(), g["moves"][-3:]))
            if len(cases) == k:
                break
    return cases


# --- the numbers ---------------------------------------------------------------------------

def test_win_probability_and_accuracy_formulas():
    assert win_probability(0) == 0.5
    assert win_probability(250) + win_probability(-250) == pytest.approx(1.0)
    assert win_probability(100) < win_probability(300) < win_probability(None, mate=5) == 1.0
    assert win_probability(None, mate=-1) == win_probability(None, mate=0) == 0.0
    assert move_accuracy(0.6, 0.6) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.6, 0.7) == pytest.approx(100.0, abs=0.01)  # a gain is no loss
    assert 0 < move_accuracy(0.6, 0.3) < move_accuracy(0.6, 0.5) < 100
    assert move_accuracy(1.0, 0.0) == 0.0
    assert side_accuracy([]) is None
    assert side_accuracy([90.0, 90.0]) == pytest.approx(90.0)
    # one blunder weighs more than in a plain mean
    assert side_accuracy([100.0, 100.0, 100.0, 0.0]) < 75.0


def test_thresholds():
    t = THRESHOLDS
    assert (t.inaccuracy, t.mistake, t.blunder) == (0.05, 0.10, 0.15)
    assert [t.judge(x) for x in (0.0, 0.049, 0.05, 0.1, 0.149, 0.15, 0.9)] == [
        None, None, "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert Thresholds(0.2, 0.3, 0.4).judge(0.15) is None


def test_evaluation_cap():
    assert Evaluation(5000, None).capped() == 1000
    assert Evaluation(None, 3).capped() == 1000 and Evaluation(None, -2).capped() == -1000
    assert Evaluation(None, 0).win() == 0.0


# --- a blunder and a mate --------------------------------------------------------------------

def test_hanging_rook_is_a_blunder():
    game = game_from(HANGING_ROOK, ["i0i5", "a5i5"])
    result = analyse_game(game, Limit(depth=6))
    first, second = result.plies
    assert (first.move, first.side, first.judgement) == ("i0i5", "red", "blunder")
    assert first.best != "i0i5" and Move.from_iccs(first.best) in Board(HANGING_ROOK).legal_moves
    assert first.win_loss >= THRESHOLDS.blunder and first.loss > 0
    assert first.fen == HANGING_ROOK
    # taking the rook is Black's best and no mistake
    assert second.judgement is None and second.loss == 0 and second.accuracy == 100.0
    # after the blunder Black is winning: Red's score or mate says so
    assert first.win < 0.2
    assert result.counts["red"]["blunder"] == 1 and result.counts["black"]["blunder"] == 0
    assert result.accuracy["red"] < result.accuracy["black"]

    annotate(game, result)
    node = game.next()
    assert 4 in node.nags  # $4 = ??
    assert node.comment.startswith("[%eval ") and f"Blunder. {first.best} was best." in node.comment
    assert game.variations[1].move.iccs() == first.best  # the best line as a variation
    assert game.headers["RedAccuracy"] == f"{result.accuracy['red']:.1f}"


def test_mate_in_two_gets_a_mate_score():
    cases = mate_in_two_cases()
    assert cases, "no mate-in-2 position found in games.jsonl"
    engine = Engine(hash_mb=16)
    for fen, moves in cases:
        game = game_from(fen, moves)
        result = analyse_game(game, Limit(depth=6), engine)
        red_to_move = fen.split()[1] == "w"
        assert result.start_mate == (2 if red_to_move else -2), (fen, result.start_mate)
        assert result.start_score is None
        first, second, last = result.plies
        # after the first mating move the mater is one move from mate
        assert first.mate == (1 if red_to_move else -1), (fen, first)
        assert first.judgement is None and second.win in (0.0, 1.0)
        # the last move mates: no legal reply, the winner's probability is 1
        assert last.mate == 0 and last.win == (1.0 if red_to_move else 0.0)
        annotate(game, result)
        assert game.next().comment.startswith(f"[%eval #{first.mate}]")


def test_game_over_position_is_not_searched():
    # a final position without legal moves: no engine call is made for it
    fen, moves = mate_in_two_cases(1)[0]

    class Counting(Engine):
        calls = 0

        def analyse(self, *args, **kwargs):
            Counting.calls += 1
            return super().analyse(*args, **kwargs)

    analyse_game(game_from(fen, moves), Limit(depth=4), Counting(hash_mb=1))
    assert Counting.calls == 3  # 4 positions, the last one mated


# --- annotated PGN -------------------------------------------------------------------------

def test_annotated_pgn_reads_back():
    record = games()[7]
    game = game_from(Board().fen(), record["moves"][:30])
    game.headers["Red"], game.headers["Black"] = record["red"], record["black"]
    result = analyse_game(game, Limit(nodes=3000))
    annotate(game, result)
    for notation in ("iccs", "wxf", "chinese"):
        text = io.StringIO()
        pgn.write_game(game, text, notation)
        back = pgn.read_game(io.StringIO(text.getvalue()))
        assert back.errors == []
        assert [m.iccs() for m in back.mainline_moves()] == record["moves"][:30]
        assert [n.comment for n in back.mainline()] == [n.comment for n in game.mainline()]
        assert [n.nags for n in back.mainline()] == [n.nags for n in game.mainline()]
        assert str(back) == str(game)
    evals = [n.comment for n in game.mainline()]
    assert all(c.startswith("[%eval ") for c in evals)
    judged = [p for p in result.plies if p.judgement]
    assert sum(bool(n.nags) for n in game.mainline()) == len(judged)


def test_annotated_game_written_plain_reads_back_with_cchess(tmp_path):
    """cchess cannot read the annotated PGN (comments, NAGs, variations);
    written with comments=False, variations=False it reads the same moves."""
    import cchess  # a test dependency ([test] extra): missing is a failure, not a skip
    game = game_from(HANGING_ROOK, ["i0i5", "a5i5"])
    annotate(game, analyse_game(game, Limit(depth=6)))
    full, plain = tmp_path / "annotated.pgn", tmp_path / "plain.pgn"
    pgn.write_game(game, full)
    text = full.read_text("utf-8")
    assert "{ [%eval" in text and "$4" in text and "( 1. " in text  # all three are there
    assert str(pgn.read_game(full)) == str(game)                       # for cxiangqi
    pgn.write_game(game, plain, comments=False, variations=False)
    assert not any(c in plain.read_text("utf-8").split("\n\n", 1)[1] for c in "{}$()")
    theirs = cchess.Game.read_from(str(plain))
    assert theirs.dump_iccs_moves() == [["i0i5", "a5i5"]]
    assert theirs.init_board.to_fen().split()[:2] == HANGING_ROOK.split()[:2]
    back = pgn.read_game(plain)
    assert [m.iccs() for m in back.mainline_moves()] == ["i0i5", "a5i5"]
    assert back.headers["RedAccuracy"] == game.headers["RedAccuracy"]


def test_annotate_keeps_comments_and_checks_the_game():
    game = game_from(Board().fen(), ["h2e2", "h9g7"])
    game.next().comment = "central cannon"
    game.next().nags.add(1)
    result = analyse_game(game, Limit(depth=2))
    annotate(game, result)
    assert game.next().comment.endswith("central cannon")
    assert game.next().comment.startswith("[%eval ")
    other = game_from(Board().fen(), ["b2e2", "h9g7"])
    with pytest.raises(ValueError, match="another game"):
        annotate(other, result)
    with pytest.raises(ValueError, match="plies"):
        annotate(game_from(Board().fen(), ["h2e2"]), result)


def test_to_dict_round_trip():
    game = game_from(HANGING_ROOK, ["i0i5", "a5i5"])
    result = analyse_game(game, Limit(depth=3))
    again = GameAnalysis.from_dict(result.to_dict())
    assert again == result


# --- reproducible, in any thread ---------------------------------------------------------------

def _strip(d):
    d = dict(d)
    d.pop("seconds")
    return d


def test_fixed_nodes_analysis_is_reproducible():
    game = game_from(Board().fen(), games()[3]["moves"][:24])
    # the same settings give the same analysis (a different table size may
    # not: what the table keeps steers a selective search)
    a = analyse_game(game, Limit(nodes=2000), Engine(hash_mb=8)).to_dict()
    b = analyse_game(game, Limit(nodes=2000), Engine(hash_mb=8)).to_dict()
    assert _strip(a) == _strip(b)


def test_two_threads_give_the_same_results_as_one():
    sample = [game_from(Board().fen(), g["moves"][:20]) for g in games()[:6]]
    one = {job.key: _strip(r.to_dict()) for job, r in
           analyse_games(sample, Limit(nodes=1500), workers=1)}
    two = {job.key: _strip(r.to_dict()) for job, r in
           analyse_games(sample, Limit(nodes=1500), workers=2)}
    assert len(one) == 6 and one == two
    assert set(one) == {j.key for j in jobs_from_games(sample)}


def test_identical_games_are_two_jobs():
    game = game_from(Board().fen(), ["h2e2"])
    keys = [job.key for job in jobs_from_games([game, game])]
    assert len(set(keys)) == 2 and keys[0].rsplit("-", 1)[0] == keys[1].rsplit("-", 1)[0]


def test_bad_games_are_errors_not_crashes():
    bad = pgn.Game()
    bad.headers["FEN"] = "rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR w - - 0 1"  # facing kings
    with pytest.raises(AnalysisError, match="bad start position"):
        analyse_game(bad, Limit(depth=1))
    assert "error" in analyse_task(str(game_from(Board().fen(), ["h2e2"])).replace(
        "h2e2", "h2h8"), {"depth": 1})
    assert "error" in analyse_task("", {"depth": 1})
    done = dict((job.index, r) for job, r in analyse_games(
        [game_from(Board().fen(), ["h2e2"]), bad], Limit(depth=1)))
    assert isinstance(done[1], AnalysisError) and not isinstance(done[0], AnalysisError)


# --- an external engine ------------------------------------------------------------------------

ENGINE_CMD = os.path.join(os.path.dirname(sys.executable), "cxiangqi-engine")


def test_external_engine():
    game = game_from(HANGING_ROOK, ["i0i5", "a5i5"])
    with ExternalEngine.popen(ENGINE_CMD, "uci") as engine:
        result = analyse_game(game, Limit(depth=5), engine)
    assert result.plies[0].judgement == "blunder"
    assert result.plies[1].judgement is None


def test_external_engines_one_per_worker():
    sample = [game_from(Board().fen(), g["moves"][:8]) for g in games()[:4]]
    done = list(analyse_games(sample, Limit(depth=2), workers=2, engine=ENGINE_CMD))
    assert len(done) == 4
    assert all(not isinstance(r, AnalysisError) and len(r.plies) == 8 for _, r in done)


@pytest.mark.parametrize("name", ["cxiangqi.analysis", "cxiangqi.journal"])
def test_doctests(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
