"""legal_moves throughput over every position in ../shared/data/positions.jsonl.

The boards are built once, outside the timing; a round generates the legal
moves of all 4,031 positions:

- cxiangqi ``len(list(board.legal_moves))``: every move becomes a ``Move``;
- cxiangqi ``board.legal_moves.count()``: counting only, for scale;
- pyffish ``len(pyffish.legal_moves("xiangqi", fen, []))`` on the same FENs.

Every count is checked against the recorded ``n_legal``.
"""
import pytest

import cxiangqi

GROUP = "legal_moves"


def _record(bench, impl, positions, moves, seconds, baseline=False):
    bench.record(group=GROUP, impl=impl,
                 work=f"{len(positions):,} positions, {moves:,} moves",
                 count=len(positions), unit="positions", seconds=seconds,
                 extra_count=moves, extra_unit="moves", baseline=baseline)


@pytest.mark.benchmark(group=GROUP)
def test_legal_moves_list_cxiangqi(bench, positions):
    boards = [cxiangqi.Board(p["fen"]) for p in positions]

    def run():
        return [len(list(board.legal_moves)) for board in boards]

    counts, seconds = bench.time(run, rounds=10, warmup_rounds=1)
    assert counts == [p["n_legal"] for p in positions]
    _record(bench, "cxiangqi len(list(legal_moves))", positions, sum(counts), seconds,
            baseline=True)


@pytest.mark.benchmark(group=GROUP)
def test_legal_moves_count_cxiangqi(bench, positions):
    boards = [cxiangqi.Board(p["fen"]) for p in positions]

    def run():
        return [board.legal_moves.count() for board in boards]

    counts, seconds = bench.time(run, rounds=10, warmup_rounds=1)
    assert counts == [p["n_legal"] for p in positions]
    _record(bench, "cxiangqi legal_moves.count()", positions, sum(counts), seconds)


@pytest.mark.benchmark(group=GROUP)
def test_legal_moves_pyffish(bench, positions):
    try:
        import pyffish
    except ImportError:
        bench.skip(GROUP, "pyffish legal_moves(fen, [])", "pyffish not installed")
    fens = [p["fen"] for p in positions]

    def run():
        return [len(pyffish.legal_moves("xiangqi", fen, [])) for fen in fens]

    counts, seconds = bench.time(run, rounds=2)
    assert counts == [p["n_legal"] for p in positions]
    _record(bench, "pyffish legal_moves(fen, [])", positions, sum(counts), seconds)
