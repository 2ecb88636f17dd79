"""benchmarks/eval_terms.py and cxiangqi._search.eval_part_costs, the
timing of the evaluation's parts: what they accept, refuse and print (the
times themselves are measurements, reported by the script, not tested)."""
from __future__ import annotations

import json
import re

import pytest

from benchmark_modules import load_benchmark
from cxiangqi import Board
from cxiangqi._eval import EVAL_PART_NAMES
from cxiangqi._search import eval_features, eval_part_costs
from cxiangqi.engine import BENCH_FENS

terms = load_benchmark("eval_terms")


def test_part_costs_name_every_part_and_leave_the_positions_alone():
    cores = [Board(fen)._core for fen in BENCH_FENS]
    before = [eval_features(c) for c in cores]
    costs = eval_part_costs(cores, 2)
    assert list(costs) == EVAL_PART_NAMES == [
        "evaluate", "loop", "counts", "mobility", "king_lines", "defence", "pawns"]
    assert all(isinstance(v, float) and v >= 0 for v in costs.values())
    assert [eval_features(c) for c in cores] == before


@pytest.mark.parametrize("positions, reps, error, message", [
    ([], 1, ValueError, "need 1..1000000 positions, got 0"),
    (None, 0, ValueError, "reps must be an integer 1..1000000, got 0"),
    (None, 10**6 + 1, ValueError, "reps must be an integer 1..1000000"),
    (None, 2**40, ValueError, "reps must be an integer 1..1000000"),
    (None, 2.5, ValueError, "reps must be an integer 1..1000000, got 2.5"),
    ([Board()._core] * 1000, 10**6, ValueError, "positions x reps must be at most 100000000"),
    (["not a position"], 1, TypeError, "expected cxiangqi._core.Position objects, got str"),
])
def test_part_costs_refuse_bad_arguments(positions, reps, error, message):
    if positions is None:
        positions = [Board()._core]
    with pytest.raises(error, match=re.escape(message)):
        eval_part_costs(positions, reps)


def test_the_script_prints_a_line_per_part(tmp_path, capsys):
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps({"fen": fen}) + "\n" for fen in BENCH_FENS[:5]) + "\n")
    assert terms.main(["--positions", str(path), "--reps", "1", "--depth", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "5 positions, 1 passes"
    assert [line.split()[0] for line in out[2:-1]] == EVAL_PART_NAMES
    assert out[-1].startswith("a search node: ")


@pytest.mark.parametrize("text, message", [
    ("{\"fen\": 1\n", "p.jsonl:1: not a JSON object with a \"fen\""),
    ("[1, 2]\n", "p.jsonl:1: not a JSON object with a \"fen\""),
    ("\n\n", "p.jsonl: no positions"),
    ("{\"fen\": null}\n", "p.jsonl:1: not a JSON object with a \"fen\" string"),
])
def test_the_script_says_what_is_wrong_with_a_positions_file(tmp_path, text, message):
    path = tmp_path / "p.jsonl"
    path.write_text(text)
    with pytest.raises(SystemExit) as exc:
        terms.main(["--positions", str(path), "--reps", "1", "--depth", "1"])
    assert message in str(exc.value.code)


def test_the_script_reports_a_bad_fen_in_the_file(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"fen": "9/9/9 w"}) + "\n")
    with pytest.raises(SystemExit) as exc:
        terms.main(["--positions", str(path), "--reps", "1", "--depth", "1"])
    assert "p.jsonl:1: bad FEN" in str(exc.value.code)
