"""Pondering in the Python API: Engine.ponder / search(ponder=True), ended by
ponderhit() (the expected move was played) or stop() (it was not).

No assertion here is on a wall-clock time: the tests wait for events (an
iteration reported, the answer given) with generous time-outs that only
matter when something is broken.
"""
import threading

import pytest

from cxiangqi import Board, Move
from cxiangqi.engine import Engine, Level, Limit, PonderSearch

WAIT = 30.0


def after(*moves):
    board = Board()
    for text in moves:
        board.push(Move.from_iccs(text))
    return board


class Infos:
    """on_info collector that can wait for an iteration."""

    def __init__(self):
        self.items = []
        self.cond = threading.Condition()

    def __call__(self, info):
        with self.cond:
            self.items.append(info)
            self.cond.notify_all()

    def wait_for(self, pred, timeout=WAIT):
        with self.cond:
            assert self.cond.wait_for(lambda: any(pred(i) for i in self.items), timeout), \
                f"no such iteration; got depths {[i.depth for i in self.items]}"


@pytest.fixture
def engine():
    return Engine(hash_mb=16, seed=1)


def test_hit_returns_the_answer_held_since_the_search_ended(engine):
    board = after("h2e2", "h9g7")
    infos = Infos()
    pondering = engine.ponder(board, Limit(depth=5), on_info=infos)
    assert isinstance(pondering, PonderSearch)
    infos.wait_for(lambda i: i.depth == 5)
    # the search has reached its depth, but the answer waits for the hit
    assert not pondering.done()
    with pytest.raises(TimeoutError):
        pondering.result(timeout=0)
    pondering.ponderhit()
    result = pondering.result(timeout=WAIT)
    assert result.depth == 5 and result.move in board.legal_moves
    assert result.pv[0] == infos.items[-1].pv[0]


def test_time_does_not_count_until_the_hit_and_then_counts_from_the_start(engine):
    board = after("h2e2", "h9g7")
    infos = Infos()
    movetime = 0.05
    pondering = engine.ponder(board, Limit(movetime=movetime), on_info=infos)
    # pondering goes on past the move's time: iterations keep coming
    infos.wait_for(lambda i: i.time > 2 * movetime and i.depth >= 4)
    assert not pondering.done()
    deepest = max(i.depth for i in infos.items)
    # the time already spent pondering exceeds the move's time: the hit
    # ends the search at once with what pondering found
    pondering.ponderhit()
    result = pondering.result(timeout=WAIT)
    assert result.move in board.legal_moves and result.depth >= deepest


def test_hit_before_the_time_is_up_lets_the_search_go_on_under_the_limit(engine):
    board = after("h2e2", "h9g7")
    infos = Infos()
    pondering = engine.ponder(board, Limit(movetime=3600.0, depth=6), on_info=infos)
    pondering.ponderhit()            # at once: the limit (depth 6 in an hour) applies
    result = pondering.result(timeout=WAIT)
    assert result.depth == 6 and result.move in board.legal_moves


def test_miss_stop_ends_pondering_and_the_next_search_is_unaffected(engine):
    expected = after("h2e2", "h9g7")
    infos = Infos()
    pondering = engine.ponder(expected, Limit(movetime=1.0), on_info=infos)
    infos.wait_for(lambda i: i.depth >= 2)
    pondering.stop()                 # the opponent played b9c7 instead
    stale = pondering.result(timeout=WAIT)
    assert stale.move in expected.legal_moves          # an answer for the pondered position
    played = after("h2e2", "b9c7")
    result = engine.search(played, Limit(depth=4))
    assert result.depth == 4 and result.move in played.legal_moves


def test_a_stopped_ponder_search_stays_stopped_after_clear_stop(engine):
    # The game's controller stops pondering and at once clears the stop for
    # the search that replaces it; a random level searches several lines per
    # iteration (each one re-arming the search), and must still end.
    board = after("h2e2", "h9g7")
    infos = Infos()
    many_lines = Level("test", depth=None, movetime=None, nodes=None, randomness=50)
    pondering = engine.ponder(board, level=many_lines, on_info=infos)
    infos.wait_for(lambda i: i.depth >= 1)
    engine.stop()
    engine.clear_stop()
    done = []
    t = threading.Thread(target=lambda: done.append(
        engine.search(after("h2e2", "b9c7"), Limit(depth=3), clear_stop=False)))
    t.start()
    t.join(WAIT)
    assert done and done[0].depth == 3
    assert pondering.result(timeout=WAIT).move in board.legal_moves


def test_hit_or_stop_before_the_ponder_search_starts_is_not_lost(engine):
    board = after("h2e2", "h9g7")
    for early in (engine.ponderhit, engine.stop):
        engine.clear_stop()
        early()
        result = []
        t = threading.Thread(target=lambda: result.append(
            engine.search(board, Limit(depth=3), ponder=True, clear_stop=False)))
        t.start()
        t.join(WAIT)
        assert result and result[0].move in board.legal_moves, early.__name__


def test_a_level_ponders_to_its_depth_and_a_hit_answers_without_searching_again(engine):
    board = after("h2e2", "h9g7")
    infos = Infos()
    four = Level("four", depth=4, movetime=1.0, nodes=None, randomness=30)
    pondering = engine.ponder(board, level=four, on_info=infos)    # a level of depth 4
    infos.wait_for(lambda i: i.depth == 4 and i.multipv == 4)      # its 4th and last line
    n = len(infos.items)
    pondering.ponderhit()
    result = pondering.result(timeout=WAIT)
    assert result.move in board.legal_moves and result.depth == 4
    assert len(infos.items) == n        # no iteration after the hit: nothing was searched again


def test_stale_hit_is_forgotten_by_a_normal_search(engine):
    board = after("h2e2", "h9g7")
    engine.ponderhit()                  # nobody was pondering
    engine.search(board, Limit(depth=2))
    infos = Infos()
    result = []
    t = threading.Thread(target=lambda: result.append(
        engine.search(board, Limit(depth=3), on_info=infos, ponder=True, clear_stop=False)))
    t.start()
    infos.wait_for(lambda i: i.depth == 3)
    assert t.is_alive() and not result   # held: the old hit did not count for it
    engine.stop()
    t.join(WAIT)
    assert result and result[0].move in board.legal_moves
