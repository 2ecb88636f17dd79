"""benchmarks/nps_vs_eleeye.py against a stand-in for ElephantEye that
answers UCCI with fixed node counts: the rates it prints, and --lean /
--params reaching cxiangqi's searcher and nothing after the run, --threads
reaching the engine."""
from __future__ import annotations

import os
import sys

import pytest

from benchmark_modules import load_benchmark

# 100,000 nodes in 50 ms for every search: 2,000,000 nodes/s
FAKE_ELEEYE = """\
import sys
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ucci":
        print("id name fake", flush=True)
        print("ucciok", flush=True)
    elif words[0] == "go":
        print("info depth 1 score 0 pv h2e2", flush=True)
        print("info time 50 nodes 100000", flush=True)
        print("bestmove h2e2", flush=True)
    elif words[0] == "quit":
        break
"""


bench = load_benchmark("nps_vs_eleeye")


@pytest.fixture
def fake_eleeye(tmp_path):
    path = tmp_path / "eleeye"
    path.write_text(f"#!{sys.executable}\n{FAKE_ELEEYE}")
    path.chmod(0o755)
    return str(path)


def test_rates_and_lean_parameters(fake_eleeye, monkeypatch, capsys):
    monkeypatch.delenv("CXIANGQI_SEARCH_PARAMS", raising=False)
    seen = []
    real_run = bench.cxiangqi_run

    def run(fen, seconds, hash_mb, threads=1):
        assert threads == 1
        seen.append(bench.Engine(hash_mb=1)._searcher.params())
        return real_run(fen, seconds, hash_mb, threads)

    monkeypatch.setattr(bench, "cxiangqi_run", run)
    assert bench.main(["--eleeye", fake_eleeye, "--seconds", "0.02", "--lean",
                       "--params", "rfp=50"]) == 0
    out = capsys.readouterr().out
    assert f"cxiangqi search parameters: {bench.LEAN},rfp=50" in out
    total = [line for line in out.splitlines() if line.strip().startswith("total")]
    assert len(total) == 1 and "2,000,000" in total[0] and "ratio" in total[0]
    assert len(seen) == len(bench.BENCH_FENS)
    for params in seen:
        assert params["lmp"] == 0 and params["futility"] == 0 and params["see_quiet"] == 0
        assert params["see_capture"] == 0 and params["qs_see"] == 0 and params["qs_tt"] == 0
        assert params["rfp"] == 50
    # the parameters were for this run only
    assert "CXIANGQI_SEARCH_PARAMS" not in os.environ
    assert bench.Engine(hash_mb=1)._searcher.params()["lmp"] == 100


def test_bad_parameters_are_refused(fake_eleeye, monkeypatch, capsys):
    monkeypatch.setenv("CXIANGQI_SEARCH_PARAMS", "rfp=70")
    with pytest.raises(SystemExit) as exc:
        bench.main(["--eleeye", fake_eleeye, "--params", "nonsense=1"])
    assert exc.value.code == 2
    assert "bad search parameter 'nonsense=1'" in capsys.readouterr().err
    assert os.environ["CXIANGQI_SEARCH_PARAMS"] == "rfp=70"


def test_threads_reach_the_engine(fake_eleeye, monkeypatch, capsys):
    monkeypatch.delenv("CXIANGQI_SEARCH_PARAMS", raising=False)
    calls = []
    real_run = bench.cxiangqi_run

    def run(fen, seconds, hash_mb, threads=1):
        calls.append(threads)
        return real_run(fen, seconds, hash_mb, threads)

    monkeypatch.setattr(bench, "cxiangqi_run", run)
    assert bench.main(["--eleeye", fake_eleeye, "--seconds", "0.02", "--threads", "2"]) == 0
    out = capsys.readouterr().out
    assert "cxiangqi threads: 2 (ElephantEye: 1)" in out
    assert calls == [2] * len(bench.BENCH_FENS)
    # (that the rate counts the helpers' nodes: tests/test_threads.py)


@pytest.mark.parametrize("threads", ["0", str(bench.MAX_THREADS + 1)])
def test_bad_thread_counts_are_refused(fake_eleeye, capsys, threads):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--eleeye", fake_eleeye, "--threads", threads])
    assert exc.value.code == 2
    assert "--threads: 1 to" in capsys.readouterr().err
