#!/usr/bin/env python3
"""How often does the desktop game's pondering hit, and how much sooner does
the computer answer when it does?

    python benchmarks/ponder.py --level normal --human 5 --games 4 --think 1.0

Plays games through the game's controller (pyfrontend.xiangqi.controller,
human vs computer, opening book on as in the game, pondering on) against a
simulated human: cxiangqi's engine at level --human picks the move (a quick
search), then the "human" waits until --think seconds have passed, as a person
thinking would, without using the CPU, so the computer ponders in the
meantime.  For every computer move out of the book it records whether the
human played the expected move (a hit) and the time from the human's move to
the computer's answer.  The human plays Red in even games, Black in odd ones.

It measures; it does not pass or fail.  The numbers depend on the machine and
its load (run it on an idle machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))    # for pyfrontend

from cxiangqi import BLACK, RED                                  # noqa: E402
from cxiangqi.engine import Engine, Limit                        # noqa: E402

from pyfrontend.xiangqi.controller import HVC, GameController    # noqa: E402
from pyfrontend.settings import Settings                         # noqa: E402


def play_game(index: int, level: str, human_level: str, think: float, plies: int,
              book: bool) -> Dict[str, List[float]]:
    human_color = RED if index % 2 == 0 else BLACK
    settings = Settings(level=level, ponder="on", book=book,
                        human_color="red" if human_color == RED else "black")
    c = GameController(settings, mode=HVC, move_delay=0)
    c.book_rng = random.Random(index)
    human = Engine(hash_mb=16, seed=index)
    out: Dict[str, List[float]] = {"hit": [], "miss": [], "none": [], "book": []}
    try:
        while c.outcome is None and len(c.board.move_stack) < plies:
            if not c.wait_idle(60):
                raise RuntimeError("the computer did not answer within a minute")
            if c.outcome is not None or len(c.board.move_stack) >= plies:
                break
            start = time.monotonic()
            move = human.search(c.board, Limit(movetime=think), level=human_level).move
            time.sleep(max(0.0, think - (time.monotonic() - start)))
            hits, misses = c.ponder_hits, c.ponder_misses
            t0 = time.monotonic()
            if not c.play(move):
                raise RuntimeError(f"the simulated human's move {move} was refused")
            if not c.wait_idle(60):
                raise RuntimeError("the computer did not answer within a minute")
            latency = time.monotonic() - t0
            if c.report is not None and c.report.book:
                out["book"].append(latency)
            elif c.ponder_hits > hits:
                out["hit"].append(latency)
            elif c.ponder_misses > misses:
                out["miss"].append(latency)
            else:                       # no ponder search (none expected, or the book)
                out["none"].append(latency)
    finally:
        c.shutdown()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="normal", help="the computer's level (default normal)")
    parser.add_argument("--human", default="5", help="the simulated human's level (default 5)")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds the simulated human takes per move (default 1.0)")
    parser.add_argument("--plies", type=int, default=40, help="plies per game (default 40)")
    parser.add_argument("--no-book", action="store_true", help="play without the opening book")
    args = parser.parse_args(argv)
    total: Dict[str, List[float]] = {"hit": [], "miss": [], "none": [], "book": []}
    for i in range(args.games):
        got = play_game(i, args.level, args.human, args.think, args.plies, not args.no_book)
        for k in total:
            total[k] += got[k]
        print(f"game {i + 1}: {len(got['hit'])} hits, {len(got['miss'])} misses, "
              f"{len(got['none'])} searches without pondering, {len(got['book'])} book answers",
              flush=True)
    pondered = len(total["hit"]) + len(total["miss"])
    print(f"\ncomputer {args.level} vs simulated human level {args.human}, {args.think:g} s "
          f"per human move, {args.games} games of {args.plies} plies")
    if pondered:
        print(f"ponder hit rate: {len(total['hit'])}/{pondered} "
              f"({100 * len(total['hit']) / pondered:.0f}%)")
    for k, name in (("hit", "after a hit"), ("miss", "after a miss"),
                    ("none", "not pondered"), ("book", "from the book")):
        if total[k]:
            print(f"answer time {name:13s}: median {statistics.median(total[k]) * 1000:6.0f} ms, "
                  f"mean {statistics.mean(total[k]) * 1000:6.0f} ms  (n={len(total[k])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
