"""Search speed: cxiangqi.engine.bench() — the fixed BENCH_FENS searched to a
fixed depth from a cleared engine.  The total node count is the search's
signature (it changes only when the search does); nps is the speed.

Measured with this file (2-core Xeon, one search at a time): depth 8:
115,483 nodes (the signature tests/test_search.py asserts); depth 12:
1,720,935 nodes in about 0.82 s, 2.1 M nps (quiescence futility cut 11 %
of the nodes, the cheap ones, in the same time).  ElephantEye, built from its public
source, searches 3.5-5.3 M nodes/s on the same positions (the host's load
varies): benchmarks/nps_vs_eleeye.py runs the two side by side.
"""
import pytest

from cxiangqi.engine import BENCH_FENS, bench as engine_bench

GROUP = "search"


@pytest.mark.benchmark(group=GROUP)
@pytest.mark.parametrize("depth", [8, 10])
def test_search_bench(bench, depth):
    out = {}

    def run():
        out.update(engine_bench(depth=depth))
        return out["nodes"]

    nodes, seconds = bench.time(run, rounds=3, warmup_rounds=0)
    assert nodes > 0 and nodes == out["nodes"]
    bench.record(group=GROUP, impl=f"cxiangqi bench({depth})",
                 work=f"{len(BENCH_FENS)} positions to depth {depth}, {nodes:,} nodes",
                 count=nodes, unit="nodes", seconds=seconds, baseline=(depth == 8))
