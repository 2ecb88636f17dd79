"""The engine command: cxiangqi's engine speaking UCCI or UCI on stdin/stdout.

Run it as ``cxiangqi-engine`` or ``python -m cxiangqi.protocol``.  The first
command picks the protocol, and with it one of two classes that speak it
(the same shape as the client side in external.py; what a ``go`` or an
``info`` line means is written once, in ``_wire.py``, for both):

``ucci`` (:class:`UcciDialect`)
    UCCI 3.0 (www.xqbase.com/protocol/cchess_ucci.htm, as ElephantEye speaks
    it): ``setoption <name> [<value>]`` (usemillisec, hashsize, newgame, level,
    randomness, batch, ponder, debug, usebook (alias ownbook)),
    ``position {fen F | startpos} [moves ...]``,
    ``banmoves ...``, ``go [ponder | draw] {depth N | nodes N | time T
    [movestogo N | increment I] [opptime T [oppmovestogo N | oppincrement I]]
    | movetime T | infinite}`` (``movetime`` is not UCCI's own but is
    understood), ``ponderhit [draw]``, ``stop``, ``probe {fen F | startpos}
    [moves ...]``, ``quit``; answers ``info depth .. score .. pv ..``, ``info
    time .. nodes ..``, ``bestmove M [ponder P] [draw]``, ``nobestmove``,
    ``pophash [bestmove M] [lowerbound V depth D] [upperbound V depth D]``
    (what the hash table holds for the probed position), ``bye``.  Times are
    milliseconds (the engine announces ``usemillisec``, default true); after
    ``setoption usemillisec false`` they are seconds.  Problems are reported
    as ``info message error: ...`` (UCCI's own free-text info).
``uci`` (:class:`UciDialect`)
    UCI as Pikafish speaks it for xiangqi (squares ``a0``..``i9``, rank 0 on
    Red's side, ``w`` = Red): options Hash, Clear Hash, MultiPV, Skill Level,
    Threads, Ponder, OwnBook; ``go`` with depth, nodes, mate, movetime, wtime/btime,
    winc/binc, movestogo, infinite, ponder, searchmoves; ``info depth seldepth
    multipv score cp|mate nodes nps time pv``, ``bestmove M [ponder P]`` and
    ``bestmove (none)`` when there is no legal move (after ``info depth 0
    score mate 0`` when the side to move is mated or stalemated).  Problems
    are reported as ``info string error: ...``.

Input is read on the main thread while the search runs in a worker thread (the
compiled search releases the GIL), in every mode (UCCI's ``batch`` too), so
``stop``, ``quit``, ``isready``, ``ponderhit`` and the end of the input are
acted on during a search.  Commands that need an idle engine (``go``,
``setoption``, ``ucinewgame``, ...) that arrive during a search are queued and
run, in order, when it ends.  A line that cannot be understood (an unknown
command, a bad FEN, an illegal move, a line over 64 KiB, binary junk) is
answered with an error line saying what was wrong and otherwise ignored; a
``go`` after an invalid position answers with no move.  End of input means
``quit``.

In both protocols ``go perft N`` (Stockfish's and Pikafish's, in neither
standard) counts the leaves N plies deep from the current position: a line
``<move>: <count>`` per legal move, a blank line, ``Nodes searched: <total>``
and a blank line.  It runs like a search (``stop`` and ``quit`` end it; a
stopped count says so and gives no total; commands that need an idle engine
wait for it).

With the book on (UCI ``OwnBook``, UCCI ``usebook``; off by default), a ``go``
in a position of the shipped opening book (:mod:`cxiangqi.book`) is answered
at once with a book move picked at random by weight, after an info line
``book move ...``; ``go ponder`` and infinite searches always search.
"""

from __future__ import annotations

import argparse
from abc import ABC, abstractmethod
import dataclasses
import os
import random
import sys
import threading
import time
from typing import BinaryIO, Callable, Dict, Iterator, List, Optional, Sequence, Type, Union

from . import _wire
from ._core import MAX_PERFT_DEPTH, PerftStop
from .board import Board
from .book import Book
from .engine import (BENCH_FENS, LEVELS, MAX_THREADS, Engine, Level, SearchInfo, SearchResult,
                     bench, level_named)
from .errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from .fen import STARTING_FEN
from .limit import Limit
from .move import MOVES, Move

__all__ = ["EngineServer", "UciDialect", "UcciDialect", "main", "engine_name"]

ENGINE_AUTHOR = "the cxiangqi authors"


def engine_name() -> str:
    """``cxiangqi <version>``, as the engine introduces itself."""
    from ._version import __version__
    return f"cxiangqi {__version__}"

#: longest input line; a longer one is dropped as a whole
MAX_LINE = 1 << 16
#: most commands kept waiting for a search to end
MAX_PENDING = 1000

DEFAULT_HASH_MB = 64
MAX_HASH_MB = 4096
MAX_MULTIPV = 128
#: a draw offered with ``go draw`` is accepted below this score (centipawns)
DRAW_ACCEPT_BELOW = 30

# UCCI's randomness grades, as centipawn windows for Level.randomness
UCCI_RANDOMNESS = {"none": 0, "tiny": 10, "small": 20, "medium": 40, "large": 80, "huge": 160}
# UCCI options a GUI may set that this engine has no use for (accepted silently,
# as the UCCI document asks)
UCCI_IGNORED_OPTIONS = {"useegtb", "bookfiles", "egtbpaths", "evalapi",
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


class _PerftJob:
    """``go perft N`` (Stockfish's and Pikafish's, in neither protocol): the
    leaf count N plies deep after each legal move, then the total, counted
    in a thread so that ``stop`` and ``quit`` are heard meanwhile.  It has
    what the server asks of a running job (request_stop, done, ponder)."""

    ponder = False

    def __init__(self, server: "EngineServer", board: Board, depth: int) -> None:
        self.server = server
        self.board = board
        self.depth = depth
        self.stop_flag = PerftStop()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="cxiangqi-perft", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def request_stop(self) -> None:
        self.stop_flag.set()

    def _run(self) -> None:
        counts: List = []
        error = None
        try:
            counts = self.board._core.perft_divide(self.depth, self.stop_flag)
        except Exception as e:  # never let a count take the engine down
            error = f"go perft failed: {type(e).__name__}: {e}"
        self.server.perft_finished(self, counts, error)


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
        time_based = (limit.time is not None or limit.red_clock is not None
                      or limit.black_clock is not None)
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
        multipv = self.multipv

        def on_info(info: SearchInfo) -> None:
            # a level that plays with randomness searches several lines; the
            # interface hears only about as many as it asked for
            if info.multipv <= multipv:
                self.server.report_info(info)

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


# --- the two protocols ----------------------------------------------------------------

class _Dialect(ABC):
    """What one protocol says differently: the handshake, options, how a
    ``go`` is read, how progress, answers and problems are written.  The
    server (state, input, searches) is shared."""

    name = ""
    #: how a problem is reported (UCI's free-text info, UCCI's)
    complaint = "info string"
    #: commands only this protocol has
    own_commands: frozenset = frozenset()

    def __init__(self, server: "EngineServer") -> None:
        self.server = server

    def send(self, text: str) -> None:
        self.server.send(text)

    @abstractmethod
    def handshake(self) -> None:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def setoption(self, args: List[str]) -> None:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def parse_go(self, args: List[str], turn: bool) -> _wire.GoCommand:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def report(self, info: SearchInfo) -> None:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def answer(self, job: "_Job", result: SearchResult) -> None:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def no_move(self, mated: bool) -> None:
        """No best move: `mated` when the side to move has no legal move,
        else the position was invalid or the search could not run."""

    # shared by both: option values
    @staticmethod
    def option_int(name: str, value: Optional[str], lo: int, hi: int) -> int:
        try:
            n = int(value or "")
        except ValueError:
            raise _BadCommand(f"option {name} needs an integer {lo}..{hi}, got "
                              f"{_show(value or '', 20)}") from None
        if not lo <= n <= hi:
            raise _BadCommand(f"option {name} must be {lo}..{hi}, got {n}")
        return n

    @staticmethod
    def option_bool(name: str, value: Optional[str]) -> bool:
        v = (value or "").lower()
        if v in ("true", "on"):
            return True
        if v in ("false", "off"):
            return False
        raise _BadCommand(f"option {name} needs true or false, got {_show(value or '', 20)}")


class UciDialect(_Dialect):
    """UCI as Pikafish speaks it for xiangqi."""

    name = "uci"
    complaint = "info string"
    own_commands = frozenset({"ucinewgame"})

    def handshake(self) -> None:
        server = self.server
        self.send(f"id name {engine_name()}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send(f"option name Hash type spin default {server.hash_mb} min 1 max {MAX_HASH_MB}")
        self.send("option name Clear Hash type button")
        self.send(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
        self.send("option name Skill Level type spin default 10 min 1 max 10")
        self.send(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        self.send("option name Ponder type check default false")
        self.send("option name OwnBook type check default false")
        server.allocate()
        self.send("uciok")

    def setoption(self, args: List[str]) -> None:
        server = self.server
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
            server.set_hash(self.option_int(name, value, 1, MAX_HASH_MB))
        elif key == "clear hash":
            server.engine.new_game()
        elif key == "multipv":
            server.multipv = self.option_int(name, value, 1, MAX_MULTIPV)
        elif key in ("skill level", "level"):
            server.set_level(name, value)
        elif key == "threads":
            server.set_threads(self.option_int(name, value, 1, MAX_THREADS))
        elif key == "ponder":
            self.option_bool(name, value)
        elif key == "ownbook":
            server.set_book(self.option_bool(name, value))
        else:
            raise _BadCommand(f"no such option: {_show(name, 40)}")

    def parse_go(self, args: List[str], turn: bool) -> _wire.GoCommand:
        return _wire.parse_uci_go(args, turn)

    def report(self, info: SearchInfo) -> None:
        score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score}"
        pv = " ".join(m.iccs() for m in info.pv)
        self.send(f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} "
                  f"score {score} nodes {info.nodes} nps {info.nps} "
                  f"time {int(info.time * 1000)} pv {pv}")

    def answer(self, job: "_Job", result: SearchResult) -> None:
        text = f"bestmove {result.move.iccs()}"  # type: ignore[union-attr]
        if result.ponder is not None:
            text += f" ponder {result.ponder.iccs()}"
        self.send(text)

    def no_move(self, mated: bool) -> None:
        if mated:
            self.send("info depth 0 score mate 0")
        self.send("bestmove (none)")


class UcciDialect(_Dialect):
    """UCCI 3.0, as ElephantEye speaks it."""

    name = "ucci"
    complaint = "info message"
    own_commands = frozenset({"banmoves", "probe"})

    def handshake(self) -> None:
        server = self.server
        self.send(f"id name {engine_name()}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send("option usemillisec type check default true")
        self.send(f"option threads type spin min 1 max {MAX_THREADS} default 1")
        self.send("option batch type check default false")
        self.send("option debug type check default false")
        self.send("option ponder type check default false")
        self.send("option usebook type check default false")
        self.send(f"option hashsize type spin min 1 max {MAX_HASH_MB} default {server.hash_mb}")
        self.send("option level type combo " + " ".join(f"var {n}" for n in _LEVEL_NAMES)
                  + " default hard")
        self.send("option randomness type combo "
                  + " ".join(f"var {n}" for n in UCCI_RANDOMNESS) + " default none")
        self.send("option newgame type button")
        server.allocate()
        self.send("ucciok")

    def setoption(self, args: List[str]) -> None:
        server = self.server
        if not args:
            raise _BadCommand("expected 'setoption <name> [<value>]'")
        key = args[0].lower()
        value = " ".join(args[1:]) or None
        if key == "usemillisec":
            server.millisec = self.option_bool(key, value)
        elif key == "hashsize":
            mb = self.option_int(key, value, 0, MAX_HASH_MB)
            server.set_hash(mb or DEFAULT_HASH_MB)  # 0: the engine chooses
        elif key == "newgame":
            server.engine.new_game()
        elif key == "threads":
            server.set_threads(self.option_int(key, value, 1, MAX_THREADS))
        elif key == "level":
            server.set_level(key, value)
        elif key == "randomness":
            grade = (value or "").lower()
            if grade not in UCCI_RANDOMNESS:
                raise _BadCommand(f"randomness must be one of {', '.join(UCCI_RANDOMNESS)}")
            server.randomness = UCCI_RANDOMNESS[grade]
            server.engine.level = server.level()
        elif key == "batch":
            # The engine reads its input during a search in every mode, so
            # batch changes nothing (UCCI's batch mode only promises that
            # commands are carried out in order, which they always are).
            server.batch = self.option_bool(key, value)
        elif key == "debug":
            server.debug = self.option_bool(key, value)
        elif key == "ponder":
            self.option_bool(key, value)
        elif key in ("usebook", "ownbook"):
            server.set_book(self.option_bool(key, value))
        elif key in UCCI_IGNORED_OPTIONS:
            pass
        else:
            raise _BadCommand(f"no such option: {_show(args[0], 40)}")

    def parse_go(self, args: List[str], turn: bool) -> _wire.GoCommand:
        return _wire.parse_ucci_go(args, turn, self.server.millisec)

    def report(self, info: SearchInfo) -> None:
        pv = " ".join(m.iccs() for m in info.pv)
        self.send(f"info time {int(info.time * 1000)} nodes {info.nodes}")
        self.send(f"info depth {info.depth} score {_wire.to_ucci_score(info.score, info.mate)} "
                  f"pv {pv}")

    def answer(self, job: "_Job", result: SearchResult) -> None:
        ms = int((time.monotonic() - job.start_time) * 1000)
        text = f"bestmove {result.move.iccs()}"  # type: ignore[union-attr]
        if result.ponder is not None:
            text += f" ponder {result.ponder.iccs()}"
        self.send(f"info time {ms} nodes {result.nodes}")
        if job.draw_offered and (result.mate is None and result.score < DRAW_ACCEPT_BELOW
                                 or result.mate is not None and result.mate < 0):
            text += " draw"
        self.send(text)

    def no_move(self, mated: bool) -> None:
        self.send("nobestmove")


DIALECTS: Dict[str, Type[_Dialect]] = {"uci": UciDialect, "ucci": UcciDialect}


class EngineServer:
    """The protocol state machine.  Feed it lines with ``handle(line)`` (or
    run it over a stream with ``run``); it writes its answers through
    `out`, one line at a time.  The first ``uci`` or ``ucci`` picks the
    dialect (:class:`UciDialect`, :class:`UcciDialect`)."""

    def __init__(self, out: Callable[[str], None],
                 engine_factory: Callable[..., Engine] = Engine) -> None:
        self._write = out
        self._engine_factory = engine_factory
        self._engine: Optional[Engine] = None
        self.dialect: Optional[_Dialect] = None
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
        self.job: Optional[Union[_Job, _PerftJob]] = None
        self.pending: List[str] = []
        # how many of the queued go commands a stop has already stopped (the
        # first ones in the queue: a stop stops every search asked for before it)
        self._stopped_gos = 0
        self._said_bye = False
        self._lock = threading.RLock()

    @property
    def protocol(self) -> Optional[str]:
        """"uci", "ucci", or None before the handshake."""
        return None if self.dialect is None else self.dialect.name

    # --- output -------------------------------------------------------------

    def send(self, text: str) -> None:
        self._write(text)

    def complain(self, what: str) -> None:
        """Reports a problem with the input as an error line: ``info string
        error: ...`` (UCI), ``info message error: ...`` (UCCI)."""
        kind = self.dialect.complaint if self.dialect is not None else "info string"
        self.send(f"{kind} error: {what}")

    def note(self, what: str) -> None:
        """A remark that is not an error (debug output)."""
        kind = self.dialect.complaint if self.dialect is not None else "info string"
        self.send(f"{kind} {what}")

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = self._engine_factory(hash_mb=self.hash_mb)
            self._engine.level = self.level()
            if self.threads != 1:
                self._engine.set_threads(self.threads)
        return self._engine

    def level(self) -> Level:
        level = level_named(self.level_name)
        if self.randomness is not None:
            level = dataclasses.replace(level, randomness=self.randomness)
        return level

    def allocate(self) -> None:
        """Creates the engine and its hash table now (at the handshake), not
        during the first search; a table the machine cannot hold is an
        error line, and the handshake still ends (a smaller Hash may fit)."""
        try:
            self.engine
        except MemoryError as e:
            self.complain(f"cannot allocate the hash table of {self.hash_mb} MB: {e}")

    def set_hash(self, mb: int) -> None:
        # the table is allocated now (with the engine, if there is none
        # yet), so a size the machine cannot hold is refused here, the old
        # one kept, and not at the next search
        old = self.hash_mb
        try:
            if self._engine is None:
                self.hash_mb = mb
                self.engine
            else:
                self._engine.set_hash(mb)
        except (MemoryError, ValueError) as e:
            self.hash_mb = old
            raise _BadCommand(f"cannot resize the hash table to {mb} MB: {e}") from None
        self.hash_mb = mb

    def set_threads(self, n: int) -> None:
        self.threads = n
        if self._engine is not None:
            self._engine.set_threads(n)

    def set_book(self, on: bool) -> None:
        try:
            self.own_book = Book.default() if on else None
        except (OSError, ValueError) as e:
            self.own_book = None
            raise _BadCommand(f"cannot open the opening book: {e}") from None

    def set_level(self, name: str, value: Optional[str]) -> None:
        key = (value or "").strip().lower()
        if key not in LEVELS:
            raise _BadCommand(f"option {name} must be 1..10, easy, normal or hard, got "
                              f"{_show(value or '', 20)}")
        self.level_name = key
        self.engine.level = self.level()

    # --- the input loop -----------------------------------------------------

    def run(self, stream: BinaryIO) -> int:
        """Reads commands until ``quit`` or end of input; returns 0.  The
        input is read while a search runs, in every mode."""
        try:
            for line in _read_lines(stream):
                if line is _TOO_LONG:
                    self.complain(f"line longer than {MAX_LINE} bytes ignored")
                    continue
                self.handle(line)  # type: ignore[arg-type]
                if self.quitting:
                    break
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
            self._stopped_gos = 0
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
                    self.note(f"queued until the search ends: {_show(line)}")
                self.pending.append(line)
            else:
                self._execute(cmd, tokens, line)

    def _execute(self, cmd: str, tokens: List[str], line: str) -> None:
        if self.dialect is None and cmd not in ("uci", "ucci", "isready", "quit"):
            if cmd in ("xboard", "protover"):
                self.complain("this engine speaks UCI and UCCI, not xboard: send 'uci' or 'ucci'")
            else:
                self.complain(f"send 'uci' or 'ucci' first; ignored {_show(line)}")
            return
        handler = getattr(self, f"_cmd_{cmd}", None) if cmd.isidentifier() else None
        other = [d for name, d in DIALECTS.items() if name != self.protocol]
        if handler is None or any(cmd in d.own_commands for d in other):
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
        self.dialect = UciDialect(self)
        self.dialect.handshake()

    def _cmd_ucci(self, args: List[str]) -> None:
        self.dialect = UcciDialect(self)
        self.dialect.handshake()

    def _cmd_isready(self, args: List[str]) -> None:
        self.send("readyok")

    def _cmd_ucinewgame(self, args: List[str]) -> None:
        self.engine.new_game()

    def _cmd_setoption(self, args: List[str]) -> None:
        assert self.dialect is not None
        self.dialect.setoption(args)

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
            self.note(row)
        self.note(f"fen {self.board.fen()}")

    # --- go -----------------------------------------------------------------

    def _cmd_go(self, args: List[str]) -> None:
        assert self.dialect is not None
        # a go from the queue that a stop sent after it has already stopped
        # (a go that runs at once has no stop owed: the queue was empty)
        stopped = self._stopped_gos > 0
        if stopped:
            self._stopped_gos -= 1
        board = self.board
        if args and args[0].lower() == "perft":
            self._go_perft(args[1:], board, stopped)
            return
        if board is None:
            self.complain(f"no valid position ({self.board_error}); no search")
            self.dialect.no_move(mated=False)
            return
        try:
            go = self.dialect.parse_go(args, board.turn)
        except _wire.GoError as e:
            self.complain(f"go: {e}; no search")
            self.dialect.no_move(mated=False)
            return
        for problem in go.problems:
            self.complain(f"go: {problem}")
        if go.static:  # UCCI 'go depth 0': a static answer, no move
            self.dialect.no_move(mated=False)
            return
        if not board.legal_moves:
            self.dialect.no_move(mated=True)
            return
        limit = go.limit
        if limit is None:
            limit = Limit(time=self.level().movetime or 5.0)
            self.complain(f"go: no limit understood; searching for {limit.time} s")
        # UCI 'go infinite' (and ponder): no answer before stop, even if the
        # search ends; UCCI's infinite search may end when it finds a mate
        hold = go.infinite and self.protocol == "uci"
        banmoves = list(self.banmoves)
        if go.searchmoves:
            allowed = set(_parse_moves(board, go.searchmoves, "searchmoves", self.complain))
            if allowed:
                banmoves = [m for m in board.legal_moves if m not in allowed]
        if self.own_book is not None and not go.ponder and not go.infinite:
            move = self.own_book.choice(board, self._book_rng, exclude=banmoves)
            if move is not None:
                self.note(f"book move {move.iccs()}")
                self.send(f"bestmove {move.iccs()}")
                return
        job = _Job(self, board.copy(), limit, ponder=go.ponder, hold=hold, banmoves=banmoves,
                   multipv=self.multipv if self.protocol == "uci" else 1,
                   draw_offered=go.draw)
        self.job = job
        job.start()
        if stopped:
            job.request_stop()

    def _go_perft(self, args: List[str], board: Optional[Board], stopped: bool) -> None:
        if len(args) != 1 or not args[0].isascii() or not args[0].isdigit() \
                or len(args[0]) > 3 or not 1 <= int(args[0]) <= MAX_PERFT_DEPTH:
            raise _BadCommand(f"go perft: give one depth, 1..{MAX_PERFT_DEPTH}")
        if board is None:
            raise _BadCommand(f"no valid position ({self.board_error}); no perft")
        if stopped:
            self.note("perft stopped before it began")
            return
        job = _PerftJob(self, board.copy(stack=False), int(args[0]))
        self.job = job
        job.start()

    def perft_finished(self, job: _PerftJob, counts: List, error: Optional[str]) -> None:
        """The perft worker's last act: the counts (or why there are none),
        then the commands that waited."""
        with self._lock:
            if self.quitting:
                pass
            elif error is not None:
                self.complain(error)
            elif job.stop_flag.is_set():
                self.note(f"perft stopped: {len(counts)} of {len(job.board.legal_moves)} "
                          f"moves counted, no total")
            else:
                for code, n in counts:
                    self.send(f"{MOVES[code].iccs()}: {n}")
                self.send("")
                self.send(f"Nodes searched: {sum(n for _, n in counts)}")
                self.send("")
            if self.job is job:
                self.job = None
            job.done.set()
            self._drain_pending()

    # --- during a search ------------------------------------------------------

    def _cmd_stop(self, args: List[str]) -> None:
        # a stop while no search runs (nor waits to run) is ignored: there
        # is no search to answer for
        if self.job is not None:
            self.job.request_stop()
        # ... and the searches queued behind it were asked for before this
        # stop too: each will answer at once (one bestmove per go)
        self._stopped_gos = sum(1 for p in self.pending if p.split()[0].lower() == "go")

    def _cmd_ponderhit(self, args: List[str]) -> None:
        job = self.job
        if job is None or not job.ponder:
            self.complain("ponderhit: not pondering; ignored")
            return
        if args and args[0].lower() == "draw":
            job.draw_offered = True
        job.ponderhit()

    def _cmd_probe(self, args: List[str]) -> None:
        # UCCI debugging aid: what the hash table holds for the position, as
        # ElephantEye answers it (a bare "pophash" when it holds nothing);
        # allowed during a search, which it does not disturb
        board = _parse_position(args)
        entry = self.engine.probe(board)
        words = ["pophash"]
        if entry is not None:
            if entry.move is not None:
                words += ["bestmove", entry.move.iccs()]
            score = _wire.to_ucci_score(entry.score, entry.mate)
            if entry.bound in ("lower", "exact"):
                words += ["lowerbound", str(score), "depth", str(entry.depth)]
            if entry.bound in ("upper", "exact"):
                words += ["upperbound", str(score), "depth", str(entry.depth)]
        self.send(" ".join(words))

    def report_info(self, info: SearchInfo) -> None:
        """Progress from the worker thread, after each iteration."""
        if self.dialect is not None:
            self.dialect.report(info)

    def job_finished(self, job: _Job, result: Optional[SearchResult], error: Optional[str]) -> None:
        """The worker's last act: print the answer, then run queued commands."""
        with self._lock:
            if error is not None:
                self.complain(error)
                result = self._fallback(job)
            assert self.dialect is not None
            if result is None or result.move is None:
                self.dialect.no_move(mated=not job.board.legal_moves)
            else:
                self.dialect.answer(job, result)
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


MAX_BENCH_DEPTH = 30


def _bench_number(text: str, what: str, top: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be an integer, not {text!r}") from None
    if not 1 <= value <= top:
        raise argparse.ArgumentTypeError(f"{what} must be 1..{top}, not {value}")
    return value


def _bench_depth(text: str) -> int:
    return _bench_number(text, "depth", MAX_BENCH_DEPTH)


def _bench_hash(text: str) -> int:
    return _bench_number(text, "hash size (MB)", MAX_HASH_MB)


def _bench(depth: int, hash_mb: int) -> int:
    """``cxiangqi-engine bench``: a line per position, then the summary
    lines of Stockfish's bench ("Nodes searched", "Nodes/second"), which
    engine testers parse."""
    def report(i: int, fen: str, nodes: int) -> None:
        print(f"Position: {i}/{len(BENCH_FENS)} {fen}: {nodes} nodes", flush=True)

    try:
        result = bench(depth, hash_mb, report)
        print("===========================")
        print(f"Total time (ms) : {round(result['seconds'] * 1000)}")
        print(f"Nodes searched  : {result['nodes']}")
        print(f"Nodes/second    : {round(result['nps'])}", flush=True)
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away ('... bench | head'): no traceback, and none
        # from the interpreter's last flush of stdout either (the recipe of
        # Python's signal module documentation)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 1
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``cxiangqi-engine``."""
    parser = argparse.ArgumentParser(
        prog="cxiangqi-engine",
        usage="%(prog)s [-h] [--version] [bench [DEPTH] [--hash MB]]",
        description="cxiangqi's xiangqi engine for GUIs: speaks UCCI or UCI on stdin/stdout, "
                    "chosen by the first command ('ucci' or 'uci').  'cxiangqi-engine bench "
                    "[DEPTH]' prints the search's node count and speed instead.")
    parser.add_argument("--version", action="version", version=engine_name())
    sub = parser.add_subparsers(dest="command", metavar="command",
                                title="commands (without one it speaks UCCI or UCI)")
    bench_parser = sub.add_parser(
        "bench", prog="cxiangqi-engine bench",
        help="search the bench positions to a fixed depth and print the node count (the "
             "search's signature) and the speed, then exit",
        description="Searches the 12 bench positions (cxiangqi.engine.BENCH_FENS) to a fixed "
                    "depth, one thread, the table cleared before each; prints each position's "
                    "nodes, then the total ('Nodes searched', the search's signature at depth 8) "
                    "and the speed.")
    bench_parser.add_argument("depth", nargs="?", type=_bench_depth, default=8, metavar="DEPTH",
                              help=f"plies (1..{MAX_BENCH_DEPTH}, default 8)")
    bench_parser.add_argument("--hash", type=_bench_hash, default=16, metavar="MB",
                              help=f"table size in MB (1..{MAX_HASH_MB}, default 16)")
    args = parser.parse_args(argv)
    if args.command == "bench":
        return _bench(args.depth, args.hash)
    out = _Output(sys.stdout.buffer)
    server = EngineServer(out.line)
    return server.run(sys.stdin.buffer)


if __name__ == "__main__":
    sys.exit(main())
