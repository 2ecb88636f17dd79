"""The built-in engine: iterative deepening over the compiled search.

>>> from cxiangqi import Board
>>> engine = Engine(hash_mb=16)
>>> result = engine.search(Board(), Limit(depth=4))
>>> result.move in Board().legal_moves
True

Every iteration runs in C with the GIL released, so other Python threads
(a GUI, an input reader) keep running while the engine thinks; progress is
reported between iterations through ``on_info``.  ``stop()`` may be called
from any thread.  Times are in seconds.

Pondering (thinking on the opponent's time): ``engine.ponder(board, limit)``
starts searching, in a background thread, the position after the move the
opponent is expected to play, without any time limit, until ``ponderhit()``
(that move was played: from then on `limit` applies, counted from the start
of pondering, so a long ponder is answered at once) or ``stop()`` (another
move was played: the result, for the wrong position, is to be thrown away).
A ponder search that reaches its depth or node limit, or a mate, holds its
answer until one of the two, as UCI asks.  ``search(board, limit,
ponder=True)`` is the same search in the caller's thread; ``Engine.ponderhit()``
and ``Engine.stop()`` end it from another.

>>> board = Board()
>>> board.push(Move.from_iccs("h2e2"))      # we played h2e2 and expect h9g7
>>> board.push(Move.from_iccs("h9g7"))
>>> pondering = engine.ponder(board, Limit(depth=3))
>>> pondering.ponderhit()                   # h9g7 was played (else: pondering.stop())
>>> pondering.result().move in board.legal_moves
True
"""

from __future__ import annotations

import random
import threading
import time as _time
from dataclasses import dataclass, field, replace
from typing import Callable, Dict, Iterable, List, Optional, Tuple, Union

from . import _checks, _interrupt
from ._search import BAN_SCORE, INFINITE, MATE_SCORE, MAX_DEPTH, WIN_SCORE, Searcher
from ._wire import mate_in
from .board import Board
from .limit import MAX_NODES, Limit
from .external import (EngineError, EngineTerminatedError, EngineTimeoutError, ExternalEngine,
                       IllegalEngineMoveError, PlayResult)
from .move import MOVES, Move

__all__ = ["Engine", "PonderSearch", "Limit", "SearchInfo", "SearchResult", "TableEntry",
           "Level", "LEVELS", "LEVEL_ELO", "LEVEL_ALIASES", "level_named", "MATE_SCORE", "bench",
           "BENCH_FENS", "ExternalEngine", "EngineError", "EngineTerminatedError",
           "EngineTimeoutError", "IllegalEngineMoveError", "PlayResult"]

# time kept in hand on every move, for the protocol round trip
MOVE_OVERHEAD = 0.03
# sudden death (no moves to go): the clock is planned as if this many moves
# were left.  With 30 the engine ended its games with much of its clock
# unused; 20 won +18.9 +/- 12.1 Elo in self-play at 3 s + 0.03 s (1,110
# games, SPRT [0, 10] accepted), and 15 against 20 +20.4 +/- 14.2 (870
# games, accepted).  The hard limit (four times this share, at most half
# the clock) still keeps a long game from running out of time.
SUDDEN_DEATH_MOVES = 15
# A falling score buys time (Stockfish's fallingEval): the share of the soft
# time after which no new iteration starts is multiplied by
# 1 + (the score of this side's last timed search, one move earlier in the
# same game - this iteration's score) / FALLING_SCALE, kept within
# FALLING_RANGE, so a rising score saves time.  Kept in a stack of three
# steps (README's step table).
FALLING_SCALE = 150
FALLING_RANGE = (0.75, 1.5)
#: largest transposition table, in megabytes
MAX_HASH_MB = 65536
_YEAR = 365 * 24 * 3600.0

#: the most search threads an Engine takes
MAX_THREADS = 64


@dataclass(frozen=True)
class Level:
    """A strength level: limits on depth, time and nodes, a window in
    centipawns within which the engine picks among the best moves at random
    (0 = always the best), and how often it overlooks the reply."""

    name: str
    depth: Optional[int]
    movetime: Optional[float]
    nodes: Optional[int]
    randomness: int
    description: str = ""
    #: the share of moves (0..1) chosen blind: judged by the static
    #: evaluation of the position each move leads to (a mate in one is
    #: seen), not by a search, so the reply is overlooked and a piece left
    #: hanging goes unnoticed, as a beginner's would; 1 = every move
    oversight: float = 0.0

    @property
    def blind(self) -> bool:
        """Does this level never look at the reply?"""
        return self.oversight >= 1.0

    def __post_init__(self) -> None:
        if self.depth is not None:
            _checks.integer(self.depth, "Level.depth", 1)
        if self.movetime is not None:
            _checks.seconds(self.movetime, "Level.movetime")
        if self.nodes is not None:
            _checks.integer(self.nodes, "Level.nodes", 0, MAX_NODES)
        _checks.integer(self.randomness, "Level.randomness", 0)
        if (isinstance(self.oversight, bool) or not isinstance(self.oversight, (int, float))
                or not 0.0 <= self.oversight <= 1.0):
            raise ValueError(f"Level.oversight must be a number 0..1, got {self.oversight!r}")


def _levels() -> Dict[str, Level]:
    # Strength comes from how far a level looks (a node budget: the same on
    # every machine, with a time cap for slow ones), how often it overlooks
    # the reply (a move chosen by its look alone) and how often it settles
    # for a natural-looking second-best move (a random pick among its best
    # lines within `randomness` centipawns).
    # Calibrated by benchmarks/levels.py: see LEVEL_ELO and the README.
    table = [
        # name, depth, movetime, nodes, randomness, oversight, description
        ("1", 1, 0.05, None, 300, 1.0, "sees only its own move: leaves pieces hanging"),
        ("2", 1, 0.05, None, 60, 0.5, "mostly sees only its own move"),
        ("3", None, 0.1, 300, 200, 0.15, "sees the replies, most of the time"),
        ("4", None, 0.2, 1_000, 100, 0.12, "sees simple exchanges, overlooks a reply now and then"),
        ("5", None, 0.4, 4_000, 50, 0.08, "club player: sees simple tactics"),
        ("6", None, 0.8, 12_000, 25, 0.04, "sees two-move combinations"),
        ("7", None, 1.5, 30_000, 20, 0.02, "solid, rarely blunders"),
        ("8", None, 2.5, 120_000, 10, 0.01, "strong"),
        ("9", None, 4.0, 500_000, 5, 0.0, "very strong"),
        ("10", None, 5.0, None, 0, 0.0, "full strength: deepest search the time allows"),
    ]
    levels = {name: Level(name, d, t, n, r, desc, oversight)
              for name, d, t, n, r, oversight, desc in table}

    def alias(name: str, of: str, description: str) -> Level:
        return replace(levels[of], name=name, description=description)

    levels["easy"] = alias("easy", LEVEL_ALIASES["easy"], "= level 2: a beginner can win")
    levels["normal"] = alias("normal", LEVEL_ALIASES["normal"], "= level 5")
    levels["hard"] = alias("hard", LEVEL_ALIASES["hard"], "= level 10: full strength")
    return levels


#: the named levels and the numbered ones they are
LEVEL_ALIASES: Dict[str, str] = {"easy": "2", "normal": "5", "hard": "10"}


LEVELS: Dict[str, Level] = _levels()

#: Each level's strength in Elo over level 1, measured by benchmarks/levels.py
#: (each level against the next, game pairs from ../shared/data/openings.jsonl;
#: the README has the table with its error bars, which grow up the ladder:
#: about +/- 450 at level 9).  Level 10's step was measured at 1 s a move
#: instead of its 5 s, so its number is a floor.
LEVEL_ELO: Dict[str, int] = {"1": 0, "2": 168, "3": 383, "4": 598, "5": 883, "6": 1124,
                             "7": 1292, "8": 1533, "9": 1748, "10": 2130}


def level_named(level: Union[str, int, Level]) -> Level:
    """The Level for "easy"/"normal"/"hard", 1..10 (int or str) or a Level."""
    if isinstance(level, Level):
        return level
    key = str(level).strip().lower()
    if key not in LEVELS:
        raise ValueError(f"unknown level {level!r}: use 1..10, 'easy', 'normal' or 'hard'")
    return LEVELS[key]


@dataclass(frozen=True)
class SearchInfo:
    """Progress after a completed iteration."""

    depth: int
    seldepth: int
    score: int
    mate: Optional[int]
    nodes: int
    nps: int
    time: float
    pv: List[Move]
    multipv: int = 1


class PonderSearch:
    """A ponder search running in a background thread (made by
    :meth:`Engine.ponder`): end it with :meth:`ponderhit` or :meth:`stop`,
    then collect :meth:`result`."""

    def __init__(self, engine: "Engine", board: Board, limit: Optional[Limit],
                 kwargs: Dict) -> None:
        self.engine = engine
        self.board = board.copy()
        self._result: Optional[SearchResult] = None
        self._error: Optional[BaseException] = None
        self._done = threading.Event()
        # forget stops and hits meant for earlier searches here, in the
        # caller's thread: one that comes after this call is then never lost
        engine.clear_stop()
        self._thread = threading.Thread(target=self._run, args=(limit, kwargs), daemon=True,
                                        name="cxiangqi-ponder")
        self._thread.start()

    def _run(self, limit: Optional[Limit], kwargs: Dict) -> None:
        try:
            self._result = self.engine.search(self.board, limit, ponder=True, clear_stop=False,
                                              **kwargs)
        except BaseException as e:  # handed to result()
            self._error = e
        finally:
            self._done.set()

    def ponderhit(self) -> None:
        """The expected move was played: search on under the limit."""
        self.engine.ponderhit()

    def stop(self) -> None:
        """Another move was played (or the game ended): end the search."""
        if not self._done.is_set():
            self.engine.stop()

    def done(self) -> bool:
        """Has the search returned its answer?"""
        return self._done.is_set()

    def result(self, timeout: Optional[float] = None) -> SearchResult:
        """The answer, once ponderhit() or stop() has ended the search
        (TimeoutError if it has not within `timeout` seconds)."""
        if not self._done.wait(timeout):
            raise TimeoutError("the ponder search has not ended (call ponderhit() or stop())")
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


class _Ponder:
    """A ponder search in progress: when it began, the time it may use once
    hit (soft, else hard; None = no time limit) and how it ends."""

    def __init__(self, soft: Optional[float], hard: Optional[float]) -> None:
        self.start = _time.monotonic()
        self.budget = soft if soft is not None else hard
        self.hit = False
        self.stopped = False             # by stop(), or by the time after a hit
        self.settled = threading.Event()  # hit or stopped: the answer may be given
        self.timer: Optional[threading.Timer] = None


@dataclass(frozen=True)
class SearchResult:
    """The engine's answer.  ``score`` is in centipawns from the side to
    move's point of view; ``mate`` is the number of moves to mate (negative
    when the side to move is being mated) or None."""

    move: Optional[Move]
    score: int
    mate: Optional[int]
    depth: int
    seldepth: int
    pv: List[Move] = field(default_factory=list)
    nodes: int = 0
    time: float = 0.0

    @property
    def ponder(self) -> Optional[Move]:
        return self.pv[1] if len(self.pv) > 1 else None


@dataclass(frozen=True)
class TableEntry:
    """What the transposition table holds for a position (Engine.probe).
    ``score`` is in centipawns from the side to move's point of view, exact
    or a bound as ``bound`` says: "exact", "lower" (the position is worth at
    least that) or "upper" (at most that); ``mate`` as in SearchResult.
    ``depth`` is the depth searched (0: the quiescence search), ``pv`` says
    that the position was on a principal variation when stored."""

    move: Optional[Move]
    score: int
    mate: Optional[int]
    bound: str
    depth: int
    pv: bool


_BOUNDS = {1: "upper", 2: "lower", 3: "exact"}


class _HelperGroup:
    """The helper threads of one Lazy SMP search.  Each helper deepens on
    its own (in C, without the GIL: Searcher.run_helper) with the full
    window, ahead of the main thread: helper k starts each iteration at
    least 1 + k % 2 plies beyond the main thread's current one, so that no
    helper spends its time on a depth the main thread is already past, and
    it may go past the depth limit (its deeper entries serve the main
    thread's last iteration, the longest).  What the helpers find reaches
    the main thread through the shared table; the main thread decides."""

    def __init__(self, main: Searcher, searchers: List[Searcher], max_depth: int) -> None:
        self.main = main
        self.searchers = searchers
        self.max_depth = min(max_depth + 2, MAX_DEPTH)
        self.threads: List[threading.Thread] = []

    def start(self) -> None:
        """Starts the helpers.  Call finish() after, whatever happens (also
        when this is interrupted part way: it stops the ones started)."""
        self.main.smp_start()
        # (a KeyboardInterrupt inside Thread.start could leave a thread
        # running that finish() does not know of: Ctrl-C waits to the end)
        with _interrupt.deferred():
            for k, h in enumerate(self.searchers):
                ahead = 1 + k % 2
                t = threading.Thread(target=h.run_helper, args=(ahead, self.max_depth),
                                     daemon=True, name=f"cxiangqi-helper-{k + 1}")
                t.start()
                self.threads.append(t)

    def main_starts(self, depth: int) -> None:
        """The main thread begins iteration `depth`."""
        self.main.smp_iteration(depth)

    def finish(self) -> None:
        """Stops the helpers and waits for them (a Ctrl-C meanwhile waits
        too: cut short, it could leave a helper searching)."""
        with _interrupt.deferred():
            self.main.smp_finish()
            for h in self.searchers:
                h.stop()
            for t in self.threads:
                t.join()


def falling_factor(ref: Optional[int], best: Optional[SearchResult]) -> float:
    """The soft time's factor for a score that fell (more than 1) or rose
    (less) since this side's last timed search scored `ref`; 1 without one."""
    if ref is None or best is None:
        return 1.0
    lo, hi = FALLING_RANGE
    return min(hi, max(lo, 1.0 + (ref - best.score) / FALLING_SCALE))


class Engine:
    """cxiangqi's own engine.  One search at a time per Engine; make several
    Engines to search in parallel."""

    def __init__(self, hash_mb: int = 64, level: Union[str, int, Level] = "hard",
                 seed: Optional[int] = None, threads: int = 1) -> None:
        """`hash_mb`: the transposition table's size in megabytes, an integer
        1..MAX_HASH_MB (ValueError otherwise); `threads`: search threads,
        1..MAX_THREADS (see set_threads)."""
        self._searcher = Searcher(_checks.integer(hash_mb, "hash size (MB)", 1, MAX_HASH_MB))
        self._helpers: List[Searcher] = []
        self._lock = threading.Lock()
        self.set_threads(threads)
        self._stop_requested = False
        self.level = level_named(level)
        self._random = random.Random(seed)
        # pondering: the running ponder search, and a ponderhit() that came
        # before it started (kept like a stop request)
        self._ponder: Optional[_Ponder] = None
        self._ponder_lock = threading.Lock()
        self._hit_requested = False
        # (board.ply(), score) of the last search under a clock, for the
        # falling-score time factor of the next one
        self._last_timed: Optional[Tuple[int, int]] = None

    # --- configuration -----------------------------------------------------

    def set_hash(self, mb: int) -> None:
        """Resizes the transposition table (1..MAX_HASH_MB megabytes)."""
        mb = _checks.integer(mb, "hash size (MB)", 1, MAX_HASH_MB)
        with self._lock:
            self._searcher.set_hash(mb)
            for h in self._helpers:
                h.share_table(self._searcher)

    @property
    def threads(self) -> int:
        return 1 + len(self._helpers)

    def set_threads(self, threads: int) -> None:
        """Search with `threads` threads (Lazy SMP: helper threads search the
        same position, deeper by turns, sharing the transposition table; the
        main thread decides).  1, the default, is deterministic."""
        if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be an integer 1..{MAX_THREADS}, got {threads!r}")
        with self._lock:
            while len(self._helpers) < threads - 1:
                h = Searcher(1)
                h.share_table(self._searcher)
                self._helpers.append(h)
            del self._helpers[threads - 1:]

    def evaluate(self, board: Board) -> int:
        """The static evaluation of the board's position in centipawns, from
        the side to move's point of view (no search: what the search scores a
        quiet leaf with)."""
        if not isinstance(board, Board):
            raise TypeError(f"expected a Board, got {type(board).__name__}")
        return self._searcher.evaluate(board._core)

    def probe(self, board: Board) -> Optional[TableEntry]:
        """What the transposition table holds for the board's position, or
        None.  Only reads the table, so it may be called while a search runs
        (it sees the table as it is at that moment).  The move is given only
        when it is legal on the board."""
        if not isinstance(board, Board):
            raise TypeError(f"expected a Board, got {type(board).__name__}")
        found = self._searcher.probe(board._core)
        if found is None:
            return None
        code, score, _eval, depth, bound, pv = found
        move = MOVES[code] if code is not None else None
        if move is not None and not board.is_legal(move):
            move = None
        return TableEntry(move, score, mate_in(score), _BOUNDS[bound], max(depth, 0), pv)

    def new_game(self) -> None:
        """Clears the hash table, killer moves and history."""
        with self._lock:
            self._searcher.clear()
            self._last_timed = None
            for h in self._helpers:
                h.clear()

    def stop(self) -> None:
        """Ends the running search (from any thread); it returns its best
        move so far.  Until the next search starts (or clear_stop() is
        called) the request stays, so a stop that arrives just before a
        search it was meant for is not lost."""
        self._stop_requested = True
        with self._ponder_lock:
            p = self._ponder
            if p is not None:
                p.stopped = True
                p.settled.set()
        self._searcher.stop()

    def ponderhit(self) -> None:
        """Tells the running ponder search that the expected move was
        played: it becomes a normal search under its limit, whose time
        counts from the start of pondering (from any thread).  Like stop(),
        a ponderhit that comes before the ponder search has started is kept
        for it until clear_stop() or the next search."""
        with self._ponder_lock:
            p = self._ponder
            if p is None:
                self._hit_requested = True
            else:
                self._hit(p)

    def _hit(self, p: _Ponder) -> None:
        # called with _ponder_lock held
        if p.hit or p.stopped:
            return
        p.hit = True
        p.settled.set()
        if p.budget is None:            # no time limit: on to its depth or a stop()
            return
        left = p.start + p.budget - _time.monotonic()
        if left <= 0:
            p.stopped = True
            self._searcher.stop()
        else:
            # (a Timer cannot wait past the platform's limit: beyond a year
            # the budget is as good as none)
            p.timer = threading.Timer(min(left, _YEAR), self._ponder_time_up, (p,))
            p.timer.daemon = True
            p.timer.start()

    def _ponder_time_up(self, p: _Ponder) -> None:
        with self._ponder_lock:
            if self._ponder is p and not p.stopped:
                p.stopped = True
                self._searcher.stop()

    def clear_stop(self) -> None:
        """Forgets an earlier stop(); search(..., clear_stop=False) then
        honours only stops that come after this call (protocol front ends
        call it when they read "go", before handing the search to a thread).
        Forgets an early ponderhit() as well."""
        self._stop_requested = False
        self._hit_requested = False

    # --- searching ---------------------------------------------------------

    def ponder(self, board: Board, limit: Optional[Limit] = None, *,
               on_info: Optional[Callable[[SearchInfo], None]] = None,
               level: Union[str, int, Level, None] = None,
               banmoves: Iterable[Move] = ()) -> PonderSearch:
        """Starts pondering on `board` (the position after the opponent's
        expected move) in a background thread; see the module documentation."""
        return PonderSearch(self, board, limit,
                            {"on_info": on_info, "level": level, "banmoves": list(banmoves)})

    def search(self, board: Board, limit: Optional[Limit] = None, *,
               on_info: Optional[Callable[[SearchInfo], None]] = None,
               level: Union[str, int, Level, None] = None,
               banmoves: Iterable[Move] = (), clear_stop: bool = True,
               ponder: bool = False) -> SearchResult:
        """Searches the board's position (its move stack gives the history
        for repetition) and returns the best move.  With a level that has
        randomness, picks among the moves within that many centipawns of
        the best.  ponder=True: a ponder search (see the module
        documentation), which returns after ponderhit() and its limit, or
        after stop()."""
        lvl = self.level if level is None else level_named(level)
        if 0.0 < lvl.oversight < 1.0 and self._random.random() < lvl.oversight:
            lvl = replace(lvl, oversight=1.0)   # this move, chosen without a search
        if lvl.randomness > 0:
            lines = self.analyse(board, limit, multipv=len(MOVES) if lvl.blind else 4,
                                 on_info=on_info, level=lvl,
                                 banmoves=banmoves, clear_stop=clear_stop, ponder=ponder)
            if not lines or lines[0].move is None:
                return lines[0] if lines else self._no_move()
            best = lines[0].score
            if abs(best) >= BAN_SCORE:     # a forced win or loss: no games
                return lines[0]
            close = [r for r in lines if r.move is not None and r.score >= best - lvl.randomness
                     and abs(r.score) < BAN_SCORE]
            return self._random.choice(close) if close else lines[0]
        return self.analyse(board, limit, multipv=1, on_info=on_info, level=lvl,
                            banmoves=banmoves, clear_stop=clear_stop, ponder=ponder)[0]

    def analyse(self, board: Board, limit: Optional[Limit] = None, multipv: int = 1, *,
                on_info: Optional[Callable[[SearchInfo], None]] = None,
                level: Union[str, int, Level, None] = None,
                banmoves: Iterable[Move] = (), clear_stop: bool = True,
                ponder: bool = False) -> List[SearchResult]:
        """The best `multipv` lines, best first (fewer when there are fewer
        legal moves; one result with move None when there is none).

        Without a limit the level's own time and depth apply; with one, the
        limit does, and a level below 10 can only shorten it.  ponder=True:
        time does not count until ponderhit() (see search())."""
        if not isinstance(board, Board):
            raise TypeError(f"expected a Board, got {type(board).__name__}")
        if limit is not None and not isinstance(limit, Limit):
            raise TypeError(f"expected a Limit, got {type(limit).__name__}")
        multipv = _checks.integer(multipv, "multipv", 1)
        lvl = self.level if level is None else level_named(level)
        depth, nodes, soft, hard = self._budget(limit, lvl, board.turn)
        banned = []
        for m in banmoves:
            if not isinstance(m, Move):
                raise TypeError(f"banmoves must be Moves, got {type(m).__name__}")
            banned.append(m.from_square * 90 + m.to_square)
        fired: List[bool] = []
        if limit is not None and limit.mate is not None:
            on_info = self._mate_watch(limit.mate, on_info, fired)
        if clear_stop:
            self._stop_requested = False
            self._hit_requested = False
        if lvl.blind:
            def compute(soft: Optional[float], hard: Optional[float]) -> List[SearchResult]:
                return self._blind(board, multipv, banned, on_info)
        else:
            def compute(soft: Optional[float], hard: Optional[float]) -> List[SearchResult]:
                return self._iterate(board, depth, nodes, soft, hard, multipv, banned, on_info)
        with self._lock:
            try:
                if ponder:
                    return self._ponder_iterate(soft, hard, compute)
                self._hit_requested = False
                return compute(soft, hard)
            finally:
                if fired:       # the mate search's own stop must not reach the next search
                    self._stop_requested = False

    def _mate_watch(self, moves: int, on_info: Optional[Callable[[SearchInfo], None]],
                    fired: List[bool]) -> Callable[[SearchInfo], None]:
        """An on_info that ends the search once the best line mates in at
        most `moves` moves (python-chess's Limit(mate=...), UCI's go mate).
        It stops the way stop() does, so that the set-up of a further
        multi-PV line does not clear the request."""

        def watch(info: SearchInfo) -> None:
            if on_info is not None:
                on_info(info)
            if info.multipv == 1 and info.mate is not None and 0 < info.mate <= moves:
                fired.append(True)
                self._stop_requested = True
                self._searcher.stop()
        return watch

    def _ponder_iterate(self, soft: Optional[float], hard: Optional[float],
                        compute: Callable[[Optional[float], Optional[float]],
                                          List[SearchResult]]) -> List[SearchResult]:
        # the search (compute) without a time limit; ponderhit() arms one (a
        # timer that stops the search), stop() ends it.  An answer found
        # before either is held until one comes.
        p = _Ponder(soft, hard)
        with self._ponder_lock:
            self._ponder = p
            if self._stop_requested:
                p.stopped = True
                p.settled.set()
            elif self._hit_requested:
                self._hit(p)
            self._hit_requested = False
        try:
            results = compute(None, None)
            p.settled.wait()
        finally:
            with self._ponder_lock:
                self._ponder = None
                if p.timer is not None:
                    p.timer.cancel()
        return results

    @staticmethod
    def _budget(limit: Optional[Limit], lvl: Level, turn: bool = True):
        """(max depth, node limit or 0 for none, soft time, hard time) for
        the side to move `turn` (True: Red): no new iteration starts after
        the soft time; the hard time aborts one."""
        full = lvl.name in ("10", "hard")
        if limit is None:
            limit = Limit(time=lvl.movetime)
        elif not full and lvl.movetime is not None and (
                limit.infinite or (limit.time or lvl.movetime) >= lvl.movetime):
            limit = replace(limit, time=lvl.movetime)
        depth = min(d for d in (limit.depth, lvl.depth, MAX_DEPTH) if d is not None)
        nodes = min((n for n in (limit.nodes, lvl.nodes) if n is not None), default=None)
        # the search's node limit 0 means none; a limit of 0 nodes asks for
        # an answer at once, which a one-node search gives (its first move)
        nodes = 0 if nodes is None else max(nodes, 1)
        soft = hard = None
        if limit.time is not None:
            # a fixed time for this move: use all of it (the interrupted last
            # iteration still contributes its best move)
            hard = max(0.001, limit.time - MOVE_OVERHEAD * (limit.time > 0.2))
        clock, inc = limit.clock_for(turn)
        if clock is not None:
            left = max(0.0, clock - MOVE_OVERHEAD)
            if limit.remaining_moves == 1:
                # the whole clock is for this move
                clock_soft, clock_hard = None, max(0.001, left * 0.9 + inc * 0.9)
            else:
                togo = limit.remaining_moves or SUDDEN_DEATH_MOVES
                clock_soft = left / togo + inc * 0.75
                clock_hard = max(0.001, min(left * 0.5, clock_soft * 4))
                clock_soft = max(0.001, min(clock_soft, clock_hard))
            if hard is None or clock_hard < hard:
                soft, hard = clock_soft, clock_hard
        return depth, nodes, soft, hard

    def _blind(self, board: Board, multipv: int, banned: List[int],
               on_info: Optional[Callable[[SearchInfo], None]]) -> List[SearchResult]:
        """A blind level's lines: every legal move scored by the static
        evaluation after it (the mover's view), a mate in one first."""
        start = _time.monotonic()
        scored = []
        work = board.copy()
        for move in board.legal_moves:
            if move.from_square * 90 + move.to_square in banned:
                continue
            work.push(move)
            if work._core.count_legal() == 0:      # mate, or no move (which loses too)
                score = MATE_SCORE - 1
            else:
                score = -self._searcher.evaluate(work._core)
            work.pop()
            scored.append((score, move))
        if not scored:
            return [self._no_move()]
        scored.sort(key=lambda sm: -sm[0])
        elapsed = _time.monotonic() - start
        results = [SearchResult(m, sc, mate_in(sc), 1, 1, [m], len(scored), elapsed)
                   for sc, m in scored[:multipv]]
        if on_info is not None:
            for k, r in enumerate(results):
                on_info(SearchInfo(1, 1, r.score, r.mate, r.nodes, 0, elapsed, list(r.pv), k + 1))
        return results

    def _no_move(self) -> SearchResult:
        return SearchResult(None, -MATE_SCORE, 0, 0, 0, [], 0, 0.0)

    def _iterate(self, board: Board, max_depth: int, nodes: int, soft: Optional[float],
                 hard: Optional[float], multipv: int, banned: List[int],
                 on_info: Optional[Callable[[SearchInfo], None]]) -> List[SearchResult]:
        s = self._searcher
        start = _time.monotonic()
        s.reset_counters()
        s.new_search()
        s.set_limits(nodes, start + hard if hard is not None else 0.0)
        n_root = self._setup(board, banned)
        if n_root == 0:
            return [self._no_move()]
        multipv = min(multipv, n_root)
        helpers = self._helper_group(board, banned, max_depth, start + hard if hard else 0.0) \
            if multipv == 1 and n_root > 1 else None
        try:
            # (started inside the try: a KeyboardInterrupt between the start
            # and the try would have left the helpers searching for good)
            if helpers is not None:
                helpers.start()
            # the last timed search counts if it was this side's move before
            # (two plies back); a new game, or another board, rarely fits
            last = self._last_timed
            ref = last[1] if soft is not None and last is not None \
                and last[0] + 2 == board.ply() else None
            out = self._deepen(board, max_depth, soft, multipv, banned, on_info, start, helpers,
                               ref)
            if soft is not None and out and out[0].move is not None:
                self._last_timed = (board.ply(), out[0].score)
            return [self._with_reply(board, r) for r in out]
        finally:
            if helpers is not None:
                helpers.finish()

    def _with_reply(self, board: Board, result: SearchResult) -> SearchResult:
        """A line of one move (an iteration cut short by its limit after its
        best move changed) gets the table's answer to that move as its second
        move, when the table has a legal one, as Stockfish's ponder move from
        the table: pondering, UCI's ``bestmove M ponder P`` and the game need
        a reply in mind."""
        if result.move is None or len(result.pv) != 1:
            return result
        after = board.copy(stack=False)
        try:
            after.push(result.move)
        except ValueError:          # the halfmove clock at its limit: no reply then
            return result
        entry = self.probe(after)
        if entry is None or entry.move is None:
            return result
        return replace(result, pv=[result.move, entry.move])

    def _helper_group(self, board: Board, banned: List[int], max_depth: int,
                      deadline: float) -> Optional["_HelperGroup"]:
        """The Lazy SMP helpers set up on the position, not yet started (see
        _HelperGroup); None when there are none."""
        if not self._helpers:
            return None
        for h in self._helpers:
            h.reset_counters()
            h.generation = self._searcher.generation
            h.set_limits(0, deadline)
            h.setup(board._core, banned)
        return _HelperGroup(self._searcher, self._helpers, max_depth)

    def _nodes(self) -> int:
        """Nodes searched so far by all threads."""
        return self._searcher.nodes + sum(h.nodes for h in self._helpers)

    def _deepen(self, board: Board, max_depth: int, soft: Optional[float], multipv: int,
                banned: List[int], on_info: Optional[Callable[[SearchInfo], None]],
                start: float, helpers: Optional["_HelperGroup"] = None,
                ref: Optional[int] = None) -> List[SearchResult]:
        s = self._searcher
        results: List[Optional[SearchResult]] = [None] * multipv
        scores = [0] * multipv
        stopped = False
        stable = 0                  # iterations in a row with the same best move
        for depth in range(1, max_depth + 1):
            previous = results[0]
            chosen: List[int] = []
            if helpers is not None:
                helpers.main_starts(depth)
            for k in range(multipv):
                if multipv > 1:
                    self._setup(board, banned + chosen)
                score = self._aspiration(depth, scores[k])
                if s.stopped:
                    results[k] = self._interrupted(results[k], score, start)
                    stopped = True
                    break
                pv = [MOVES[c] for c in s.pv()] or [MOVES[s.best_move()]]
                results[k] = self._result(pv, score, depth, start)
                scores[k] = score
                chosen.append(pv[0].from_square * 90 + pv[0].to_square)
                if on_info is not None:
                    r = results[k]
                    on_info(SearchInfo(depth, r.seldepth, score, r.mate, r.nodes,
                                       int(r.nodes / r.time) if r.time > 0 else 0,
                                       r.time, pv, k + 1))
            if stopped:
                break
            best = results[0]
            if previous is not None and best is not None and best.move == previous.move:
                stable += 1
            else:
                stable = 0
            if soft is not None and _time.monotonic() - start >= soft * self._time_factor(
                    depth, stable, previous, best) * falling_factor(ref, best):
                break
            # a forced mate found: a deeper search cannot change the answer
            if best is not None and best.mate is not None and depth >= 2 * abs(best.mate) + 2:
                break
        return [r for r in results if r is not None]

    @staticmethod
    def _time_factor(depth: int, stable: int, previous: Optional[SearchResult],
                     best: Optional[SearchResult]) -> float:
        """The share of the soft time after which no new iteration starts:
        less when the best move has stayed the same for a few iterations,
        more when it just changed or the score fell (the search is unsure;
        the hard limit still bounds it)."""
        if depth < 5 or best is None:
            return 0.6
        factor = 1.0 if stable == 0 else (0.7 if stable < 3 else 0.45)
        if previous is not None and best.score < previous.score - 30:
            factor *= 1.3
        return factor

    def _setup(self, board: Board, excluded: List[int]) -> int:
        n = self._searcher.setup(board._core, excluded)
        p = self._ponder
        # a stop() that came before or during set-up (or that ended pondering:
        # clear_stop() for the next search must not revive a stopped ponder search)
        if self._stop_requested or (p is not None and p.stopped):
            self._searcher.stop()
        return n

    def _interrupted(self, prev: Optional[SearchResult], score: int,
                     start: float) -> SearchResult:
        # The iteration was cut short.  Its best move so far was fully
        # searched and beat the window, so it replaces the previous
        # iteration's move; the score stays the last complete one.
        s = self._searcher
        code = s.best_move()
        pv = [MOVES[c] for c in s.pv()]
        if not pv or pv[0] != MOVES[code]:
            pv = [MOVES[code]]
        if prev is None:
            return self._result(pv, score if abs(score) < INFINITE else 0, 0, start)
        if pv[0] == prev.move:
            pv = prev.pv
        return SearchResult(pv[0], prev.score, prev.mate, prev.depth, s.seldepth, pv,
                            self._nodes(), _time.monotonic() - start)

    def _aspiration(self, depth: int, guess: int) -> int:
        # A window of +-asp around the last iteration's score, widened by half
        # again from the score returned, beta pulled to the middle of the old
        # window on a fail low (Stockfish's); asp=0: the windows before them
        # (+-40, tripled from the old bounds).
        s = self._searcher
        if depth < 4 or abs(guess) > WIN_SCORE:
            return s.search_depth(depth)
        narrow = s.params()["asp"]
        delta = narrow or 40
        alpha, beta = max(-INFINITE, guess - delta), min(INFINITE, guess + delta)
        while True:
            score = s.search_depth(depth, alpha, beta)
            if s.stopped or alpha < score < beta:
                return score
            if narrow:
                delta += max(1, delta // 2)     # (grows from asp=1 too)
                if score <= alpha:
                    beta = (alpha + beta) // 2
                    alpha = max(-INFINITE, score - delta)
                else:
                    beta = min(INFINITE, score + delta)
            else:
                if score <= alpha:
                    alpha = max(-INFINITE, alpha - delta * 3)
                else:
                    beta = min(INFINITE, beta + delta * 3)
                delta *= 3
            if delta > 1000:
                alpha, beta = -INFINITE, INFINITE

    def _result(self, pv: List[Move], score: int, depth: int, start: float) -> SearchResult:
        s = self._searcher
        return SearchResult(pv[0], score, mate_in(score), depth, s.seldepth, pv, self._nodes(),
                            _time.monotonic() - start)


# Positions for bench(): the start, openings, middle games and endings from
# real games.  The total node count at a fixed depth is a signature of the
# search: it changes only when the search does (Stockfish's `bench`).
BENCH_FENS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
    "1rbakabr1/9/2n1c1n2/p1p1p1p1p/9/2P3P2/P3P2cP/1CN1C1N2/9/R1BAKABR1 w - - 12 7",
    "1nbakab2/r8/2c1c1n2/p1p1p1p1p/7R1/2P6/P2rP1P1P/BCN1C1N2/9/R2AKAB2 w - - 14 8",
    "1rbaka3/9/2ncb1n2/p1C1p1p1p/2p4r1/6P2/PcP1P3P/2N1BCN2/4A4/1RBAK2R1 b - - 19 10",
    "r3kabr1/4a4/2n1b1R2/p1p1p3p/9/2P1P4/Pc4p1P/1CN1C4/4N4/R1BAKABc1 b - - 4 11",
    "4kab2/4a4/2n1b1c2/p1p1p1Nnp/1r4c2/2P1P4/R7P/N1C1B2C1/4A4/3AK1B2 b - - 13 21",
    "3ak4/4a4/1c2b1n2/5R2p/2p1C4/6r2/P1P5P/N8/4A4/2B1KAB2 b - - 2 24",
    "4kab2/4a4/4b1c1n/p1RC5/4P4/6p2/P1cr4P/2N1B1N2/4A4/2B1KA3 w - - 4 26",
    "4kab2/3Ra4/9/p1p5p/6b2/2P1P4/P1r5c/4B4/4A4/3NKAB2 b - - 2 30",
    "2ba1k3/4acP2/4b4/3P5/3nCN3/2B6/3p5/3AB4/4A4/4K4 b - - 53 56",
    "R2k1a3/9/5a3/6p1p/4P2C1/4c1P2/8r/4B4/4A4/4KAB2 b - - 1 40",
]


def bench(depth: int = 8, hash_mb: int = 16,
          report: Optional[Callable[[int, str, int], None]] = None) -> Dict[str, float]:
    """Searches BENCH_FENS to a fixed depth from a cleared engine; returns
    {"nodes": total nodes, "seconds": time, "nps": nodes per second}.
    `report(i, fen, nodes)`, if given, is called after the i-th position
    (from 1).  The total at depth 8 is the search's signature."""
    limit = Limit(depth=depth)
    engine = Engine(hash_mb=hash_mb)
    nodes = 0
    start = _time.perf_counter()
    for i, fen in enumerate(BENCH_FENS, 1):
        engine.new_game()
        n = engine.search(Board(fen), limit).nodes
        nodes += n
        if report is not None:
            report(i, fen, n)
    seconds = _time.perf_counter() - start
    return {"nodes": nodes, "seconds": seconds, "nps": nodes / seconds if seconds else 0.0}
