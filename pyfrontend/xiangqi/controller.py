"""Game flow, with no display: whose turn it is, the modes, undo and redo,
the computer's moves, the end of the game, review, analysis, records and
settings.

The Tk view (view.py) draws what the controller says and forwards clicks;
tests drive the controller directly.  Everything here runs in the caller's
thread except the engine search, which runs in a worker thread; its answers
come back through a queue that ``poll()`` empties (the view calls it from
``after()``), so all state changes happen in one thread.

Clocks (optional): a time control is a base time and an increment per move
in seconds (``parse_time_control("5+3")`` is 5 minutes + 3 seconds).  The
clock of the side to move runs whenever the game is on, also while the
computer thinks (its search gets both clocks as ``Limit(red_clock=...,
black_clock=..., red_inc=..., black_inc=...)``) and while a position is reviewed; it stops
when the game ends, when computer vs computer is paused and while the view
holds the game (``hold()``/``release()``: a modal dialog is open, the main
menu shows).  A clock that reaches zero ends the game:
``Outcome(Termination.TIME_FORFEIT, winner)``.  The clocks are logged after
every move, so undo and redo put them back as they were at that ply: undo
after a lost flag reopens the game with the time the player had then.  A
loaded or resumed game starts with full clocks.  The time source is
injectable (``time_fn``) so tests can drive a fake clock.

Stale answers are recognised by a generation counter: every undo, new game,
load or level change that invalidates a running search bumps the counter and
calls ``engine.stop()``; an answer that carries an older generation is
dropped.

Opening book (``settings.book``): in a position of the book the computer
plays a book move, chosen at random by weight, without searching (not with
an external engine).  Pondering (``settings.ponder``: "auto" = on except at
the easy levels): against a human, after its move the computer searches the
position after the reply it expects (its principal variation's second move)
while the human thinks.  When the human plays that move, the ponder search
becomes the answer (``ponderhit``: the time already spent counts, so it
often answers at once); any other move stops it and a normal search starts.
``ponder_hits``/``ponder_misses`` count both outcomes for the engine panel.

>>> c = GameController(mode=HVH)
>>> c.play(Move.from_iccs("h2e2"))
True
>>> c.move_texts()
['炮二平五']
"""

from __future__ import annotations

import queue
import random
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from cxiangqi import BLACK, RED, Board, Color, IllegalMoveError, InvalidFenError, Move, Outcome, Termination
from cxiangqi import notation as _notation
from cxiangqi import pgn as _pgn
from cxiangqi.book import Book
from cxiangqi.engine import (LEVEL_ALIASES, LEVEL_ELO, MAX_THREADS, Engine, Limit, SearchInfo,
                             level_named)

from ..i18n import tr
from ..settings import LEVEL_NAMES, Autosave, Settings, config_dir
from . import explain

HVH, HVC, CVC = "hvh", "hvc", "cvc"
MODES = (HVH, HVC, CVC)
EXTERNAL = "external"
NOTATIONS = ("chinese", "wxf", "iccs")

# the computer accepts a draw offer when its own evaluation is at most this
# (centipawns, its point of view) and at least DRAW_MIN_PLIES have been played
DRAW_ACCEPT_CP = 50
DRAW_MIN_PLIES = 40
# the score graph shows mates as this many centipawns
MATE_CP = 2000

Listener = Callable[[str, Dict[str, Any]], None]


def color_name(color: Color) -> str:
    return "red" if color == RED else "black"


def color_of(name: str) -> Color:
    return RED if name == "red" else BLACK


def result_text(outcome: Outcome, lang: str = "zh") -> str:
    """'红方胜 — 将死', 'Black wins — perpetual check loses', '和棋 — 重复局面'."""
    if outcome.winner is None:
        head = tr("draw", lang)
    else:
        head = tr("red_wins" if outcome.winner == RED else "black_wins", lang)
    return f"{head} — {tr('reason_' + outcome.termination.name, lang)}"


def parse_time_control(text: Optional[str]) -> Optional[Tuple[float, float]]:
    """'' or 'none' -> None; '10' -> (600, 0) (minutes); '5+3' -> (300, 3)
    (minutes + seconds per move); '600s+5' -> (600, 5).  ValueError otherwise."""
    text = (text or "").strip().lower()
    if text in ("", "none", "-"):
        return None
    base_text, _, inc_text = text.partition("+")
    base_text = base_text.strip()
    try:
        base = float(base_text[:-1]) if base_text.endswith("s") else float(base_text) * 60
        inc = float(inc_text) if inc_text.strip() else 0.0
    except ValueError:
        raise ValueError(f"bad time control {text!r}: use minutes+increment, e.g. 5+3") from None
    if not (0 < base <= 24 * 3600) or not (0 <= inc <= 3600) or base != base or inc != inc:
        raise ValueError(f"bad time control {text!r}: the base must be positive")
    return base, inc


def format_time_control(tc: Optional[Tuple[float, float]]) -> str:
    """The inverse of parse_time_control: (300, 3) -> '5+3', (90, 0) -> '90s+0'."""
    if tc is None:
        return ""
    base, inc = tc
    b = f"{base / 60:g}" if base % 60 == 0 else f"{base:g}s"
    return f"{b}+{inc:g}"


def clock_text(seconds: float) -> str:
    """'9:58', '0:07.3' (tenths under ten seconds), '1:02:03'."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    s = int(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


def probe_external_engine(command: str, protocol: str = "auto", timeout: float = 10.0) -> str:
    """Starts an external engine, does the handshake and quits it; returns
    'name (protocol)'.  Raises the engine client's error (EngineError, an
    OSError, a ValueError for a bad protocol) when it does not work."""
    from cxiangqi.external import ExternalEngine
    if not command.strip():
        raise ValueError("no engine command given")
    engine = ExternalEngine.popen(command, protocol, timeout=timeout)
    try:
        return f"{engine.name} ({engine.protocol.upper()})"
    finally:
        engine.quit()


def level_label(level: str, lang: str = "zh", strength: bool = False) -> str:
    """A level's name; with `strength`, followed by its measured Elo over
    level 1 (cxiangqi.engine.LEVEL_ELO, from benchmarks/levels.py)."""
    if level == EXTERNAL:
        return tr("level_external", lang)
    if level in ("easy", "normal", "hard"):
        name = tr("level_" + level, lang)
    else:
        name = tr("level_n", lang, n=level)
    elo = LEVEL_ELO.get(LEVEL_ALIASES.get(level, level))
    if strength and elo is not None:
        return tr("level_strength", lang, name=name, elo=f"{elo:+d}" if elo else "0")
    return name


def randomises(level: str) -> bool:
    """Does this level sometimes pick a weaker move on purpose?"""
    return level != EXTERNAL and level_named(level).randomness > 0


def default_book() -> Optional[Book]:
    """The shipped opening book; None (with a warning) if it cannot be read."""
    try:
        return Book.default()
    except (OSError, ValueError) as exc:
        warnings.warn(f"cxiangqi: no opening book: {exc}")
        return None


@dataclass
class _Task:
    kind: str            # "move", "hint", "analyse" or "ponder"
    gen: int
    color: Color
    board: Board         # a copy, with the move stack (repetition history)
    level: str
    thread: Optional[threading.Thread] = None
    limit: Optional[Limit] = None        # the clock's limit for a move, None: the level's
    best: Optional[SearchInfo] = None    # the last report of the best line
    last_info: Optional[SearchInfo] = None   # pondering: shown only once it is a hit


@dataclass
class EngineReport:
    """What the engine panel shows, from Red's point of view."""

    depth: int = 0
    score: int = 0                 # centipawns, + good for Red
    mate: Optional[int] = None     # moves to mate, + Red mates
    nodes: int = 0
    nps: int = 0
    pv: List[str] = field(default_factory=list)   # in the chosen notation
    played: Optional[str] = None   # the move the computer played (None: still thinking)
    best: Optional[str] = None     # the best move, when a level chose another on purpose
    analysing: bool = False        # from analysis mode (infinite search)
    book: bool = False             # the move came from the opening book (pv: that move)

    @property
    def weaker(self) -> bool:
        return self.best is not None


def _graph_score(score: int, mate: Optional[int]) -> int:
    if mate is not None:
        return MATE_CP if mate > 0 else -MATE_CP
    return max(-MATE_CP, min(MATE_CP, score))


class PollingController:
    """What both games' controllers share: a computer move runs in a worker
    thread as self._task, or is due at self._due; each controller's poll()
    collects it.  hold()/release() freeze the game while a dialog is open."""

    _task: Any = None
    _due: Optional[float] = None
    _holds: int = 0
    poll: Callable[[], None]

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Polls until no search runs or is due (for scripts and tests)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.poll()
            if self._task is None and self._due is None:
                return True
            time.sleep(0.01)
        return False

    @property
    def held(self) -> bool:
        return self._holds > 0

    def hold(self) -> None:
        """Freezes the game (clocks stopped, no computer move applied) until
        the matching release(); holds nest."""
        self._holds += 1

    def release(self) -> None:
        self._holds = max(0, self._holds - 1)


class GameController(PollingController):
    """One game of xiangqi and the players around it."""

    def __init__(self, settings: Optional[Settings] = None, *, mode: Optional[str] = None,
                 engine_factory: Optional[Callable[[], Any]] = None,
                 move_delay: Optional[float] = None,
                 time_fn: Optional[Callable[[], float]] = None,
                 book_factory: Optional[Callable[[], Optional[Book]]] = None) -> None:
        self.settings = settings or Settings()
        s = self.settings
        self.board = Board()
        self.redo_stack: List[Move] = []
        self.mode = mode or s.mode
        self.human_color: Color = color_of(s.human_color)
        self.levels: Dict[Color, str] = {RED: s.red_level, BLACK: s.black_level}
        if self.mode == HVC:
            self.levels[not self.human_color] = s.level
        self.outcome: Optional[Outcome] = None
        self.review_ply: Optional[int] = None
        self.paused = False
        self.analysing = False
        self.cvc_delay = s.cvc_delay
        # pause before the computer answers a human (lets the slide finish)
        self.move_delay = 0.25 if move_delay is None else move_delay
        self.report: Optional[EngineReport] = None
        self.evals: Dict[int, int] = {}       # ply -> score (Red's view) of the position after it
        self.hint_move: Optional[Move] = None
        self.record_name: Optional[str] = None    # the file a loaded game came from
        self.headers: Dict[str, str] = {}
        self._listeners: List[Listener] = []
        self._engine_factory = engine_factory or (lambda: Engine(hash_mb=32))
        self._engine: Any = None
        self._book_factory = book_factory or default_book
        self._book: Any = False                     # False: not loaded yet
        self.book_rng = random.Random()
        self._ponder: Optional[_Task] = None        # the ponder search, while the human thinks
        self.ponder_hits = 0
        self.ponder_misses = 0
        self._external: Any = None
        self._external_lock = threading.Lock()     # one search at a time per engine process
        self._gen = 0
        self._task: Optional[_Task] = None
        self._queue: "queue.Queue[tuple]" = queue.Queue()
        self._due: Optional[float] = None
        self._holds = 0
        # clocks
        self._time = time_fn or time.monotonic
        try:
            self.time_control: Optional[Tuple[float, float]] = parse_time_control(s.time_control)
        except ValueError:
            self.time_control = None
        self.clocks: Dict[Color, float] = {}
        self._clock_log: List[Dict[Color, float]] = []     # the clocks after each ply (0: start)
        self._redo_clocks: List[Dict[Color, float]] = []
        self._clock_start: Optional[float] = None
        self._reset_clocks()
        self._schedule()

    # --- clocks --------------------------------------------------------------

    def _reset_clocks(self) -> None:
        tc = self.time_control
        self.clocks = {RED: tc[0], BLACK: tc[0]} if tc else {}
        self._clock_log = [dict(self.clocks) for _ in range(len(self.board.move_stack) + 1)]
        self._redo_clocks = []
        self._clock_start = None
        self._clock_go()

    def _clock_running(self) -> bool:
        return (self.time_control is not None and self.outcome is None and self._holds == 0
                and not (self.mode == CVC and self.paused))

    def _clock_go(self) -> None:
        """(Re)starts the side to move's clock if the game is on."""
        self._clock_start = self._time() if self._clock_running() else None

    def _charge(self) -> None:
        """Charges the time since the clock started to the side to move."""
        if self._clock_start is not None and self.time_control is not None:
            now = self._time()
            self.clocks[self.board.turn] -= now - self._clock_start
            self._clock_start = now

    def remaining(self, color: Color) -> Optional[float]:
        """Seconds left on `color`'s clock (None without a time control)."""
        if self.time_control is None:
            return None
        left = self.clocks[color]
        if self._clock_start is not None and color == self.board.turn:
            left -= self._time() - self._clock_start
        return left

    @property
    def clock_running(self) -> bool:
        return self._clock_start is not None

    def _check_flag(self) -> bool:
        """Ends the game when the side to move's clock has run out."""
        if self._clock_start is None or self.outcome is not None:
            return False
        left = self.remaining(self.board.turn)
        if left is not None and left <= 0:
            self._charge()
            self.clocks[self.board.turn] = 0.0
            self._finish(Outcome(Termination.TIME_FORFEIT, not self.board.turn))
            return True
        return False

    def set_time_control(self, tc: Optional[Tuple[float, float]]) -> None:
        """The time control of the next game (None: no clocks)."""
        self.time_control = tc
        self.settings.time_control = format_time_control(tc)

    def hold(self) -> None:
        """A dialog is open (or the game is not shown): the clocks stop and
        nothing moves until release()."""
        if self._holds == 0:
            self._charge()
        self._holds += 1
        self._clock_go()

    def release(self) -> None:
        was = self._holds
        self._holds = max(0, self._holds - 1)
        if was and not self._holds:
            self._clock_go()
            self._emit("status")

    # --- listeners ---------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """listener(kind, data) is called on: "reset" (redraw everything),
        "move" (move, captured, check, by_computer), "over" (outcome),
        "thinking" (color or None), "info" (report, may be None), "hint"
        (move), "error" (message, exc), "status" (anything else changed)."""
        self._listeners.append(listener)

    def _emit(self, kind: str, **data: Any) -> None:
        for listener in list(self._listeners):
            listener(kind, data)

    # --- who plays ---------------------------------------------------------

    def is_computer(self, color: Color) -> bool:
        if self.analysing:
            return False
        return self.mode == CVC or (self.mode == HVC and color != self.human_color)

    def human_to_move(self) -> bool:
        """May a click move a piece now?"""
        return (self.outcome is None and self.review_ply is None
                and not self.is_computer(self.board.turn))

    @property
    def thinking(self) -> Optional[Color]:
        """The colour the computer is thinking for, or None."""
        return self._task.color if self._task is not None and self._task.kind == "move" else None

    @property
    def busy(self) -> bool:
        """A move or a hint is being searched (analysis does not count)."""
        return self._task is not None and self._task.kind != "analyse"

    def legal_targets(self, square: int) -> List[int]:
        """Squares the piece on `square` may move to (none unless it is a human's turn)."""
        if not self.human_to_move():
            return []
        return [m.to_square for m in self.board.legal_moves if m.from_square == square]

    def why_illegal(self, move: Move) -> Optional[str]:
        """The i18n key saying why `move` is not legal now (None if it is)."""
        return explain.illegal_reason(self.board, move)

    @property
    def in_progress(self) -> bool:
        """Is there a game under way that a new game or a load would end?"""
        return self.outcome is None and bool(self.board.move_stack)

    # --- new game, levels, modes -------------------------------------------

    def new_game(self, mode: Optional[str] = None, human_color: Optional[Color] = None,
                 levels: Optional[Dict[Color, str]] = None, fen: Optional[str] = None,
                 time_control: Any = False) -> None:
        """Starts again (再来一局), keeping the mode, levels and time control
        unless given (time_control: (base, inc) seconds or None for no clocks).
        InvalidFenError for a bad FEN (nothing changes then)."""
        board = Board(fen) if fen else Board()
        self._cancel()
        if mode is not None:
            if mode not in MODES:
                raise ValueError(f"unknown mode {mode!r}")
            self.mode = mode
            self.settings.mode = mode
        if human_color is not None:
            self.human_color = human_color
            self.settings.human_color = color_name(human_color)
        for color, level in (levels or {}).items():
            self._set_level(color, level)
        if time_control is not False:
            self.set_time_control(time_control)
        self.board = board
        self._fresh()
        if self._engine is not None:
            self._engine.new_game()
        self.outcome = self._rules_outcome()
        self._reset_clocks()
        self._emit("reset")
        if self.outcome is not None:
            self._emit("over", outcome=self.outcome)
        self._schedule()

    def _fresh(self) -> None:
        """What every new or loaded game starts without."""
        self.redo_stack = []
        self.outcome = None
        self.review_ply = None
        self.hint_move = None
        self.report = None
        self.evals = {}
        self.paused = False
        self.record_name = None
        self.headers = {}
        self.ponder_hits = self.ponder_misses = 0

    def _set_level(self, color: Color, level: str) -> None:
        level = str(level)
        if level != EXTERNAL:
            level_named(level)          # ValueError for an unknown level
        elif not self.settings.external_engine.strip():
            raise ValueError("no external engine is set")
        self.levels[color] = level
        if self.mode == HVC and color != self.human_color:
            self.settings.level = level
        elif self.mode == CVC:
            setattr(self.settings, f"{color_name(color)}_level", level)

    def set_level(self, color: Color, level: str) -> None:
        """Changes a computer's level, also in the middle of a game: a search
        already running finishes at its old level, the next one uses the new."""
        self._set_level(color, level)
        self._cancel_ponder()
        self._emit("status")

    # --- opening book and pondering -----------------------------------------

    def set_book(self, on: bool) -> None:
        """Opening book on or off (from the next computer move)."""
        self.settings.book = bool(on)
        self._emit("status")

    def set_threads(self, threads: int) -> None:
        """Search threads of cxiangqi's engine (from its next search)."""
        if (not isinstance(threads, int) or isinstance(threads, bool)
                or not 1 <= threads <= MAX_THREADS):
            raise ValueError(f"threads must be an integer 1..{MAX_THREADS}, not {threads!r}")
        self.settings.threads = threads
        self._emit("status")

    def set_ponder(self, mode: str) -> None:
        """Pondering "auto" (on except at the easy levels), "on" or "off"."""
        if mode not in ("auto", "on", "off"):
            raise ValueError(f"ponder must be auto, on or off, not {mode!r}")
        self.settings.ponder = mode
        if not self.ponders():
            self._cancel_ponder()
        self._emit("status")

    def ponders(self, color: Optional[Color] = None) -> bool:
        """Does the computer (playing `color`, default the human's opponent)
        think on the human's time?  Only against a human, with cxiangqi's
        own engine."""
        color = (not self.human_color) if color is None else color
        level = self.levels[color]
        return self.mode == HVC and level != EXTERNAL and self.settings.ponder_at(level)

    @property
    def ponder_move(self) -> Optional[Move]:
        """The reply the computer expects and is thinking about now, or None."""
        task = self._ponder
        return task.board.move_stack[-1] if task is not None else None

    @property
    def ponder_rate(self) -> Optional[Tuple[int, int]]:
        """(hits, hits + misses) of this game's pondering; None before the first."""
        total = self.ponder_hits + self.ponder_misses
        return (self.ponder_hits, total) if total else None

    def book_moves(self, board: Optional[Board] = None) -> List[Tuple[Move, int]]:
        """The book's moves for `board` (default the live one) when the book
        is on; [] otherwise or out of book."""
        book = self._book_for()
        return book.moves(board or self.board) if book is not None else []

    def _book_for(self) -> Optional[Book]:
        if not self.settings.book:
            return None
        if self._book is False:
            self._book = self._book_factory()
        return self._book

    def _start_ponder(self, color: Color, level: str, expected: Optional[Move]) -> None:
        """After the computer's move: ponder on the reply it expects."""
        self._cancel_ponder()
        if (expected is None or self.outcome is not None or not self.ponders(color)
                or self.review_ply is not None or not self.board.is_legal(expected)):
            return
        engine = self._engine_for()
        board = self.board.copy()
        board.push(expected)
        if board.outcome(claim_draw=True) is not None or self.book_moves(board):
            return                  # the game ends there, or the book answers it
        self._gen += 1
        task = _Task("ponder", self._gen, color, board, level)
        if self.time_control is not None:
            task.limit = Limit(time=max(0.05, self.remaining(color) or 0.0),
                               inc=self.time_control[1])
        engine.clear_stop()
        task.thread = threading.Thread(target=self._run, args=(task,), daemon=True,
                                       name="cxiangqi-ponder")
        self._ponder = task
        task.thread.start()

    def _cancel_ponder(self) -> None:
        """Stops pondering (neither a hit nor a miss: the game changed)."""
        task, self._ponder = self._ponder, None
        if task is not None and self._engine is not None:
            self._engine.stop()

    def _take_ponder(self, color: Color, level: str) -> bool:
        """At the computer's turn: True when the ponder search was on this
        very position (a hit), which then becomes the running search."""
        task, self._ponder = self._ponder, None
        if task is None:
            return False
        if (task.color == color and task.level == level
                and task.board.move_stack == self.board.move_stack
                and task.board.fen() == self.board.fen()):
            self.ponder_hits += 1
            self._engine.ponderhit()
            task.kind = "move"
            self._task = task
            if task.last_info is not None:
                self._on_info(task, task.last_info)
            self._emit("thinking", color=color)
            return True
        self.ponder_misses += 1
        self._engine.stop()
        return False

    # --- moves -------------------------------------------------------------

    def play(self, move: Move) -> bool:
        """A human's move: False (nothing changes) when it is not a human's
        turn or the move is illegal."""
        if self.held or self._check_flag() or not self.human_to_move() \
                or not self.board.is_legal(move):
            return False
        self._apply(move, by_computer=False)
        return True

    def _apply(self, move: Move, by_computer: bool) -> None:
        captured = self.board.piece_at(move.to_square)
        if self.time_control is not None and self._clock_start is not None:
            self._charge()
            self.clocks[self.board.turn] += self.time_control[1]
        self.board.push(move)
        if self.redo_stack and self.redo_stack[-1] == move:
            self.redo_stack.pop()
            if self._redo_clocks:
                self._redo_clocks.pop()
        else:
            self.redo_stack = []
            self._redo_clocks = []
        self._clock_log.append(dict(self.clocks))
        self.hint_move = None
        self.outcome = self._rules_outcome()
        if self.outcome is not None:
            self._cancel_ponder()       # the game is over: nothing left to answer
        self._clock_go()
        self._emit("move", move=move, captured=captured, check=self.board.is_check(),
                   by_computer=by_computer)
        if self.outcome is not None:
            self._emit("over", outcome=self.outcome)
        self._schedule()

    def _rules_outcome(self) -> Optional[Outcome]:
        return self.board.outcome(claim_draw=True)

    def undo(self) -> bool:
        """Takes back moves: against the computer your last move and its reply
        (a running search is stopped); otherwise one ply (computer vs computer
        pauses).  The clocks go back to what they showed at that ply, so an
        undo after a lost flag reopens the game.  False when there is
        nothing to take back."""
        stack = self.board.move_stack
        if not stack:
            return False
        if self.mode == HVC and not self.analysing:
            # back to the human's turn, with at least one human move taken back
            n, color = 0, self.board.turn
            for _ in stack:
                n += 1
                color = not color           # the side that played the popped move
                if color == self.human_color:
                    break
            else:
                return False                # the human has not moved yet
        else:
            n = 1
        self._cancel()
        for _ in range(n):
            self.redo_stack.append(self.board.pop())
            if len(self._clock_log) > 1:
                self._redo_clocks.append(self._clock_log.pop())
        if self.mode == CVC:
            self.paused = True
        self._after_jump()
        return True

    def redo(self) -> bool:
        """Replays taken-back moves: one ply, or against the computer your
        move and its reply; the clocks as they were after them."""
        if not self.redo_stack or self.review_ply is not None:
            return False
        self._cancel()
        self._redo_one()
        if self.mode == HVC:
            while self.redo_stack and self.is_computer(self.board.turn):
                self._redo_one()
        self._after_jump()
        return True

    def _redo_one(self) -> None:
        self.board.push(self.redo_stack.pop())
        self._clock_log.append(self._redo_clocks.pop() if self._redo_clocks
                               else dict(self._clock_log[-1]))

    def _after_jump(self) -> None:
        n = len(self.board.move_stack)
        self.evals = {p: v for p, v in self.evals.items() if p <= n}     # a new line from here
        if self.time_control is not None:
            self.clocks = dict(self._clock_log[-1])
        self.outcome = self._rules_outcome()
        self._clock_go()
        self.hint_move = None
        self.review_ply = None
        self.report = None
        self._emit("reset")
        self._emit("info", report=None)
        if self.outcome is not None:
            self._emit("over", outcome=self.outcome)
        self._schedule()

    def resign(self) -> bool:
        """Resigns: against the computer the human; otherwise the side to
        move (in computer vs computer the user ends the game for it)."""
        if self.outcome is not None:
            return False
        loser = self.human_color if self.mode == HVC else self.board.turn
        self._finish(Outcome(Termination.RESIGNATION, not loser))
        return True

    def agree_draw(self) -> bool:
        """Both players agreed to a draw (the view asks the other player)."""
        if self.outcome is not None:
            return False
        self._finish(Outcome(Termination.AGREEMENT, None))
        return True

    def computer_accepts_draw(self) -> bool:
        """Would the computer accept a draw now?  Only when the game is long
        enough and its own last evaluation is level or worse for it."""
        if self.mode != HVC or len(self.board.move_stack) < DRAW_MIN_PLIES:
            return False
        score = self.evals.get(len(self.board.move_stack))
        if score is None:
            score = self.evals.get(len(self.board.move_stack) - 1)
        if score is None:
            return False
        mine = score if self.human_color == BLACK else -score
        return mine <= DRAW_ACCEPT_CP

    def offer_draw(self) -> Optional[bool]:
        """The human offers a draw to the computer: True (agreed, the game
        ends), False (declined).  None when no computer is asked (human vs
        human: the view asks the other player and calls agree_draw)."""
        if self.outcome is not None or self.mode != HVC:
            return None
        if self.computer_accepts_draw():
            self.agree_draw()
            return True
        return False

    def _finish(self, outcome: Outcome) -> None:
        self._cancel()
        self._charge()
        self.outcome = outcome
        self._clock_start = None
        self._emit("over", outcome=outcome)
        self._emit("status")

    # --- computer vs computer ----------------------------------------------

    def pause(self) -> None:
        self._charge()
        self.paused = True
        self._clock_go()
        self._emit("status")

    def resume(self) -> None:
        self.paused = False
        self._clock_go()
        self._emit("status")
        self._schedule()

    def step(self) -> None:
        """Paused computer vs computer: the side to move plays one move."""
        if self.outcome is None and self.review_ply is None and self._task is None \
                and self.is_computer(self.board.turn):
            self._start(self.board.turn, "move")

    def set_delay(self, seconds: float) -> None:
        self.cvc_delay = max(0.0, float(seconds))
        self.settings.cvc_delay = self.cvc_delay

    # --- review ------------------------------------------------------------

    def review(self, ply: Optional[int]) -> None:
        """Shows the position after `ply` moves (0 = start); None = the live game."""
        if ply is not None:
            ply = max(0, min(int(ply), len(self.board.move_stack)))
            if ply == len(self.board.move_stack) and self.outcome is None:
                ply = None
        if ply == self.review_ply:
            return
        self.review_ply = ply
        self._emit("reset")
        if ply is None:
            self._schedule()
        else:
            self._restart_analysis()

    def step_review(self, delta: int) -> None:
        """←/→: one half-move back or forward from the shown position."""
        self.review(self.shown_ply() + delta)

    def shown_ply(self) -> int:
        return len(self.board.move_stack) if self.review_ply is None else self.review_ply

    def shown_board(self) -> Board:
        """The board the view draws: the live one, or the reviewed position."""
        if self.review_ply is None:
            return self.board
        return self.position_at(self.review_ply)

    def position_at(self, ply: int) -> Board:
        b = self.board.copy()
        while len(b.move_stack) > ply:
            b.pop()
        return b

    def last_move(self) -> Optional[Move]:
        b = self.shown_board()
        return b.move_stack[-1] if b.move_stack else None

    def start_board(self) -> Board:
        return self.position_at(0)

    def move_texts(self, notation: Optional[str] = None) -> List[str]:
        """The moves played, each in `notation` (default: the settings')."""
        notation = notation or self.settings.notation
        moves = self.board.move_stack
        try:
            return _notation.move_list(self.start_board(), moves, notation,
                                       traditional=self.settings.traditional)
        except Exception:       # notation still being finished: never lose the list
            return [m.iccs() for m in moves]

    def line_text(self, board: Board, moves: List[Move]) -> List[str]:
        try:
            return _notation.move_list(board, moves, self.settings.notation,
                                       traditional=self.settings.traditional)
        except Exception:
            return [m.iccs() for m in moves]

    # --- hint --------------------------------------------------------------

    def hint(self) -> bool:
        """Asks the engine for a move for the human to move (at the
        computer's level, at least level 5); the answer arrives as a "hint"
        event."""
        if self.analysing or not self.human_to_move() or self._task is not None:
            return False
        level = self.levels[not self.board.turn] if self.mode == HVC else self.settings.level
        if level == EXTERNAL or level_named(level).name in ("1", "2", "3", "4", "easy"):
            level = "5"
        self._cancel_ponder()           # one search at a time: the hint goes first
        self._start(self.board.turn, "hint", level)
        return True

    # --- analysis ----------------------------------------------------------

    def set_analysis(self, on: bool) -> None:
        """Analysis mode: nobody's computer moves; the engine thinks without
        a limit on the shown position and starts again whenever it changes."""
        on = bool(on)
        if on == self.analysing:
            return
        self._cancel()
        self.analysing = on
        self.report = None
        self._emit("info", report=None)
        self._emit("status")
        if on:
            self._restart_analysis()
        else:
            self._schedule()

    def _restart_analysis(self) -> None:
        if not self.analysing:
            return
        self._cancel()
        if self.report is not None:         # the old line belongs to another position
            self.report = None
            self._emit("info", report=None)
        board = self.shown_board()
        if board.outcome(claim_draw=True) is not None:
            return
        self._start(board.turn, "analyse", "10", board=board)

    # --- the worker thread -------------------------------------------------

    def _schedule(self) -> None:
        """Arranges for the computer to move if it is its turn (in analysis
        mode: starts the analysis of the position now shown)."""
        if self.analysing:
            self._due = None
            self._restart_analysis()
            return
        if (self.outcome is None and self.review_ply is None and self._task is None
                and self.is_computer(self.board.turn) and not (self.mode == CVC and self.paused)):
            delay = self.cvc_delay if self.mode == CVC else self.move_delay
            self._due = time.monotonic() + delay
        else:
            self._due = None

    def _engine_for(self) -> Any:
        if self._engine is None:
            self._engine = self._engine_factory()
        return self._engine

    def _start(self, color: Color, kind: str, level: Optional[str] = None,
               board: Optional[Board] = None) -> None:
        self._due = None
        level = level or self.levels[color]
        if kind == "move" and self._take_ponder(color, level):
            return
        self._gen += 1
        task = _Task(kind, self._gen, color, (board or self.board).copy(), level)
        if kind == "move" and self.time_control is not None:
            inc = self.time_control[1]
            task.limit = Limit(red_clock=max(0.05, self.remaining(RED) or 0.0),
                               black_clock=max(0.05, self.remaining(BLACK) or 0.0),
                               red_inc=inc, black_inc=inc)
        if kind == "analyse":
            task.limit = Limit()
        if level != EXTERNAL:
            # a stop() meant for an earlier search must not end this one
            self._engine_for().clear_stop()
        task.thread = threading.Thread(target=self._run, args=(task,), daemon=True,
                                       name=f"cxiangqi-{kind}")
        self._task = task
        task.thread.start()
        if kind == "move":
            self._emit("thinking", color=color)

    def _run(self, task: _Task) -> None:
        """Worker thread: search, then post the answer to the queue."""
        try:
            if task.gen != self._gen:
                return
            if task.level == EXTERNAL:
                result = self._run_external(task)
            else:
                engine = self._engine_for()
                # the settings' thread count, applied between searches
                if (hasattr(engine, "set_threads")
                        and getattr(engine, "threads", 1) != self.settings.threads):
                    engine.set_threads(self.settings.threads)

                def on_info(info: SearchInfo) -> None:
                    self._queue.put(("info", task.gen, info))

                book_move = self._book_move(task)
                if book_move is not None:
                    self._queue.put(("book", task.gen, book_move))
                    return
                if task.kind in ("hint", "analyse"):
                    limit = task.limit if task.kind == "analyse" else Limit(time=1.0)
                    result = engine.analyse(task.board, limit, 1, on_info=on_info,
                                            level=task.level, clear_stop=False)[0]
                elif task.kind == "ponder":
                    result = engine.search(task.board, task.limit, on_info=on_info,
                                           level=task.level, clear_stop=False, ponder=True)
                else:
                    result = engine.search(task.board, task.limit, on_info=on_info,
                                           level=task.level, clear_stop=False)
            self._queue.put(("done", task.gen, result))
        except Exception as exc:            # reported in the UI, never kills the app
            self._queue.put(("error", task.gen, exc))

    def _book_move(self, task: _Task) -> Optional[Move]:
        """Worker thread: a weighted random book move for a computer move."""
        if task.kind != "move":
            return None
        book = self._book_for()
        return book.choice(task.board, self.book_rng) if book is not None else None

    def set_external_engine(self, command: str, protocol: str = "auto") -> None:
        """The external engine's command line and protocol (auto/uci/ucci);
        an engine already running is closed (the next search starts the new one)."""
        if protocol not in ("auto", "uci", "ucci", "xboard"):
            raise ValueError(f"unknown protocol {protocol!r}")
        self.settings.external_engine = command.strip()
        self.settings.external_protocol = protocol
        self._close_external()

    def _close_external(self) -> None:
        ext, self._external = self._external, None
        if ext is not None:
            try:
                ext.quit()
            except Exception:
                pass

    def _run_external(self, task: _Task) -> Any:
        with self._external_lock:
            return self._run_external_locked(task)

    def _run_external_locked(self, task: _Task) -> Any:
        from cxiangqi.external import ExternalEngine
        if task.gen != self._gen:
            raise RuntimeError("stale search")          # dropped by poll() anyway
        if self._external is None:
            self._external = ExternalEngine.popen(self.settings.external_engine,
                                                  self.settings.external_protocol or "auto")
        if task.limit is not None:
            return self._external.play(task.board, task.limit)
        return self._external.play(task.board, Limit(time=1.0))

    def _cancel(self) -> None:
        """Stops a running search; its answer will be dropped."""
        self._due = None
        self._cancel_ponder()
        if self._task is not None:
            kind = self._task.kind
            self._gen += 1
            if self._task.level != EXTERNAL and self._engine is not None:
                self._engine.stop()
            self._task = None
            if kind == "move":
                self._emit("thinking", color=None)

    def poll(self) -> None:
        """Handles the worker's answers and starts a due search; the view
        calls it every few tens of milliseconds.  While the game is held
        (a dialog is open) nothing changes."""
        if self._holds:
            return
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            kind, gen = item[0], item[1]
            task = self._task
            ponder = self._ponder
            if ponder is not None and gen == ponder.gen:
                if kind == "info" and getattr(item[2], "multipv", 1) == 1:
                    ponder.last_info = item[2]      # shown if the ponder search becomes the answer
                elif kind == "error":
                    self._ponder = None
                continue
            if task is None or gen != task.gen:
                continue                    # a stale answer
            if kind == "info":
                self._on_info(task, item[2])
            elif kind == "error":
                self._task = None
                if task.kind == "move":
                    self._emit("thinking", color=None)
                exc = item[2]
                self._emit("error", message=str(exc) or type(exc).__name__, exc=exc)
                if task.level == EXTERNAL:
                    self._close_external()
            elif kind == "done":
                self._task = None
                self._on_done(task, item[2])
            elif kind == "book":
                self._task = None
                self._on_book(task, item[2])
        if self._check_flag():
            return
        if self._due is not None and self._task is None and time.monotonic() >= self._due:
            self._start(self.board.turn, "move")

    def _on_done(self, task: _Task, result: Any) -> None:
        move = getattr(result, "move", None)
        if task.kind == "hint":
            self.hint_move = move
            self._emit("hint", move=move)
            return
        if task.kind == "analyse":
            return
        self._emit("thinking", color=None)
        report = self._final_report(task, result)
        if report is not None:
            self.report = report
            self.evals[len(task.board.move_stack)] = _graph_score(report.score, report.mate)
            self._emit("info", report=report)
        if move is not None and self.board.turn == task.color and self.board.is_legal(move):
            self._apply(move, by_computer=True)
            self._start_ponder(task.color, task.level, getattr(result, "ponder", None))

    def _on_book(self, task: _Task, move: Move) -> None:
        """A computer move from the opening book: the panel names it (no
        score, so nothing for the graph) and no pondering follows (no line)."""
        self._emit("thinking", color=None)
        text = self.line_text(task.board, [move])
        self.report = EngineReport(pv=text, played=text[0], book=True)
        self._emit("info", report=self.report)
        if self.board.turn == task.color and self.board.is_legal(move):
            self._apply(move, by_computer=True)

    def _final_report(self, task: _Task, result: Any) -> Optional[EngineReport]:
        """The panel's report for the move the computer played: its own
        line and score (a level that picks a weaker move on purpose says
        which move was best)."""
        sign = 1 if task.board.turn == RED else -1
        move = getattr(result, "move", None)
        if move is None:
            return None
        if hasattr(result, "info"):                 # an external engine's PlayResult
            info = result.info or {}
            pv = list(info.get("pv") or [move])
            if pv[0] != move:
                pv = [move]
            score = info.get("score")
            mate = info.get("mate")
            nodes = int(info.get("nodes") or 0)
            t = float(info.get("time") or 0.0)
            nps = int(info.get("nps") or (nodes / t if t > 0 else 0))
            return EngineReport(int(info.get("depth") or 0),
                                sign * int(score) if score is not None else 0,
                                None if mate is None else sign * int(mate), nodes, nps,
                                self.line_text(task.board, pv[:8]),
                                played=self.line_text(task.board, [move])[0])
        pv = list(result.pv or [move])
        if pv[0] != move:
            pv = [move]
        best = None
        if task.best is not None and task.best.pv and task.best.pv[0] != move:
            best = self.line_text(task.board, [task.best.pv[0]])[0]
        nps = int(result.nodes / result.time) if result.time > 0 else 0
        mate = None if result.mate is None else sign * result.mate
        return EngineReport(result.depth, sign * result.score, mate, result.nodes, nps,
                            self.line_text(task.board, pv[:8]),
                            played=self.line_text(task.board, [move])[0], best=best)

    def _on_info(self, task: _Task, info: SearchInfo) -> None:
        if getattr(info, "multipv", 1) != 1:
            return                      # the other lines a randomising level looks at
        task.best = info
        sign = 1 if task.board.turn == RED else -1
        mate = None if info.mate is None else sign * info.mate
        self.report = EngineReport(info.depth, sign * info.score, mate, info.nodes, info.nps,
                                   self.line_text(task.board, list(info.pv[:8])),
                                   analysing=task.kind == "analyse")
        if task.kind == "analyse":
            self.evals[len(task.board.move_stack)] = _graph_score(self.report.score, mate)
        self._emit("info", report=self.report)

    def shutdown(self) -> None:
        """Stops any search and closes an external engine."""
        tasks = [self._task, self._ponder]
        self._cancel()
        for task in tasks:
            if task is not None and task.thread is not None:
                task.thread.join(timeout=2.0)
        self._close_external()

    # --- records -----------------------------------------------------------

    def fen(self) -> str:
        return self.shown_board().fen()

    def set_fen(self, fen: str) -> None:
        """A new game from a position (InvalidFenError, a ValueError, if bad)."""
        self.new_game(fen=fen.strip())

    def to_game(self) -> "_pgn.Game":
        game = _pgn.Game.from_board(self.board)
        h = game.headers
        h["Event"] = self.headers.get("Event", "cxiangqi")
        h["Date"] = self.headers.get("Date", time.strftime("%Y.%m.%d"))
        for color in (RED, BLACK):
            key = "Red" if color == RED else "Black"
            h[key] = self.headers.get(key) or (
                f"cxiangqi {self.levels[color]}" if self.is_computer(color) else "Human")
        h["Result"] = self.outcome.result() if self.outcome is not None else "*"
        if self.outcome is not None:
            h["Termination"] = self.outcome.termination.name.lower()
        h["Mode"] = self.mode
        h["HumanColor"] = color_name(self.human_color)
        h["RedLevel"] = self.levels[RED]
        h["BlackLevel"] = self.levels[BLACK]
        if self.time_control is not None:
            base, inc = self.time_control
            h["TimeControl"] = f"{base:g}+{inc:g}"
        return game

    def pgn_text(self, notation: Optional[str] = None) -> str:
        """The game as PGN text (for the clipboard)."""
        import io
        out = io.StringIO()
        _pgn.write_game(self.to_game(), out, notation or self.settings.notation,
                        traditional=self.settings.traditional)
        return out.getvalue()

    def save_pgn(self, path: Union[str, Path], notation: Optional[str] = None) -> None:
        """Writes the game as PGN (atomically); OSError on failure."""
        _pgn.write_game(self.to_game(), str(path), notation or self.settings.notation)

    def load_pgn(self, path: Union[str, Path]) -> None:
        """Loads a game from PGN: its mode, side and levels when the file was
        written by this game, else the current ones (computer vs computer
        starts paused).  ValueError/OSError if the file cannot be read;
        nothing changes then."""
        game = _pgn.read_game(str(path))
        if game is None:
            raise ValueError("no game in the file")
        self.load_game(game)

    def load_game(self, game: "_pgn.Game", *, name: Optional[str] = None) -> None:
        """Replaces the game by `game` (its main line).  A game this program
        wrote (it has a Mode header) goes on where it stopped; any other
        record opens for review at its start (``name``: the file it came
        from, shown in the title).  ValueError if a move is illegal."""
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
        h = game.headers
        self._cancel()
        ours = h.get("Mode") in MODES
        if ours:
            self.mode = h["Mode"]
        if h.get("HumanColor") in ("red", "black"):
            self.human_color = color_of(h["HumanColor"])
        for color, key in ((RED, "RedLevel"), (BLACK, "BlackLevel")):
            if h.get(key) in LEVEL_NAMES:
                self.levels[color] = h[key]
        if not ours and self.mode != HVH:
            self.mode = HVH         # a record from elsewhere: two humans go on from it
        self.board = board
        self._fresh()
        self.record_name = name
        self.headers = {k: h[k] for k in ("Event", "Date", "Red", "Black", "Site") if h.get(k)}
        if not ours:
            for key in ("Red", "Black"):
                if self.headers.get(key) in ("?", ""):
                    del self.headers[key]
        self.paused = self.mode == CVC
        tc = h.get("TimeControl", "")
        if tc:
            try:
                base, _, inc = tc.partition("+")
                self.set_time_control(parse_time_control(f"{float(base):g}s+{inc or 0}"))
            except ValueError:
                pass
        elif not ours:
            self.set_time_control(None)
        outcome = self._rules_outcome()
        result = h.get("Result", "*")
        if outcome is None and result in ("1-0", "0-1", "1/2-1/2"):
            term = h.get("Termination", "").upper()
            if result == "1/2-1/2":
                outcome = Outcome(Termination.AGREEMENT, None)
            else:
                reason = Termination[term] if term in Termination.__members__ else Termination.RESIGNATION
                try:
                    outcome = Outcome(reason, RED if result == "1-0" else BLACK)
                except ValueError:      # a draw's reason with a winner: the header is wrong
                    outcome = Outcome(Termination.RESIGNATION, RED if result == "1-0" else BLACK)
        self.outcome = outcome
        if not ours and board.move_stack:
            self.review_ply = 0
        self._reset_clocks()
        self._emit("reset")
        self._emit("info", report=None)
        self._schedule()

    def players(self) -> Optional[str]:
        """'Red vs Black' from a loaded record's headers, or None."""
        red, black = self.headers.get("Red"), self.headers.get("Black")
        if self.record_name is None or not (red or black):
            return None
        return f"{red or '?'} — {black or '?'}"

    # --- autosave ----------------------------------------------------------

    @staticmethod
    def autosave_path() -> Path:
        return config_dir() / "autosave.pgn"

    def autosave(self, path: Optional[Path] = None) -> bool:
        """On exit: saves a game in progress, removes the file otherwise."""
        store = Autosave(Path(path or self.autosave_path()))
        return store.save(self.in_progress,
                          lambda p: _pgn.write_game(self.to_game(), str(p), "iccs"))

    @staticmethod
    def read_autosave(path: Optional[Path] = None) -> Optional["_pgn.Game"]:
        """The autosaved game in progress, or None (missing or corrupt: a
        corrupt file is reported with a warning and ignored)."""
        def read(p: Path) -> Optional["_pgn.Game"]:
            game = _pgn.read_game(str(p))
            if game is None or game.errors:
                raise ValueError("no complete game in it")
            if not list(game.mainline_moves()):
                return None
            return game

        return Autosave(Path(path or GameController.autosave_path())).load(
            read, (ValueError, OSError, IllegalMoveError, InvalidFenError))
