#!/usr/bin/env python3
"""What the evaluation costs, term by term, and what share of a search node
it is.

    python benchmarks/eval_terms.py [--positions FILE] [--reps N] [--depth D]

Positions: the "fen" of every line of ../shared/data/positions.jsonl (real
games, their final positions, random playouts; $CXIANGQI_SHARED_DATA or
--positions for another file), or the 12 bench positions when the file is
missing.  cxiangqi._search.eval_part_costs times, in C, --reps passes over
them for each part of cxiangqi's evaluation (src/cxiangqi/_eval.pyx):

    evaluate     the whole evaluation, as the search calls it
    loop         the timing loop alone, reading the material and placement
                 sums (kept by make_move as moves are made, so they cost
                 nothing here)
    counts       each side's pieces counted by slot, the phase, the scale
                 factor for drawish material
    mobility     rook, cannon and horse mobility (horses by free jumps)
    king_lines   hollow cannon, cannon behind a screen on the king's file or
                 rank, rook pins, read from the king's four lines
    defence      missing advisors/elephants against the attackers left,
                 full defence, attackers across the river
    pawns        crossed pawns side by side

Every part but `evaluate` is timed for both sides.  The positions are
taken 64 at a time, each block --reps times, so that they stay in the cache
as a search's positions do (one pass over all 4,031 would time the memory:
evaluate then takes 2.5 times as long), and the branches see 64 positions
in turn rather than one (a predictor may still learn part of the cycle).
Then `bench(--depth)` gives the time of a search node for scale (the
evaluation runs at about 7 of 10 nodes: 392 K calls in the 553 K nodes of
bench(10), callgrind, December 2026).

Measured (December 2, 2026, 2-core Xeon, `taskset -c 1`, the 4,031
positions, --reps 200, two runs): evaluate 45-47 ns, of which mobility 24
(52 %), king lines 8, counts with phase and scale 5, pawns 4, defence 4,
the bare loop 0.5; a search node 394-403 ns (bench(12)), so the evaluation
is about 8 % of the search's time (perf on bench(13): 9 %).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import List

from cxiangqi import Board
from cxiangqi._search import eval_part_costs
from cxiangqi.engine import BENCH_FENS, bench

REPO_ROOT = Path(__file__).resolve().parents[1]
MAX_POSITIONS = 1_000_000


def default_positions_file() -> Path:
    env = os.environ.get("CXIANGQI_SHARED_DATA")
    base = Path(env) if env else REPO_ROOT.parent / "shared" / "data"
    return base / "positions.jsonl"


def load_fens(path: Path) -> List[str]:
    """The "fen" of each JSON line of `path` (blank lines skipped); a line
    that is not one, or a FEN that is not valid, ends the script saying
    which line."""
    fens = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                fen = json.loads(line)["fen"]
            except (ValueError, KeyError, TypeError) as e:
                raise SystemExit(f"{path}:{number}: not a JSON object with a \"fen\": {e}")
            if not isinstance(fen, str):
                raise SystemExit(f"{path}:{number}: not a JSON object with a \"fen\" string")
            if len(fens) == MAX_POSITIONS:
                raise SystemExit(f"{path}: more than {MAX_POSITIONS} positions")
            try:
                Board(fen)
            except (ValueError, TypeError) as e:
                raise SystemExit(f"{path}:{number}: bad FEN: {e}")
            fens.append(fen)
    if not fens:
        raise SystemExit(f"{path}: no positions")
    return fens


def measure(fens: List[str], reps: int) -> dict:
    """ns per position of each evaluation part (see the module docstring)."""
    return eval_part_costs([Board(fen)._core for fen in fens], reps)


def report(costs: dict, node_ns: float) -> List[str]:
    whole = costs["evaluate"]
    lines = [f"{'part':<12} {'ns/position':>12} {'of evaluate':>12}"]
    for name, ns in costs.items():
        lines.append(f"{name:<12} {ns:>12.1f} {100 * ns / whole:>11.0f} %")
    lines.append(f"a search node: {node_ns:.0f} ns; "
                 f"one evaluation is {100 * whole / node_ns:.0f} % of it")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=Path, default=None,
                        help="JSON lines with a \"fen\" each "
                             "(default: ../shared/data/positions.jsonl)")
    parser.add_argument("--reps", type=int, default=200,
                        help="passes over each block of positions, per part (default 200)")
    parser.add_argument("--depth", type=int, default=12, help="bench depth for a node's time")
    args = parser.parse_args(argv)
    if not 1 <= args.reps <= 1_000_000:
        parser.error("--reps must be 1..1000000")
    if not 1 <= args.depth <= 30:
        parser.error("--depth must be 1..30")
    path = args.positions or default_positions_file()
    if args.positions is None and not path.exists():
        print(f"({path} not found: the 12 bench positions)", file=sys.stderr)
        fens = list(BENCH_FENS)
    else:
        fens = load_fens(path)
    if len(fens) * args.reps > 100_000_000:
        parser.error(f"{len(fens)} positions x --reps {args.reps} is over 100,000,000 "
                     f"evaluations a part")
    costs = measure(fens, args.reps)
    b = bench(args.depth)
    print(f"{len(fens)} positions, {args.reps} passes")
    for line in report(costs, 1e9 / b["nps"]):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
