"""perft through ``Board.perft`` (C, bulk counting at the last ply).

- perft(4) and perft(5) from the start position (SPEC.md section 6).  Issue 2's
  target for perft(5) is at most 2 s on the 2-core machine class.
- The perft suite: each of the 14 positions of ../shared/data/perft.json at the
  deepest published depth with at most 5 M leaves (28,161,593 leaves in all),
  a regression signature in the manner of Stockfish's ``bench``.

The node counts are checked; the rates are printed in Mnps (millions of
leaves per second).
"""
import pytest

import cxiangqi

START_PERFT = {3: 79_666, 4: 3_290_240, 5: 133_312_995}


@pytest.mark.benchmark(group="perft")
@pytest.mark.parametrize("depth,rounds,warmup", [
    pytest.param(4, 5, 1, id="perft4"),
    pytest.param(5, 3, 0, id="perft5"),
])
def test_perft_start(bench, depth, rounds, warmup):
    board = cxiangqi.Board()
    nodes, seconds = bench.time(lambda: board.perft(depth), rounds, warmup)
    assert nodes == START_PERFT[depth]
    assert board.fen() == cxiangqi.STARTING_FEN
    bench.record(group="perft", impl=f"cxiangqi Board.perft({depth})",
                 work=f"perft({depth}) from start, {nodes:,} leaves",
                 count=nodes, unit="leaves", seconds=seconds, baseline=(depth == 5))


SUITE_MAX_NODES = 5_000_000


@pytest.mark.benchmark(group="perft")
def test_perft_suite(bench, perft_rows):
    deepest = {}
    for row in perft_rows:
        if row["nodes"] <= SUITE_MAX_NODES and row["depth"] > deepest.get(row["fen"], (0, 0))[0]:
            deepest[row["fen"]] = (row["depth"], row["nodes"])
    cases = [(cxiangqi.Board(fen), depth, nodes) for fen, (depth, nodes) in deepest.items()]

    def run():
        return [board.perft(depth) for board, depth, _ in cases]

    counts, seconds = bench.time(run, rounds=3, warmup_rounds=1)
    assert counts == [nodes for _, _, nodes in cases]
    total = sum(counts)
    bench.record(group="perft", impl="cxiangqi Board.perft, perft.json suite",
                 work=f"{len(cases)} positions, {total:,} leaves",
                 count=total, unit="leaves", seconds=seconds)
