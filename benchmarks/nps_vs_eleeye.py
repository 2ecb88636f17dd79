#!/usr/bin/env python3
"""Search speed side by side: cxiangqi's nodes per second against
ElephantEye's on the bench positions (cxiangqi.engine.BENCH_FENS), in one
run on one machine, one engine at a time, one thread each (cxiangqi with
more, --threads N: its total over all threads; ElephantEye has only one).

Both engines count a node per call of their search or quiescence search
(ElephantEye: Search2.nAllNodes in search.cpp), so the rates compare.
ElephantEye is not part of cxiangqi: build it from its public source
(github.com/xqbase/eleeye, eleeye/makefile.sh) and give its path:

    python benchmarks/nps_vs_eleeye.py --eleeye /path/to/eleeye --seconds 3

Each position is searched for --seconds by each engine from a fresh start
(ElephantEye without its book, cxiangqi with a cleared table); the totals
are nodes / seconds over all positions.  Run it on an otherwise idle machine.

--params runs cxiangqi with other search parameters (CXIANGQI_SEARCH_PARAMS
syntax, names in cxiangqi._search.PARAM_NAMES).  --lean is the tree shape
ElephantEye searches: no late-move, futility or history pruning, no SEE
pruning of quiet moves or captures in the main search or in quiescence, no
futility or table in quiescence.  Moves pruned before they are made are no
nodes, so pruning lowers the rate while it raises the strength; the lean
run shows what a node of cxiangqi costs when the trees are alike.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from typing import List, Tuple

from cxiangqi import Board
from cxiangqi.engine import BENCH_FENS, MAX_THREADS, Engine, Limit


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


# ElephantEye's tree shape: the pruning it does not do switched off
LEAN = "lmp=0,futility=0,see_quiet=0,see_capture=0,qs_see=0,qs_tt=0,qs_fut=0,hist_prune=0"


def cxiangqi_run(fen: str, seconds: float, hash_mb: int, threads: int = 1) -> Tuple[int, float]:
    engine = Engine(hash_mb=hash_mb, threads=threads)
    start = time.perf_counter()
    result = engine.search(Board(fen), Limit(time=seconds))
    return result.nodes, time.perf_counter() - start


def main(argv: List[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--eleeye", required=True, help="ElephantEye's executable")
    ap.add_argument("--seconds", type=float, default=3.0, help="per position and engine")
    ap.add_argument("--hash", type=int, default=16, metavar="MB",
                    help="table size of both engines (default 16: ElephantEye's default)")
    ap.add_argument("--params", metavar="SPEC", default="",
                    help="cxiangqi's search parameters, name=value,... (default: its own)")
    ap.add_argument("--lean", action="store_true",
                    help=f"cxiangqi in ElephantEye's tree shape (--params {LEAN})")
    ap.add_argument("--threads", type=int, default=1, metavar="N",
                    help="cxiangqi's search threads (Lazy SMP; default 1); the rate is all "
                         "threads' nodes over the time, ElephantEye keeps its one thread")
    args = ap.parse_args(argv)
    if not 1 <= args.threads <= MAX_THREADS:
        ap.error(f"--threads: 1 to {MAX_THREADS}")
    if not 16 <= args.hash <= 1024 or args.hash & (args.hash - 1):
        ap.error("--hash: a power of two from 16 to 1024 (ElephantEye's range)")
    spec = ",".join(x for x in (LEAN if args.lean else "", args.params) if x)
    saved = os.environ.get("CXIANGQI_SEARCH_PARAMS")
    try:
        if spec:
            # read by every new cxiangqi searcher; a bad name or value raises here
            os.environ["CXIANGQI_SEARCH_PARAMS"] = spec
            try:
                Engine(hash_mb=1)
            except ValueError as exc:
                ap.error(f"--params: {exc}")
            print(f"cxiangqi search parameters: {spec}")
        if args.threads > 1:
            print(f"cxiangqi threads: {args.threads} (ElephantEye: 1)")
        compare(args.eleeye, args.seconds, args.hash, args.threads)
    finally:
        if saved is None:
            os.environ.pop("CXIANGQI_SEARCH_PARAMS", None)
        else:
            os.environ["CXIANGQI_SEARCH_PARAMS"] = saved
    return 0


def compare(eleeye: str, seconds: float, hash_mb: int, threads: int = 1) -> None:
    totals = {"cxiangqi": [0, 0.0], "ElephantEye": [0, 0.0]}
    print(f"{'position':>8} {'cxiangqi nps':>14} {'ElephantEye nps':>16}")
    for k, fen in enumerate(BENCH_FENS, 1):
        cx = cxiangqi_run(fen, seconds, hash_mb, threads)
        ee = eleeye_run(eleeye, fen, seconds, hash_mb)
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

if __name__ == "__main__":
    sys.exit(main())
