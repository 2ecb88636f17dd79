"""Perft against the published values in perft.json, and Board.perft against a
Python-level walk over the public API."""
from __future__ import annotations

import pytest

from conftest import perft_rows

from cxiangqi import STARTING_FEN, Board, Move

MAX_NODES = 200_000_000
SLOW_NODES = 5_000_000


def _perft_params():
    params = []
    for row in perft_rows():
        if row["nodes"] > MAX_NODES:
            continue
        marks = [pytest.mark.slow] if row["nodes"] > SLOW_NODES else []
        params.append(
            pytest.param(row["fen"], row["depth"], row["nodes"], marks=marks,
                         id=f"{row['label']}-d{row['depth']}")
        )
    return params


PERFT_PARAMS = _perft_params()


def test_perft_table_selection():
    # Guard against the selection above silently dropping rows.
    rows = [r for r in perft_rows() if r["nodes"] <= MAX_NODES]
    assert len(PERFT_PARAMS) == len(rows) >= 60
    start = {r["depth"]: r["nodes"] for r in rows if r["fen"] == STARTING_FEN}
    assert start == {1: 44, 2: 1920, 3: 79666, 4: 3290240, 5: 133312995}


@pytest.mark.parametrize("fen,depth,nodes", PERFT_PARAMS)
def test_perft(fen, depth, nodes):
    board = Board(fen)
    assert board.perft(depth) == nodes
    # perft must not disturb the board
    assert board.fen() == fen
    assert board.move_stack == []


def test_perft_depth_zero_is_one():
    assert Board().perft(0) == 1
    # even with no legal moves, the root itself counts
    mated = Board("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")
    assert mated.perft(0) == 1
    assert mated.perft(1) == 0
    assert mated.perft(2) == 0


DIVIDE_FENS = [
    STARTING_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
]


@pytest.mark.parametrize("fen", DIVIDE_FENS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_divide(fen, depth):
    board = Board(fen)
    divide = board.perft_divide(depth)
    assert isinstance(divide, dict)
    assert set(divide) == set(board.legal_moves)
    assert all(isinstance(m, Move) for m in divide)
    assert sum(divide.values()) == board.perft(depth)
    if depth == 1:
        assert set(divide.values()) == {1}
    # each entry equals the perft of the child position
    for move, count in list(divide.items())[:8]:
        board.push(move)
        assert board.perft(depth - 1) == count, move
        board.pop()
    assert board.fen() == fen


def _walk(board: Board, depth: int) -> int:
    """Perft through the public Python API only: no bulk counting."""
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += _walk(board, depth - 1)
        board.pop()
    return total


WALK_FENS = [
    STARTING_FEN,
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
]


@pytest.mark.parametrize("fen", WALK_FENS)
def test_python_walk_matches_perft(fen):
    board = Board(fen)
    key = board.zobrist_hash()
    expected = board.perft(3)
    assert _walk(board, 3) == expected
    assert board.fen() == fen
    assert board.zobrist_hash() == key
    assert board.move_stack == []


def test_python_walk_start_position_known_values():
    board = Board()
    # depth 3 (79,666) is covered against Board.perft above
    assert [_walk(board, d) for d in (0, 1, 2)] == [1, 44, 1920]


def test_perft_divide_stops_when_another_thread_raises_its_flag():
    # what the engine command's 'stop' does to a 'go perft': the count in
    # C polls the flag, so a perft(12) (hours) ends as soon as it is raised
    import threading

    from cxiangqi._core import PerftStop

    board = Board()
    flag = PerftStop()
    assert not flag.is_set()
    assert board._core.perft_divide(2, flag) == board._core.perft_divide(2)
    threading.Timer(0.2, flag.set).start()
    counted = board._core.perft_divide(12, flag)
    assert flag.is_set() and counted == []          # not even the first move finished
    assert board.fen() == STARTING_FEN and board.perft(2) == 1920   # the board as it was
    assert board._core.perft_divide(1, flag) == []  # a raised flag stays raised
