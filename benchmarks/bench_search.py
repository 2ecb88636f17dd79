"""Search speed: cxiangqi.engine.bench() — the fixed BENCH_FENS searched to a
fixed depth from a cleared engine.  The total node count is the search's
signature (it changes only when the search does); nps is the speed.

Measured with this file (2-core AMD EPYC, other work running):
depth 8: 1,645,500 nodes, 1.7-2.4 M nps (mobility terms in the evaluation;
1,687,577 nodes at 3.6 M nps without them).  For scale, ElephantEye built here
from its public source searches about 3-5 M nodes/s.
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
