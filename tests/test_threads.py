"""Multi-core search (Lazy SMP): helper threads share the table, the main
thread answers; every limit still gives a legal move, stop() ends all of
them, and one thread stays deterministic."""
from __future__ import annotations

import random
import threading
import zlib

import pytest

from cxiangqi import Board
from cxiangqi.engine import MAX_THREADS, Engine, Limit

from conftest import positions

LIMITS = [Limit(depth=1), Limit(depth=6), Limit(nodes=1), Limit(nodes=5000),
          Limit(movetime=0.02),
          Limit(red_clock=0.3, black_clock=0.3, red_inc=0.01, black_inc=0.01)]


def _boards(n: int, salt: str):
    rng = random.Random(zlib.crc32(salt.encode()))
    pool = [p["fen"] for p in positions() if p["n_legal"] > 0]
    return [Board(fen) for fen in rng.sample(pool, n)]


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("limit", LIMITS, ids=repr)
def test_legal_move_under_every_limit(threads, limit):
    engine = Engine(hash_mb=8, threads=threads)
    assert engine.threads == threads
    for board in _boards(6, f"threads-{threads}-{limit!r}"):
        fen = board.fen()
        result = engine.search(board, limit)
        assert result.move is not None and board.is_legal(result.move), (fen, result)
        assert board.fen() == fen
        if limit.depth is not None and result.mate is None:
            assert result.depth == limit.depth


def test_stop_ends_every_thread():
    engine = Engine(hash_mb=8, threads=3)
    board = Board()
    out = {}
    worker = threading.Thread(target=lambda: out.setdefault("r", engine.search(board, Limit())))
    worker.start()
    # wait until the search has really started (some iterations reported)
    started = threading.Event()
    engine_threads = lambda: [t for t in threading.enumerate() if t.name.startswith("cxiangqi-helper")]
    for _ in range(2000):
        if engine_threads():
            started.set()
            break
        threading.Event().wait(0.005)
    assert started.is_set()
    engine.stop()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert board.is_legal(out["r"].move)
    for t in engine_threads():
        t.join(timeout=10)
    assert not engine_threads()


def test_helpers_search_and_their_nodes_are_counted():
    board = Board()
    engine = Engine(hash_mb=16, threads=2)
    result = engine.search(board, Limit(depth=9))
    helper = engine._helpers[0]
    assert board.is_legal(result.move)
    assert helper.nodes > 0                       # the helper really searched
    # counted at the answer, while the helper was still at work
    assert engine._searcher.nodes < result.nodes <= engine._searcher.nodes + helper.nodes
    assert helper.generation == engine._searcher.generation


def test_one_thread_is_deterministic():
    a = Engine(hash_mb=8).search(Board(), Limit(depth=8))
    b = Engine(hash_mb=8).search(Board(), Limit(depth=8))
    assert (a.move, a.score, a.nodes) == (b.move, b.score, b.nodes)


def test_thread_count_is_checked_and_changeable():
    engine = Engine(hash_mb=4)
    for bad in (0, -1, MAX_THREADS + 1, 1.5, "2", True):
        with pytest.raises(ValueError):
            engine.set_threads(bad)
    engine.set_threads(3)
    assert engine.threads == 3
    engine.set_hash(8)                  # helpers follow the new table
    r = engine.search(Board(), Limit(depth=5))
    assert Board().is_legal(r.move)
    engine.set_threads(1)
    assert engine.threads == 1


def test_helpers_end_with_the_search():
    engine = Engine(hash_mb=8, threads=3)
    board = Board()
    result = engine.search(board, Limit(depth=7))
    assert board.is_legal(result.move) and result.depth == 7
    assert not [t for t in threading.enumerate() if t.name.startswith("cxiangqi-helper")]
    assert [h.smp_current for h in engine._helpers] == [0, 0]
    # a later search with no helpers is a plain one (singular extensions on)
    engine.set_threads(1)
    engine.search(board, Limit(depth=3))
    assert not engine._searcher.smp


def test_a_helper_keeps_ahead_of_the_main_thread():
    from cxiangqi._search import Searcher
    main, helper = Searcher(4), Searcher(1)
    with pytest.raises(ValueError, match="share"):
        helper.run_helper(1, 10)            # no main thread to follow yet
    helper.share_table(main)
    for ahead, top in ((1, 0), (-1, 10), (1, 95)):
        with pytest.raises(ValueError):
            helper.run_helper(ahead, top)
    board = Board()
    main.setup(board._core)
    helper.setup(board._core)
    main.smp_start()
    main.smp_iteration(6)       # the main thread is on depth 6: the helper starts at 7
    seen = []
    t = threading.Thread(target=helper.run_helper, args=(1, 40))
    t.start()
    for _ in range(4000):
        d = helper.smp_current
        if d:
            seen.append(d)
            if len(seen) > 50:
                break
        threading.Event().wait(0.001)
    main.smp_iteration(30)      # caught up: sent on once stopped
    helper.stop()
    for _ in range(4000):
        if helper.smp_current >= 31:
            break
        threading.Event().wait(0.001)
    reached = helper.smp_current
    main.smp_finish()
    helper.stop()
    t.join(timeout=10)
    assert not t.is_alive()
    assert seen and min(seen) >= 7
    assert reached >= 31
    assert helper.smp_current == 0
    assert helper.nodes > 0
