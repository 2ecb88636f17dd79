"""The evaluation: symmetric, incremental where it claims to be, and exactly
the linear function of its features that tools/tune.py fits."""
from __future__ import annotations

import random
import zlib

import pytest

from cxiangqi import Board
from cxiangqi import _eval
from cxiangqi._search import eval_features
from cxiangqi.engine import Engine, Limit
from cxiangqi.eval_weights import WEIGHTS

from conftest import games, positions


def _cells(row: str):
    out = []
    for ch in row:
        out.extend("." * int(ch) if ch.isdigit() else ch)
    return out


def _row(cells) -> str:
    text, empty = "", 0
    for c in cells:
        if c == ".":
            empty += 1
        else:
            text += (str(empty) if empty else "") + c
            empty = 0
    return text + (str(empty) if empty else "")


def colour_mirror(fen: str) -> str:
    """The same position with the colours swapped: ranks flipped top to
    bottom, upper and lower case swapped, the other side to move."""
    board, side, *rest = fen.split()
    rows = [r.swapcase() for r in board.split("/")[::-1]]
    return " ".join(["/".join(rows), "b" if side == "w" else "w"] + rest)


def file_mirror(fen: str) -> str:
    """The same position reflected left to right."""
    board, *rest = fen.split()
    return " ".join(["/".join(_row(_cells(r)[::-1]) for r in board.split("/"))] + rest)


def _sample_fens():
    fens = [p["fen"] for p in positions()]
    rng = random.Random(zlib.crc32(b"eval-sample"))
    for game in rng.sample(games(), 60):
        board = Board()
        for text in game["moves"]:
            board.push_iccs(text)
            fens.append(board.fen())
    return fens


@pytest.fixture(scope="module")
def sample_fens():
    return _sample_fens()


def test_evaluation_is_colour_and_file_symmetric(sample_fens):
    engine = Engine(hash_mb=1)
    checked = 0
    for fen in sample_fens:
        board = Board(fen)
        score = engine.evaluate(board)
        assert engine.evaluate(Board(colour_mirror(fen))) == score, fen
        assert engine.evaluate(Board(file_mirror(fen))) == score, fen
        checked += 1
    assert checked > 5000


def test_the_evaluation_is_the_linear_model_the_tuner_fits(sample_fens):
    w = _eval.weights()
    flat = [None] * _eval.N_FEATURE_COUNT
    for name, first, length in _eval.FEATURE_BLOCKS:
        for i in range(length):
            flat[first + i] = w[name][i]
    for fen in sample_fens[::7]:
        board = Board(fen)
        score, counts, phase, scale = eval_features(board._core)
        mg = sum(c * flat[i][0] for i, c in enumerate(counts) if c)
        eg = sum(c * flat[i][1] for i, c in enumerate(counts) if c)
        red = (mg * phase + eg * (_eval.PHASE_FULL - phase)) / _eval.PHASE_FULL
        red = red * scale / _eval.SCALE_FULL
        expected = red if board.turn else -red
        assert abs(score - expected) <= 2, (fen, score, expected)
        assert 0 <= phase <= _eval.PHASE_FULL and 0 <= scale <= _eval.SCALE_FULL


def test_the_shipped_weights_are_loaded():
    assert _eval.weights() == {k: [tuple(p) for p in v] for k, v in WEIGHTS.items()}


def test_incremental_sums_survive_games():
    # the material/placement sums kept by make/unmake equal a fresh position's
    engine = Engine(hash_mb=1)
    for game in games()[:200]:
        board = Board()
        for text in game["moves"]:
            board.push_iccs(text)
        fresh = Board(board.fen())
        assert engine.evaluate(board) == engine.evaluate(fresh)


def test_drawish_material_is_scaled_down():
    engine = Engine(hash_mb=1)
    # a lone horse against full defence: far less than its material
    lone_horse = Board("3akab2/9/4b4/9/9/9/9/4N4/9/4K4 w - - 0 1")
    assert abs(engine.evaluate(lone_horse)) < 100
    # a rook against full defence is a book draw
    lone_rook = Board("2bakab2/9/9/9/9/9/9/9/3R5/3K5 w - - 0 1")
    assert abs(engine.evaluate(lone_rook)) < 150
    # but a rook against a bare king wins
    bare = Board("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1")
    assert engine.evaluate(bare) > 500


def _horse_jumps(fen: str):
    """Free jumps of each horse, worked out on the FEN's grid (not the
    core's tables): {"R": [n, ...], "B": [n, ...]}."""
    grid = [_cells(row) for row in fen.split()[0].split("/")]
    out = {"R": [], "B": []}
    for r in range(10):
        for f in range(9):
            if grid[r][f] not in "Nn":
                continue
            red = grid[r][f] == "N"
            n = 0
            for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                lr, lf = r + dr, f + df
                if not (0 <= lr < 10 and 0 <= lf < 9) or grid[lr][lf] != ".":
                    continue
                for side in (-1, 1):
                    tr, tf = (lr + dr, lf + side) if dr else (lr + side, lf + df)
                    if 0 <= tr < 10 and 0 <= tf < 9:
                        target = grid[tr][tf]
                        if target == "." or target.isupper() != red:
                            n += 1
            out["R" if red else "B"].append(n)
    return out


def test_horse_mobility_counts_the_free_jumps(sample_fens):
    first = dict((name, start) for name, start, _ in _eval.FEATURE_BLOCKS)["horse_mobility"]
    for fen in sample_fens[::5]:
        _, counts, _, _ = eval_features(Board(fen)._core)
        jumps = _horse_jumps(fen)
        expected = [0] * 9
        for n in jumps["R"]:
            expected[n] += 1
        for n in jumps["B"]:
            expected[n] -= 1
        assert counts[first:first + 9] == expected, fen


def test_a_search_uses_weights_set_after_the_searcher_was_made():
    # the tuner changes the weights of a running process: a search made after
    # that must judge by the new weights only, even with an engine (and its
    # searcher) made before
    fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1"
    engine = Engine(hash_mb=1)
    engine.search(Board(fen), Limit(depth=6))
    changed = {k: [tuple(p) for p in v] for k, v in WEIGHTS.items()}
    cannon = 5      # material entries by the core's piece types: king, advisor, ..., cannon, pawn
    changed["material"][cannon] = (changed["material"][cannon][0] + 150,
                                   changed["material"][cannon][1] + 150)
    try:
        _eval.set_weights(changed)
        engine.new_game()
        again = engine.search(Board(fen), Limit(depth=6))
        fresh = Engine(hash_mb=1).search(Board(fen), Limit(depth=6))
        assert (again.score, again.nodes, again.pv) == (fresh.score, fresh.nodes, fresh.pv)
    finally:
        _eval.set_weights(WEIGHTS)
    assert _eval.weights() == {k: [tuple(p) for p in v] for k, v in WEIGHTS.items()}
