#!/usr/bin/env python3
"""Reads the games a match wrote (``match.py --out FILE``) and reports them
from engine 1's side: the score with its Elo and error bar, how the games
ended, and every game engine 1 lost by a repetition rule (perpetual check
or chase), with whether it had a move at the end that did not lose by the
rule::

    python benchmarks/match_report.py matches/eleeye-150ms.jsonl --verify 2

With --verify, each such loss's last position is searched again without
the move played: "unavoidable" when every other move is mated (perpetual
check was then only the longest way to lose) or loses by a repetition rule
as well (the search's -BAN score: every line ends in mate or in another
perpetual), "AVOIDABLE" otherwise.

A game that an engine ended by giving no move after 100 plies without a
capture (ElephantEye keeps the 50-move rule of 100 plies; match.py now
scores it a draw, older files called it a loss) is counted as a draw.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Dict, List, Optional, Sequence

from cxiangqi import Board, Move
from cxiangqi.engine import Limit

REPETITION_LOSSES = ("perpetual check", "perpetual chase")


def replay(moves: Sequence[str]) -> Board:
    board = Board()
    for text in moves:
        board.push(Move.from_iccs(text))
    return board


def points(game: Dict) -> float:
    """Engine 1's points in a game (a late "no move" counted as a draw)."""
    result = game["result"]
    if "gave no move" in game["reason"] or "claimed a draw" in game["reason"]:
        board = replay(game["moves"])
        if board.halfmove_clock >= 100:
            return 0.5
    if result == "1/2-1/2":
        return 0.5
    return 1.0 if (result == "1-0") == game["engine1_red"] else 0.0


def avoidable(game: Dict) -> Optional[List[str]]:
    """For a game engine 1 lost by a repetition rule: the moves it had, at
    its last move, that would not have lost by the rule then or after the
    opponent's reply in the game (None when the rule did not decide the
    game against engine 1).  A first look: a move that only delays the
    loss counts as safe."""
    if points(game) != 0.0 or game["reason"] not in REPETITION_LOSSES:
        return None
    moves = game["moves"]
    mover_red = game["engine1_red"]
    # engine 1's last move (games start from the standard position: Red's
    # plies have even indices)
    k = len(moves) - 1
    while k >= 0 and (k % 2 == 0) != mover_red:
        k -= 1
    before = replay(moves[:k])
    reply = Move.from_iccs(moves[k + 1]) if k + 1 < len(moves) else None
    safe = []
    for m in before.legal_moves:
        before.push(m)
        outcome = before.outcome(claim_draw=True)
        if outcome is None and reply is not None and before.is_legal(reply):
            # the rule may strike after the opponent's reply (the game's own)
            before.push(reply)
            outcome = before.outcome(claim_draw=True)
            before.pop()
        before.pop()
        if outcome is None or outcome.winner != (not mover_red):
            safe.append(m.iccs())
    return safe


def verify(game: Dict, limit: "Limit") -> str:
    """The engine's view of engine 1's last position in a repetition loss:
    its best move other than the one played, and that move's score, from a
    search under `limit`."""
    from cxiangqi.engine import Engine
    from cxiangqi._search import BAN_SCORE
    moves = game["moves"]
    k = len(moves) - 1
    while k >= 0 and (k % 2 == 0) != game["engine1_red"]:
        k -= 1
    board = replay(moves[:k])
    played = Move.from_iccs(moves[k])
    other = Engine(hash_mb=64).search(board, limit, banmoves=[played])
    if other.move is None:
        return "no other move"
    if other.mate is not None and other.mate < 0:
        return (f"unavoidable: the best other move, {other.move.iccs()}, is mated in "
                f"{-other.mate} ({board.fen()})")
    if other.score <= -BAN_SCORE:
        return (f"unavoidable: the best other move, {other.move.iccs()}, loses by a repetition "
                f"rule too (score {other.score}) ({board.fen()})")
    return (f"AVOIDABLE: {other.move.iccs()} scores {other.score} cp instead of {played.iccs()} "
            f"({board.fen()})")


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="JSONL files written by match.py --out")
    ap.add_argument("--verify", type=float, metavar="SECONDS",
                    help="search each repetition loss's last position for that long without "
                         "the move played, to tell a loss that had a way out from one where "
                         "every other move is mated")
    args = ap.parse_args(argv)
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(
        "cxiangqi_match", Path(__file__).resolve().parent / "match.py")
    match = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = match
    spec.loader.exec_module(match)

    games: List[Dict] = []
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            games.extend(json.loads(line) for line in f if line.strip())
    if not games:
        raise SystemExit("no games")
    pts = [points(g) for g in games]
    wins, draws, losses = pts.count(1.0), pts.count(0.5), pts.count(0.0)
    names = Counter((g["red"] if g["engine1_red"] else g["black"]) for g in games)
    others = Counter((g["black"] if g["engine1_red"] else g["red"]) for g in games)
    print(f"{names.most_common(1)[0][0]} vs {others.most_common(1)[0][0]}: {len(games)} games")
    # pairs: games 2k+1 and 2k+2 share an opening
    by_number = {g["number"]: p for g, p in zip(games, pts)}
    penta = [0] * 5
    for n in sorted(by_number):
        if n % 2 == 1 and n + 1 in by_number:
            penta[int(round(2 * (by_number[n] + by_number[n + 1])))] += 1
    if sum(penta):
        diff, err = match.pentanomial_elo(penta)
    else:
        diff, err = match.elo_difference(wins, draws, losses)
    print(f"+{wins} ={draws} -{losses}  {100 * sum(pts) / len(pts):.1f} %  "
          f"Elo {match.format_elo(diff, err)}  pairs {penta}")
    reasons = Counter()
    for g, p in zip(games, pts):
        outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[p]
        reason = g["reason"].split(":")[0]
        if p == 0.5 and ("gave no move" in g["reason"] or "claimed a draw" in reason):
            reason = "draw claimed (50-move rule)"
        reasons[(outcome, reason)] += 1
    for (outcome, reason), n in sorted(reasons.items()):
        print(f"  {outcome:5} {reason}: {n}")
    lost = [(g, avoidable(g)) for g in games]
    lost = [(g, safe) for g, safe in lost if safe is not None]
    print(f"losses by a repetition rule: {len(lost)}")
    for g, safe in lost:
        print(f"  game {g['number']} ({g['reason']}, {len(g['moves'])} plies): "
              + (f"{len(safe)} other move(s) did not lose by the rule, e.g. {safe[:3]}"
                 if safe else "every move lost by the rule"))
        if safe and args.verify:
            print("    " + verify(g, Limit(time=args.verify)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
