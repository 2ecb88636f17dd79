"""The engine command: cxiangqi's engine speaking UCCI or UCI on stdin/stdout.

Run it as ``cxiangqi-engine`` or ``python -m cxiangqi.protocol``.  The first
command picks the protocol:

``ucci``
    UCCI 3.0 (www.xqbase.com/protocol/cchess_ucci.htm, as ElephantEye speaks
    it): ``setoption <name> [<value>]`` (usemillisec, hashsize, newgame, level,
    randomness, batch, ponder, debug, usebook (alias ownbook)),
    ``position {fen F | startpos} [moves ...]``,
    ``banmoves ...``, ``go [ponder | draw] {depth N | nodes N | time T
    [movestogo N | increment I] [opptime ...] | infinite}``, ``ponderhit
    [draw]``, ``stop``, ``probe``, ``quit``; answers ``info depth .. score ..
    pv ..``, ``info time .. nodes ..``, ``bestmove M [ponder P] [draw]``,
    ``nobestmove``, ``bye``.  Times are milliseconds (the engine announces
    ``usemillisec``, default true); after ``setoption usemillisec false`` they
    are seconds.  Problems are reported as ``info message ...`` (UCCI's own
    free-text info).
``uci``
    UCI as Pikafish speaks it for xiangqi (squares ``a0``..``i9``, rank 0 on
    Red's side, ``w`` = Red): options Hash, Clear Hash, MultiPV, Skill Level,
    Threads, Ponder, OwnBook; ``go`` with depth, nodes, movetime, wtime/btime,
    winc/binc, movestogo, infinite, ponder, searchmoves; ``info depth seldepth
    multipv score cp|mate nodes nps time pv``, ``bestmove M [ponder P]`` and
    ``bestmove (none)`` when there is no legal move.  Problems are reported as
    ``info string ...``.

Input is read on the main thread while the search runs in a worker thread (the
compiled search releases the GIL), so ``stop``, ``quit``, ``isready`` and
``ponderhit`` are answered during a search.  Commands that need an idle engine
(``go``, ``setoption``, ``ucinewgame``, ...) that arrive during a search are
queued and run, in order, when it ends.  A line that cannot be understood (an
unknown command, a bad FEN, an illegal move, a line over 64 KiB, binary junk)
is answered with an info line saying what was wrong and otherwise ignored;
end of input means ``quit``.

With the book on (UCI ``OwnBook``, UCCI ``usebook``; off by default), a ``go``
in a position of the shipped opening book (:mod:`cxiangqi.book`) is answered
at once with a book move picked at random by weight, after an info line
``book move ...``; ``go ponder`` and infinite searches always search.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import threading
import time
from typing import BinaryIO, Callable, Iterator, List, Optional, Sequence

from .board import Board
from .book import Book
from .engine import (LEVELS, MAX_THREADS, Engine, Level, Limit, SearchInfo, SearchResult,
                     level_named)
from .errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from .fen import STARTING_FEN
from .move import Move

__all__ = ["EngineServer", "main", "engine_name"]

ENGINE_AUTHOR = "the cxiangqi authors"


def engine_name() -> str:
    """``cxiangqi <version>``, as the engine introduces itself."""
    from . import __version__  # here, not at import: the package imports its parts first
    return f"cxiangqi {__version__}"

#: longest input line; a longer one is dropped as a whole
MAX_LINE = 1 << 16
#: most commands kept waiting for a search to end
MAX_PENDING = 1000

DEFAULT_HASH_MB = 64
MAX_HASH_MB = 4096
MAX_MULTIPV = 128
#: UCCI (ElephantEye) scale for mate scores: 10000 - plies to mate
UCCI_MATE = 10000
#: a draw offered with ``go draw`` is accepted below this score (centipawns)
DRAW_ACCEPT_BELOW = 30

# UCCI's randomness grades, as centipawn windows for Level.randomness
UCCI_RANDOMNESS = {"none": 0, "tiny": 10, "small": 20, "medium": 40, "large": 80, "huge": 160}
# UCCI options a GUI may set that this engine has no use for (accepted silently,
# as the UCCI document asks)
UCCI_IGNORED_OPTIONS = {"useegtb", "bookfiles", "egtbpaths", "evalapi", "threads",
                        "idle", "promotion", "pruning", "knowledge", "style", "loadbook",
                        "repetition", "drawmoves", "selectivity", "usehash"}
_LEVEL_NAMES = [str(i) for i in range(1, 11)] + ["easy", "normal", "hard"]

# commands that wait (queued) while a search runs; the others are carried out
# at once (stop, isready, ponderhit, ...), or apply to the next search
# (position, banmoves)
_NEEDS_IDLE = {"go", "setoption", "ucinewgame", "uci", "ucci"}
_ORDERED = {"position", "banmoves"}


class _Output:
    """Writes whole lines to a binary stream, flushed, from any thread.  A
    closed or broken stream is remembered, not raised."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False

    def line(self, text: str) -> None:
        data = text.encode("ascii", "backslashreplace") + b"\n"
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(data)
                self._stream.flush()
            except (OSError, ValueError):
                self.closed = True


def _show(text: str, limit: int = 60) -> str:
    """A line quoted for an error message: control characters escaped,
    shortened to about `limit` characters."""
    out = []
    for ch in text[:limit]:
        if ch == "\\" or ch == "'":
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    more = f"... ({len(text)} characters)" if len(text) > limit else ""
    return "'" + "".join(out) + more + "'"


_TOO_LONG = object()


def _read_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[object]:
    """Lines of `stream` as str (undecodable bytes replaced); a line longer
    than `limit` bytes is skipped whole and yields _TOO_LONG instead."""
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            while True:
                more = stream.readline(limit)
                if not more or more.endswith(b"\n"):
                    break
            yield _TOO_LONG
            continue
        yield raw.decode("utf-8", "replace").rstrip("\r\n")


class _BadCommand(Exception):
    """A command that cannot be carried out; the message says why."""


def _number(tokens: List[str], i: int, what: str, *, lo: float = 0,
            hi: float = 1e15, integer: bool = True) -> float:
    """The number after tokens[i] (a keyword), clamped to lo..hi."""
    if i + 1 >= len(tokens):
        raise _BadCommand(f"'{what}' needs a number")
    text = tokens[i + 1]
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise _BadCommand(f"'{what}' needs a number, got {_show(text, 20)}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise _BadCommand(f"'{what}' needs a finite number, got {_show(text, 20)}")
    value = min(max(value, lo), hi)
    return int(value) if integer else value


def _parse_position(tokens: List[str]) -> Board:
    """The board of ``position {startpos | fen F} [moves ...]`` (tokens
    after the word position); _BadCommand if anything is wrong."""
    if not tokens:
        raise _BadCommand("'position' needs 'startpos' or 'fen <FEN>'")
    head = tokens[0].lower()
    if head == "startpos":
        fen, rest = STARTING_FEN, tokens[1:]
    elif head == "fen":
        fields: List[str] = []
        i = 1
        while i < len(tokens) and tokens[i].lower() != "moves":
            fields.append(tokens[i])
            i += 1
        if not fields:
            raise _BadCommand("'position fen' needs a FEN")
        # some UCCI interfaces write the side to move as 'r' for red
        if len(fields) > 1 and fields[1] in ("r", "R", "W", "B"):
            fields[1] = "w" if fields[1] in ("r", "R", "W") else "b"
        fen, rest = " ".join(fields), tokens[i:]
    else:
        raise _BadCommand(f"'position' needs 'startpos' or 'fen <FEN>', got {_show(tokens[0], 20)}")
    if rest and rest[0].lower() != "moves":
        raise _BadCommand(f"unexpected {_show(rest[0], 20)} in 'position' (expected 'moves')")
    try:
        board = Board(fen)
    except InvalidFenError as e:
        raise _BadCommand(str(e)) from None
    for k, text in enumerate(rest[1:], 1):
        try:
            board.push_iccs(text)
        except (InvalidMoveError, IllegalMoveError) as e:
            raise _BadCommand(f"move {k} of 'position': {e}") from None
    return board


def _parse_moves(board: Board, tokens: Sequence[str], what: str,
                 complain: Callable[[str], None]) -> List[Move]:
    """The legal moves among `tokens`; the others are reported and skipped."""
    moves: List[Move] = []
    for text in tokens:
        try:
            moves.append(board.parse_iccs(text))
        except (InvalidMoveError, IllegalMoveError) as e:
            complain(f"{what}: {e}; ignored")
    return moves


class _Job:
    """One ``go``: a search running in its own thread.

    A ponder search on a clock runs without limit until ``ponderhit``, which
    stops it and starts the real search (the hash table keeps what pondering
    learnt); its result is held back until ``ponderhit`` or ``stop``, as UCI
    and UCCI require.  ``phase`` counts the searches of a job, so that a stop
    meant for the ponder search cannot reach the real one."""

    def __init__(self, server: "EngineServer", board: Board, limit: Limit, *,
                 ponder: bool = False, hold: bool = False, banmoves: Sequence[Move] = (),
                 multipv: int = 1, draw_offered: bool = False) -> None:
        self.server = server
        self.board = board
        self.banmoves = list(banmoves)
        self.multipv = multipv
        self.draw_offered = draw_offered
        self.ponder = ponder
        # UCI 'go infinite': no answer before stop, even if the search ends
        self.hold = hold
        time_based = limit.movetime is not None or limit.time is not None
        # while pondering, time does not count: search without a limit until ponderhit
        self.first_limit = Limit() if ponder and time_based else limit
        self.real_limit = limit if ponder and time_based else None
        self.lock = threading.Lock()
        self.phase = 0
        self.stopping = False
        self.hit = False
        self.released = threading.Event()
        if not ponder and not hold:
            self.released.set()
        self.done = threading.Event()
        self.start_time = time.monotonic()
        self.thread = threading.Thread(target=self._run, name="cxiangqi-search", daemon=True)

    def start(self) -> None:
        self.thread.start()

    # --- called from the input thread -------------------------------------

    def request_stop(self) -> None:
        with self.lock:
            self.stopping = True
            phase = self.phase
        self.released.set()
        self._nag(phase)

    def ponderhit(self) -> None:
        with self.lock:
            if self.hit:
                return
            self.hit = True
            phase = self.phase
            restart = self.real_limit is not None and phase == 0 and not self.stopping
        if not self.hold:
            self.released.set()
        if restart:
            self._nag(phase)

    def _nag(self, phase: int) -> None:
        # Engine.stop() is lost if it lands before the search has set itself
        # up, so keep asking until this phase's search has returned.
        engine = self.server.engine

        def nag() -> None:
            while not self.done.is_set():
                with self.lock:
                    if self.phase != phase:
                        return
                    engine.stop()
                if self.done.wait(0.02):
                    return

        threading.Thread(target=nag, name="cxiangqi-stop", daemon=True).start()

    # --- the worker thread ------------------------------------------------

    def _search(self, limit: Limit) -> SearchResult:
        engine = self.server.engine
        on_info = self.server.report_info
        if self.multipv > 1 and not self.banmoves:
            lines = engine.analyse(self.board, limit, self.multipv, on_info=on_info)
            if lines:
                return lines[0]
        return engine.search(self.board, limit, on_info=on_info, banmoves=self.banmoves)

    def _run(self) -> None:
        result: Optional[SearchResult] = None
        error: Optional[str] = None
        try:
            result = self._search(self.first_limit)
            if self.ponder or self.hold:
                self.released.wait()
                with self.lock:
                    again = self.real_limit is not None and self.hit and not self.stopping
                    if again:
                        self.phase = 1
                if again:
                    result = self._search(self.real_limit)  # type: ignore[arg-type]
        except Exception as e:  # a bug in the search must not take the protocol down
            error = f"search failed: {type(e).__name__}: {e}"
        self.server.job_finished(self, result, error)


class EngineServer:
    """The protocol state machine.  Feed it lines with ``handle(line)`` (or
    run it over a stream with ``run``); it writes its answers through
    `out`, one line at a time."""

    def __init__(self, out: Callable[[str], None],
                 engine_factory: Callable[..., Engine] = Engine) -> None:
        self._write = out
        self._engine_factory = engine_factory
        self._engine: Optional[Engine] = None
        self.protocol: Optional[str] = None  # "uci" | "ucci"
        self.board: Optional[Board] = Board()
        self.board_error: Optional[str] = None
        self.banmoves: List[Move] = []
        self.hash_mb = DEFAULT_HASH_MB
        self.threads = 1
        self.multipv = 1
        self.level_name = "hard"
        self.randomness: Optional[int] = None
        self.millisec = True
        self.batch = False
        self.debug = False
        self.own_book: Optional[Book] = None   # the book, when OwnBook/usebook is on
        self._book_rng = random.Random()
        self.quitting = False
        self.job: Optional[_Job] = None
        self.pending: List[str] = []
        self._stop_queued_go = False
        self._said_bye = False
        self._lock = threading.RLock()

    # --- output -------------------------------------------------------------

    def send(self, text: str) -> None:
        self._write(text)

    def complain(self, what: str) -> None:
        """Reports a problem with the input: ``info message`` in UCCI (its
        free-text info), ``info string`` otherwise."""
        kind = "message" if self.protocol == "ucci" else "string"
        self.send(f"info {kind} {what}")

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = self._engine_factory(hash_mb=self.hash_mb)
            self._engine.level = self._level()
            if self.threads != 1:
                self._engine.set_threads(self.threads)
        return self._engine

    def _level(self) -> Level:
        level = level_named(self.level_name)
        if self.randomness is not None:
            level = dataclasses.replace(level, randomness=self.randomness)
        return level

    # --- the input loop -----------------------------------------------------

    def run(self, stream: BinaryIO) -> int:
        """Reads commands until ``quit`` or end of input; returns 0."""
        try:
            for line in _read_lines(stream):
                if line is _TOO_LONG:
                    self.complain(f"line longer than {MAX_LINE} bytes ignored")
                    continue
                self.handle(line)  # type: ignore[arg-type]
                if self.quitting:
                    break
                if self.batch:
                    self.wait_idle()
        except KeyboardInterrupt:
            pass
        self.shutdown(say_bye=False)
        return 0

    def wait_idle(self, timeout: Optional[float] = None) -> bool:
        """Waits until no search runs and nothing is queued."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                job = self.job
                if job is None and not self.pending:
                    return True
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            if job is not None:
                job.done.wait(left if left is not None else 0.1)
            else:
                time.sleep(0.01)

    def shutdown(self, say_bye: bool) -> None:
        """Stops any search, waits briefly for it, and says bye (UCCI)."""
        with self._lock:
            self.quitting = True
            self.pending.clear()
            job = self.job
        if job is not None:
            job.request_stop()
            job.done.wait(5.0)
        if say_bye and self.protocol == "ucci":
            with self._lock:
                if not self._said_bye:
                    self._said_bye = True
                    self.send("bye")

    def handle(self, line: str) -> None:
        """Carries out one command line (or queues it behind a search)."""
        tokens = line.split()
        if not tokens:
            return
        cmd = tokens[0].lower() if tokens[0].isascii() else tokens[0]
        if cmd == "quit":
            self.shutdown(say_bye=True)
            return
        with self._lock:
            # Commands that need an idle engine wait for the search to end;
            # once one waits, a later position or banmoves waits behind it so
            # that the order of the input is kept.
            if (cmd in _NEEDS_IDLE and self.job is not None) or (
                    self.pending and cmd in _NEEDS_IDLE | _ORDERED):
                if len(self.pending) >= MAX_PENDING:
                    self.complain(f"too many commands waiting for the search; ignored {_show(line)}")
                    return
                if self.debug:
                    self.complain(f"queued until the search ends: {_show(line)}")
                self.pending.append(line)
            else:
                self._execute(cmd, tokens, line)

    def _execute(self, cmd: str, tokens: List[str], line: str) -> None:
        if self.protocol is None and cmd not in ("uci", "ucci", "isready", "quit"):
            if cmd in ("xboard", "protover"):
                self.complain("this engine speaks UCI and UCCI, not xboard: send 'uci' or 'ucci'")
            else:
                self.complain(f"send 'uci' or 'ucci' first; ignored {_show(line)}")
            return
        handler = getattr(self, f"_cmd_{cmd}", None) if cmd.isidentifier() else None
        if handler is None or (self.protocol == "uci" and cmd in ("banmoves", "probe")) or (
                self.protocol == "ucci" and cmd == "ucinewgame"):
            self.complain(f"unknown command {_show(line)}")
            return
        try:
            handler(tokens[1:])
        except _BadCommand as e:
            self.complain(str(e))
        except Exception as e:  # never let a command take the engine down
            self.complain(f"{cmd} failed: {type(e).__name__}: {e}")

    def _drain_pending(self) -> None:
        # called with the lock held, when no search runs
        while self.pending and self.job is None and not self.quitting:
            line = self.pending.pop(0)
            tokens = line.split()
            self._execute(tokens[0].lower(), tokens, line)

    # --- handshake and options ----------------------------------------------

    def _cmd_uci(self, args: List[str]) -> None:
        self.protocol = "uci"
        self.send(f"id name {engine_name()}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send(f"option name Hash type spin default {self.hash_mb} min 1 max {MAX_HASH_MB}")
        self.send("option name Clear Hash type button")
        self.send(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
        self.send("option name Skill Level type spin default 10 min 1 max 10")
        self.send(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        self.send("option name Ponder type check default false")
        self.send("option name OwnBook type check default false")
        self.engine  # allocate the hash table now, not during the first search
        self.send("uciok")

    def _cmd_ucci(self, args: List[str]) -> None:
        self.protocol = "ucci"
        self.send(f"id name {engine_name()}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send("option usemillisec type check default true")
        self.send(f"option threads type spin min 1 max {MAX_THREADS} default 1")
        self.send("option batch type check default false")
        self.send("option debug type check default false")
        self.send("option ponder type check default false")
        self.send("option usebook type check default false")
        self.send(f"option hashsize type spin min 1 max {MAX_HASH_MB} default {self.hash_mb}")
        self.send("option level type combo " + " ".join(f"var {n}" for n in _LEVEL_NAMES)
                  + " default hard")
        self.send("option randomness type combo "
                  + " ".join(f"var {n}" for n in UCCI_RANDOMNESS) + " default none")
        self.send("option newgame type button")
        self.engine
        self.send("ucciok")

    def _cmd_isready(self, args: List[str]) -> None:
        self.send("readyok")

    def _cmd_ucinewgame(self, args: List[str]) -> None:
        self.engine.new_game()

    def _cmd_setoption(self, args: List[str]) -> None:
        if self.protocol == "uci":
            self._uci_setoption(args)
        else:
            self._ucci_setoption(args)

    def _uci_setoption(self, args: List[str]) -> None:
        if not args or args[0].lower() != "name":
            raise _BadCommand("expected 'setoption name <name> [value <value>]'")
        words = args[1:]
        lowered = [w.lower() for w in words]
        if "value" in lowered:
            k = lowered.index("value")
            name, value = " ".join(words[:k]), " ".join(words[k + 1:])
        else:
            name, value = " ".join(words), None
        key = name.lower()
        if key == "hash":
            self._set_hash(self._option_int(name, value, 1, MAX_HASH_MB))
        elif key == "clear hash":
            self.engine.new_game()
        elif key == "multipv":
            self.multipv = self._option_int(name, value, 1, MAX_MULTIPV)
        elif key in ("skill level", "level"):
            self._set_level(name, value)
        elif key == "threads":
            self._set_threads(self._option_int(name, value, 1, MAX_THREADS))
        elif key == "ponder":
            self._option_bool(name, value)
        elif key == "ownbook":
            self._set_book(self._option_bool(name, value))
        else:
            raise _BadCommand(f"no such option: {_show(name, 40)}")

    def _ucci_setoption(self, args: List[str]) -> None:
        if not args:
            raise _BadCommand("expected 'setoption <name> [<value>]'")
        key = args[0].lower()
        value = " ".join(args[1:]) or None
        if key == "usemillisec":
            self.millisec = self._option_bool(key, value)
        elif key == "hashsize":
            mb = self._option_int(key, value, 0, MAX_HASH_MB)
            self._set_hash(mb or DEFAULT_HASH_MB)  # 0: the engine chooses
        elif key == "newgame":
            self.engine.new_game()
        elif key == "threads":
            self._set_threads(self._option_int(key, value, 1, MAX_THREADS))
        elif key == "level":
            self._set_level(key, value)
        elif key == "randomness":
            grade = (value or "").lower()
            if grade not in UCCI_RANDOMNESS:
                raise _BadCommand(f"randomness must be one of {', '.join(UCCI_RANDOMNESS)}")
            self.randomness = UCCI_RANDOMNESS[grade]
            self.engine.level = self._level()
        elif key == "batch":
            self.batch = self._option_bool(key, value)
        elif key == "debug":
            self.debug = self._option_bool(key, value)
        elif key == "ponder":
            self._option_bool(key, value)
        elif key in ("usebook", "ownbook"):
            self._set_book(self._option_bool(key, value))
        elif key in UCCI_IGNORED_OPTIONS:
            pass
        else:
            raise _BadCommand(f"no such option: {_show(args[0], 40)}")

    @staticmethod
    def _option_int(name: str, value: Optional[str], lo: int, hi: int) -> int:
        try:
            n = int(value or "")
        except ValueError:
            raise _BadCommand(f"option {name} needs an integer {lo}..{hi}, got "
                              f"{_show(value or '', 20)}") from None
        if not lo <= n <= hi:
            raise _BadCommand(f"option {name} must be {lo}..{hi}, got {n}")
        return n

    @staticmethod
    def _option_bool(name: str, value: Optional[str]) -> bool:
        v = (value or "").lower()
        if v in ("true", "on"):
            return True
        if v in ("false", "off"):
            return False
        raise _BadCommand(f"option {name} needs true or false, got {_show(value or '', 20)}")

    def _set_hash(self, mb: int) -> None:
        self.hash_mb = mb
        if self._engine is not None:
            try:
                self._engine.set_hash(mb)
            except (MemoryError, ValueError) as e:
                raise _BadCommand(f"cannot resize the hash table to {mb} MB: {e}") from None

    def _set_threads(self, n: int) -> None:
        self.threads = n
        if self._engine is not None:
            self._engine.set_threads(n)

    def _set_book(self, on: bool) -> None:
        try:
            self.own_book = Book.default() if on else None
        except (OSError, ValueError) as e:
            self.own_book = None
            raise _BadCommand(f"cannot open the opening book: {e}") from None

    def _set_level(self, name: str, value: Optional[str]) -> None:
        key = (value or "").strip().lower()
        if key not in LEVELS:
            raise _BadCommand(f"option {name} must be 1..10, easy, normal or hard, got "
                              f"{_show(value or '', 20)}")
        self.level_name = key
        self.engine.level = self._level()

    # --- position -------------------------------------------------------------

    def _cmd_position(self, args: List[str]) -> None:
        self.banmoves = []
        try:
            self.board = _parse_position(args)
            self.board_error = None
        except _BadCommand as e:
            # keep no stale position: a later 'go' must not answer for it
            self.board = None
            self.board_error = str(e)
            raise

    def _cmd_banmoves(self, args: List[str]) -> None:
        if self.board is None:
            raise _BadCommand("banmoves: no valid position")
        self.banmoves = _parse_moves(self.board, args, "banmoves", self.complain)

    def _cmd_d(self, args: List[str]) -> None:
        """Not in either protocol: shows the board (a debugging aid)."""
        if self.board is None:
            self.complain(f"no valid position: {self.board_error}")
            return
        for row in str(self.board).splitlines():
            self.complain(row)
        self.complain(f"fen {self.board.fen()}")

    # --- go -----------------------------------------------------------------

    def _cmd_go(self, args: List[str]) -> None:
        if self.protocol == "uci":
            limit, ponder, draw, searchmoves = self._uci_go(args)
            hold = any(a.lower() == "infinite" for a in args)
        else:
            limit, ponder, draw, searchmoves = self._ucci_go(args)
            hold = False  # UCCI: an infinite search may end when it finds a mate
        if self.board is None:
            self.complain(f"no valid position ({self.board_error}); no search")
            self._no_move()
            return
        if limit is None:  # UCCI 'go depth 0': a static answer, no move
            self._no_move()
            return
        banmoves = list(self.banmoves)
        if searchmoves:
            allowed = set(_parse_moves(self.board, searchmoves, "searchmoves", self.complain))
            if allowed:
                banmoves = [m for m in self.board.legal_moves if m not in allowed]
        if self.own_book is not None and not ponder and not limit.infinite:
            move = self.own_book.choice(self.board, self._book_rng, exclude=banmoves)
            if move is not None:
                self._stop_queued_go = False
                kind = "message" if self.protocol == "ucci" else "string"
                self.send(f"info {kind} book move {move.iccs()}")
                self.send(f"bestmove {move.iccs()}")
                return
        job = _Job(self, self.board.copy(), limit, ponder=ponder, hold=hold, banmoves=banmoves,
                   multipv=self.multipv if self.protocol == "uci" else 1, draw_offered=draw)
        self.job = job
        job.start()
        if self._stop_queued_go:
            self._stop_queued_go = False
            job.request_stop()

    def _uci_go(self, args: List[str]):
        kw: dict = {}
        clock = {}
        ponder = False
        searchmoves: List[str] = []
        i = 0
        while i < len(args):
            t = args[i].lower()
            if t == "infinite":
                kw.clear()
                clock.clear()
                kw["infinite"] = True
                i += 1
                continue
            if t == "ponder":
                ponder = True
                i += 1
                continue
            if t == "searchmoves":
                searchmoves = args[i + 1:]
                break
            if t == "depth":
                kw["depth"] = max(1, _number(args, i, t, hi=10_000))
            elif t == "nodes":
                kw["nodes"] = _number(args, i, t, hi=2 ** 62)
            elif t == "movetime":
                kw["movetime"] = _number(args, i, t, integer=False, hi=1e12) / 1000.0
            elif t in ("wtime", "btime", "winc", "binc"):
                clock[t] = _number(args, i, t, integer=False, hi=1e12) / 1000.0
            elif t == "movestogo":
                kw["movestogo"] = max(1, _number(args, i, t, hi=10_000))
            elif t == "mate":
                # mate in N moves: searching 2N plies finds it if it exists
                kw["depth"] = max(1, 2 * _number(args, i, t, hi=5_000))
            else:
                self.complain(f"go: unknown parameter {_show(args[i], 20)} ignored")
                i += 1
                continue
            i += 2
        if kw.pop("infinite", False):
            return Limit(), ponder, False, searchmoves
        red = self.board is None or self.board.turn
        if ("wtime" if red else "btime") in clock:
            kw["time"] = clock["wtime" if red else "btime"]
            inc = clock.get("winc" if red else "binc")
            if inc is not None:
                kw["inc"] = inc
        elif "movestogo" in kw:
            del kw["movestogo"]
        return Limit(**kw), ponder, False, searchmoves

    def _ucci_go(self, args: List[str]):
        unit = 1000.0 if self.millisec else 1.0
        ponder = draw = False
        i = 0
        if i < len(args) and args[i].lower() in ("ponder", "draw"):
            ponder, draw = args[i].lower() == "ponder", args[i].lower() == "draw"
            i += 1
        kw: dict = {}
        infinite = False
        while i < len(args):
            t = args[i].lower()
            if t == "infinite":
                infinite = True
                i += 1
                continue
            if t == "depth":
                depth = _number(args, i, t, hi=10_000)
                if depth == 0:
                    return None, ponder, draw, []
                kw["depth"] = depth
            elif t == "nodes":
                kw["nodes"] = _number(args, i, t, hi=2 ** 62)
            elif t == "time":
                kw["time"] = _number(args, i, t, integer=False, hi=1e12) / unit
            elif t == "movestogo":
                kw["movestogo"] = max(1, _number(args, i, t, hi=10_000))
            elif t == "increment":
                kw["inc"] = _number(args, i, t, integer=False, hi=1e12) / unit
            elif t in ("opptime", "oppmovestogo", "oppincrement"):
                _number(args, i, t, integer=False, hi=1e12)  # checked, not used
            else:
                self.complain(f"go: unknown parameter {_show(args[i], 20)} ignored")
                i += 1
                continue
            i += 2
        if infinite:
            return Limit(), ponder, draw, []
        if "time" not in kw:
            kw.pop("movestogo", None)
            kw.pop("inc", None)
        return Limit(**kw), ponder, draw, []

    def _no_move(self) -> None:
        if self.protocol == "uci":
            self.send("info depth 0 score mate 0")
            self.send("bestmove (none)")
        else:
            self.send("nobestmove")

    # --- during a search ------------------------------------------------------

    def _cmd_stop(self, args: List[str]) -> None:
        if self.job is not None:
            self.job.request_stop()
            if any(p.split()[0].lower() == "go" for p in self.pending):
                self._stop_queued_go = True
        elif self.pending:
            self._stop_queued_go = any(p.split()[0].lower() == "go" for p in self.pending)
        elif self.protocol == "ucci":
            # UCCI: a stop while idle is answered, so the interface never waits forever
            self.send("nobestmove")

    def _cmd_ponderhit(self, args: List[str]) -> None:
        job = self.job
        if job is None or not job.ponder:
            self.complain("ponderhit: not pondering; ignored")
            return
        if args and args[0].lower() == "draw":
            job.draw_offered = True
        job.ponderhit()

    def _cmd_probe(self, args: List[str]) -> None:
        # UCCI debugging aid: the hash table cannot be inspected from here,
        # so every probe misses
        _parse_position(args)
        self.send("pophash")

    def report_info(self, info: SearchInfo) -> None:
        """Progress from the worker thread, after each iteration."""
        pv = " ".join(m.iccs() for m in info.pv)
        ms = int(info.time * 1000)
        if self.protocol == "uci":
            score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score}"
            self.send(f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} "
                      f"score {score} nodes {info.nodes} nps {info.nps} time {ms} pv {pv}")
        else:
            self.send(f"info time {ms} nodes {info.nodes}")
            self.send(f"info depth {info.depth} score {_ucci_score(info.score, info.mate)} pv {pv}")

    def job_finished(self, job: _Job, result: Optional[SearchResult], error: Optional[str]) -> None:
        """The worker's last act: print the answer, then run queued commands."""
        with self._lock:
            if error is not None:
                self.complain(error)
                result = self._fallback(job)
            self._answer(job, result)
            if self.job is job:
                self.job = None
            job.done.set()
            self._drain_pending()

    def _fallback(self, job: _Job) -> Optional[SearchResult]:
        banned = set(job.banmoves)
        for move in job.board.legal_moves:
            if move not in banned:
                return SearchResult(move, 0, None, 0, 0, [move])
        return None

    def _answer(self, job: _Job, result: Optional[SearchResult]) -> None:
        move = None if result is None else result.move
        if move is None:
            self._no_move()
            return
        ms = int((time.monotonic() - job.start_time) * 1000)
        text = f"bestmove {move.iccs()}"
        ponder = result.ponder if result is not None else None
        if ponder is not None:
            text += f" ponder {ponder.iccs()}"
        if self.protocol == "ucci":
            self.send(f"info time {ms} nodes {result.nodes}")
            if job.draw_offered and (result.mate is None and result.score < DRAW_ACCEPT_BELOW
                                     or result.mate is not None and result.mate < 0):
                text += " draw"
        self.send(text)


def _ucci_score(score: int, mate: Optional[int]) -> int:
    """A score on ElephantEye's scale: mates as 10000 minus the plies to go."""
    if mate is None:
        return max(-UCCI_MATE + 100, min(UCCI_MATE - 100, score))
    if mate > 0:
        return UCCI_MATE - (2 * mate - 1)
    return -(UCCI_MATE - 2 * -mate)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``cxiangqi-engine``."""
    parser = argparse.ArgumentParser(
        prog="cxiangqi-engine",
        description="cxiangqi's xiangqi engine for GUIs: speaks UCCI or UCI on stdin/stdout, "
                    "chosen by the first command ('ucci' or 'uci').")
    parser.add_argument("--version", action="version", version=engine_name())
    parser.parse_args(argv)
    out = _Output(sys.stdout.buffer)
    server = EngineServer(out.line)
    return server.run(sys.stdin.buffer)


if __name__ == "__main__":
    sys.exit(main())
