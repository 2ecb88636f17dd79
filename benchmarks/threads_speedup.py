#!/usr/bin/env python3
"""Lazy SMP, measured: time to a fixed depth with 1 and N threads on the
bench positions, and how fast ``stop()`` ends a search with several threads.

    python benchmarks/threads_speedup.py --depth 11 --threads 2

Each position is searched from a cleared table by each thread count in
turn; the speed-up is total time with 1 thread / total time with N (and
the geometric mean of the per-position ratios).  A parallel search explores
a different tree, so its nodes differ; the depth reached is the same.
Stop latency: a search with no limit is started in a thread, ``stop()`` is
called after --stop-after seconds, and the time until the search returns
is taken (median and worst of the positions).  Run it on an otherwise idle
machine with at least N cores.

A parallel search is not repeatable, and one position's time to a depth
can double or halve with the tree's luck, so twelve positions say little:
--games FILE --count K adds K middle-game positions (ply --ply of the
first K games of a games.jsonl, e.g. ../shared/data/games.jsonl), and
--repeat R times the N-thread searches R times (the median counts).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import threading
import time
from typing import List, Optional, Sequence

from cxiangqi import Board
from cxiangqi.engine import BENCH_FENS, Engine, Limit


def game_positions(path: str, count: int, ply: int) -> List[str]:
    """FENs at `ply` of the first `count` games (of at least ply + 1
    plies) in a games.jsonl file: {"moves": [ICCS, ...], ...} per line."""
    fens: List[str] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if len(fens) >= count:
                break
            moves = json.loads(line)["moves"]
            if len(moves) <= ply:
                continue
            board = Board()
            for m in moves[:ply]:
                board.push_iccs(m)
            fens.append(board.fen())
    return fens


def time_to_depth(fen: str, depth: int, threads: int, hash_mb: int) -> float:
    engine = Engine(hash_mb=hash_mb, threads=threads)
    t0 = time.perf_counter()
    result = engine.search(Board(fen), Limit(depth=depth))
    elapsed = time.perf_counter() - t0
    assert result.depth >= depth or abs(result.score) > 20000, (fen, result)
    return elapsed


def stop_latency(fen: str, threads: int, after: float) -> float:
    engine = Engine(hash_mb=64, threads=threads)
    board = Board(fen)
    done: List[float] = []

    def run() -> None:
        result = engine.search(board, Limit())     # no limit: until stop()
        done.append(time.perf_counter())
        assert result.move in board.legal_moves

    t = threading.Thread(target=run)
    t.start()
    time.sleep(after)
    t0 = time.perf_counter()
    engine.stop()
    t.join()
    return done[0] - t0


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hash", type=int, default=64, help="MB")
    ap.add_argument("--stop-after", type=float, default=0.5)
    ap.add_argument("--games", help="a games.jsonl whose middle-game positions are added")
    ap.add_argument("--count", type=int, default=36, help="positions taken from --games")
    ap.add_argument("--ply", type=int, default=30, help="ply of the --games positions")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each N-thread search")
    ap.add_argument("--no-latency", action="store_true", help="skip the stop() latency part")
    args = ap.parse_args(argv)
    fens = list(BENCH_FENS)
    if args.games:
        fens += game_positions(args.games, args.count, args.ply)
    totals = {1: 0.0, args.threads: 0.0}
    ratios = []
    for i, fen in enumerate(fens):
        t1 = time_to_depth(fen, args.depth, 1, args.hash)
        tn = statistics.median(time_to_depth(fen, args.depth, args.threads, args.hash)
                               for _ in range(args.repeat))
        totals[1] += t1
        totals[args.threads] += tn
        ratios.append(t1 / tn)
        print(f"position {i + 1:2}: 1 thread {t1:6.2f} s, {args.threads} threads {tn:6.2f} s, "
              f"x{t1 / tn:.2f}", flush=True)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"depth {args.depth}: 1 thread {totals[1]:.1f} s, {args.threads} threads "
          f"{totals[args.threads]:.1f} s: speed-up x{totals[1] / totals[args.threads]:.2f} "
          f"(geometric mean of positions x{geo:.2f})")
    if args.no_latency:
        return 0
    for threads in sorted({1, 2, 4, args.threads}):
        lat = [stop_latency(fen, threads, args.stop_after) for fen in BENCH_FENS]
        print(f"stop() with {threads} thread(s): median {1000 * statistics.median(lat):.1f} ms, "
              f"worst {1000 * max(lat):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
