"""The built-in engine: mates from real games, legal answers under every
limit, no move when there is none, the GIL released while searching, stop()
from another thread, and the perpetual-check rule inside the search."""
from __future__ import annotations

import random
import threading
import time
import zlib

from dataclasses import replace
from unittest.mock import ANY

import pytest

import cxiangqi
from cxiangqi import Board, Move
from cxiangqi.engine import (BAN_SCORE, LEVELS, MOVE_OVERHEAD, Engine, Level, Limit, SearchInfo,
                             TableEntry, level_named, mate_in)

from conftest import games, positions


# --- mate-in-N cases from real games ------------------------------------------

def _wins_within(board: Board, n: int) -> bool:
    """Independent check (plain Python over the Board API, no search code):
    can the side to move leave the opponent without a legal move (mate or
    stalemate, both a win) within n of its moves, against every defence?"""
    moves = sorted(board.legal_moves, key=lambda m: not board.gives_check(m))
    for m in moves:
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


def _mate_cases():
    cases = []
    for g in games():
        board = Board()
        for m in g["moves"]:
            board.push_iccs(m)
        if board.legal_moves.count() != 0:
            continue
        for n, back in ((1, 1), (2, 3), (3, 5)):
            if len(g["moves"]) < back:
                continue
            start = Board()
            for m in g["moves"][: len(g["moves"]) - back]:
                start.push_iccs(m)
            # positions a few plies from the end are not always forced mates:
            # keep the ones the independent solver proves (and none it can do
            # faster than in n)
            if _wins_within(start, n) and (n == 1 or not _wins_within(start, n - 1)):
                cases.append((start, n))
    return cases


@pytest.fixture(scope="module")
def mate_cases():
    return _mate_cases()


def test_mate_cases_from_games(mate_cases):
    by_n = {n: sum(1 for _, k in mate_cases if k == n) for n in (1, 2, 3)}
    assert sum(by_n.values()) >= 30, by_n
    assert all(by_n[n] > 0 for n in (1, 2, 3)), by_n


# The search is selective (null move, reverse futility, late-move pruning):
# it may need a few plies more than the brute-force minimum 2n - 1 to prove
# a mate in n, as every modern engine does.  It must find each one within
# MATE_SLACK extra plies, and never report a mate that is not there.
MATE_SLACK = 6


def test_engine_finds_every_mate(mate_cases):
    engine = Engine(hash_mb=16)
    misses = []
    for board, n in mate_cases:
        for depth in range(2 * n - 1, 2 * n + MATE_SLACK):
            engine.new_game()
            result = engine.search(board, Limit(depth=depth))
            assert result.mate is None or result.mate >= n, (board.fen(), n, result.mate)
            if result.mate == n:
                break
        if result.mate != n:
            misses.append((board.fen(), n, result.move, result.score, result.mate))
            continue
        # the PV really mates: play it and the opponent has no move at the end
        line = board.copy()
        for mv in result.pv[: 2 * n - 1]:
            line.push(mv)
        assert line.legal_moves.count() == 0, (board.fen(), result.pv)
    assert not misses, misses


# --- always a legal move -----------------------------------------------------------

LIMITS = [
    Limit(depth=1), Limit(depth=3), Limit(nodes=0), Limit(nodes=1), Limit(nodes=50),
    Limit(nodes=2000), Limit(time=0.001), Limit(time=0.02), Limit(movetime=0.01),
    Limit(red_clock=0.001, black_clock=0.001),
    Limit(red_clock=0.5, black_clock=0.5, red_inc=0.01, black_inc=0.01),
    Limit(red_clock=0.1, black_clock=0.05, remaining_moves=1),
    Limit(depth=2, nodes=10), Limit(mate=1, depth=3),
]


def _random_positions(n: int, seed: int):
    rng = random.Random(seed)
    pool = [p for p in positions() if p["n_legal"] > 0]
    return [Board(p["fen"]) for p in rng.sample(pool, n)]


@pytest.mark.parametrize("limit", LIMITS, ids=repr)
def test_move_is_legal_under_every_limit(limit):
    engine = Engine(hash_mb=4)
    for board in _random_positions(30, seed=zlib.crc32(repr(limit).encode())):
        fen = board.fen()
        result = engine.search(board, limit)
        assert result.move is not None, fen
        assert board.is_legal(result.move), (fen, result.move)
        assert board.fen() == fen                     # the board is untouched
        # the PV is a legal line
        line = board.copy()
        for mv in result.pv:
            assert line.is_legal(mv), (fen, result.pv)
            line.push(mv)


def test_hundreds_of_positions_at_low_depth():
    engine = Engine(hash_mb=8)
    for board in _random_positions(300, seed=7):
        result = engine.search(board, Limit(depth=2))
        assert board.is_legal(result.move), board.fen()


@pytest.mark.parametrize("level", ["easy", "normal", "1", "5", 7])
def test_levels_return_legal_moves(level):
    engine = Engine(hash_mb=4, seed=1)
    for board in _random_positions(5, seed=3):
        result = engine.search(board, Limit(movetime=0.05), level=level)
        assert board.is_legal(result.move)


def test_levels_are_named_and_ordered():
    assert level_named("easy") == replace(LEVELS["2"], name="easy", description=ANY)
    assert LEVELS["hard"].randomness == 0 and LEVELS["hard"].movetime == LEVELS["10"].movetime
    # the mostly blind levels (the reply overlooked at least half the time)
    # come first, each picking better than the one before; then the
    # searching levels get ever more nodes, overlook ever fewer replies and
    # pick ever more strictly
    ladder = [LEVELS[str(i)] for i in range(1, 11)]
    oversight = [lv.oversight for lv in ladder]
    assert oversight == sorted(oversight, reverse=True) and oversight[-1] == 0
    assert ladder[0].blind
    mostly_blind = [lv for lv in ladder if lv.oversight >= 0.5]
    assert mostly_blind == ladder[:len(mostly_blind)]
    randomness = [lv.randomness for lv in mostly_blind]
    assert randomness == sorted(randomness, reverse=True)
    searching = ladder[len(mostly_blind):]
    nodes = [lv.nodes or 10 ** 12 for lv in searching]
    assert nodes == sorted(nodes) and searching[-1].nodes is None
    randomness = [lv.randomness for lv in searching]
    assert randomness == sorted(randomness, reverse=True) and randomness[-1] == 0
    with pytest.raises(ValueError):
        level_named("grandmaster")


def test_a_blind_level_judges_its_own_move_only():
    blind = LEVELS["1"]
    engine = Engine(hash_mb=1, seed=1)
    # it sees a mate in one (the rook's mate on the back rank)...
    board = Board("3k5/9/3P5/9/9/9/9/9/9/R4K3 w - - 0 1")
    lines = engine.analyse(board, multipv=200, level=blind)
    mates = {r.move for r in lines if r.mate == 1}
    # (the rook's check on the back rank; or the rook or king on the e-file,
    # after which Black has no move)
    assert mates == {Move.from_iccs(m) for m in ("a0a9", "a0e0", "f0e0")}
    assert {r.move for r in lines[:3]} == mates
    assert {r.move for r in lines} == set(board.legal_moves)
    assert [r.score for r in lines] == sorted((r.score for r in lines), reverse=True)
    # ...but not the reply: it takes a pawn with the rook where the horse
    # takes the rook back, which a one-ply search with quiescence refuses
    board = Board("4k4/9/1n7/9/p8/9/9/9/9/R2K5 w - - 0 1")
    grab = Move.from_iccs("a0a5")
    assert engine.analyse(board, multipv=1, level=blind)[0].move == grab
    assert engine.analyse(board, Limit(depth=1), level="hard")[0].move != grab


def test_low_level_varies_its_moves():
    # deliberate randomness: the easy level does not always play the same move
    board = Board()
    picks = {Engine(hash_mb=1, seed=s).search(board, level="easy").move for s in range(12)}
    assert len(picks) > 1


@pytest.mark.parametrize("fen", [
    # final positions of real games: checkmates and stalemates
    p["fen"] for p in positions() if p["n_legal"] == 0
][:6])
def test_no_move_when_none_exists(fen):
    result = Engine(hash_mb=1).search(Board(fen), Limit(depth=3))
    assert result.move is None
    assert result.pv == []


def test_banmoves_are_never_played():
    board = Board()
    banned = [Move.from_iccs("h2e2"), Move.from_iccs("b2e2"), Move.from_iccs("h0g2")]
    result = Engine(hash_mb=4).search(board, Limit(depth=3), banmoves=banned)
    assert result.move not in banned and board.is_legal(result.move)


def test_multipv_gives_distinct_best_first_lines():
    lines = Engine(hash_mb=8).analyse(Board(), Limit(depth=4), multipv=3)
    assert len(lines) == 3
    assert len({r.move for r in lines}) == 3
    assert lines[0].score >= lines[1].score >= lines[2].score


def test_info_after_each_iteration():
    infos = []
    result = Engine(hash_mb=8).search(Board(), Limit(depth=5), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5]
    assert all(isinstance(i, SearchInfo) and i.pv and i.nodes > 0 for i in infos)
    assert infos[-1].pv[0] == result.move
    assert [i.nodes for i in infos] == sorted(i.nodes for i in infos)


def test_mate_in_reporting():
    assert mate_in(cxiangqi.engine.MATE_SCORE - 1) == 1
    assert mate_in(cxiangqi.engine.MATE_SCORE - 3) == 2
    assert mate_in(-cxiangqi.engine.MATE_SCORE + 2) == -1
    assert mate_in(150) is None


# --- threads ----------------------------------------------------------------------------

def test_search_releases_the_gil():
    # While the engine searches in another thread, this thread runs Python
    # code.  With the GIL held through the search, it could not run until
    # the search was over; so the search must still be running when the loop
    # below is done.  (A long node limit, not an endless search, so that a
    # broken build fails instead of hanging.)
    engine = Engine(hash_mb=16)
    started = threading.Event()
    t = threading.Thread(target=engine.search, args=(Board(), Limit(nodes=200_000_000)),
                         kwargs={"on_info": lambda info: started.set()})
    t.start()
    try:
        assert started.wait(30)
        total = sum(i * i for i in range(200_000))         # plain Python work
        assert total > 0
        assert t.is_alive(), "the search ended before Python code could run beside it"
    finally:
        engine.stop()
        t.join(10)
    assert not t.is_alive()


def test_stop_ends_an_infinite_search():
    engine = Engine(hash_mb=16)
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", engine.search(Board(), Limit())))
    t.start()
    time.sleep(0.3)
    engine.stop()
    t.join(2)
    assert not t.is_alive()
    assert Board().is_legal(out["r"].move)


def test_stop_before_search_starts_is_not_lost():
    engine = Engine(hash_mb=4)
    engine.clear_stop()
    engine.stop()
    r = engine.search(Board(), Limit(), clear_stop=False)
    # stopped at its first node, not after some search
    assert r.nodes <= 1, r
    assert Board().is_legal(r.move)


# --- repetition ---------------------------------------------------------------------------

def test_engine_avoids_losing_by_perpetual_check():
    # Red's rook checks the black king back and forth; repeating the cycle
    # once more would make Red the perpetual checker, which loses.
    board = Board("4k4/R8/9/9/9/9/9/9/8r/3K5 w - - 0 1")
    for m in ("a8a9", "e9e8", "a9a8", "e8e9"):
        board.push_iccs(m)
    result = Engine(hash_mb=4).search(board, Limit(depth=4))
    assert result.move != Move.from_iccs("a8a9")
    lines = Engine(hash_mb=4).analyse(board, Limit(depth=4), multipv=board.legal_moves.count())
    repeat = [r for r in lines if r.move == Move.from_iccs("a8a9")]
    assert repeat and repeat[0].score <= -BAN_SCORE + 100


def test_engine_holds_the_checker_to_the_rule():
    # Black, being checked every move, is glad to repeat: the checker loses.
    board = Board("4k4/R8/9/9/9/9/9/9/8r/3K5 w - - 0 1")
    for m in ("a8a9", "e9e8", "a9a8", "e8e9", "a8a9"):
        board.push_iccs(m)
    result = Engine(hash_mb=4).search(board, Limit(depth=3))
    assert result.move == Move.from_iccs("e9e8")
    assert result.score >= BAN_SCORE - 100


def test_new_game_and_hash_size():
    engine = Engine(hash_mb=2)
    engine.set_hash(4)
    first = engine.search(Board(), Limit(depth=5))
    engine.new_game()
    again = engine.search(Board(), Limit(depth=5))
    assert first.move == again.move and first.nodes == again.nodes   # deterministic
    with pytest.raises(ValueError):
        engine.set_hash(0)
    with pytest.raises(ValueError):
        Limit(depth=0)
    with pytest.raises(ValueError):
        Limit(movetime=-1)


# --- limits and their checks ----------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    {"depth": 0}, {"depth": 2.5}, {"depth": True}, {"nodes": -1}, {"nodes": 2 ** 64},
    {"mate": 0}, {"time": -0.1}, {"time": float("nan")}, {"time": float("inf")},
    {"red_clock": -1}, {"black_inc": "1"}, {"remaining_moves": 0},
    {"time": 1, "movetime": 1},
], ids=repr)
def test_bad_limits_are_refused_with_a_value_error(kwargs):
    with pytest.raises(ValueError):
        Limit(**kwargs)


def test_old_clock_keywords_say_what_changed():
    with pytest.raises(TypeError, match="red_clock"):
        Limit(time=60, inc=1)   # noqa  (the old meaning: a clock)


def test_limit_names_and_meanings_follow_python_chess():
    limit = Limit(time=0.5)
    assert limit.time == 0.5 and limit.movetime == 0.5 and not limit.infinite
    assert Limit().infinite and Limit(red_inc=1).infinite
    clocks = Limit(red_clock=60, black_clock=30, red_inc=2, black_inc=1, remaining_moves=5)
    assert clocks.clock_for(True) == (60.0, 2.0) and clocks.clock_for(False) == (30.0, 1.0)
    assert repr(Limit(depth=3, nodes=10)) == "Limit(depth=3, nodes=10)"


def test_time_budget_follows_the_side_to_move():
    # Red has an hour, Black a tenth of a second: Black's budget is tiny
    limit = Limit(red_clock=3600, black_clock=0.1)
    hard = {turn: Engine._budget(limit, LEVELS["hard"], turn)[3] for turn in (True, False)}
    assert hard[False] < 0.1 < hard[True]
    # a move time is a move time, whoever moves
    assert Engine._budget(Limit(time=2.0), LEVELS["hard"], False)[3] <= 2.0


def test_time_budget_shares_the_clock():
    left = 60.0 - MOVE_OVERHEAD
    # sudden death: a fifteenth of the clock, and at most four times that
    _, _, soft, hard = Engine._budget(Limit(red_clock=60, black_clock=60), LEVELS["hard"], True)
    assert soft == pytest.approx(left / 15) and hard == pytest.approx(left * 4 / 15)
    # a short clock and a large increment: never more than half the clock
    limit = Limit(red_clock=1, black_clock=1, red_inc=1, black_inc=1)
    _, _, soft, hard = Engine._budget(limit, LEVELS["hard"], True)
    assert hard == pytest.approx((1 - MOVE_OVERHEAD) / 2) and soft == pytest.approx(hard)
    # moves to go and an increment: the clock over those moves, plus 3/4 of the increment
    limit = Limit(red_clock=60, black_clock=60, red_inc=2, black_inc=2, remaining_moves=10)
    _, _, soft, hard = Engine._budget(limit, LEVELS["hard"], True)
    assert soft == pytest.approx(left / 10 + 1.5) and hard == pytest.approx(left / 2)
    # the last move before the time control: nine tenths of all of it
    limit = Limit(red_clock=60, black_clock=60, remaining_moves=1)
    assert Engine._budget(limit, LEVELS["hard"], True)[3] == pytest.approx(left * 0.9)


def test_a_falling_score_buys_time_and_a_rising_one_saves_it():
    from types import SimpleNamespace
    from cxiangqi.engine import FALLING_RANGE, FALLING_SCALE, falling_factor
    lo, hi = FALLING_RANGE
    at = lambda score: SimpleNamespace(score=score)     # noqa: E731 (only .score is read)
    assert falling_factor(None, at(-500)) == 1.0        # no earlier timed search
    assert falling_factor(120, None) == 1.0
    assert falling_factor(120, at(120)) == 1.0
    assert falling_factor(120, at(120 - FALLING_SCALE // 5)) == pytest.approx(1.2)
    assert falling_factor(120, at(120 + FALLING_SCALE // 5)) == pytest.approx(0.8)
    assert falling_factor(120, at(-10_000)) == hi and falling_factor(120, at(10_000)) == lo


def test_the_falling_score_reference_is_this_sides_last_timed_search():
    engine = Engine(hash_mb=4)
    board = Board()
    clock = Limit(red_clock=1, black_clock=1)
    first = engine.search(board, clock)
    assert engine._last_timed == (0, first.score)
    engine.search(board, Limit(depth=2))                # no clock: not a reference
    assert engine._last_timed == (0, first.score)
    board.push(first.move)
    board.push(next(iter(board.legal_moves)))
    second = engine.search(board, clock)
    assert engine._last_timed == (2, second.score)
    engine.new_game()
    assert engine._last_timed is None


def test_a_line_of_one_move_gets_the_tables_reply_to_it():
    # a search cut short by its node limit after its best move changed has a
    # line of one move; the table's answer to that move becomes the second
    # (the ponder move), when the table has a legal one
    from cxiangqi.engine import SearchResult
    engine = Engine(hash_mb=4)
    board = Board()
    full = engine.search(board, Limit(depth=6))
    assert len(full.pv) >= 2
    alone = SearchResult(full.move, full.score, None, 6, 6, [full.move])
    extended = engine._with_reply(board, alone)
    after = board.copy()
    after.push(full.move)
    assert extended.pv[0] == full.move and after.is_legal(extended.pv[1])
    assert extended.pv[1] == engine.probe(after).move and extended.ponder == extended.pv[1]
    # nothing in the table after the move: the line stays as it was
    engine.new_game()
    assert engine._with_reply(board, alone) == alone
    # a halfmove clock at its limit: no move can be played after it, no reply
    engine.search(board, Limit(depth=6))
    limit = Board()
    limit.halfmove_clock = 1_000_000
    assert engine._with_reply(limit, alone) == alone


def test_nodes_0_answers_with_a_legal_move_without_searching():
    for board in _random_positions(20, seed=11):
        result = Engine(hash_mb=1).search(board, Limit(nodes=0))
        assert board.is_legal(result.move) and result.nodes <= 1


def test_mate_limit_searches_until_it_finds_the_mate(mate_cases):
    # no depth given: the search goes as deep as it must and stops at the mate
    engine = Engine(hash_mb=16)
    for board, n in [c for c in mate_cases if c[1] >= 2][:6]:
        engine.new_game()
        infos = []
        result = engine.search(board, Limit(mate=n), on_info=infos.append)
        assert result.mate is not None and 0 < result.mate <= n, (board.fen(), result)
        # it stopped once the mate was seen, not at the end of the depth range
        # (without the mate limit the search would go on to depth 2 * mate + 2)
        assert infos[-1].mate is not None and infos[-1].depth <= 2 * n + 1, infos[-1]


@pytest.mark.parametrize("hash_mb", [0, -1, 1.5, 2 ** 31, 2 ** 70, "64", None])
def test_bad_hash_sizes_are_value_errors(hash_mb):
    with pytest.raises(ValueError, match="hash size"):
        Engine(hash_mb=hash_mb)
    engine = Engine(hash_mb=1)
    with pytest.raises(ValueError, match="hash size"):
        engine.set_hash(hash_mb)


def test_bad_levels_are_refused():
    from cxiangqi.engine import Level
    for kwargs in ({"depth": 0}, {"movetime": -1}, {"nodes": -5}, {"randomness": -1}):
        fields = {"name": "x", "depth": 3, "movetime": 1.0, "nodes": None, "randomness": 0}
        fields.update(kwargs)
        with pytest.raises(ValueError):
            Level(**fields)


def test_halfmove_clock_at_its_limit_cannot_crash_the_search():
    # issue 11: a clock of 2**31 - 1 wrapped to a negative number on the
    # next move and the search wrote before its history array
    board = Board()
    with pytest.raises(ValueError, match="halfmove clock"):
        board.halfmove_clock = 2 ** 31 - 1
    board.halfmove_clock = 1_000_000
    with pytest.raises(ValueError, match="would pass"):
        board.push_iccs("h2e2")
    board.halfmove_clock = 999_999
    board.push_iccs("h2e2")
    assert board.halfmove_clock == 1_000_000 and board.fen().split()[4] == "1000000"
    result = Engine(hash_mb=4).search(board, Limit(depth=3))
    assert board.is_legal(result.move)
    assert board.outcome() is not None          # far past the move limit: a draw


# --- bench and the levels' randomness window --------------------------------------------------

# The search's signature (Stockfish's bench): the nodes bench(8) searches.
# It changes when, and only when, the search or the evaluation does; the
# commit that changes it says the new number, and so does the README.
BENCH_NODES = 139_570


# The three steps kept together (a fourth continuation table, deeper or
# shallower LMR re-searches, wider pruning margins), switched off: the
# search before them, signature 115,483.
# The second stack (a double singular extension, a capture history,
# history pruning, narrower aspiration windows), switched off: the search
# before it, signature 122,562.
# The continuation correction history switched off: the search before
# it, signature 115,675.
# Late good captures not reduced: the search before it, signature 107,970.
# Razoring off: the search before it, signature 127,299.
# The third stack (the kings', horses' and cannons' correction history,
# twice the quiet history bonus) off: the search before it, 109,881.
# The fourth stack (a wider futility margin until a move raises alpha, the
# kings' and rooks' correction history; its third step, time by a falling
# score, is engine.py's and leaves the nodes alone) off: the search before
# it, 115,569.
BEFORE_STACK4 = "fut_nobest=0,corr_major=0"
BEFORE_STACK3 = "corr_minor=0,hist_bonus=100," + BEFORE_STACK4
BEFORE_RAZOR = "razor=0," + BEFORE_STACK3
BEFORE_LMR_CAPT = "lmr_capt=0," + BEFORE_RAZOR
BEFORE_CORR_CONT = "corr_cont=0," + BEFORE_LMR_CAPT
BEFORE_STACK2 = "sing_dbl=0,capt_hist=0,hist_prune=0,asp=0," + BEFORE_CORR_CONT
BEFORE_STACK = "cont4=0,deeper=0,rfp=80,futility=90," + BEFORE_STACK2


def test_bench_signature_is_the_recorded_one():
    from cxiangqi.engine import bench
    assert bench(8)["nodes"] == BENCH_NODES


def test_bench_is_a_signature():
    from cxiangqi.engine import BENCH_FENS, bench
    first = bench(depth=2, hash_mb=1)
    again = bench(depth=2, hash_mb=1)
    assert first["nodes"] == again["nodes"] > len(BENCH_FENS)       # deterministic
    assert first["seconds"] > 0 and first["nps"] == pytest.approx(first["nodes"] / first["seconds"])
    assert bench(depth=3, hash_mb=1)["nodes"] > first["nodes"]


def test_randomness_picks_only_within_its_window():
    from cxiangqi.engine import Level
    board = Board()
    window = 40
    level = Level("window", depth=3, movetime=None, nodes=None, randomness=window)
    exact = Engine(hash_mb=4).analyse(board, Limit(depth=3), multipv=4, level=level)
    best = exact[0].score
    allowed = {r.move for r in exact if r.score >= best - window}
    picks = set()
    for seed in range(16):
        result = Engine(hash_mb=4, seed=seed, level=level).search(board, Limit(depth=3))
        assert result.move in allowed, (result.move, result.score, best)
        assert result.score >= best - window
        picks.add(result.move)
    assert len(picks) > 1                    # it does vary within the window
    # no window: the plain search's best move every time, whatever the seed
    # (a multi-PV search may rank two close moves differently: it searches
    # each line on its own, and the search is selective)
    strict = Level("strict", depth=3, movetime=None, nodes=None, randomness=0)
    plain = Engine(hash_mb=4).search(board, Limit(depth=3)).move
    assert {Engine(hash_mb=4, seed=s, level=strict).search(board, Limit(depth=3)).move
            for s in range(4)} == {plain}


def test_bad_search_arguments_are_refused():
    engine = Engine(hash_mb=1)
    with pytest.raises(TypeError, match="banmoves"):
        engine.search(Board(), Limit(depth=1), banmoves=["h2e2"])
    with pytest.raises(TypeError, match="Limit"):
        engine.search(Board(), {"depth": 1})
    for multipv in (0, -1, 1.5, 2 ** 70 + 0.5):
        with pytest.raises(ValueError, match="multipv"):
            engine.analyse(Board(), Limit(depth=1), multipv=multipv)
    # a huge multipv is just 'every line'
    assert len(engine.analyse(Board(), Limit(depth=1), multipv=2 ** 70)) == 44


def test_a_blind_level_ponders_like_the_others():
    # its answer is ready at once, but a ponder search holds it until
    # ponderhit() or stop(), as UCI asks
    engine = Engine(hash_mb=1, seed=1, level="1")
    board = Board()
    pondering = engine.ponder(board)
    time.sleep(0.05)
    assert not pondering._done.is_set()
    pondering.ponderhit()
    assert pondering.result().move in board.legal_moves


@pytest.mark.parametrize("oversight", [-0.1, 1.5, float("nan"), True, "0.5", None])
def test_a_bad_oversight_is_refused(oversight):
    with pytest.raises(ValueError, match="oversight"):
        Level("x", depth=None, movetime=1.0, nodes=1000, randomness=0, oversight=oversight)


@pytest.mark.parametrize("spec, message", [
    ("rfp=70,lmp=x", "must be an integer"),
    ("rfp=70,nonsense=1", "use name=value"),
    ("rfp=70,lmp", "use name=value"),
    ("rfp=70,lmp=1000000", "out of range"),
    ("rfp=70,lmr_div=0", "must be positive"),
    ("rfp=70,singular=-1", "must not be negative"),
    ("rfp=70,sing_dbl=-1", "must not be negative"),
    ("rfp=70,asp=-5", "must not be negative"),
    ("rfp=70,fut_nobest=-1", "must not be negative"),
])
def test_bad_search_parameters_change_nothing(spec, message):
    from cxiangqi._search import Searcher
    searcher = Searcher(1)
    before = searcher.params()
    with pytest.raises(ValueError, match=message):
        searcher.set_params(spec)
    assert searcher.params() == before          # the good item before the bad one is not applied
    searcher.set_params("rfp=70, lmp=150")
    assert searcher.params() == {**before, "rfp": 70, "lmp": 150}


def test_a_searchers_parameters_do_not_reach_another_searcher():
    # the late-move reduction table was one for all searchers, rebuilt by
    # every setup: a second searcher with the default divisor changed the
    # first one's tree (8,566 nodes to depth 9 alone, 35,123 after)
    from cxiangqi._search import Searcher

    def nodes(interleave):
        board = Board()
        first = Searcher(4)
        first.set_params("lmr_div=60")
        first.setup(board._core)
        if interleave:
            Searcher(4).setup(board._core)
        for depth in range(1, 10):
            first.search_depth(depth)
        return first.nodes

    assert nodes(False) == nodes(True)


# --- the transposition table, probed ------------------------------------------------------------

def test_probe_shows_what_the_search_left_in_the_table():
    engine = Engine(hash_mb=16)
    board = Board()
    assert engine.probe(board) is None                  # an empty table
    result = engine.search(board, Limit(depth=8))
    assert engine.probe(board) is None                  # the root is not stored
    # one ply down the principal variation: an exact score, the negated
    # root score, 7 plies deep, the expected reply, marked as a PV node
    after = board.copy()
    after.push(result.move)
    assert engine.probe(after) == TableEntry(result.pv[1], -result.score, None, "exact", 7, True)
    # a poor first move (a rook lift that gives up the horse): refuted with a
    # null window, a lower bound for the opponent, never on a PV
    poor = board.copy()
    poor.push_iccs("a0a1")
    entry = engine.probe(poor)
    assert entry is not None and entry.bound == "lower" and not entry.pv
    assert entry.move is not None and poor.is_legal(entry.move)
    engine.new_game()
    assert engine.probe(after) is None
    with pytest.raises(TypeError):
        engine.probe("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")


# --- correction history -------------------------------------------------------------------------

@pytest.mark.parametrize("spec", [
    "corr=100,corr_np=0,corr_minor=0,corr_major=0",     # the structure's entry, whole
    "corr=0,corr_np=0,corr_minor=100,corr_major=0",     # the kings', horses' and cannons', whole
    "corr=0,corr_np=0,corr_minor=0,corr_major=100",     # the kings' and rooks', whole
])
def test_correction_history_is_learnt_bounded_and_cleared(spec):
    from cxiangqi._search import Searcher
    boards = [Board(fen) for fen in (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 1",
        "3k5/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
    )]
    searcher = Searcher(4)
    searcher.set_params(spec)
    assert all(searcher.correction(b._core) == 0 for b in boards)
    seen = []
    for board in boards:
        searcher.setup(board._core)
        for depth in range(1, 8):
            searcher.search_depth(depth)
        seen.append(searcher.correction(board._core))
    # a search of the opening learns something of its structure ...
    assert any(c != 0 for c in seen)
    # ... never more than CORR_MAX / CORR_GRAIN centipawns either way
    assert all(abs(c) <= 128 for c in seen)
    searcher.clear()
    assert all(searcher.correction(b._core) == 0 for b in boards)


# A piece-group correction key: positions with the same kings and group
# share the entry the opening's search learnt; moving the group reaches
# another entry, still empty (the search cannot get there in its plies).
@pytest.mark.parametrize("params, depth, same, other", [
    # the kings', horses' and cannons': rooks, pawns, advisors and elephants
    # moved; then both red horses on the seventh rank
    pytest.param("corr_minor=100,corr_major=0", 7,
                 "1nbakabn1/r8/1c5c1/p3p1p1p/2p6/6P2/P1P1P3P/1C5C1/8R/RNB1KABN1 w - - 0 1",
                 "rnbakabnr/9/1cN3Nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKAB1R w - - 0 1",
                 id="minor"),
    # the kings' and rooks': horses, cannons, pawns, advisors and elephants
    # moved; then both red rooks on the fifth rank (three moves each).  The
    # entry is shared by most of the tree, whose errors partly cancel: after
    # depth 7 it happens to round to 0, after depth 8 it does not
    pytest.param("corr_minor=0,corr_major=100", 8,
                 "r1bakabnr/9/1cn4c1/p3p1p1p/2p6/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
                 "rnbakabnr/9/1c5c1/p1p1p1p1p/R7R/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1",
                 id="major"),
])
def test_a_group_correction_is_shared_by_the_same_kings_and_group(params, depth, same, other):
    from cxiangqi._search import Searcher
    searcher = Searcher(4)
    searcher.set_params("corr=0,corr_np=0,corr_cont=0," + params)
    board = Board()
    searcher.setup(board._core)
    for d in range(1, depth + 1):
        searcher.search_depth(d)
    learnt = searcher.correction(board._core)
    assert learnt != 0
    assert searcher.correction(Board(same)._core) == learnt
    assert searcher.correction(Board(other)._core) == 0


# Each kept step switched off by its parameter gives the tree of the search
# before it (its bench(8) signature then), newest first; a step's weight or
# margin set to another value changes the tree too, so each one counts.
@pytest.mark.parametrize("spec, nodes", [
    # the fourth stack, then each of its steps alone off or at another weight
    pytest.param(BEFORE_STACK4, 115_569, id="stack4-off"),
    pytest.param("fut_nobest=0", 139_792, id="fut_nobest-off"),
    pytest.param("fut_nobest=300", 137_359, id="fut_nobest-margin"),
    pytest.param("corr_major=0", 128_698, id="corr_major-off"),
    pytest.param("corr_major=100", 118_686, id="corr_major-weight"),
    # the third stack, then each of its steps alone off or at another weight
    pytest.param(BEFORE_STACK3, 109_881, id="stack3-off"),
    pytest.param("corr_minor=0," + BEFORE_STACK4, 129_212, id="corr_minor-off"),
    pytest.param("corr_minor=100," + BEFORE_STACK4, 122_123, id="corr_minor-weight"),
    pytest.param("hist_bonus=100," + BEFORE_STACK4, 113_795, id="hist_bonus-off"),
    pytest.param("hist_bonus=150," + BEFORE_STACK4, 102_810, id="hist_bonus-share"),
    # razoring (f0b8e75)
    pytest.param(BEFORE_RAZOR, 127_299, id="razor-off"),
    pytest.param("razor=300," + BEFORE_STACK3, 109_012, id="razor-margin"),
    # late good captures reduced (d13cd63)
    pytest.param(BEFORE_LMR_CAPT, 107_970, id="lmr_capt-off"),
    pytest.param("lmr_capt=100," + BEFORE_RAZOR, 114_537, id="lmr_capt-share"),
    # the continuation correction history
    pytest.param(BEFORE_CORR_CONT, 115_675, id="corr_cont-off"),
    pytest.param("corr_cont=100," + BEFORE_LMR_CAPT, 109_200, id="corr_cont-weight"),
    # the second stack, then each of its steps alone off
    pytest.param(BEFORE_STACK2, 122_562, id="stack2-off"),
    pytest.param("sing_dbl=0," + BEFORE_CORR_CONT, 115_654, id="sing_dbl-off"),
    pytest.param("capt_hist=0," + BEFORE_CORR_CONT, 111_071, id="capt_hist-off"),
    # (the same as with it: see test_history_pruning_counts_in_a_deeper_tree)
    pytest.param("hist_prune=0," + BEFORE_CORR_CONT, 115_675, id="hist_prune-off"),
    pytest.param("asp=0," + BEFORE_CORR_CONT, 135_822, id="asp-off"),
    # the three steps kept together, then each alone off
    pytest.param(BEFORE_STACK, 115_483, id="stack-off"),
    pytest.param("cont4=0," + BEFORE_STACK2, 124_885, id="cont4-off"),
    pytest.param("deeper=0," + BEFORE_STACK2, 115_223, id="deeper-off"),
    pytest.param("rfp=80,futility=90," + BEFORE_STACK2, 121_800, id="rfp-futility-old"),
    # quiescence futility: every capture that survives SEE is made again
    # (the build before it, signature 123,136)
    pytest.param("qs_fut=0," + BEFORE_STACK, 123_136, id="qs_fut-off"),
    # the corrections: the build before them had signature 128,630 with the
    # weights of then; 152,349 with today's
    pytest.param("corr=0,corr_np=0,qs_fut=0," + BEFORE_STACK, 152_349, id="corr-off"),
])
def test_each_kept_step_off_gives_the_tree_before_it(monkeypatch, spec, nodes):
    from cxiangqi.engine import bench
    monkeypatch.setenv("CXIANGQI_SEARCH_PARAMS", spec)
    assert bench(8)["nodes"] == nodes


def test_the_narrowest_aspiration_window_still_widens(monkeypatch):
    # asp=1: a window of +-1 that must grow on every fail, or the iteration
    # would be searched again and again with the same window
    from cxiangqi.engine import bench
    monkeypatch.setenv("CXIANGQI_SEARCH_PARAMS", "asp=1")
    one = bench(6)["nodes"]
    monkeypatch.setenv("CXIANGQI_SEARCH_PARAMS", "asp=25")
    assert one > bench(6)["nodes"] > 0       # more fails, more re-searches


def test_history_pruning_counts_in_a_deeper_tree(monkeypatch):
    # at bench(8) no quiet move's history falls below -3000 x depth where
    # the other pruning has not taken it first; at depth 12 it does
    from cxiangqi.engine import bench
    monkeypatch.setenv("CXIANGQI_SEARCH_PARAMS", "hist_prune=0," + BEFORE_CORR_CONT)
    assert bench(12)["nodes"] == 1_659_917
    monkeypatch.setenv("CXIANGQI_SEARCH_PARAMS", "hist_prune=3000," + BEFORE_CORR_CONT)
    assert bench(12)["nodes"] == 1_651_349


def test_any_history_bonus_is_cut_to_the_tables_bound(monkeypatch):
    # hist_bonus is a percentage of stat_bonus, which is 48 at depth 1: from
    # 34,134 on, every cut-off's bonus is past HIST_MAX (16,384) and is cut
    # to it, so 40,000 and the largest value allowed search the same tree,
    # and so do their negatives; without the cut the entries' arithmetic
    # would leave an int
    from cxiangqi.engine import bench
    nodes = {}
    for v in (40_000, 100_000, -40_000, -100_000):
        monkeypatch.setenv("CXIANGQI_SEARCH_PARAMS", f"hist_bonus={v}")
        nodes[v] = bench(6)["nodes"]
    assert nodes[40_000] == nodes[100_000] and nodes[-40_000] == nodes[-100_000]
    monkeypatch.setenv("CXIANGQI_SEARCH_PARAMS", "hist_bonus=200")
    assert bench(6)["nodes"] not in (nodes[40_000], nodes[-40_000])


def test_piece_corrections_add_to_the_structures():
    from cxiangqi._search import Searcher
    board = Board()
    searcher = Searcher(4)
    searcher.set_params("corr=100,corr_np=100,corr_minor=0,corr_major=0")
    searcher.setup(board._core)
    for depth in range(1, 8):
        searcher.search_depth(depth)
    both = searcher.correction(board._core)
    searcher.set_params("corr=100,corr_np=0,corr_minor=0,corr_major=0")
    structure = searcher.correction(board._core)
    searcher.set_params("corr=0,corr_np=100,corr_minor=0,corr_major=0")
    pieces = searcher.correction(board._core)
    assert pieces != 0 and abs(both - (structure + pieces)) <= 1      # rounding
    assert abs(both) <= 3 * 128
