"""The Python-API walk: perft from the start position that visits every legal
move one by one (no bulk counting), in cxiangqi and, side by side in the same
run, in pyffish and cchess.

- cxiangqi: iterate ``board.legal_moves``, ``push`` each move, recurse, ``pop``.
- pyffish: ``pyffish.legal_moves("xiangqi", fen, moves)`` at every inner node,
  walking by passing the move list (that is its API: each call replays the
  moves from the FEN); each leaf is visited by appending its move.
- cchess (walker8088's package, optional, not a dependency): pseudo-legal
  ``create_moves()`` filtered by ``is_valid_move_t`` and ``is_checked_move``;
  a move is made on a copy of the board (cchess has no unmake).

pyffish costs about 1.4 ms a call here, so its depth-3 walk (1,965 calls)
takes about 3 s a round; cchess needs about 0.5 s for depth 2 and 25 s for
depth 3, so it walks depth 2 unless ``--cchess-walk-depth`` says otherwise.
The table compares leaves per second.  Issue 2's target: cxiangqi at least
100x pyffish.
"""
from __future__ import annotations

import pytest

import cxiangqi

START_PERFT = {1: 44, 2: 1_920, 3: 79_666, 4: 3_290_240, 5: 133_312_995}
GROUP = "python walk"


def walk_cxiangqi(board: cxiangqi.Board, depth: int) -> int:
    if depth == 0:
        return 1
    leaves = 0
    for move in board.legal_moves:
        board.push(move)
        leaves += walk_cxiangqi(board, depth - 1)
        board.pop()
    return leaves


def walk_pyffish(pyffish, fen: str, moves: list, depth: int) -> int:
    if depth == 0:
        return 1
    leaves = 0
    for move in pyffish.legal_moves("xiangqi", fen, moves):
        moves.append(move)
        leaves += walk_pyffish(pyffish, fen, moves, depth - 1)
        moves.pop()
    return leaves


def cchess_legal_moves(board) -> list:
    return [m for m in board.create_moves()
            if board.is_valid_move_t(m) and not board.is_checked_move(*m)]


def walk_cchess(board, depth: int) -> int:
    if depth == 0:
        return 1
    leaves = 0
    for pos_from, pos_to in cchess_legal_moves(board):
        child = board.copy()
        child._move_piece(pos_from, pos_to)
        child.next_turn()
        leaves += walk_cchess(child, depth - 1)
    return leaves


@pytest.mark.benchmark(group=GROUP)
def test_walk_cxiangqi(bench, request):
    depth = request.config.getoption("--walk-depth")
    board = cxiangqi.Board()
    leaves, seconds = bench.time(lambda: walk_cxiangqi(board, depth), rounds=10,
                                 warmup_rounds=1)
    assert leaves == START_PERFT[depth]
    assert board.fen() == cxiangqi.STARTING_FEN and not board.move_stack
    bench.record(group=GROUP, impl="cxiangqi legal_moves/push/pop",
                 work=f"depth {depth}, {leaves:,} leaves", count=leaves,
                 unit="leaves", seconds=seconds, baseline=True)


@pytest.mark.benchmark(group=GROUP)
def test_walk_pyffish(bench, request):
    depth = request.config.getoption("--pyffish-walk-depth")
    try:
        import pyffish
    except ImportError:
        bench.skip(GROUP, "pyffish legal_moves(fen, moves)", "pyffish not installed")
    fen = cxiangqi.STARTING_FEN
    leaves, seconds = bench.time(lambda: walk_pyffish(pyffish, fen, [], depth),
                                 rounds=2)
    assert leaves == START_PERFT[depth]
    bench.record(group=GROUP, impl="pyffish legal_moves(fen, moves)",
                 work=f"depth {depth}, {leaves:,} leaves", count=leaves,
                 unit="leaves", seconds=seconds)


@pytest.mark.benchmark(group=GROUP)
def test_walk_cchess(bench, request):
    depth = request.config.getoption("--cchess-walk-depth")
    try:
        import cchess
    except ImportError:
        bench.skip(GROUP, "cchess", "not installed (optional: pip install cchess)")
    board = cchess.ChessBoard(cxiangqi.STARTING_FEN)
    leaves, seconds = bench.time(lambda: walk_cchess(board, depth), rounds=3)
    assert leaves == START_PERFT[depth]
    bench.record(group=GROUP, impl="cchess copy/move",
                 work=f"depth {depth}, {leaves:,} leaves", count=leaves,
                 unit="leaves", seconds=seconds)
