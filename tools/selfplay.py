#!/usr/bin/env python3
"""Self-play games for tuning the evaluation (tools/tune.py).

The built-in engine plays itself at a fixed number of nodes per move from
the shared opening lines (each followed by a few random legal plies, so no
two games start alike), in worker threads of one process (the search holds
no GIL).  Games end by the referee's rules (Board.outcome), or are
adjudicated: a win when both engines' scores agree that one side is ahead
by more than --adjudicate centipawns for 8 plies, a draw at 300 plies.
Each game is appended to the output as one JSON line, as in
../shared/data/games.jsonl: {"moves": [ICCS...], "result": "1-0"|"0-1"|"1/2-1/2",
"reason": ..., "source": "selfplay ..."}.  Reruns append; the seed makes a
run repeatable (with --workers 1: threads interleave differently).

    python tools/selfplay.py --games 2000 --nodes 8000 --workers 2 -o selfplay.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from typing import List, Optional, Tuple

from cxiangqi import Board
from cxiangqi.engine import Engine, Limit

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OPENINGS = os.path.join(HERE, os.pardir, os.pardir, "shared", "data", "openings.jsonl")


def load_openings(path: str) -> List[List[str]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line)["moves"] for line in f if line.strip()]


def play_one(engine: Engine, opening: List[str], rng: random.Random, nodes: int,
             random_plies: int, adjudicate: int, max_plies: int = 300) -> Tuple[List[str], str, str]:
    board = Board()
    for m in opening:
        board.push_iccs(m)
    for _ in range(random_plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    engine.new_game()
    ahead = 0                       # plies in a row with one side clearly ahead
    sign = 0
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return [m.iccs() for m in board.move_stack], outcome.result(), \
                outcome.termination.name.lower()
        if len(board.move_stack) >= max_plies:
            return [m.iccs() for m in board.move_stack], "1/2-1/2", "ply limit"
        result = engine.search(board, Limit(nodes=nodes))
        red_score = result.score if board.turn else -result.score   # board.turn: True = red
        s = (red_score > adjudicate) - (red_score < -adjudicate)
        if s != 0 and s == sign:
            ahead += 1
        else:
            ahead = 1 if s != 0 else 0
        sign = s
        board.push(result.move)
        if ahead >= 8:
            return [m.iccs() for m in board.move_stack], "1-0" if sign > 0 else "0-1", \
                "adjudicated"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=8000, help="nodes per move")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--openings", default=DEFAULT_OPENINGS)
    ap.add_argument("--random-plies", type=int, default=4,
                    help="random legal plies after each opening line")
    ap.add_argument("--adjudicate", type=int, default=1000, help="centipawns")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    openings = load_openings(args.openings)
    lock = threading.Lock()
    done = [0]
    start = time.monotonic()

    def worker(k: int) -> None:
        rng = random.Random(args.seed * 1000 + k)
        engine = Engine(hash_mb=16)
        while True:
            with lock:
                if done[0] >= args.games:
                    return
                done[0] += 1
                number = done[0]
            opening = openings[rng.randrange(len(openings))]
            moves, result, reason = play_one(engine, opening, rng, args.nodes,
                                             args.random_plies, args.adjudicate)
            record = {"moves": moves, "result": result, "reason": reason, "plies": len(moves),
                      "source": f"selfplay nodes={args.nodes} seed={args.seed} worker={k}"}
            with lock:
                with open(args.output, "a", encoding="utf-8") as f:
                    f.write(json.dumps(record) + "\n")
                if number % 50 == 0:
                    rate = number / (time.monotonic() - start)
                    print(f"{number} games, {rate:.2f} games/s", file=sys.stderr, flush=True)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
