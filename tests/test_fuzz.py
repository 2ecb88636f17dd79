"""A short, seeded fuzz run of every target in fuzz_targets.py (FEN, the
notation parsers, the PGN, XQF and DhtmlXQ readers, the Board API, the
engine's limits, the engine command), each in its own process so that a
crash fails the test instead of the test run.  The same inputs every time;
benchmarks/fuzz.py runs the same targets for much longer."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

# inputs per target: a few seconds each
RUNS = {"fen": 1500, "notation": 1000, "pgn": 500, "xqf": 1000, "dhtmlxq": 600, "board": 400,
        "engine": 400, "console": 20}


@pytest.mark.parametrize("target", list(RUNS))
def test_fuzz(target):
    proc = subprocess.run([sys.executable, str(HERE / "fuzz_targets.py"), target, "11",
                           str(RUNS[target])], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"crashed ({proc.returncode}): {proc.stderr[-2000:]}"
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["tried"] == RUNS[target]
    assert result["findings"] == [], json.dumps(result["findings"][:5], indent=1,
                                                ensure_ascii=False)
