"""Analysis throughput: games per second of cxiangqi.analysis.analyse_games
on the first 100 games of ../shared/data/games.jsonl, every position
searched to a fixed number of nodes, with 1 and 2 worker threads of this
process and with a Dask LocalCluster of 2 worker processes (1 thread each).

Fixed nodes make every configuration do the same work (the analysis of a
game is reproducible, and is checked to be the same in the three runs), so
games/s compare directly; the speed-up of 2 threads over 1 is the point
(the search holds no GIL).  ``CXIANGQI_ANALYSE_NODES`` (default 10000) and
``CXIANGQI_ANALYSE_GAMES`` (default 100) change the work.

Run: ``bash scripts/bench.sh -k analyse``.  Numbers measured here go in the
README (section "Analysing collections").
"""
from __future__ import annotations

import json
import os
import resource
import time

import pytest

from conftest import shared_data_dir

from cxiangqi import Move, pgn
from cxiangqi.analysis import AnalysisError, analyse_game, analyse_games
from cxiangqi.engine import Engine, Limit

GROUP = "analyse"
NODES = int(os.environ.get("CXIANGQI_ANALYSE_NODES", "10000"))
N_GAMES = int(os.environ.get("CXIANGQI_ANALYSE_GAMES", "100"))
_RESULTS = {}


@pytest.fixture(scope="module")
def sample():
    path = shared_data_dir() / "games.jsonl"
    if not path.exists():
        pytest.fail(f"{path} not found (set CXIANGQI_SHARED_DATA)")
    out = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            game = pgn.Game()
            node = game
            for m in record["moves"]:
                node = node.add_variation(Move.from_iccs(m))
            out.append(game)
            if len(out) == N_GAMES:
                break
    return out


def _run(games, **kwargs):
    done = {}
    for job, result in analyse_games(games, Limit(nodes=NODES), **kwargs):
        assert not isinstance(result, AnalysisError), result
        d = result.to_dict()
        d.pop("seconds")
        done[job.key] = d
    assert len(done) == len(games)
    return done


def _cpu() -> float:
    """CPU seconds used by this process (all its threads) so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _worker_cpu(client) -> float:
    """CPU seconds used by the Dask worker processes so far."""
    return sum(client.run(_cpu).values())


def _record(bench, impl, games, seconds, done, cpu, baseline=False):
    plies = sum(len(d["plies"]) for d in done.values())
    nodes = sum(d["nodes"] for d in done.values())
    bench.record(group=GROUP, impl=impl,
                 work=f"{len(games)} games, {plies:,} plies, {nodes:,} nodes ({NODES} a position)",
                 count=len(games), unit="games", seconds=seconds, baseline=baseline,
                 extra_count=nodes, extra_unit="nodes")
    # On a shared machine the wall clock depends on what else runs; the CPU
    # time says whether the workers wasted any (GIL waits would show as less
    # CPU per wall second, not more CPU per game).
    print(f"[{GROUP}] {impl}: {cpu:.1f} CPU s = {cpu / len(games) * 1000:.0f} CPU ms a game, "
          f"{cpu / seconds:.2f} cores busy on average")


@pytest.mark.benchmark(group=GROUP)
@pytest.mark.parametrize("workers", [1, 2])
def test_analyse_threads(bench, sample, workers):
    cpu = _cpu()
    done, seconds = bench.time(lambda: _run(sample, workers=workers), rounds=1)
    cpu = _cpu() - cpu
    if _RESULTS:
        assert done == next(iter(_RESULTS.values()))  # the same analysis, any thread count
    _RESULTS[f"threads-{workers}"] = done
    _record(bench, f"cxiangqi {workers} thread{'s' if workers > 1 else ''}", sample, seconds,
            done, cpu, baseline=workers == 1)


@pytest.mark.benchmark(group=GROUP)
def test_analyse_dask_local_cluster(bench, sample):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        _run(sample[:4], client=client)  # warm up: workers import cxiangqi
        cpu = _worker_cpu(client)
        done, seconds = bench.time(lambda: _run(sample, client=client), rounds=1)
        cpu = _worker_cpu(client) - cpu
    if _RESULTS:
        assert done == next(iter(_RESULTS.values()))
    _record(bench, "Dask LocalCluster, 2 processes", sample, seconds, done, cpu)


class _TimedSearcher:
    """Forwards to the engine's compiled searcher and adds up the CPU time
    of this thread spent in search_depth, the part that runs without the GIL."""

    def __init__(self, inner):
        self._inner = inner
        self.nogil = 0.0

    def search_depth(self, *args):
        t = time.thread_time()
        try:
            return self._inner.search_depth(*args)
        finally:
            self.nogil += time.thread_time() - t

    def __getattr__(self, name):
        return getattr(self._inner, name)


@pytest.mark.benchmark(group=GROUP)
def test_analyse_gil_share(bench, sample):
    """The share of a game's CPU time spent holding the GIL (everything but
    the searches): it bounds what N threads can gain, 1 / (f + (1 - f) / N).
    Thread CPU time, so other load on the machine does not change it."""
    games = sample[:20]
    engine = Engine(hash_mb=32)
    if not hasattr(getattr(engine, "_searcher", None), "search_depth"):
        bench.skip(GROUP, "GIL share", "the engine no longer drives a Searcher.search_depth "
                   "(update _TimedSearcher)")
    timed = _TimedSearcher(engine._searcher)
    engine._searcher = timed

    def run():
        t = time.thread_time()
        for game in games:
            analyse_game(game, Limit(nodes=NODES), engine)
        return time.thread_time() - t

    cpu, _ = bench.time(run, rounds=1)
    share = 1.0 - timed.nogil / cpu
    print(f"[{GROUP}] GIL share of the analysis: {share * 100:.1f} % of {cpu:.1f} CPU s "
          f"({len(games)} games): 2 threads can gain at most {1 / (share + (1 - share) / 2):.2f}x")
