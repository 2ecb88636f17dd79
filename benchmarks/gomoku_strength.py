"""How strong is the gomoku computer?  Matches against a greedy player and
between levels, with move times.

    python benchmarks/gomoku_strength.py hard greedy --games 20
    python benchmarks/gomoku_strength.py hard easy --games 20 --jobs 2

Each pair of games starts from the same random opening (two or three stones
near the centre) with the colours swapped, so neither side keeps the
first-move advantage.  The greedy player is what a casual player does: it
takes a five, else the point with the best "my line + your line" count
(longest run through the point and how many of its ends are open), with no
look-ahead.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Dict, List, Optional, Tuple

from cxiangqi import gomoku

Point = Tuple[int, int]

DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))
# (run length, open ends) -> value
LINE_VALUE = {
    (4, 2): 10_000, (4, 1): 1_000, (3, 2): 1_000, (3, 1): 100,
    (2, 2): 100, (2, 1): 10, (1, 2): 2, (1, 1): 1,
}


def greedy_value(stones: Dict[Point, int], size: int, p: Point, color: int) -> int:
    total = 0
    for dr, dc in DIRS:
        run, ends = 1, 0
        for sgn in (1, -1):
            r, c = p[0] + sgn * dr, p[1] + sgn * dc
            while 0 <= r < size and 0 <= c < size and stones.get((r, c)) == color:
                run += 1
                r, c = r + sgn * dr, c + sgn * dc
            if 0 <= r < size and 0 <= c < size and (r, c) not in stones:
                ends += 1
        if run >= 5:
            total += 1_000_000
        elif ends:
            total += LINE_VALUE.get((run, ends), 0)
    return total


def greedy_move(board: gomoku.Board, rng: random.Random) -> Point:
    size = board.size
    stones = {p: int(board.color_at(p)) for p in board.move_stack}
    me = int(board.turn)
    you = 3 - me
    best, best_vl = [], -1
    for p in board.legal_moves:
        if not any(abs(p[0] - q[0]) <= 2 and abs(p[1] - q[1]) <= 2 for q in stones):
            continue
        vl = greedy_value(stones, size, p, me) * 11 // 10 + greedy_value(stones, size, p, you)
        if vl > best_vl:
            best, best_vl = [p], vl
        elif vl == best_vl:
            best.append(p)
    if not best:
        return (size // 2, size // 2)
    return rng.choice(best)


def opening(rng: random.Random, size: int) -> List[Point]:
    c = size // 2
    pts: List[Point] = []
    while len(pts) < rng.choice((2, 3)):
        p = (c + rng.randint(-2, 2), c + rng.randint(-2, 2))
        if p not in pts:
            pts.append(p)
    return pts


def play(black: str, white: str, seed: int, size: int = 15) -> Tuple[str, int, Dict[str, List[float]]]:
    rng = random.Random(seed)
    board = gomoku.Board(size)
    for p in opening(rng, size):
        board.push(p)
    times: Dict[str, List[float]] = {black: [], white: []}
    while not board.is_game_over():
        who = black if board.turn is gomoku.BLACK else white
        t0 = time.perf_counter()
        if who == "greedy":
            mv = greedy_move(board, rng)
        else:
            mv = gomoku.best_move(board, who, rng=rng)
        times[who].append(time.perf_counter() - t0)
        board.push(mv)
    return board.result(), len(board.move_stack), times


def _game(args):
    a, b, seed, swap = args
    black, white = (b, a) if swap else (a, b)
    result, plies, times = play(black, white, seed)
    return a, b, swap, result, plies, times


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="easy, normal, hard or greedy")
    ap.add_argument("b", help="easy, normal, hard or greedy")
    ap.add_argument("--games", type=int, default=20, help="games (pairs of two colours)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    tasks = [(args.a, args.b, args.seed * 1000 + i // 2, i % 2 == 1) for i in range(args.games)]
    score = {args.a: 0.0, args.b: 0.0}
    as_black = {args.a: [0, 0], args.b: [0, 0]}
    times: Dict[str, List[float]] = {args.a: [], args.b: []}
    plies_all = []
    t0 = time.time()
    with ProcessPoolExecutor(args.jobs) as ex:
        for a, b, swap, result, plies, tm in ex.map(_game, tasks):
            black, white = (b, a) if swap else (a, b)
            if result == "1-0":
                score[black] += 1
                as_black[black][0] += 1
            elif result == "0-1":
                score[white] += 1
            else:
                score[black] += 0.5
                score[white] += 0.5
            as_black[black][1] += 1
            plies_all.append(plies)
            for k, v in tm.items():
                times[k].extend(v)
            print(f"{black:>7} (black) - {white:<7} (white)  {result:7}  {plies} plies", flush=True)
    n = len(tasks)
    print(f"\n{args.a} {score[args.a]:g} - {score[args.b]:g} {args.b} over {n} games "
          f"({time.time() - t0:.0f} s, mean {statistics.mean(plies_all):.0f} plies)")
    for k in (args.a, args.b):
        if times[k] and k != "greedy":
            ts = sorted(times[k])
            print(f"  {k}: {len(ts)} moves, mean {statistics.mean(ts):.3f} s, "
                  f"median {ts[len(ts) // 2]:.3f} s, max {ts[-1]:.3f} s"
                  f"  (wins as black {as_black[k][0]}/{as_black[k][1]})")


if __name__ == "__main__":
    sys.exit(main())
