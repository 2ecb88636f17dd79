"""Annotating games with an engine: evaluations, best moves, mistakes,
accuracy; one game at a time or whole collections in parallel.

>>> from cxiangqi import pgn, analysis
>>> from cxiangqi.engine import Limit
>>> game = pgn.read_game(io.StringIO("1. h2e2 h9g7 2. h0g2 i9h9"))
>>> result = analysis.analyse_game(game, Limit(depth=3))
>>> [p.move for p in result.plies]
['h2e2', 'h9g7', 'h0g2', 'i9h9']
>>> result.plies[0].side, result.plies[0].best is not None
('red', True)
>>> game = analysis.annotate(game, result)
>>> game.next().comment.startswith("[%eval ")
True

What is computed (:func:`analyse_game`)
    Every position of the main line is searched once, the start position
    and the final one included, with the same :class:`~cxiangqi.engine.Limit`.
    For the move from position *i* to *i+1* (:class:`PlyAnalysis`):

    * ``score``/``mate``: the evaluation after the move, from Red's side
      (centipawns; ``mate`` in moves, positive when Red mates, 0 when the
      move mated or left no legal move, ``win`` then says who won), and ``win``,
      Red's win probability ``1 / (1 + exp(-WIN_K * cp))``;
    * ``best`` and ``pv``: the engine's best move and line in the position
      before the move;
    * ``loss``: the centipawns the move gave away against the best move, and
      ``win_loss``, the win probability it gave away, both from the mover's
      side (evaluations clamped to +-:data:`CP_CAP`; a mate counts as the
      cap; 0 when the move played is the best move);
    * ``judgement``: ``"inaccuracy"``, ``"mistake"`` or ``"blunder"`` when
      ``win_loss`` reaches :data:`THRESHOLDS` (0.05 / 0.10 / 0.15 of win
      probability, which are the 10 / 20 / 30 % of "winning chances" in
      [-1, 1] that lichess uses), else None;
    * ``accuracy``: ``103.1668 * exp(-0.04354 * d) - 3.1669`` clamped to
      0..100, with ``d`` the win-percentage points lost (lichess's formula).

    A side's accuracy (:class:`GameAnalysis`) is the mean of the arithmetic
    and the harmonic mean of its moves' accuracies (the harmonic mean makes
    one blunder count).  A position without a legal move is lost for the
    side to move (mate or 困毙) and is not searched.

    With ``Limit(nodes=...)`` or ``Limit(depth=...)`` the analysis of a game
    is reproducible: the engine is cleared (``new_game()``) before each
    game, so the result does not depend on which thread or machine ran it.

Annotating (:func:`annotate`)
    Comments ``[%eval 0.35]`` (pawns, Red's side) or ``[%eval #-3]`` on
    every main-line move, NAGs ``?!`` (6), ``?`` (2), ``??`` (4) on the
    judged moves with "Blunder. h2e2 was best." in the comment, and the
    best line as a variation.  cchess (the ``cchess`` package) cannot read
    comments, NAGs or variations, so the annotated PGN is for cxiangqi and
    PGN viewers; ``pgn.write_game(game, f, comments=False,
    variations=False)`` writes the plain main line that cchess reads.

Collections (:func:`analyse_games`)
    Games are the unit of work.  ``workers=N`` runs N searches at once in
    threads of this process, each with its own engine (the built-in search
    holds no GIL; an external engine is one subprocess per worker);
    ``client=dask.distributed.Client(...)`` sends them to a Dask cluster,
    which retries the games of a worker that dies.  Results come back in
    the order they finish.  ``cxiangqi-analyse`` (:mod:`cxiangqi.analyse_command`)
    is the command around this, with resumable outputs.
"""

from __future__ import annotations

import hashlib
import io
import math
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor
from concurrent.futures import wait as _wait_futures
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import pgn
from .board import Board
from .engine import Engine, Limit
from .move import Move
from .pgn import Game, GameNode
from .square import RED

__all__ = ["WIN_K", "CP_CAP", "NAGS", "Thresholds", "THRESHOLDS", "Evaluation", "PlyAnalysis",
           "GameAnalysis", "AnalysisError", "analyse_game", "annotate", "win_probability",
           "move_accuracy", "side_accuracy",
           # collections
           "Job", "KeyMaker", "game_key", "jobs_from_games", "analyse_games", "analyse_task",
           "make_pool", "drive", "LocalPool", "DaskPool", "limit_to_dict", "limit_from_dict"]

WIN_K = 0.00368208
"""Slope of the logistic that turns centipawns into a win probability
(lichess's constant; cxiangqi's scale has a pawn at home = 100 cp)."""

CP_CAP = 1000
"""Evaluations are clamped to +-CP_CAP centipawns when losses are counted;
a mate counts as CP_CAP."""

NAGS = {"inaccuracy": 6, "mistake": 2, "blunder": 4}
_ASSESSMENT_NAGS = {1, 2, 3, 4, 5, 6}


class AnalysisError(ValueError):
    """A game that could not be analysed (bad start position, an engine
    that failed)."""


@dataclass(frozen=True)
class Thresholds:
    """Win probability (0..1) a move must lose to be judged."""

    inaccuracy: float = 0.05
    mistake: float = 0.10
    blunder: float = 0.15

    def judge(self, win_loss: float) -> Optional[str]:
        if win_loss >= self.blunder:
            return "blunder"
        if win_loss >= self.mistake:
            return "mistake"
        if win_loss >= self.inaccuracy:
            return "inaccuracy"
        return None


THRESHOLDS = Thresholds()


def win_probability(cp: Optional[int], mate: Optional[int] = None) -> float:
    """Win probability for the side whose evaluation this is.

    >>> win_probability(0), round(win_probability(300), 3), win_probability(None, mate=-2)
    (0.5, 0.751, 0.0)
    """
    if mate is not None:
        return 1.0 if mate > 0 else 0.0
    assert cp is not None
    return 1.0 / (1.0 + math.exp(-WIN_K * cp))


def move_accuracy(win_before: float, win_after: float) -> float:
    """Accuracy 0..100 of a move that took the mover's win probability from
    win_before to win_after (lichess's formula on win percentages)."""
    d = max(0.0, (win_before - win_after) * 100.0)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * d) - 3.1669))


def side_accuracy(accuracies: Sequence[float]) -> Optional[float]:
    """The mean of the arithmetic and the harmonic mean of move accuracies
    (each counted as at least 1 in the harmonic mean); None without moves."""
    if not accuracies:
        return None
    arithmetic = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(1.0, a) for a in accuracies)
    return (arithmetic + harmonic) / 2.0


@dataclass(frozen=True)
class Evaluation:
    """One searched position, from the side to move's point of view:
    ``score`` in centipawns (None when there is a mate), ``mate`` in moves
    (positive: the side to move mates; negative or 0: it is mated)."""

    score: Optional[int]
    mate: Optional[int]
    best: Optional[str] = None
    pv: Tuple[str, ...] = ()
    depth: int = 0
    nodes: int = 0

    def capped(self) -> int:
        """The evaluation in centipawns, clamped to +-CP_CAP (mates too)."""
        if self.mate is not None:
            return CP_CAP if self.mate > 0 else -CP_CAP
        assert self.score is not None
        return max(-CP_CAP, min(CP_CAP, self.score))

    def win(self) -> float:
        return win_probability(self.score, self.mate)


@dataclass
class PlyAnalysis:
    """The analysis of one main-line move (see the module's docstring)."""

    ply: int
    move: str
    side: str
    fen: str
    best: Optional[str]
    pv: List[str]
    score: Optional[int]
    mate: Optional[int]
    win: float
    loss: int
    win_loss: float
    judgement: Optional[str]
    accuracy: float
    depth: int
    nodes: int


@dataclass
class GameAnalysis:
    """The analysis of a game's main line."""

    plies: List[PlyAnalysis]
    start_score: Optional[int]
    start_mate: Optional[int]
    accuracy: Dict[str, Optional[float]]
    counts: Dict[str, Dict[str, int]]
    nodes: int = 0
    seconds: float = 0.0
    limit: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "GameAnalysis":
        fields = dict(data)
        fields["plies"] = [PlyAnalysis(**p) for p in data["plies"]]
        return cls(**fields)


def limit_to_dict(limit: Optional[Limit]) -> Dict[str, Any]:
    if limit is None:
        return {}
    return {k: v for k, v in asdict(limit).items() if v is not None}


def limit_from_dict(data: Dict[str, Any]) -> Limit:
    return Limit(**data)


def _evaluate(engine: Any, board: Board, limit: Limit) -> Evaluation:
    """Searches one position (the board's move stack is the history)."""
    if not any(True for _ in board.legal_moves):
        return Evaluation(None, 0)  # mated, or no move (困毙): lost either way
    if isinstance(engine, Engine):
        r = engine.analyse(board, limit, multipv=1)[0]
        pv = tuple(m.iccs() for m in r.pv) or ((r.move.iccs(),) if r.move else ())
        mate = r.mate
        return Evaluation(None if mate is not None else r.score, mate,
                          r.move.iccs() if r.move else None, pv, r.depth, r.nodes)
    result = engine.play(board, limit)  # an ExternalEngine (or anything with play())
    info = result.info or {}
    mate = info.get("mate")
    score = info.get("score")
    if mate is None and score is None:
        raise AnalysisError(f"engine {getattr(engine, 'name', engine)!r} gave no score "
                            f"for {board.fen()}")
    pv = tuple(m.iccs() for m in info.get("pv", [])) or (
        (result.move.iccs(),) if result.move else ())
    return Evaluation(None if mate is not None else int(score), mate,
                      result.move.iccs() if result.move else None, pv,
                      int(info.get("depth") or 0), int(info.get("nodes") or 0))


def _red_view(ev: Evaluation, turn: bool) -> Tuple[Optional[int], Optional[int], float]:
    """(score, mate, win probability) of an evaluation, from Red's side."""
    if turn == RED:
        return ev.score, ev.mate, ev.win()
    score = None if ev.score is None else -ev.score
    mate = None if ev.mate is None else -ev.mate  # 0 (mated now) stays 0: see win
    return score, mate, 1.0 - ev.win()


def analyse_game(game: Game, limit: Optional[Limit] = None, engine: Any = None, *,
                 thresholds: Thresholds = THRESHOLDS, hash_mb: int = 32) -> GameAnalysis:
    """Analyses the main line of a game (see the module's docstring).

    ``engine``: a :class:`cxiangqi.engine.Engine` (cleared first with
    ``new_game()``), an :class:`cxiangqi.engine.ExternalEngine`, or None
    for a new built-in engine with ``hash_mb`` of hash.  ``limit`` applies
    to every position (default ``Limit(depth=8)``).  Raises AnalysisError
    for a game whose start position or moves cannot be played.
    """
    limit = limit or Limit(depth=8)
    if engine is None:
        engine = Engine(hash_mb=hash_mb)
    try:
        board = game.board()
    except ValueError as e:
        raise AnalysisError(f"bad start position: {e}") from None
    engine.new_game()
    # 1. search every position of the main line, the start and the end included
    start = time.perf_counter()
    evals: List[Evaluation] = []
    turns: List[bool] = []
    fens: List[str] = []
    moves: List[Move] = []
    for i, move in enumerate([None] + list(game.mainline_moves())):  # type: ignore[list-item]
        if move is not None:
            if not board.is_legal(move):
                raise AnalysisError(f"illegal move {move.iccs()} at ply {i}")
            fens.append(board.fen())
            moves.append(move)
            board.push(move)
        turns.append(board.turn)
        evals.append(_evaluate(engine, board, limit))
    seconds = time.perf_counter() - start

    # 2. judge each move by the evaluations before and after it
    plies: List[PlyAnalysis] = []
    per_side: Dict[str, List[float]] = {"red": [], "black": []}
    counts = {side: {"inaccuracy": 0, "mistake": 0, "blunder": 0} for side in ("red", "black")}
    for i, move in enumerate(moves):
        before, after = evals[i], evals[i + 1]
        mover = turns[i]
        side = "red" if mover == RED else "black"
        played = move.iccs()
        # both from the mover's side: before is the mover's, after the opponent's
        cp_before, cp_after = before.capped(), -after.capped()
        win_before, win_after = before.win(), 1.0 - after.win()
        if played == before.best:
            loss, win_loss = 0, 0.0
        else:
            loss, win_loss = max(0, cp_before - cp_after), max(0.0, win_before - win_after)
        judgement = thresholds.judge(win_loss)
        accuracy = 100.0 if played == before.best else move_accuracy(win_before, win_after)
        per_side[side].append(accuracy)
        if judgement:
            counts[side][judgement] += 1
        score, mate, win = _red_view(after, turns[i + 1])
        plies.append(PlyAnalysis(
            ply=i + 1, move=played, side=side, fen=fens[i], best=before.best,
            pv=list(before.pv), score=score, mate=mate, win=round(win, 4), loss=loss,
            win_loss=round(win_loss, 4), judgement=judgement, accuracy=round(accuracy, 2),
            depth=before.depth, nodes=before.nodes))
    # 3. the start position's evaluation and each side's accuracy
    start_score, start_mate, _ = _red_view(evals[0], turns[0])
    accuracy = {side: (None if not acc else round(side_accuracy(acc) or 0.0, 2))
                for side, acc in per_side.items()}
    return GameAnalysis(plies, start_score, start_mate, accuracy, counts,
                        nodes=sum(e.nodes for e in evals), seconds=round(seconds, 3),
                        limit=limit_to_dict(limit))


# --- annotating -------------------------------------------------------------------------

def _eval_text(score: Optional[int], mate: Optional[int]) -> Optional[str]:
    """The [%eval] value: pawns, or #n / #-n; None after a mating move."""
    if mate is not None:
        return f"#{mate}" if mate else None
    assert score is not None
    return f"{score / 100:.2f}"


def annotate(game: Game, analysis: GameAnalysis, *, variations: bool = True,
             pv_plies: int = 8) -> Game:
    """Writes an analysis into a game (in place; the game is returned):
    an ``[%eval ...]`` comment on every main-line move, NAGs ``?!``/``?``/
    ``??`` and "Mistake. h2e2 was best." on the judged ones, and (with
    ``variations``) the engine's line, up to ``pv_plies`` moves, as a
    variation beside each judged move.  Comments already there are kept
    after the new text; assessment NAGs already there (1..6) are replaced
    on judged moves."""
    nodes = list(game.mainline())
    if len(nodes) != len(analysis.plies):
        raise ValueError(f"the analysis has {len(analysis.plies)} plies, the game's main "
                         f"line {len(nodes)}")
    board = game.board()
    for node, ply in zip(nodes, analysis.plies):
        if node.move.iccs() != ply.move:
            raise ValueError(f"the analysis is of another game: ply {ply.ply} is "
                             f"{ply.move}, the game has {node.move.iccs()}")
        value = _eval_text(ply.score, ply.mate)
        text = f"[%eval {value}]" if value is not None else ""
        if ply.judgement:
            text += f" {ply.judgement.capitalize()}."
            text = text.strip()
            if ply.best:
                text += f" {ply.best} was best."
            node.nags.difference_update(_ASSESSMENT_NAGS)
            node.nags.add(NAGS[ply.judgement])
            if variations and ply.pv and ply.best and not node.parent.has_variation(
                    Move.from_iccs(ply.best)):
                _add_line(node.parent, board, ply.pv[:pv_plies])
        node.comment = f"{text} {node.comment}".strip()
        board.push(node.move)
    tags = game.headers
    tags.setdefault("Annotator", "cxiangqi-analyse")
    for side, tag in (("red", "RedAccuracy"), ("black", "BlackAccuracy")):
        if analysis.accuracy.get(side) is not None:
            tags[tag] = f"{analysis.accuracy[side]:.1f}"
    return game


def _add_line(parent: GameNode, board: Board, pv: Sequence[str]) -> None:
    """Adds the legal prefix of a line of ICCS moves as a variation."""
    b = board.copy()
    node = parent
    for text in pv:
        try:
            move = Move.from_iccs(text)
        except ValueError:
            break
        if not b.is_legal(move):
            break
        b.push(move)
        node = node.add_variation(move)


# --- collections ------------------------------------------------------------------------

@dataclass(frozen=True)
class Job:
    """A game to analyse: its PGN text (ICCS, as ``str(game)`` writes it),
    a key that identifies it across runs, and where it came from."""

    key: str
    pgn: str
    source: str = ""
    index: int = 0

    def game(self) -> Game:
        game = pgn.read_game(io.StringIO(self.pgn))
        if game is None:
            raise AnalysisError(f"{self.source}: game {self.index + 1}: no game in the text")
        return game


def game_key(text: str, occurrence: int = 1) -> str:
    """The key of a game: a digest of its PGN text, and its occurrence
    number among identical games (so a collection that holds one game
    twice has it analysed twice, and a rerun knows both)."""
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]
    return f"{digest}-{occurrence}"


class KeyMaker:
    """Assigns game_key()s, counting identical games."""

    def __init__(self) -> None:
        self._seen: Dict[str, int] = {}

    def __call__(self, text: str) -> str:
        digest = hashlib.sha1(text.encode("utf-8")).digest()[:10]
        n = self._seen.get(digest, 0) + 1  # type: ignore[call-overload]
        self._seen[digest] = n  # type: ignore[index]
        return game_key(text, n)


def jobs_from_games(games: Iterable[Game], source: str = "") -> Iterator[Job]:
    keys = KeyMaker()
    for i, game in enumerate(games):
        text = str(game)
        yield Job(keys(text), text, source, i)


# Engines live in the threads that use them: one per worker thread (of a
# LocalPool, or of a Dask worker), made on first use and kept for the next
# game.  Each LocalPool's threads register theirs under the pool, which
# stops and closes them; a Dask worker's live as long as the worker.
_local = threading.local()
_engines_lock = threading.Lock()
_engines: Dict[Optional[int], List[Any]] = {}


def _thread_engine(spec: str, hash_mb: int) -> Any:
    cache = getattr(_local, "engines", None)
    if cache is None:
        cache = _local.engines = {}
    engine = cache.get((spec, hash_mb))
    if engine is None or (spec != "built-in" and not getattr(engine, "alive", True)):
        if spec == "built-in":
            engine = Engine(hash_mb=hash_mb)
        else:
            from .external import ExternalEngine
            engine = ExternalEngine.popen(spec)
        cache[(spec, hash_mb)] = engine
        with _engines_lock:
            _engines.setdefault(getattr(_local, "owner", None), []).append(engine)
    return engine


def _close_engines(owner: Optional[int]) -> None:
    """Quits the external engines started by the threads of a pool."""
    with _engines_lock:
        engines = _engines.pop(owner, [])
    for engine in engines:
        quit_ = getattr(engine, "quit", None)
        if quit_ is not None:
            try:
                quit_()
            except Exception:  # noqa: BLE001 - closing down: nothing to report to
                pass


def _stop_engines(owner: Optional[int]) -> None:
    """Stops the built-in searches running in the threads of a pool."""
    with _engines_lock:
        engines = list(_engines.get(owner, []))
    for engine in engines:
        if isinstance(engine, Engine):
            engine.stop()


def _set_owner(owner: int) -> None:
    _local.owner = owner


def analyse_task(text: str, limit: Dict[str, Any], engine: str = "built-in",
                 hash_mb: int = 32, thresholds: Optional[Dict[str, float]] = None
                 ) -> Dict[str, Any]:
    """The unit of work, run in a worker thread or on a Dask worker: the
    analysis of one game given as PGN text, as a dict
    (``GameAnalysis.to_dict()``), or ``{"error": message}``.  Never raises
    for a bad game or a failing engine."""
    try:
        game = pgn.read_game(io.StringIO(text))
        if game is None:
            return {"error": "no game in the text"}
        eng = _thread_engine(engine, hash_mb)
        result = analyse_game(game, limit_from_dict(limit), eng,
                              thresholds=Thresholds(**thresholds) if thresholds else THRESHOLDS)
        return result.to_dict()
    except Exception as e:  # noqa: BLE001 - reported per game, the run goes on
        msg = str(e) or type(e).__name__
        return {"error": msg if isinstance(e, ValueError) else f"{type(e).__name__}: {msg}"}


class LocalPool:
    """N worker threads of this process, each with its own engine."""

    def __init__(self, workers: int, params: Dict[str, Any]) -> None:
        if workers < 1:
            raise ValueError("workers must be >= 1")
        self.capacity = workers
        self.params = params
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="cxiangqi-analyse",
                                        initializer=_set_owner, initargs=(id(self),))

    def submit(self, job: Job) -> Future:
        return self._pool.submit(analyse_task, job.pgn, **self.params)

    def wait(self, futures: Iterable[Any], timeout: float) -> List[Any]:
        done, _ = _wait_futures(list(futures), timeout=timeout, return_when=FIRST_COMPLETED)
        return list(done)

    @staticmethod
    def result(future: Any) -> Dict[str, Any]:
        return future.result()

    def abort(self) -> None:
        _stop_engines(id(self))

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        _close_engines(id(self))


class DaskPool:
    """The games sent to a Dask cluster through a distributed.Client."""

    def __init__(self, client: Any, params: Dict[str, Any]) -> None:
        self.client = client
        self.params = params
        try:
            threads = sum(client.nthreads().values())
        except Exception:  # noqa: BLE001 - a cluster that is still starting
            threads = 1
        self.capacity = max(1, threads)

        # the task keys name the settings too: the same game analysed two ways
        # at once through one client must not share a result
        self._tag = hashlib.sha1(repr(sorted(params.items())).encode()).hexdigest()[:12]

    def submit(self, job: Job) -> Any:
        return self.client.submit(analyse_task, job.pgn, **self.params,
                                  key=f"cxiangqi-analyse-{job.key}-{self._tag}", pure=False)

    def wait(self, futures: Iterable[Any], timeout: float) -> List[Any]:
        from distributed import wait as dask_wait
        try:
            done, _ = dask_wait(list(futures), timeout=timeout, return_when="FIRST_COMPLETED")
        except Exception as e:  # noqa: BLE001 - distributed's TimeoutError is not always ours
            if isinstance(e, TimeoutError) or type(e).__name__ == "TimeoutError":
                return []
            raise
        return list(done)

    @staticmethod
    def result(future: Any) -> Dict[str, Any]:
        try:
            value = future.result()
        except Exception as e:  # noqa: BLE001 - e.g. KilledWorker after too many deaths
            return {"error": f"{type(e).__name__}: {e}"}
        finally:
            future.release()
        return value

    def abort(self) -> None:
        pass  # the cluster's searches end with their tasks; nothing is kept of them

    def close(self) -> None:
        pass


def make_pool(workers: int, limit: Optional[Limit], engine: str = "built-in", *,
              client: Any = None, hash_mb: int = 32,
              thresholds: Thresholds = THRESHOLDS) -> Union[LocalPool, DaskPool]:
    params = {"limit": limit_to_dict(limit or Limit(depth=8)), "engine": engine,
              "hash_mb": hash_mb, "thresholds": asdict(thresholds)}
    if client is not None:
        return DaskPool(client, params)
    return LocalPool(workers, params)


def analyse_games(games: Iterable[Union[Game, Job]], limit: Optional[Limit] = None, *,
                  workers: int = 1, engine: str = "built-in", client: Any = None,
                  hash_mb: int = 32, thresholds: Thresholds = THRESHOLDS,
                  in_flight: Optional[int] = None
                  ) -> Iterator[Tuple[Job, Union[GameAnalysis, AnalysisError]]]:
    """Analyses many games, ``workers`` at a time in threads (or on the Dask
    cluster of ``client``), and yields ``(job, analysis)`` in the order the
    games finish; ``analysis`` is an :class:`AnalysisError` for a game that
    could not be analysed.  ``engine`` is ``"built-in"`` or the command of
    an external engine (one process per worker).  At most ``in_flight``
    games (default: twice the workers) are read ahead of the results.
    Closing the iterator early waits for the games in flight and drops them.

    >>> games = [pgn.read_game(io.StringIO(t)) for t in ("1. h2e2 h9g7", "1. b2e2")]
    >>> done = analyse_games(games, Limit(depth=2), workers=2)
    >>> sorted(len(a.plies) for _, a in done)
    [1, 2]
    """
    pool = make_pool(workers, limit, engine, client=client, hash_mb=hash_mb,
                     thresholds=thresholds)
    keys = KeyMaker()

    def jobs() -> Iterator[Union[Job, Tuple[Job, AnalysisError]]]:
        for i, g in enumerate(games):
            if isinstance(g, Job):
                yield g
                continue
            try:
                text = str(g)
            except ValueError as e:  # e.g. a FEN header that is no position
                yield Job(f"unreadable-{i}", "", "", i), AnalysisError(f"game {i + 1}: {e}")
                continue
            yield Job(keys(text), text, "", i)

    try:
        yield from drive(jobs(), pool, in_flight or 2 * pool.capacity)
    finally:
        pool.close()


def drive(jobs: Iterator[Union[Job, Tuple[Job, AnalysisError]]],
          pool: Union[LocalPool, DaskPool], in_flight: int,
          stop: Optional[threading.Event] = None, poll: float = 0.2,
          abort: Optional[threading.Event] = None
          ) -> Iterator[Tuple[Job, Union[GameAnalysis, AnalysisError]]]:
    """Keeps up to ``in_flight`` jobs in the pool and yields their results
    as they finish; once ``stop`` is set no new job is started and the ones
    in flight are finished; once ``abort`` is set it returns at once (the
    jobs in flight are dropped).  A ``(job, error)`` pair among the jobs is
    passed through as it is."""
    pending: Dict[Any, Job] = {}
    exhausted = False
    while not (abort and abort.is_set()):
        while not exhausted and len(pending) < in_flight and not (stop and stop.is_set()):
            job = next(jobs, None)
            if job is None:
                exhausted = True
                break
            if isinstance(job, tuple):
                yield job
                continue
            pending[pool.submit(job)] = job
        if not pending:
            return
        for future in pool.wait(pending.keys(), poll):
            job = pending.pop(future)
            value = pool.result(future)
            if "error" in value:
                yield job, AnalysisError(f"{job.source or 'game'}: game {job.index + 1}: "
                                         f"{value['error']}")
            else:
                yield job, GameAnalysis.from_dict(value)
