"""Shared machinery for the cxiangqi benchmarks (pytest-benchmark).

Run them with ``bash scripts/bench.sh`` or, in a venv where cxiangqi and its
``[test]`` extras are installed::

    python -m pytest benchmarks --benchmark-only -s

The files here are named ``bench_*.py`` and are collected only when
``benchmarks/`` is asked for: the default test run (``testpaths = ["tests"]``)
never sees them.

A benchmark measures and checks its node counts; it never fails on an absolute
time (machines differ).  Each one records its best round through the
``bench_record`` fixture, and a table of rates and ratios is printed at the end
of the session.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, List, Optional

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

#: Perft from the start position (SPEC.md section 6).
START_PERFT = {1: 44, 2: 1_920, 3: 79_666, 4: 3_290_240, 5: 133_312_995}


# --------------------------------------------------------------------------
# collection: bench_*.py files, only under benchmarks/
# --------------------------------------------------------------------------

def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    # Files named on the command line are collected by pytest itself already.
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("bench_")
        and not parent.session.isinitpath(file_path)
    ):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cxiangqi benchmarks")
    group.addoption("--walk-depth", type=int, default=3,
                    help="depth of the cxiangqi push/pop walk (default 3: 79,666 leaves)")
    group.addoption("--pyffish-walk-depth", type=int, default=3,
                    help="depth of the pyffish.legal_moves walk (default 3, about 3 s a round)")
    group.addoption("--cchess-walk-depth", type=int, default=2,
                    help="depth of the cchess walk (default 2; depth 3 takes about 25 s a round)")


# --------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------

def shared_data_dir() -> Path:
    """../shared/data beside the repository, or $CXIANGQI_SHARED_DATA."""
    env = os.environ.get("CXIANGQI_SHARED_DATA")
    return Path(env) if env else REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def positions() -> List[dict]:
    path = shared_data_dir() / "positions.jsonl"
    if not path.exists():
        pytest.fail(f"{path} not found (set CXIANGQI_SHARED_DATA)")
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def perft_rows() -> List[dict]:
    path = shared_data_dir() / "perft.json"
    if not path.exists():
        pytest.fail(f"{path} not found (set CXIANGQI_SHARED_DATA)")
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


# --------------------------------------------------------------------------
# timing and the closing table
# --------------------------------------------------------------------------

@dataclass
class Result:
    group: str
    impl: str
    work: str            # what one round does, e.g. "perft(5), 133,312,995 leaves"
    count: int           # units per round (leaves, positions, ...)
    unit: str            # "leaves", "positions"
    seconds: Optional[float]   # best round; None when skipped
    baseline: bool = False     # the cxiangqi row the group's ratios are taken against
    extra_count: int = 0       # a second unit per round (moves)
    extra_unit: str = ""
    note: str = ""

    @property
    def rate(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0


def _rate_text(rate: float, unit: str) -> str:
    if unit == "leaves":
        return f"{rate:,.0f} leaves/s ({rate / 1e6:.2f} Mnps)"
    if rate >= 1e6:
        return f"{rate / 1e6:,.2f} M {unit}/s"
    if rate >= 1e3:
        return f"{rate / 1e3:,.1f} k {unit}/s"
    return f"{rate:,.1f} {unit}/s"


def describe(r: Result) -> str:
    """One line for the -s output of a benchmark."""
    if r.seconds is None:
        return f"[{r.group}] {r.impl}: skipped ({r.note})"
    text = (f"[{r.group}] {r.impl}: {r.work} in {r.seconds:.3f} s = "
            f"{_rate_text(r.rate, r.unit)}")
    if r.extra_unit:
        text += f", {_rate_text(r.extra_count / r.seconds, r.extra_unit)}"
    return text


_RESULTS = pytest.StashKey[List[Result]]()


class Bench:
    """What a benchmark gets from the ``bench`` fixture.

    ``bench.time(fn, rounds)`` runs ``fn`` through pytest-benchmark and returns
    (its last result, best seconds); the rounds are timed here as well, so the
    rates do not depend on how pytest-benchmark is configured
    (``--benchmark-disable`` runs one round).  ``bench.record(...)`` adds a
    row to the closing table and prints it; ``bench.skip(...)`` records a
    skipped row and skips the test.
    """

    def __init__(self, benchmark, config: pytest.Config) -> None:
        self.benchmark = benchmark
        self.config = config

    def time(self, fn: Callable[[], Any], rounds: int, warmup_rounds: int = 0):
        times: List[float] = []
        out: List[Any] = []

        def run():
            t0 = time.perf_counter()
            value = fn()
            times.append(time.perf_counter() - t0)
            out.append(value)
            return value

        self.benchmark.pedantic(run, rounds=rounds, warmup_rounds=warmup_rounds,
                                iterations=1)
        return out[-1], min(times[warmup_rounds:] or times)

    def record(self, **fields: Any) -> Result:
        result = Result(**fields)
        self.config.stash.setdefault(_RESULTS, []).append(result)
        self.benchmark.extra_info.update(
            {"count": result.count, "unit": result.unit, "rate": result.rate})
        print("\n" + describe(result))
        return result

    def skip(self, group: str, impl: str, note: str) -> None:
        self.record(group=group, impl=impl, work="", count=0, unit="", seconds=None,
                    note=note)
        pytest.skip(note)


@pytest.fixture
def bench(benchmark, request) -> Bench:
    return Bench(benchmark, request.config)


GROUP_ORDER = ["perft", "python walk", "legal_moves"]


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    results: List[Result] = config.stash.get(_RESULTS, [])
    if not results:
        return
    results = sorted(results, key=lambda r: (
        GROUP_ORDER.index(r.group) if r.group in GROUP_ORDER else len(GROUP_ORDER)))
    rows = [("group", "implementation", "work per round", "best", "rate", "cxiangqi speed-up")]
    for r in results:
        base = next((b for b in results if b.group == r.group and b.baseline), None)
        if r.seconds is None:
            rows.append((r.group, r.impl, r.work, "-", f"skipped: {r.note}", ""))
            continue
        rate = _rate_text(r.rate, r.unit)
        if r.extra_unit:
            rate += ", " + _rate_text(r.extra_count / r.seconds, r.extra_unit)
        if base is None or r.impl.startswith("cxiangqi") or not base.seconds or not r.rate:
            ratio = ""
        else:
            ratio = f"{base.rate / r.rate:,.1f}x"
        rows.append((r.group, r.impl, r.work, f"{r.seconds:.3f} s", rate, ratio))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    terminalreporter.write_sep("=", "cxiangqi benchmark summary (best round)")
    for i, row in enumerate(rows):
        terminalreporter.write_line(
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if i == 0:
            terminalreporter.write_line("  ".join("-" * w for w in widths))
