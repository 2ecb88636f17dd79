#!/usr/bin/env python3
"""Engine matches refereed by cxiangqi's own rules.

Plays two engines against each other, alternating colours over a set of
common opening lines (each opening twice, once with each engine as Red), and
prints every game's result, the score and the Elo difference with its 95%
error bar::

    python benchmarks/match.py --engine1 cxiangqi-engine \\
        --engine2 /usr/games/maxqi --proto2 xboard --games 40 --movetime 0.2

An engine is a command line (a UCI, UCCI or xboard program; the protocol is
found by trying, or given with --proto1/--proto2), or ``builtin[:LEVEL]``
for cxiangqi's engine run in this process (LEVEL 1..10, easy, normal,
hard), or ``builtin:greedy``, a player that captures the most valuable piece
it can and otherwise plays a random move (the floor of benchmarks/levels.py).  Limits: --movetime seconds, --depth, --nodes, or a game clock --tc
BASE+INC (seconds; each engine gets its own clock and loses on time), for
both engines or per engine (--movetime2, --tc1, ...).

The referee is cxiangqi.Board's rules (``outcome(claim_draw=True)``): an
illegal move (or a crash, a timeout, no move) loses for the engine that made
it; a side with no legal move loses (checkmate or stalemate); at a position's
third occurrence perpetual check or perpetual chase loses and any other
repetition draws; 120 plies without a capture, neither side able to cross the
river, or --max-plies (300) are draws.  Engines' own claims are ignored,
except resignation.

Note on fixed time per move with xboard engines: the protocol's ``st`` takes
whole seconds, so the client sends ``st`` rounded up plus the exact time as
the clock (``time``/``otim`` in centiseconds).  MaxQi starts no new iteration
after ~6% of its clock, so at --movetime 0.1 it averaged 25 ms a move.  The
average time each engine actually used is printed; a game clock (--tc) gives
both engines the same budget to manage (at --tc 10+0.1: 0.26 s vs 0.18 s).

Testing a change (new build against the previous one) is one command::

    python benchmarks/match.py --engine1 new/engine.sh --engine2 old/engine.sh \
        --openings ../shared/data/openings.jsonl --tc 4+0.04 --concurrency 2 \
        --sprt 0,10 --games 2000

Games come in pairs (one opening, colours swapped), ``--concurrency N``
plays N games at once (one engine process pair per game: use one per core),
and ``--sprt ELO0,ELO1`` runs a sequential probability ratio test
(alpha = beta = 0.05) on the pentanomial statistics of the game pairs,
stopping as soon as the log-likelihood ratio crosses a bound (H1 accepted:
engine 1 is at least ELO1 stronger; H0: at most ELO0).  The summary gives
the Elo difference with its 95% error bar, from the pairs when there are
some (pairs remove the opening's bias from the error).

From Python, ``play_match(...)`` plays a match and returns a MatchResult.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from cxiangqi import STARTING_FEN, Board, Move
from cxiangqi.engine import Limit
from cxiangqi.external import (EngineError, EngineTerminatedError, EngineTimeoutError,
                               ExternalEngine, IllegalEngineMoveError, PlayResult)
from cxiangqi.square import BLACK, RED

#: (name, ICCS moves): common openings, a few plies each, both sides' main lines
OPENINGS: List[Tuple[str, str]] = [
    ("Central cannon vs screen horses (中炮对屏风马)", "h2e2 h9g7 h0g2 b9c7"),
    ("Central cannon, seventh pawn, vs screen horses (中炮七兵对屏风马)", "h2e2 h9g7 h0g2 b9c7 c3c4 c6c5"),
    ("Same-direction cannons (顺炮)", "h2e2 h7e7 h0g2 h9g7"),
    ("Opposite-direction cannons (列炮)", "h2e2 b7e7 h0g2 b9c7"),
    ("Central cannon vs reverse palace horse (中炮对反宫马)", "h2e2 b9c7 h0g2 h7f7"),
    ("Central cannon vs three-step tiger (中炮对三步虎)", "h2e2 h9g7 h0g2 h7i7"),
    ("Pawn opening (仙人指路)", "c3c4 g6g5"),
    ("Pawn opening vs pawn (对兵局)", "c3c4 c6c5"),
    ("Elephant opening (飞相局)", "g0e2 h9g7"),
    ("Horse opening (起马局)", "h0g2 g6g5"),
    ("Palace-corner cannon (士角炮)", "h2f2 h9g7"),
    ("Cross-palace cannon (过宫炮)", "h2d2 h9g7"),
]

#: the shared opening set: 220 balanced six-ply lines from real games
SHARED_OPENINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                               os.pardir, "shared", "data", "openings.jsonl")


def load_openings(path: str) -> List[Tuple[str, str]]:
    """Opening lines from a JSONL file of ``{"moves": [ICCS, ...]}`` (as
    ../shared/data/openings.jsonl) or a text file of one line of ICCS moves
    per row; each is checked to be legal."""
    out: List[Tuple[str, str]] = []
    with open(path, encoding="utf-8") as f:
        for number, row in enumerate(f, 1):
            row = row.strip()
            if not row or row.startswith("#"):
                continue
            if row.startswith("{"):
                try:
                    moves = json.loads(row)["moves"]
                except (ValueError, KeyError, TypeError) as e:
                    raise ValueError(f"{path}:{number}: not an opening record: {e}") from None
            else:
                moves = row.split()
            board = Board()
            try:
                for m in moves:
                    board.push_iccs(m)
            except ValueError as e:
                raise ValueError(f"{path}:{number}: {e}") from None
            out.append((f"{os.path.basename(path)}#{number}", " ".join(moves)))
    if not out:
        raise ValueError(f"{path}: no opening lines")
    return out


DEFAULT_MAX_PLIES = 300


@dataclass(frozen=True)
class Adjudication:
    """Ending clear games early, as cutechess-cli does, to make engine
    tests faster (never used unless asked for): a win when the engines'
    scores (Red's view) have all been beyond +-resign_score for the last
    resign_moves moves of each side; a draw when, after draw_after plies,
    they have all been within +-draw_score for draw_moves moves of each side."""

    resign_score: Optional[int] = None
    resign_moves: int = 4
    draw_after: Optional[int] = None
    draw_score: int = 10
    draw_moves: int = 8

    def verdict(self, red_scores: Sequence[Optional[int]], plies: int) -> Optional[Tuple[Optional[bool], str]]:
        if self.resign_score is not None and len(red_scores) >= 2 * self.resign_moves:
            last = red_scores[-2 * self.resign_moves:]
            if all(s is not None and s > self.resign_score for s in last):
                return RED, "adjudicated win"
            if all(s is not None and s < -self.resign_score for s in last):
                return BLACK, "adjudicated win"
        if self.draw_after is not None and plies >= self.draw_after \
                and len(red_scores) >= 2 * self.draw_moves:
            last = red_scores[-2 * self.draw_moves:]
            if all(s is not None and abs(s) <= self.draw_score for s in last):
                return None, "adjudicated draw"
        return None
#: a clock may run this far below zero before the engine loses on time
TIME_MARGIN = 0.05


# --- Elo ----------------------------------------------------------------------------

def _elo(p: float) -> float:
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo_difference(wins: int, draws: int, losses: int) -> Tuple[float, float]:
    """Elo difference from a score, and the half-width of its 95% confidence
    interval (normal approximation over per-game scores).  ``(0.0, inf)``
    without games; infinite when the score is 0% or 100%."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, math.inf
    p = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = _elo(p - 1.96 * se), _elo(p + 1.96 * se)
    if math.isinf(lo) or math.isinf(hi):
        return _elo(p), math.inf
    return _elo(p), (hi - lo) / 2.0


def _expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def pentanomial_elo(penta: Sequence[int]) -> Tuple[float, float]:
    """Elo difference and its 95% half-width from game-pair counts
    ``penta[k]`` = number of pairs in which engine 1 scored k/2 points
    (k = 0..4 half-points over the two games).  Pairs share an opening, so
    their variance is the honest one: the opening's bias cancels out."""
    n = sum(penta)
    if n == 0:
        return 0.0, math.inf
    xs = [k / 4.0 for k in range(5)]
    mean = sum(x * c for x, c in zip(xs, penta)) / n
    var = sum(c * (x - mean) ** 2 for x, c in zip(xs, penta)) / n
    se = math.sqrt(var / n)
    lo, hi = _elo(mean - 1.96 * se), _elo(mean + 1.96 * se)
    if math.isinf(lo) or math.isinf(hi):
        return _elo(mean), math.inf
    return _elo(mean), (hi - lo) / 2.0


@dataclass
class Sprt:
    """Sequential probability ratio test of H0: elo <= elo0 against
    H1: elo >= elo1 (logistic Elo), on game pairs (pentanomial), with the
    normal approximation of the generalized SPRT (as fishtest does):
    LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v), m and v the mean and
    variance of the pair scores, s0 and s1 the scores expected under H0
    and H1.  Stops when LLR leaves [log(beta/(1-alpha)), log((1-beta)/alpha)]."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> Tuple[float, float]:
        return (math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha))

    def llr(self, penta: Sequence[int]) -> float:
        n = sum(penta)
        if n == 0:
            return 0.0
        xs = [k / 4.0 for k in range(5)]
        mean = sum(x * c for x, c in zip(xs, penta)) / n
        # the variance with two pseudo-pairs spread over all outcomes added:
        # a handful of identical results (variance 0) cannot decide the
        # test, and over hundreds of pairs the prior does not matter
        prior = [0.25, 0.5, 0.5, 0.5, 0.25]
        var = (sum(c * (x - mean) ** 2 for x, c in zip(xs, penta))
               + sum(c * (x - mean) ** 2 for x, c in zip(xs, prior))) / (n + 2.0)
        s0, s1 = _expected_score(self.elo0), _expected_score(self.elo1)
        return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)

    def verdict(self, penta: Sequence[int]) -> Optional[str]:
        """"H1" (accept the change), "H0" (reject it) or None (go on)."""
        llr = self.llr(penta)
        lo, hi = self.bounds
        if llr >= hi:
            return "H1"
        if llr <= lo:
            return "H0"
        return None


def format_elo(diff: float, error: float) -> str:
    def num(x: float) -> str:
        return ("+inf" if x > 0 else "-inf") if math.isinf(x) else f"{x:+.1f}"
    return f"{num(diff)} +/- {'inf' if math.isinf(error) else f'{error:.1f}'}"


# --- players ------------------------------------------------------------------------

@dataclass(frozen=True)
class Clock:
    """A game clock: `base` seconds for the game plus `inc` per move."""

    base: float
    inc: float = 0.0

    @classmethod
    def parse(cls, text: str) -> "Clock":
        """``"60"``, ``"60+0.5"`` (seconds)."""
        base, _, inc = text.partition("+")
        try:
            clock = cls(float(base), float(inc or 0))
        except ValueError:
            raise ValueError(f"bad time control {text!r}: expected BASE[+INC] in seconds") from None
        if clock.base <= 0 or clock.inc < 0:
            raise ValueError(f"bad time control {text!r}")
        return clock


class _Builtin:
    """cxiangqi's engine in this process, answering like an ExternalEngine."""

    protocol = "builtin"

    def __init__(self, level: str) -> None:
        from cxiangqi.engine import Engine
        self.engine = Engine(hash_mb=64, level=level)
        self.name = f"cxiangqi builtin (level {level})"
        self.alive = True

    def play(self, board: Board, limit: Limit, **_: Any) -> PlayResult:
        r = self.engine.search(board, limit)
        info = {"depth": r.depth, "score": r.score, "mate": r.mate, "nodes": r.nodes,
                "time": r.time, "pv": r.pv}
        return PlayResult(r.move, r.ponder, info)

    def new_game(self) -> None:
        self.engine.new_game()

    def quit(self) -> None:
        self.alive = False


class _Greedy:
    """Captures the most valuable piece it can (a random one among equals),
    else plays a random move: the weakest opponent that still takes what
    is offered."""

    protocol = "builtin"
    VALUES = {"r": 9, "c": 5, "n": 4, "a": 2, "b": 2, "p": 1, "k": 0}

    def __init__(self, seed: Optional[int] = None) -> None:
        import random
        self.random = random.Random(seed)
        self.name = "greedy"
        self.alive = True

    def play(self, board: Board, limit: Limit, **_: Any) -> PlayResult:
        moves = list(board.legal_moves)
        if not moves:
            return PlayResult(None)

        def gain(move: Move) -> int:
            piece = board.piece_at(move.to_square)
            return -1 if piece is None else self.VALUES[piece.symbol().lower()]

        best = max(gain(m) for m in moves)
        return PlayResult(self.random.choice([m for m in moves if gain(m) == best]))

    def new_game(self) -> None:
        pass

    def quit(self) -> None:
        self.alive = False


class Player:
    """One side of a match: how to start the engine, its limit or clock,
    and its running statistics.  The engine is (re)started when needed."""

    def __init__(self, spec: Any, protocol: str = "auto", *, limit: Optional[Limit] = None,
                 clock: Optional[Clock] = None, options: Optional[Dict[str, Any]] = None,
                 label: str = "", seed: Optional[int] = None) -> None:
        if limit is None and clock is None:
            raise ValueError(f"{label or 'engine'}: give a limit (movetime, depth, nodes) "
                             "or a clock")
        self.spec = spec
        self.protocol = protocol
        self.limit = limit
        self.clock = clock
        self.options = dict(options or {})
        self.label = label
        self.seed = seed            # for builtin:greedy's choices
        self.engine: Any = None
        self.owned = True
        self.name = label or str(spec)
        self.think_time = 0.0
        self.moves = 0
        if not isinstance(spec, (str, list, tuple)):  # an engine object given by the caller
            self.engine, self.owned = spec, False
            self.name = getattr(spec, "name", self.name)

    def start(self) -> None:
        if self.engine is not None and getattr(self.engine, "alive", True):
            return
        if not self.owned:
            raise EngineTerminatedError(f"{self.name}: the engine given to the match has died")
        spec = self.spec
        if isinstance(spec, str) and spec.split(":")[0] == "builtin":
            level = spec.partition(":")[2] or "hard"
            self.engine = _Greedy(self.seed) if level == "greedy" else _Builtin(level)
        else:
            command: Union[str, List[str]] = spec if isinstance(spec, str) else list(spec)
            if command == "cxiangqi-engine" and shutil.which(command) is None:
                command = [sys.executable, "-m", "cxiangqi.protocol"]
            self.engine = ExternalEngine.popen(command, self.protocol, options=self.options)
        self.name = self.engine.name

    def new_game(self) -> None:
        self.start()
        new_game = getattr(self.engine, "new_game", None)
        if new_game is not None:
            new_game()

    def quit(self) -> None:
        if self.engine is not None and self.owned:
            try:
                self.engine.quit()
            except EngineError:
                pass
        if self.owned:
            self.engine = None

    @property
    def average_time(self) -> float:
        return self.think_time / self.moves if self.moves else 0.0


# --- games --------------------------------------------------------------------------

@dataclass
class GameRecord:
    """One game: who was Red, the opening, the moves, the result and why."""

    number: int
    red: str
    black: str
    engine1_red: bool
    opening: str
    moves: List[str]
    result: str            # "1-0", "0-1", "1/2-1/2"
    reason: str
    start_fen: str = STARTING_FEN

    @property
    def score1(self) -> float:
        """Points for engine 1: 1, 0.5 or 0."""
        if self.result == "1/2-1/2":
            return 0.5
        red_won = self.result == "1-0"
        return 1.0 if red_won == self.engine1_red else 0.0


@dataclass
class MatchResult:
    name1: str
    name2: str
    games: List[GameRecord] = field(default_factory=list)
    average_time1: float = 0.0
    average_time2: float = 0.0
    #: SPRT outcome when one was run: "H1", "H0" or None (no decision)
    sprt: Optional["Sprt"] = None
    verdict: Optional[str] = None
    #: games played and LLR when the SPRT decided (games still being played
    #: then finish and count in the totals, so the LLR printed at the end
    #: can differ from the one that crossed the bound)
    verdict_games: int = 0
    verdict_llr: float = 0.0

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.score1 == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.score1 == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.score1 == 0.0)

    @property
    def score(self) -> float:
        return sum(g.score1 for g in self.games)

    @property
    def pentanomial(self) -> List[int]:
        """Counts of complete game pairs (games 2k and 2k+1, one opening)
        by engine 1's half-points in the pair, 0..4."""
        by_number = {g.number: g for g in self.games}
        penta = [0] * 5
        for g in self.games:
            if g.number % 2 == 1 and g.number + 1 in by_number:
                half = round(2 * (g.score1 + by_number[g.number + 1].score1))
                penta[half] += 1
        return penta

    @property
    def elo(self) -> Tuple[float, float]:
        penta = self.pentanomial
        if sum(penta) >= 2:
            return pentanomial_elo(penta)
        return elo_difference(self.wins, self.draws, self.losses)

    def summary(self) -> str:
        n = len(self.games)
        pct = 100.0 * self.score / n if n else 0.0
        diff, err = self.elo
        text = (f"{self.name1} vs {self.name2}: +{self.wins} ={self.draws} -{self.losses} "
                f"({self.score:g}/{n}, {pct:.1f}%), Elo difference {format_elo(diff, err)}; "
                f"average time per move {self.average_time1:.3f} s vs {self.average_time2:.3f} s")
        penta = self.pentanomial
        if sum(penta):
            text += f"; pairs (0-2 points in half-points) {penta}"
        if self.sprt is not None:
            lo, hi = self.sprt.bounds
            text += (f"; SPRT elo0={self.sprt.elo0:g} elo1={self.sprt.elo1:g}: "
                     f"LLR {self.sprt.llr(penta):.2f} [{lo:.2f}, {hi:.2f}] ")
            if self.verdict is None:
                text += "no decision"
            else:
                text += (f"{self.verdict} (decided at game {self.verdict_games}, "
                         f"LLR {self.verdict_llr:.2f})")
        return text


def _result(winner: Optional[bool]) -> str:
    return "1/2-1/2" if winner is None else ("1-0" if winner == RED else "0-1")


def play_game(red: Player, black: Player, opening: Sequence[str] = (), *, number: int = 1,
              engine1_red: bool = True, opening_name: str = "",
              max_plies: int = DEFAULT_MAX_PLIES, start_fen: Optional[str] = None,
              adjudication: Optional[Adjudication] = None) -> GameRecord:
    """Plays one game from the start position (or `start_fen`) after the
    opening moves, and referees it.  `red` moves first from the start
    position; from a FEN, the player of the side to move does."""
    board = Board() if start_fen is None else Board(start_fen)
    for text in opening:
        board.push_iccs(text)
    seen = Counter([board.zobrist_hash()])
    red_scores: List[Optional[int]] = []
    clocks = {RED: red.clock.base if red.clock else None,
              BLACK: black.clock.base if black.clock else None}
    players = {RED: red, BLACK: black}

    def finish(winner: Optional[bool], reason: str) -> GameRecord:
        record = _record(number, red, black, engine1_red, opening_name, board,
                         _result(winner), reason)
        record.start_fen = start_fen or STARTING_FEN
        return record

    for side, p in players.items():
        try:
            p.new_game()
        except EngineError as e:
            p.quit()
            return finish(not side, f"{p.name} could not start: {e}")

    while True:
        # cxiangqi's referee rules: no legal move loses; at a third
        # repetition, perpetual check or chase loses, anything else draws;
        # 120 plies without a capture and insufficient material draw
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return finish(outcome.winner, outcome.termination.name.lower().replace("_", " "))
        # belt and braces, should the rules above ever miss a cycle
        if seen[board.zobrist_hash()] >= 5:
            return finish(None, "repetition (fivefold)")
        if len(board.move_stack) >= max_plies:
            return finish(None, f"ply limit ({max_plies})")
        side = board.turn
        player, other = players[side], players[not side]
        if player.clock is not None:
            # both clocks, as a GUI sends them (the engine may use the other)
            other_inc = other.clock.inc if other.clock else None
            red_clock, black_clock = (clocks[RED], clocks[BLACK])
            limit = Limit(red_clock=max(0.0, red_clock) if red_clock is not None else None,
                          black_clock=max(0.0, black_clock) if black_clock is not None else None,
                          red_inc=(player.clock.inc if side == RED else other_inc) or None,
                          black_inc=(player.clock.inc if side == BLACK else other_inc) or None)
        else:
            limit = player.limit
        kwargs: Dict[str, Any] = {}
        t0 = time.monotonic()
        try:
            player.start()
            result = player.engine.play(board, limit, **kwargs)
        except IllegalEngineMoveError as e:
            return finish(not side, f"illegal move by {player.name}: {e}")
        except EngineTimeoutError as e:
            player.quit()
            return finish(not side, f"{player.name} timed out: {e}")
        except EngineTerminatedError as e:
            player.quit()
            return finish(not side, f"{player.name} died: {e}")
        except EngineError as e:
            if board.halfmove_clock >= 100:
                # ElephantEye (and other engines keeping the 50-move rule of
                # 100 plies rather than the 120 of the Chinese rules) answers
                # "nobestmove" there: a draw claim, scored as a draw
                return finish(None, f"{player.name} claimed a draw (50-move rule)")
            return finish(not side, f"{player.name} failed: {e}")
        elapsed = time.monotonic() - t0
        player.think_time += elapsed
        player.moves += 1
        if result.resigned:
            return finish(not side, f"{player.name} resigned")
        if result.move is None:
            return finish(not side, f"{player.name} gave no move")
        if not board.is_legal(result.move):
            return finish(not side, f"illegal move by {player.name}: {result.move.iccs()}")
        if clocks[side] is not None:
            clocks[side] -= elapsed
            if clocks[side] < -TIME_MARGIN:
                return finish(not side, f"{player.name} lost on time")
            clocks[side] += player.clock.inc  # type: ignore[union-attr]
        board.push(result.move)
        seen[board.zobrist_hash()] += 1
        if adjudication is not None:
            score = result.score
            red_scores.append(None if score is None else (score if side == RED else -score))
            verdict = adjudication.verdict(red_scores, len(board.move_stack))
            if verdict is not None:
                return finish(*verdict)


def _record(number: int, red: Player, black: Player, engine1_red: bool, opening: str,
            board: Board, result: str, reason: str) -> GameRecord:
    return GameRecord(number, red.name, black.name, engine1_red, opening,
                      [m.iccs() for m in board.move_stack], result, reason)


def play_match(engine1: Any, engine2: Any, games: int = 2, *,
               proto1: str = "auto", proto2: str = "auto",
               limit: Optional[Limit] = None, limit1: Optional[Limit] = None,
               limit2: Optional[Limit] = None, clock: Optional[Clock] = None,
               clock1: Optional[Clock] = None, clock2: Optional[Clock] = None,
               options1: Optional[Dict[str, Any]] = None,
               options2: Optional[Dict[str, Any]] = None,
               openings: Optional[Sequence[Tuple[str, str]]] = None,
               max_plies: int = DEFAULT_MAX_PLIES,
               on_game: Optional[Callable[[GameRecord, "MatchResult"], None]] = None,
               concurrency: int = 1, sprt: Optional[Sprt] = None,
               adjudication: Optional[Adjudication] = None) -> MatchResult:
    """Plays `games` games between two engines (commands, ``builtin[:LEVEL]``
    or engine objects with ``play(board, limit)``), alternating colours:
    game 2k+1 and 2k+2 (numbered from 1) use opening k (cycling), engine 1
    Red in the first.  Per-engine limits/clocks override the shared ones.
    With ``concurrency`` > 1, that many game pairs run at once, each worker
    with its own engine processes (engine objects given by the caller cannot
    be shared: they need concurrency 1).  With an ``sprt``, no new pair
    starts once the test has decided.  Engines started here are closed at
    the end."""
    if concurrency < 1:
        raise ValueError("concurrency must be >= 1")
    if concurrency > 1 and not all(isinstance(e, (str, list, tuple)) for e in (engine1, engine2)):
        raise ValueError("concurrent games need engine commands, not engine objects")
    openings = list(OPENINGS if openings is None else openings) or [("start position", "")]
    match = MatchResult(str(engine1), str(engine2), sprt=sprt)
    lock = threading.Lock()
    next_pair = [0]
    next_worker = [0]
    players: List[Tuple[Player, Player]] = []
    errors: List[BaseException] = []

    def make_players() -> Tuple[Player, Player]:
        with lock:
            worker_number = next_worker[0]
            next_worker[0] += 1
        p1 = Player(engine1, proto1, limit=limit1 or (None if clock1 else limit),
                    clock=clock1 or (None if limit1 else clock), options=options1,
                    label="engine1", seed=2 * worker_number + 1)
        p2 = Player(engine2, proto2, limit=limit2 or (None if clock2 else limit),
                    clock=clock2 or (None if limit2 else clock), options=options2,
                    label="engine2", seed=2 * worker_number + 2)
        return p1, p2

    def claim_pair() -> Optional[int]:
        with lock:
            if match.verdict is not None or errors or 2 * next_pair[0] >= games:
                return None
            k = next_pair[0]
            next_pair[0] += 1
            return k

    def worker() -> None:
        p1, p2 = make_players()
        with lock:
            players.append((p1, p2))
        try:
            while True:
                k = claim_pair()
                if k is None:
                    return
                name, line = openings[k % len(openings)]
                for i in (2 * k, 2 * k + 1):
                    if i >= games:
                        break
                    engine1_red = i % 2 == 0
                    red, black = (p1, p2) if engine1_red else (p2, p1)
                    record = play_game(red, black, line.split(), number=i + 1,
                                       engine1_red=engine1_red, opening_name=name,
                                       max_plies=max_plies, adjudication=adjudication)
                    with lock:
                        match.name1, match.name2 = p1.name, p2.name
                        match.games.append(record)
                        match.games.sort(key=lambda g: g.number)
                        moves1 = sum(a.moves for a, _ in players)
                        moves2 = sum(b.moves for _, b in players)
                        match.average_time1 = (sum(a.think_time for a, _ in players) / moves1
                                               if moves1 else 0.0)
                        match.average_time2 = (sum(b.think_time for _, b in players) / moves2
                                               if moves2 else 0.0)
                        if sprt is not None and match.verdict is None:
                            match.verdict = sprt.verdict(match.pentanomial)
                            if match.verdict is not None:
                                match.verdict_games = len(match.games)
                                match.verdict_llr = sprt.llr(match.pentanomial)
                        if on_game is not None:
                            on_game(record, match)
        except BaseException as e:  # a bug in the harness: stop the match, report it
            with lock:
                errors.append(e)
        finally:
            p1.quit()
            p2.quit()

    if concurrency == 1:
        worker()
    else:
        threads = [threading.Thread(target=worker, daemon=True) for _ in range(concurrency)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if errors:
        raise errors[0]
    return match


# --- command line ---------------------------------------------------------------------

def _limit(movetime: Optional[float], depth: Optional[int], nodes: Optional[int]) -> Optional[Limit]:
    if movetime is None and depth is None and nodes is None:
        return None
    return Limit(movetime=movetime, depth=depth, nodes=nodes)


def _options(pairs: Sequence[str]) -> Dict[str, str]:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"bad option {pair!r}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Engines: a command line, or builtin[:LEVEL].")
    ap.add_argument("--engine1", default="cxiangqi-engine")
    ap.add_argument("--engine2", required=True)
    for k in ("1", "2"):
        ap.add_argument(f"--proto{k}", default="auto", choices=["auto", "uci", "ucci", "xboard"])
        ap.add_argument(f"--movetime{k}", type=float, help=f"seconds per move for engine {k}")
        ap.add_argument(f"--depth{k}", type=int)
        ap.add_argument(f"--nodes{k}", type=int)
        ap.add_argument(f"--tc{k}", help=f"game clock BASE+INC (seconds) for engine {k}")
        ap.add_argument(f"--option{k}", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--movetime", type=float, help="seconds per move (both engines)")
    ap.add_argument("--depth", type=int, help="search depth (both engines)")
    ap.add_argument("--nodes", type=int, help="nodes per move (both engines)")
    ap.add_argument("--tc", help="game clock BASE+INC in seconds (both engines), e.g. 60+0.5")
    ap.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES)
    ap.add_argument("--moves", action="store_true", help="print each game's moves")
    ap.add_argument("--openings", metavar="FILE",
                    help="opening lines, JSONL {\"moves\": [...]} or one ICCS line per row "
                         "(e.g. ../shared/data/openings.jsonl); default: a built-in dozen")
    ap.add_argument("--opening-offset", type=int, default=0,
                    help="start at this line of the opening file (then cycle)")
    ap.add_argument("--concurrency", type=int, default=1,
                    help="games played at once (one per core)")
    ap.add_argument("--sprt", metavar="ELO0,ELO1",
                    help="stop when an SPRT (alpha = beta = 0.05) decides between "
                         "Elo <= ELO0 and Elo >= ELO1")
    ap.add_argument("--out", metavar="FILE", help="append every game as a JSON line")
    ap.add_argument("--resign", metavar="CP,MOVES",
                    help="adjudicate a win when both engines' scores have been beyond CP "
                         "for MOVES moves each (for engine tests; off by default)")
    ap.add_argument("--draw", metavar="PLY,CP,MOVES",
                    help="adjudicate a draw after PLY plies when the scores have been "
                         "within CP for MOVES moves each (off by default)")
    args = ap.parse_args(argv)
    adjudication = None
    if args.resign or args.draw:
        try:
            kw: Dict[str, int] = {}
            if args.resign:
                kw["resign_score"], kw["resign_moves"] = (int(x) for x in args.resign.split(","))
            if args.draw:
                kw["draw_after"], kw["draw_score"], kw["draw_moves"] = \
                    (int(x) for x in args.draw.split(","))
        except ValueError:
            raise SystemExit("bad --resign/--draw: expected integers CP,MOVES / PLY,CP,MOVES") \
                from None
        adjudication = Adjudication(**kw)
    sprt = None
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            raise SystemExit(f"bad --sprt {args.sprt!r}: expected ELO0,ELO1") from None
        if elo1 <= elo0:
            raise SystemExit("--sprt needs ELO0 < ELO1")
        sprt = Sprt(elo0, elo1)
    openings = None
    if args.openings:
        try:
            openings = load_openings(args.openings)
        except (OSError, ValueError) as e:
            raise SystemExit(f"--openings: {e}") from None
        k = args.opening_offset % len(openings)
        openings = openings[k:] + openings[:k]

    def per_engine(k: str) -> Tuple[Optional[Limit], Optional[Clock]]:
        lim = _limit(getattr(args, f"movetime{k}"), getattr(args, f"depth{k}"),
                     getattr(args, f"nodes{k}"))
        tc = getattr(args, f"tc{k}")
        return lim, Clock.parse(tc) if tc else None

    shared_limit = _limit(args.movetime, args.depth, args.nodes)
    shared_clock = Clock.parse(args.tc) if args.tc else None
    (l1, c1), (l2, c2) = per_engine("1"), per_engine("2")
    if shared_limit is None and shared_clock is None and not ((l1 or c1) and (l2 or c2)):
        shared_limit = Limit(movetime=0.2)

    def show(record: GameRecord, match: MatchResult) -> None:
        n = len(match.games)
        print(f"Game {record.number}/{args.games} [{record.opening}] {record.red} (red) - "
              f"{record.black} (black): {record.result} {record.reason}, "
              f"{len(record.moves)} plies; score {match.score:g}/{n}", flush=True)
        if args.moves:
            print("  " + " ".join(record.moves), flush=True)
        if sprt is not None and n % 10 == 0:
            print("  " + match.summary(), flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps({"number": record.number, "red": record.red,
                                    "black": record.black, "engine1_red": record.engine1_red,
                                    "opening": record.opening, "result": record.result,
                                    "reason": record.reason, "moves": record.moves}) + "\n")

    match = play_match(args.engine1, args.engine2, args.games, proto1=args.proto1,
                       proto2=args.proto2, limit=shared_limit, limit1=l1, limit2=l2,
                       clock=shared_clock, clock1=c1, clock2=c2,
                       options1=_options(args.option1), options2=_options(args.option2),
                       max_plies=args.max_plies, on_game=show, openings=openings,
                       concurrency=args.concurrency, sprt=sprt, adjudication=adjudication)
    print(match.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
