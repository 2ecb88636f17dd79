"""The record readers take time and memory in proportion to the record
(issue 11: they copied the board with its move stack for every move or
variation, so a 32 KB DhtmlXQ move list peaked at 1.27 GB; CBR did the
same until December 2026: 34 KB, 1.27 GB), and refuse a
record that is too big or too deep with their own error, never MemoryError.

Memory is the Python heap's peak while reading, measured with tracemalloc.
A node of the game tree costs about 200 bytes and the densest formats
(XQF, DhtmlXQ) spend 4 bytes on a move, so the bound is 64 times the size.
The records come from record_builders.py (benchmarks/reader_memory.py
prints the same measurements for several sizes).
"""
from __future__ import annotations

import io
import tracemalloc

import pytest

import record_builders as rb
from cxiangqi import cbr, dhtmlxq, pgn, xqf

MB = 1_000_000
#: peak Python memory while reading, as a multiple of the record's size
BOUND = 64


def _count(game) -> int:
    n, stack = 0, list(game.variations)
    while stack:
        node = stack.pop()
        n += 1
        stack.extend(node.variations)
    return n


def _peak(read, data):
    tracemalloc.start()
    try:
        game = read(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return game, peak


READERS = {
    "pgn": (lambda size: rb.pgn_with_variations(size),
            lambda text: pgn.read_game(io.StringIO(text))),
    "pgn-nested": (lambda size: rb.pgn_nested(size, depth=100),
                   lambda text: pgn.read_game(io.StringIO(text))),
    "xqf": (rb.xqf_with_variations, xqf.read_game),
    "cbr": (rb.cbr_with_variations, cbr.read_game),
    "dhtmlxq": (rb.dhtmlxq_with_variations, dhtmlxq.read_game),
    "dhtmlxq-main-line": (rb.dhtmlxq_main_line, dhtmlxq.read_game),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(READERS))
def test_a_1_mb_record_is_read_within_a_memory_bound(kind):
    build, read = READERS[kind]
    data = build(MB)
    assert len(data) >= MB
    game, peak = _peak(read, data)
    # the whole record was read: every move (and variation) is in the tree
    assert not game.errors
    assert _count(game) > len(data) // 40, _count(game)
    assert peak < BOUND * len(data), f"{peak / 1e6:.1f} MB for {len(data) / 1e6:.1f} MB"


@pytest.mark.parametrize("kind", ["pgn", "xqf", "dhtmlxq", "cbr"])
def test_memory_grows_linearly(kind):
    # 8 times the record, at most 10 times the memory (quadratic: 64 times)
    build, read = READERS[kind]
    small, big = build(16_000), build(128_000)
    _, p_small = _peak(read, small)
    _, p_big = _peak(read, big)
    assert p_big < 10 * p_small, (p_small, p_big)


@pytest.mark.parametrize("kind, error", [("pgn", pgn.PgnError), ("xqf", xqf.XqfError),
                                         ("dhtmlxq", dhtmlxq.DhtmlXQError),
                                         ("cbr", cbr.CbrError)])
def test_too_many_moves_is_refused_with_the_readers_error(kind, error, monkeypatch):
    monkeypatch.setattr(pgn, "MAX_MOVES", 500)
    build, read = READERS[kind]
    with pytest.raises(error, match="500") as info:
        read(build(20_000))
    assert isinstance(info.value, ValueError) and "too big" in str(info.value)


def test_variations_nested_too_deep_are_refused():
    text = rb.pgn_nested(2_000, depth=pgn.MAX_VARIATION_DEPTH + 1)
    with pytest.raises(pgn.PgnError, match="nested more than"):
        pgn.read_game(io.StringIO(text))
    # as deep as allowed is read, and written back (the writer does not recurse)
    text = rb.pgn_nested(2_000, depth=pgn.MAX_VARIATION_DEPTH)
    game = pgn.read_game(io.StringIO(text))
    out = io.StringIO()
    pgn.write_game(game, out)
    again = pgn.read_game(io.StringIO(out.getvalue()))
    assert _count(again) == _count(game)


def test_deep_dhtmlxq_variations_are_refused(monkeypatch):
    # variation b is an alternative to the first move of variation b - 1:
    # each one a line deeper (b0c2, b0a2, h0i2, a3a4 instead of h2e2)
    firsts = ["1927", "1907", "7987", "0605"]
    tags = "".join(f"[DhtmlXQ_move_{b - 1}_1_{b}]{firsts[b - 1]}[/DhtmlXQ_move_{b - 1}_1_{b}]"
                   for b in range(1, 5))
    page = f"[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]{tags}[/DhtmlXQ]"
    assert len(dhtmlxq.read_game(page).variations) == 5
    monkeypatch.setattr(pgn, "MAX_VARIATION_DEPTH", 3)
    with pytest.raises(dhtmlxq.DhtmlXQError, match="too deep"):
        dhtmlxq.read_game(page)


def test_deep_xqf_variations_are_refused(monkeypatch):
    # the builder's alternatives are one level deep: a limit of 0 refuses them
    data = rb.xqf_with_variations(2_000)
    assert _count(xqf.read_game(data)) > 100
    monkeypatch.setattr(pgn, "MAX_VARIATION_DEPTH", 0)
    with pytest.raises(xqf.XqfError, match="too deep"):
        xqf.read_game(data)


def test_deep_cbr_variations_are_refused(monkeypatch):
    data = rb.cbr_with_variations(16_000)
    game = cbr.read_game(data)
    assert _count(game) == 2 * -(-(16_000 - 2214 - 8) // 8)     # every move and alternative
    monkeypatch.setattr(pgn, "MAX_VARIATION_DEPTH", 0)
    with pytest.raises(cbr.CbrError, match="too deep"):
        cbr.read_game(data)
