"""The built-in engine: mates from real games, legal answers under every
limit, no move when there is none, the GIL released while searching, stop()
from another thread, and the perpetual-check rule inside the search."""
from __future__ import annotations

import random
import threading
import time

import pytest

import cxiangqi
from cxiangqi import Board, Move
from cxiangqi.engine import (BAN_SCORE, LEVELS, Engine, Limit, SearchInfo, level_named,
                             mate_in)

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
    Limit(depth=1), Limit(depth=3), Limit(nodes=1), Limit(nodes=50), Limit(nodes=2000),
    Limit(movetime=0.001), Limit(movetime=0.02), Limit(time=0.001), Limit(time=0.5, inc=0.01),
    Limit(time=2.0, movestogo=1), Limit(depth=2, nodes=10),
]


def _random_positions(n: int, seed: int):
    rng = random.Random(seed)
    pool = [p for p in positions() if p["n_legal"] > 0]
    return [Board(p["fen"]) for p in rng.sample(pool, n)]


@pytest.mark.parametrize("limit", LIMITS, ids=repr)
def test_move_is_legal_under_every_limit(limit):
    engine = Engine(hash_mb=4)
    for board in _random_positions(30, seed=hash(repr(limit)) & 0xFFFF):
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
    assert level_named("easy") == LEVELS["easy"] and LEVELS["hard"].randomness == 0
    depths = [LEVELS[str(i)].depth or 99 for i in range(1, 11)]
    assert depths == sorted(depths)
    randomness = [LEVELS[str(i)].randomness for i in range(1, 11)]
    assert randomness == sorted(randomness, reverse=True)
    with pytest.raises(ValueError):
        level_named("grandmaster")


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

def _count_for(seconds: float) -> int:
    n = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        n += 1
    return n


def test_search_releases_the_gil():
    # A pure-Python loop keeps at least half its solo speed while the engine
    # searches in another thread.  Solo and shared runs alternate a few times
    # and the best pair counts, so another process on the machine cannot
    # fail the test (a GIL held by the search would: the loop would stall).
    engine = Engine(hash_mb=16)
    ratios = []
    for _ in range(3):
        solo = _count_for(0.3)
        t = threading.Thread(target=engine.search, args=(Board(), Limit()))
        t.start()
        try:
            time.sleep(0.05)
            shared = _count_for(0.3)
        finally:
            engine.stop()
            t.join(5)
        assert not t.is_alive()
        ratios.append(shared / solo)
        if ratios[-1] >= 0.5:
            break
    assert max(ratios) >= 0.5, ratios


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
    start = time.monotonic()
    r = engine.search(Board(), Limit(), clear_stop=False)
    assert time.monotonic() - start < 1.0
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
