#!/usr/bin/env python3
"""The level ladder: each level of cxiangqi's engine against the next one.

Plays ``builtin:K`` against ``builtin:K+1`` (each at its own limits: the
level's depth, node budget and time cap) in game pairs from an opening set,
and the greedy player (``builtin:greedy``: takes the most valuable piece it
can, else moves at random) against ``easy`` and level 3, then prints the
table: the stronger level's score, the Elo difference with its 95 % error
bar, and each level's Elo relative to level 1 (the sum of the steps below
it; the errors add in quadrature)::

    python benchmarks/levels.py --openings ../shared/data/openings.jsonl \\
        --games 40 --concurrency 2 --out levels.json

A ladder is what a player needs: each level should score 60-85 % against
the one below (70-300 Elo a step), ``easy`` should lose some games to the
greedy player and level 3 none.  Levels 1-9 are limited by nodes, so their
games do not depend on the machine's speed (the time caps only bind on a
slow one); level 10 is the full engine at 5 s a move, which makes its step
the expensive one: ``--levels 1-9`` leaves it out, ``--top-time`` plays it
(and level 9's cap) at a shorter time.  The table of LEVEL_ELO in
cxiangqi/engine.py and the README come from this script's output.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from cxiangqi.engine import LEVELS, Limit

HERE = Path(__file__).resolve().parent


def _load_match():
    spec = importlib.util.spec_from_file_location("cxiangqi_match", HERE / "match.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


match = _load_match()


def level_limit(name: str, top_time: Optional[float]) -> Limit:
    """The limit a game gives a level: its own time cap (a level below 10
    never uses more than its cap; level 10 uses exactly this), shortened to
    `top_time` for levels 9 and 10 when given."""
    t = LEVELS[name].movetime or 5.0
    if top_time is not None and name in ("9", "10"):
        t = min(t, top_time)
    return Limit(time=t)


def play(weaker: str, stronger: str, games: int, openings, concurrency: int,
         top_time: Optional[float], max_plies: int, verbose: bool):
    """The stronger side's result against the weaker one."""
    def on_game(record, result):
        if verbose:
            print(f"  {record.red} - {record.black}: {record.result} {record.reason}, "
                  f"{len(record.moves)} plies", flush=True)

    lim_w = Limit(movetime=0.01) if weaker == "greedy" else level_limit(weaker, top_time)
    lim_s = level_limit(stronger, top_time)
    return match.play_match(f"builtin:{stronger}", f"builtin:{weaker}", games,
                            limit1=lim_s, limit2=lim_w, openings=openings,
                            concurrency=concurrency, max_plies=max_plies, on_game=on_game)


def _parse_levels(text: str) -> List[str]:
    lo, _, hi = text.partition("-")
    lo_i, hi_i = int(lo), int(hi or lo)
    if not 1 <= lo_i < hi_i <= 10:
        raise SystemExit(f"bad --levels {text!r}: expected e.g. 1-10")
    return [str(i) for i in range(lo_i, hi_i + 1)]


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", default="1-10", help="the range of levels, e.g. 1-9")
    ap.add_argument("--games", type=int, default=20, help="games per pair of levels (even)")
    ap.add_argument("--greedy-games", type=int, default=None,
                    help="games of the greedy player against easy and level 3 "
                         "(default: --games; 0: none)")
    ap.add_argument("--openings", help="opening lines (JSONL or ICCS lines); "
                                       "default: match.py's dozen")
    ap.add_argument("--concurrency", type=int, default=1, help="games at once (one per core)")
    ap.add_argument("--top-time", type=float, default=None,
                    help="seconds a move for levels 9 and 10 (default: their own 4 and 5)")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--out", help="write the table as JSON here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every game")
    args = ap.parse_args(argv)
    if args.games < 2 or args.games % 2:
        raise SystemExit("--games must be an even number >= 2 (game pairs)")
    levels = _parse_levels(args.levels)
    openings = match.load_openings(args.openings) if args.openings else None
    greedy_games = args.games if args.greedy_games is None else args.greedy_games

    steps: List[Dict] = []
    for weaker, stronger in zip(levels, levels[1:]):
        r = play(weaker, stronger, args.games, openings, args.concurrency, args.top_time,
                 args.max_plies, args.verbose)
        diff, err = r.elo
        steps.append({"weaker": weaker, "stronger": stronger, "wins": r.wins, "draws": r.draws,
                      "losses": r.losses, "score": r.score / len(r.games),
                      "elo": diff, "error": err})
        print(f"level {stronger} vs {weaker}: +{r.wins} ={r.draws} -{r.losses} "
              f"({100 * r.score / len(r.games):.1f} %), {match.format_elo(diff, err)}",
              flush=True)
    greedy: List[Dict] = []
    if greedy_games:
        for level in ("easy", "3"):
            r = play("greedy", level, greedy_games, openings, args.concurrency, args.top_time,
                     args.max_plies, args.verbose)
            greedy.append({"level": level, "greedy_wins": r.losses, "draws": r.draws,
                           "greedy_losses": r.wins})
            print(f"greedy vs {level}: +{r.losses} ={r.draws} -{r.wins}", flush=True)

    # the ladder relative to the lowest level played
    print()
    print(f"| level | vs the level below | Elo step | Elo over level {levels[0]} |")
    print("|---|---|---|---|")
    total, var = 0.0, 0.0
    ladder = {levels[0]: (0.0, 0.0)}
    print(f"| {levels[0]} | | | 0 |")
    for s in steps:
        finite = math.isfinite(s["elo"]) and math.isfinite(s["error"])
        total += s["elo"] if finite else math.nan
        var += s["error"] ** 2 if finite else math.nan
        ladder[s["stronger"]] = (total, math.sqrt(var))
        print(f"| {s['stronger']} | +{s['wins']} ={s['draws']} -{s['losses']} "
              f"({100 * s['score']:.0f} %) | {match.format_elo(s['elo'], s['error'])} "
              f"| {total:+.0f} +/- {math.sqrt(var):.0f} |")
    for g in greedy:
        print(f"greedy player vs {g['level']}: +{g['greedy_wins']} ={g['draws']} "
              f"-{g['greedy_losses']}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"steps": steps, "greedy": greedy,
                       "ladder": {k: {"elo": v[0], "error": v[1]} for k, v in ladder.items()},
                       "games": args.games, "top_time": args.top_time}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
