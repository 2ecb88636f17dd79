#!/usr/bin/env python3
"""Search speed side by side: cxiangqi's nodes per second against
ElephantEye's on the bench positions (cxiangqi.engine.BENCH_FENS), in one
run on one machine, one engine at a time, one thread each.

Both engines count a node per call of their search or quiescence search
(ElephantEye: Search2.nAllNodes in search.cpp), so the rates compare.
ElephantEye is not part of cxiangqi: build it from its public source
(github.com/xqbase/eleeye, eleeye/makefile.sh) and give its path:

    python benchmarks/nps_vs_eleeye.py --eleeye /path/to/eleeye --seconds 3

Each position is searched for --seconds by each engine from a fresh start
(ElephantEye without its book, cxiangqi with a cleared table); the totals
are nodes / seconds over all positions.  Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from typing import List, Tuple

from cxiangqi import Board
from cxiangqi.engine import BENCH_FENS, Engine, Limit


def eleeye_run(path: str, fen: str, seconds: float, hash_mb: int) -> Tuple[int, float]:
    """(nodes, seconds) ElephantEye reports for a search of `seconds`."""
    ms = int(seconds * 1000)
    script = (f"ucci\nsetoption usebook false\nsetoption hashsize {hash_mb}\nsetoption newgame\n"
              f"position fen {fen}\ngo time {ms} movestogo 1\n")
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(script)
    proc.stdin.flush()
    nodes, used = 0, 0.0
    for line in proc.stdout:
        words = line.split()
        if words[:2] == ["info", "time"] and "nodes" in words:
            used = int(words[2]) / 1000.0
            nodes = int(words[words.index("nodes") + 1])
        if words and words[0] in ("bestmove", "nobestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    return nodes, used


def cxiangqi_run(fen: str, seconds: float, hash_mb: int) -> Tuple[int, float]:
    engine = Engine(hash_mb=hash_mb)
    start = time.perf_counter()
    result = engine.search(Board(fen), Limit(time=seconds))
    return result.nodes, time.perf_counter() - start


def main(argv: List[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--eleeye", required=True, help="ElephantEye's executable")
    ap.add_argument("--seconds", type=float, default=3.0, help="per position and engine")
    ap.add_argument("--hash", type=int, default=16, metavar="MB",
                    help="table size of both engines (default 16: ElephantEye's default)")
    args = ap.parse_args(argv)
    if not 16 <= args.hash <= 1024 or args.hash & (args.hash - 1):
        ap.error("--hash: a power of two from 16 to 1024 (ElephantEye's range)")
    totals = {"cxiangqi": [0, 0.0], "ElephantEye": [0, 0.0]}
    print(f"{'position':>8} {'cxiangqi nps':>14} {'ElephantEye nps':>16}")
    for k, fen in enumerate(BENCH_FENS, 1):
        cx = cxiangqi_run(fen, args.seconds, args.hash)
        ee = eleeye_run(args.eleeye, fen, args.seconds, args.hash)
        for name, (n, t) in (("cxiangqi", cx), ("ElephantEye", ee)):
            totals[name][0] += n
            totals[name][1] += t
        # ElephantEye answers a position it solves at once (a forced mate)
        # in ~0 ms: no rate to show, and next to nothing in the totals
        ee_text = f"{ee[0] / ee[1]:>16,.0f}" if ee[1] >= 0.01 else f"{'(answered at once)':>16}"
        print(f"{k:>8} {cx[0] / cx[1]:>14,.0f} {ee_text}", flush=True)
    cx_nps = totals["cxiangqi"][0] / totals["cxiangqi"][1]
    ee_nps = totals["ElephantEye"][0] / totals["ElephantEye"][1]
    print(f"{'total':>8} {cx_nps:>14,.0f} {ee_nps:>16,.0f}   ratio {cx_nps / ee_nps:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
