"""Driving other xiangqi engines: UCI (Pikafish), UCCI (ElephantEye) and
xboard/CECP (MaxQi) programs, in the spirit of python-chess's ``chess.engine``.

>>> from cxiangqi import Board                                  # doctest: +SKIP
>>> from cxiangqi.engine import ExternalEngine, Limit            # doctest: +SKIP
>>> with ExternalEngine.popen("pikafish") as engine:            # doctest: +SKIP
...     result = engine.play(Board(), Limit(time=0.5))
...     print(result.move, result.info.get("score"))

Everything is synchronous: each call writes commands and reads the answer,
with a timeout on every read.  Failures raise an :class:`EngineError`: a
missing program, a process that dies (:class:`EngineTerminatedError`), an
answer that does not come in time (:class:`EngineTimeoutError`), or one that
makes no sense, such as an illegal best move (:class:`IllegalEngineMoveError`).

Moves are ICCS (``h2e2``, ranks 0-9 from Red's side) in all three protocols;
this is what Pikafish, ElephantEye and MaxQi use.  Fairy-Stockfish numbers
the ranks 1-10 (``h3e3``): a UCI engine with a ``UCI_Variant`` option is
spoken to in its numbering, translated both ways.  Limits are
``cxiangqi.engine.Limit`` objects (or anything with the same attributes):
``time`` is the time for this move, the clocks are ``red_clock`` and
``black_clock`` with ``red_inc``/``black_inc`` and ``remaining_moves``;
times are in seconds.  What a ``go`` or an ``info`` line means is shared
with the engine command (``cxiangqi._wire``).
"""

from __future__ import annotations

import collections
from abc import ABC, abstractmethod
import math
import queue
import re
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _wire
from ._wire import MATE_SCORE, Budget
from .board import Board
from .errors import InvalidMoveError
from .fen import STARTING_BOARD_FEN
from .move import Move
from .square import BLACK, RED, SQUARE_NAMES

__all__ = ["ExternalEngine", "PlayResult", "EngineOption", "EngineError",
           "EngineTerminatedError", "EngineTimeoutError", "IllegalEngineMoveError", "PROTOCOLS"]

PROTOCOLS = ("uci", "ucci", "xboard")


#: an engine line longer than this is cut (a runaway engine must not eat memory)
_MAX_LINE = 1 << 20


class EngineError(RuntimeError):
    """An external engine could not be started or did something wrong (a
    RuntimeError, as python-chess's ``chess.engine.EngineError``)."""


class _StartError(EngineError):
    """The program could not be started at all (missing, not executable)."""


class EngineTerminatedError(EngineError):
    """The engine process has exited (or was never alive)."""


class EngineTimeoutError(EngineError):
    """The engine did not answer in time."""


class IllegalEngineMoveError(EngineError):
    """The engine answered a move that is not legal (or not allowed) in the
    position it was given; ``move`` is that move or the text it sent."""

    def __init__(self, message: str, move: Union[Move, str, None] = None) -> None:
        super().__init__(message)
        self.move = move


@dataclass(frozen=True)
class EngineOption:
    """An option an engine announced.  ``type`` is check, spin, combo,
    button, string (or xboard's own kinds)."""

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    var: Tuple[str, ...] = ()


@dataclass
class PlayResult:
    """What an engine played.  ``move`` is None when it had no move (the
    side to move has none, or it resigned).  ``info`` holds the last
    progress report: depth, seldepth, score (centipawns, side to move's
    view; mates as 30000 - plies), mate (moves; negative when being mated),
    nodes, nps, time (seconds), pv (list of Move), multipv."""

    move: Optional[Move]
    ponder: Optional[Move] = None
    info: Dict[str, Any] = field(default_factory=dict)
    draw_offered: bool = False
    resigned: bool = False

    @property
    def score(self) -> Optional[int]:
        return self.info.get("score")

    @property
    def mate(self) -> Optional[int]:
        return self.info.get("mate")

    @property
    def depth(self) -> Optional[int]:
        return self.info.get("depth")

    @property
    def pv(self) -> List[Move]:
        return self.info.get("pv", [])


def _budget(limit: Any, board: Board, opponent_time: Optional[float] = None,
            opponent_inc: Optional[float] = None) -> Budget:
    """The limit seen from the side to move (see _wire.Budget); ValueError
    for no limit or an infinite one, which an external engine would never
    end."""
    if limit is None:
        raise ValueError("a limit is needed (time, depth, nodes, mate or a clock)")
    budget = Budget.from_limit(limit, board.turn, opponent_time, opponent_inc)
    if budget.empty:
        raise ValueError("an infinite limit cannot be used here: give time, depth, nodes, "
                         "mate or the clock of the side to move")
    return budget


def _root_and_moves(board: Board) -> Tuple[Board, List[Move]]:
    """The position before the board's move stack, and the moves since."""
    root = board.copy()
    moves = list(board.move_stack)
    for _ in moves:
        root.pop()
    return root, moves


def _is_start(board: Board) -> bool:
    return board.board_fen() == STARTING_BOARD_FEN and board.turn == RED


class _Process:
    """A child process with line-based pipes.  Its output is read by a
    thread into a queue, so every read can time out."""

    def __init__(self, args: List[str], cwd: Optional[str] = None,
                 env: Optional[Mapping[str, str]] = None) -> None:
        self.args = args
        self.name = args[0] if args else "?"
        try:
            self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=cwd,
                                         env=dict(env) if env is not None else None)
        except FileNotFoundError:
            raise _StartError(f"engine program not found: {self.name!r}") from None
        except PermissionError:
            raise _StartError(f"engine program cannot be run (permission denied): "
                              f"{self.name!r}") from None
        except OSError as e:
            raise _StartError(f"cannot start engine {self.name!r}: {e}") from None
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.stderr: Deque[str] = collections.deque(maxlen=20)
        self.transcript: Deque[str] = collections.deque(maxlen=40)
        self.eof = False
        threading.Thread(target=self._pump, args=(self.proc.stdout, True),
                         name=f"engine-stdout:{self.name}", daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, False),
                         name=f"engine-stderr:{self.name}", daemon=True).start()

    def _pump(self, stream: Any, main: bool) -> None:
        try:
            while True:
                raw = stream.readline(_MAX_LINE)
                if not raw:
                    break
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if main:
                    self.lines.put(text)
                else:
                    self.stderr.append(text)
        except (OSError, ValueError):
            pass
        finally:
            if main:
                self.lines.put(None)

    def alive(self) -> bool:
        return not self.eof and self.proc.poll() is None

    def died(self, doing: str) -> EngineTerminatedError:
        self.eof = True
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        how = "closed its output" if code is None else f"exited with code {code}"
        tail = "; stderr: " + " | ".join(list(self.stderr)[-5:]) if self.stderr else ""
        return EngineTerminatedError(f"engine {self.name!r} {how} while {doing}{tail}")

    def send(self, line: str, doing: str = "") -> None:
        self.transcript.append("> " + line)
        if self.eof:
            raise self.died(doing or f"sending {line!r}")
        try:
            self.proc.stdin.write((line + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise self.died(doing or f"sending {line!r}") from None

    def read(self, deadline: float, doing: str) -> str:
        """The next line; EngineTimeoutError at the monotonic `deadline`."""
        if self.eof:
            raise self.died(doing)
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineTimeoutError(f"engine {self.name!r} did not answer in time while "
                                     f"{doing}") from None
        if line is None:
            raise self.died(doing)
        self.transcript.append("< " + line)
        return line

    def close(self, grace: float = 2.0) -> None:
        try:
            self.proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        self.eof = True


class ExternalEngine(ABC):
    """An engine program run as a child process.  Make one with
    :meth:`popen`; use it as a context manager (or call :meth:`quit`).
    One call at a time: it is not meant to be shared between threads."""

    protocol = ""

    def __init__(self, process: _Process, timeout: float) -> None:
        self._p = process
        self.timeout = timeout
        self.name: str = process.name
        self.author: Optional[str] = None
        self.options: Dict[str, EngineOption] = {}
        self._closed = False

    # --- starting ---------------------------------------------------------------

    @classmethod
    def popen(cls, command: Union[str, Sequence[str]], protocol: str = "auto", *,
              timeout: float = 10.0, cwd: Optional[str] = None,
              env: Optional[Mapping[str, str]] = None,
              options: Optional[Mapping[str, Any]] = None) -> "ExternalEngine":
        """Starts `command` (a program path or a command line, or a list of
        arguments) and does the handshake of `protocol`: "uci", "ucci",
        "xboard", or "auto" (tries UCI, then UCCI, then xboard, restarting the
        program for each).  `timeout` bounds each handshake; `options` are
        passed to :meth:`configure`."""
        args = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not args:
            raise EngineError("empty engine command")
        protocol = protocol.lower()
        if protocol == "auto":
            reasons = []
            for proto in PROTOCOLS:
                try:
                    engine = cls._start(args, proto, timeout, cwd, env, probing=True)
                    break
                except _StartError:
                    raise
                except EngineError as e:
                    reasons.append(f"{proto}: {e}")
            else:
                raise EngineError(f"engine {args[0]!r} speaks none of UCI, UCCI, xboard ("
                                  + "; ".join(reasons) + ")")
        elif protocol in PROTOCOLS:
            engine = cls._start(args, protocol, timeout, cwd, env, probing=False)
        else:
            raise ValueError(f"unknown protocol {protocol!r}: use uci, ucci, xboard or auto")
        if options:
            try:
                engine.configure(options)
            except Exception:
                engine.quit()
                raise
        return engine

    @staticmethod
    def _start(args: List[str], protocol: str, timeout: float, cwd: Optional[str],
               env: Optional[Mapping[str, str]], probing: bool) -> "ExternalEngine":
        kind = {"uci": _UciEngine, "ucci": _UcciEngine, "xboard": _XboardEngine}[protocol]
        process = _Process(args, cwd, env)
        engine = kind(process, timeout)
        try:
            engine._handshake(probing)
        except BaseException:
            engine._kill()
            raise
        return engine

    # --- the public interface ----------------------------------------------------

    def play(self, board: Board, limit: Any, *, banmoves: Iterable[Move] = (),
             opponent_time: Optional[float] = None, opponent_inc: Optional[float] = None,
             timeout: Optional[float] = None) -> PlayResult:
        """The engine's move in the board's position (its move stack is sent
        too, for repetitions).  The move is checked: an illegal or banned one
        raises IllegalEngineMoveError.  `timeout` (seconds) overrides the
        time allowed for the answer, which is otherwise derived from the limit."""
        self._check_open()
        budget = _budget(limit, board, opponent_time, opponent_inc)
        banned = list(banmoves)
        result = self._play(board, budget, banned, self._deadline(budget, timeout))
        self._check_move(board, result, banned)
        return result

    def analyse(self, board: Board, limit: Any, multipv: int = 1, *,
                timeout: Optional[float] = None) -> List[Dict[str, Any]]:
        """The engine's analysis: the last report for each of the best
        `multipv` lines, best first (see PlayResult.info for the keys)."""
        self._check_open()
        if multipv < 1:
            raise ValueError("multipv must be >= 1")
        budget = _budget(limit, board)
        return self._analyse(board, budget, multipv, self._deadline(budget, timeout))

    def configure(self, options: Mapping[str, Any]) -> None:
        """Sets engine options (names as the engine announced them, any case)."""
        self._check_open()
        for name, value in options.items():
            self._set_option(name, value)
        self._sync()

    def new_game(self) -> None:
        """Tells the engine that the next position is from a new game."""
        self._check_open()
        self._new_game()

    def quit(self) -> None:
        """Asks the engine to exit and waits for it (killing it if it does not
        go).  Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._p.alive():
            try:
                self._say_goodbye()
            except EngineError:
                pass
        self._p.close()

    close = quit

    @property
    def alive(self) -> bool:
        return not self._closed and self._p.alive()

    @property
    def returncode(self) -> Optional[int]:
        return self._p.proc.poll()

    def __enter__(self) -> "ExternalEngine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.quit()

    def __repr__(self) -> str:
        state = "alive" if self.alive else "closed"
        return f"<{type(self).__name__} {self.name!r} ({self.protocol}, {state})>"

    # --- shared machinery ---------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise EngineTerminatedError(f"engine {self.name!r} has been closed")
        if self._p.eof:
            raise EngineTerminatedError(f"engine {self.name!r} is no longer running")

    def _kill(self) -> None:
        self._closed = True
        self._p.close(grace=0.2)

    def _send(self, line: str) -> None:
        self._p.send(line)

    def _read(self, deadline: float, doing: str) -> str:
        return self._p.read(deadline, doing)

    def _deadline(self, budget: Budget, timeout: Optional[float]) -> float:
        if timeout is None:
            if budget.movetime is not None:
                timeout = budget.movetime * 2 + 5.0
            elif budget.own_clock is not None:
                timeout = budget.own_clock + (budget.own_inc or 0) + 5.0
            else:
                timeout = 300.0
        return time.monotonic() + timeout

    def _check_move(self, board: Board, result: PlayResult, banned: List[Move]) -> None:
        legal = [m for m in board.legal_moves if m not in banned]
        if result.move is None:
            if legal and not result.resigned:
                raise EngineError(f"engine {self.name!r} gave no move in {board.fen()}, "
                                  f"which has {len(legal)} legal move(s)")
            return
        if not board.is_legal(result.move):
            raise IllegalEngineMoveError(
                f"engine {self.name!r} played the illegal move {result.move.iccs()} in "
                f"{board.fen()}", result.move)
        if result.move in banned:
            raise IllegalEngineMoveError(
                f"engine {self.name!r} played the banned move {result.move.iccs()}", result.move)
        if result.ponder is not None:
            after = board.copy(stack=False)
            after.push(result.move)
            if not after.is_legal(result.ponder):
                result.ponder = None

    def _parse_move(self, text: str, line: str) -> Move:
        try:
            return Move.from_iccs(text)
        except InvalidMoveError:
            raise IllegalEngineMoveError(f"engine {self.name!r} answered nonsense: {line!r}",
                                         text) from None

    def _recover(self, stop_command: str, answer_words: Tuple[str, ...]) -> None:
        """After a timeout: ask the engine to stop and wait a little for its
        answer; if it does not come, the engine is killed."""
        try:
            self._send(stop_command)
            deadline = time.monotonic() + 2.0
            while True:
                words = self._read(deadline, "recovering from a timeout").split()
                if words and words[0] in answer_words:
                    return
        except EngineError:
            self._kill()

    # --- protocol specifics: abstract here, each protocol's subclass implements them ---

    @abstractmethod
    def _handshake(self, probing: bool) -> None:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def _play(self, board: Board, budget: Budget, banned: List[Move],
              deadline: float) -> PlayResult:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def _analyse(self, board: Board, budget: Budget, multipv: int,
                 deadline: float) -> List[Dict[str, Any]]:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def _set_option(self, name: str, value: Any) -> None:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def _sync(self) -> None:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def _new_game(self) -> None:
        """Each protocol's subclass implements this."""

    def _say_goodbye(self) -> None:
        self._send("quit")


def _option_value(value: Any) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _xboard_like(line: str) -> bool:
    return line.startswith(("feature ", "tellics", "telluser", "Error (", "Illegal move"))


class _UciFamily(ExternalEngine):
    """What UCI and UCCI share: position/go/bestmove with info lines."""

    hello = ""
    hello_ok = ""

    def _handshake(self, probing: bool) -> None:
        self._send(self.hello)
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._read(deadline, f"waiting for {self.hello_ok!r}")
            words = line.split()
            if not words:
                continue
            if words[0] == self.hello_ok:
                break
            if words[0] == "id" and len(words) > 2:
                if words[1] == "name":
                    self.name = " ".join(words[2:])
                elif words[1] == "author":
                    self.author = " ".join(words[2:])
            elif words[0] == "option":
                option = self._parse_option(words[1:])
                if option is not None:
                    self.options[option.name.lower()] = option
            elif probing and _xboard_like(line):
                raise EngineError(f"answered {line!r}, not {self.hello_ok!r}")
        self._after_handshake()
        self._sync()

    def _after_handshake(self) -> None:
        pass

    def _parse_option(self, words: List[str]) -> Optional[EngineOption]:
        keys = {"type", "default", "min", "max", "var"}
        name_words: List[str] = []
        i = 0
        if words and words[0] == "name":
            i = 1
        while i < len(words) and words[i] not in keys:
            name_words.append(words[i])
            i += 1
        if not name_words:
            return None
        info: Dict[str, Any] = {"var": []}
        while i < len(words):
            key = words[i]
            j = i + 1
            value_words: List[str] = []
            while j < len(words) and words[j] not in keys:
                value_words.append(words[j])
                j += 1
            value = " ".join(value_words)
            if key == "var":
                info["var"].append(value)
            else:
                info[key] = value
            i = j
        def number(v: Optional[str]) -> Optional[int]:
            try:
                return int(v) if v is not None else None
            except ValueError:
                return None
        return EngineOption(" ".join(name_words), info.get("type", ""), info.get("default"),
                            number(info.get("min")), number(info.get("max")),
                            tuple(info["var"]))

    @abstractmethod
    def _position_command(self, board: Board) -> str:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def _go_command(self, board: Board, budget: Budget) -> str:
        """Each protocol's subclass implements this."""

    @abstractmethod
    def _parse_info(self, board: Board, words: List[str]) -> Dict[str, Any]:
        """Each protocol's subclass implements this."""

    def _search(self, board: Board, budget: Budget, banned: List[Move],
                deadline: float) -> Tuple[List[str], Dict[int, Dict[str, Any]]]:
        """Sends position and go; returns the bestmove line's words and the
        last info per multipv line."""
        self._send(self._position_command(board))
        if banned:
            self._send_banmoves(banned)
        self._send(self._go_command(board, budget))
        infos: Dict[int, Dict[str, Any]] = {}
        while True:
            try:
                line = self._read(deadline, "waiting for its best move")
            except EngineTimeoutError:
                self._recover("stop", ("bestmove", "nobestmove"))
                raise
            words = line.split()
            if not words:
                continue
            if words[0] in ("bestmove", "nobestmove"):
                return words, infos
            if words[0] == "info":
                info = self._parse_info(board, words[1:])
                if "depth" in info or "score" in info or "pv" in info:
                    k = info.get("multipv", 1)
                    merged = dict(infos.get(k, {}))
                    merged.update(info)
                    infos[k] = merged
                elif "nodes" in info or "time" in info:
                    # UCCI sends time and nodes on a line of their own
                    for merged in infos.values():
                        merged.update(info)

    def _send_banmoves(self, banned: List[Move]) -> None:
        raise EngineError(f"{self.protocol.upper()} has no way to ban moves")

    def _ponder_move(self, text: str) -> Move:
        return Move.from_iccs(text)

    def _play(self, board: Board, budget: Budget, banned: List[Move],
              deadline: float) -> PlayResult:
        self._set_multipv(1)
        words, infos = self._search(board, budget, banned, deadline)
        line = " ".join(words)
        move = ponder = None
        draw = resign = False
        if words[0] == "bestmove":
            if len(words) < 2:
                raise EngineError(f"engine {self.name!r} answered nonsense: {line!r}")
            if words[1].lower() not in ("(none)", "none", "0000", "null"):
                move = self._parse_move(words[1], line)
            rest = [w.lower() for w in words[2:]]
            if "ponder" in rest:
                k = rest.index("ponder")
                if k + 1 < len(rest):
                    try:
                        ponder = self._ponder_move(rest[k + 1])
                    except InvalidMoveError:
                        ponder = None
            draw = "draw" in rest
            resign = "resign" in rest
        return PlayResult(move, ponder, infos.get(1, {}), draw, resign)

    def _analyse(self, board: Board, budget: Budget, multipv: int,
                 deadline: float) -> List[Dict[str, Any]]:
        self._set_multipv(multipv)
        _, infos = self._search(board, budget, [], deadline)
        return [infos[k] for k in sorted(infos)][:multipv]

    def _set_multipv(self, n: int) -> None:
        if n > 1:
            raise EngineError(f"engine {self.name!r} cannot show more than one line")


def _shift_ranks(text: str, delta: int) -> str:
    """A coordinate move with both ranks moved by delta ("h3e3", -1 ->
    "h2e2"); the text unchanged when it is not one."""
    m = _COORDINATE_MOVE.fullmatch(text)
    if m is None:
        return text
    f1, r1, f2, r2 = m.groups()
    return f"{f1}{int(r1) + delta}{f2}{int(r2) + delta}"


_COORDINATE_MOVE = re.compile(r"([a-i])(\d{1,2})([a-i])(\d{1,2})")


class _UciEngine(_UciFamily):
    protocol = "uci"
    hello = "uci"
    hello_ok = "uciok"

    def __init__(self, process: _Process, timeout: float) -> None:
        super().__init__(process, timeout)
        self._multipv = 1
        self._rank_base = 0         # 1 for Fairy-Stockfish: ranks 1-10

    def _after_handshake(self) -> None:
        if "uci_variant" in self.options:
            # Fairy-Stockfish: play xiangqi (unless the caller set another
            # variant, which then fails on the first position) in its
            # notation
            self._rank_base = 1
            self._send(f"setoption name {self.options['uci_variant'].name} value xiangqi")

    def _out(self, move: Move) -> str:
        return _shift_ranks(move.iccs(), self._rank_base) if self._rank_base else move.iccs()

    def _in(self, text: str) -> str:
        return _shift_ranks(text, -self._rank_base) if self._rank_base else text

    def _parse_move(self, text: str, line: str) -> Move:
        return super()._parse_move(self._in(text), line)

    def _ponder_move(self, text: str) -> Move:
        return Move.from_iccs(self._in(text))

    def _sync(self) -> None:
        self._send("isready")
        deadline = time.monotonic() + self.timeout
        while self._read(deadline, "waiting for 'readyok'").strip() != "readyok":
            pass

    def _new_game(self) -> None:
        self._send("ucinewgame")
        self._sync()

    def _set_option(self, name: str, value: Any) -> None:
        option = self.options.get(name.lower())
        if option is None:
            raise EngineError(f"engine {self.name!r} has no option {name!r} (it has: "
                              f"{', '.join(o.name for o in self.options.values())})")
        text = _option_value(value)
        if text is None or option.type == "button":
            self._send(f"setoption name {option.name}")
        else:
            self._send(f"setoption name {option.name} value {text}")
        if option.name.lower() == "multipv":
            self._multipv = int(text or 1)

    def _set_multipv(self, n: int) -> None:
        if n == self._multipv:
            return
        if "multipv" not in self.options:
            super()._set_multipv(n)
            return
        self._send(f"setoption name {self.options['multipv'].name} value {n}")
        self._multipv = n

    def _position_command(self, board: Board) -> str:
        root, moves = _root_and_moves(board)
        head = "position startpos" if _is_start(root) else f"position fen {root.fen()}"
        return head + (" moves " + " ".join(self._out(m) for m in moves) if moves else "")

    def _go_command(self, board: Board, budget: Budget) -> str:
        return _wire.uci_go(budget, board.turn)

    def _send_banmoves(self, banned: List[Move]) -> None:
        raise EngineError("UCI has no banmoves; use a UCCI engine to ban moves")

    def _parse_info(self, board: Board, words: List[str]) -> Dict[str, Any]:
        if self._rank_base:
            words = [self._in(w) for w in words]
        return _wire.parse_uci_info(board, words)


class _UcciEngine(_UciFamily):
    protocol = "ucci"
    hello = "ucci"
    hello_ok = "ucciok"

    def __init__(self, process: _Process, timeout: float) -> None:
        super().__init__(process, timeout)
        self._millisec = False

    def _after_handshake(self) -> None:
        # UCCI 3.0: an engine that announces usemillisec is told to use it;
        # otherwise times are whole seconds
        if "usemillisec" in self.options:
            self._send("setoption usemillisec true")
            self._millisec = True

    def _sync(self) -> None:
        self._send("isready")
        deadline = time.monotonic() + self.timeout
        while self._read(deadline, "waiting for 'readyok'").strip() != "readyok":
            pass

    def _new_game(self) -> None:
        if "newgame" in self.options:
            self._send("setoption newgame")
        self._sync()

    def _set_option(self, name: str, value: Any) -> None:
        key = name.lower()
        if self.options and key not in self.options:
            raise EngineError(f"engine {self.name!r} has no option {name!r} (it has: "
                              f"{', '.join(self.options)})")
        text = _option_value(value)
        self._send(f"setoption {key}" + (f" {text}" if text is not None else ""))
        if key == "usemillisec":
            self._millisec = text == "true"

    def _position_command(self, board: Board) -> str:
        # UCCI: the position after the last capture, and the moves since
        root, moves = _root_and_moves(board)
        b = root.copy(stack=False)
        start, base_fen = 0, None
        for k, move in enumerate(moves):
            capture = b.is_capture(move)
            b.push(move)
            if capture:
                start, base_fen = k + 1, b.fen()
        if base_fen is not None:
            head = f"position fen {base_fen}"
        else:
            head = "position startpos" if _is_start(root) else f"position fen {root.fen()}"
        tail = moves[start:]
        return head + (" moves " + " ".join(m.iccs() for m in tail) if tail else "")

    def _go_command(self, board: Board, budget: Budget) -> str:
        if budget.mate is not None and budget.depth is None and budget.movetime is None \
                and budget.own_clock is None:
            # UCCI has no mate search: a mate in N moves is found within 2N plies
            budget = Budget(depth=2 * budget.mate, nodes=budget.nodes)
        return _wire.ucci_go(budget, self._millisec)

    def _send_banmoves(self, banned: List[Move]) -> None:
        self._send("banmoves " + " ".join(m.iccs() for m in banned))

    def _parse_info(self, board: Board, words: List[str]) -> Dict[str, Any]:
        return _wire.parse_ucci_info(board, words, self._millisec)

    def _say_goodbye(self) -> None:
        self._send("quit")
        deadline = time.monotonic() + 2.0
        try:
            while self._read(deadline, "waiting for 'bye'").strip() != "bye":
                pass
        except EngineError:
            pass


# xboard edit-mode letters for xiangqi (XBoard and MaxQi): King, Advisor,
# Elephant, Horse, Rook, Cannon, Pawn
_XBOARD_LETTERS = [None, "K", "A", "E", "H", "R", "C", "P"]


class _XboardEngine(ExternalEngine):
    """xboard/CECP protocol 2 (MaxQi, Fairy-Max, ...), variant xiangqi."""

    protocol = "xboard"

    def __init__(self, process: _Process, timeout: float) -> None:
        super().__init__(process, timeout)
        self.features: Dict[str, str] = {}
        self._ping = 0
        self._game: Optional[Tuple[str, List[Move]]] = None  # (root fen, moves the engine has)
        self._sd: Optional[int] = None

    def _handshake(self, probing: bool) -> None:
        self._send("xboard")
        self._send("protover 2")
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._read(deadline, "waiting for its features")
            if line.startswith("feature "):
                done = self._features(line[len("feature "):])
                if done == "1":
                    break
                if done == "0":  # the engine asks for time to start up
                    deadline = max(deadline, time.monotonic() + 60.0)
            elif probing and line.split()[:1] in (["id"], ["uciok"], ["ucciok"], ["option"]):
                raise EngineError(f"answered {line!r}, not xboard features")
        if "xiangqi" not in self.features.get("variants", "").split(","):
            raise EngineError(f"engine {self.name!r} does not play xiangqi (its variants: "
                              f"{self.features.get('variants', 'none')!r})")
        self._sync()

    def _features(self, text: str) -> Optional[str]:
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        done = None
        for word in words:
            if "=" not in word:
                continue
            key, value = word.split("=", 1)
            self.features[key] = value
            if key == "done":
                done = value
                continue
            if key == "myname":
                self.name = value
            elif key == "option":
                name = value.split(" -", 1)[0].strip()
                kind = value.split(" -", 1)[1].split()[0] if " -" in value else ""
                self.options[name.lower()] = EngineOption(name, kind)
            # coordinate moves only: SAN is refused
            self._send(("rejected " if key == "san" and value == "1" else "accepted ") + key)
        return done

    def _sync(self) -> None:
        if self.features.get("ping") != "1":
            return
        self._ping += 1
        n = self._ping
        self._send(f"ping {n}")
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._read(deadline, f"waiting for 'pong {n}'")
            if line.startswith(("Illegal move", "Error")) and self._game is not None:
                self._game = None
                raise EngineError(f"engine {self.name!r} refused a move: {line!r}")
            if line.strip() == f"pong {n}":
                return

    def _new_game(self) -> None:
        self._game = None

    def _set_option(self, name: str, value: Any) -> None:
        key = name.lower()
        if key == "memory" and self.features.get("memory") == "1":
            self._send(f"memory {int(value)}")
            return
        if key in ("cores", "threads") and self.features.get("smp") == "1":
            self._send(f"cores {int(value)}")
            return
        option = self.options.get(key)
        if option is None:
            raise EngineError(f"engine {self.name!r} has no option {name!r}")
        text = _option_value(value)
        self._send(f"option {option.name}" + ("" if text is None else f"={text}"))

    def _move_text(self, move: Move) -> str:
        return ("usermove " if self.features.get("usermove") == "1" else "") + move.iccs()

    def _setup(self, root: Board) -> None:
        self._send("new")
        self._send("variant xiangqi")
        self._send("force")
        self._send("post")
        self._send("easy")
        if not _is_start(root):
            if self.features.get("setboard") == "1":
                self._send(f"setboard {root.fen()}")
            else:
                self._check_editable(root)
                if root.turn == BLACK:
                    # protocol 2's way to get Black to move before 'edit'
                    self._send("a3a4")
                self._send("edit")
                self._send("#")
                for color in (RED, BLACK):
                    if color == BLACK:
                        self._send("c")
                    for sq in range(90):
                        piece = root.piece_at(sq)
                        if piece is not None and piece.color == color:
                            self._send(_XBOARD_LETTERS[piece.piece_type] + SQUARE_NAMES[sq])
                self._send(".")

    def _check_editable(self, root: Board) -> None:
        # MaxQi 4.8's '#' (clear the board) misses the a-file, which keeps
        # what the start position (after the a3a4 used for Black to move)
        # had there; refuse positions it would get wrong
        if not self.name.lower().startswith("maxqi"):
            return
        pawn = "a4" if root.turn == BLACK else "a3"
        keep = {"a0": "R", pawn: "P", "a6": "p", "a9": "r"}
        have = {SQUARE_NAMES[sq]: str(root.piece_at(sq)) for sq in range(0, 90, 9)
                if root.piece_at(sq) is not None}
        if have != keep:
            raise EngineError(f"engine {self.name!r} cannot be given this position: it has no "
                              "setboard and its edit mode cannot change the a-file")

    def _prepare(self, board: Board, budget: Budget) -> None:
        root, moves = _root_and_moves(board)
        root_fen = root.fen()
        if (self._game is not None and self._game[0] == root_fen
                and moves[:len(self._game[1])] == self._game[1]):
            self._send("force")
            sent = len(self._game[1])
        else:
            self._game = None
            self._setup(root)
            sent = 0
        for move in moves[sent:]:
            self._send(self._move_text(move))
        self._game = (root_fen, list(moves))
        # time control
        depth = budget.depth
        if depth is None and budget.mate is not None:
            depth = 2 * budget.mate      # no mate search in xboard: 2N plies find a mate in N
        if budget.nodes is not None and budget.movetime is None and budget.own_clock is None \
                and depth is None:
            raise EngineError("xboard engines cannot be limited by nodes")
        if depth is not None:
            self._send(f"sd {int(depth)}")
            self._sd = int(depth)
        elif self._sd is not None:
            self._send("sd 99")
            self._sd = None
        if budget.movetime is not None:
            # st takes whole seconds (MaxQi reads an int); the clock is given
            # exactly, in centiseconds
            t = budget.movetime
            self._send(f"st {max(1, math.ceil(t))}")
            cs = max(1, round(t * 100))
            self._send(f"time {cs}")
            self._send(f"otim {cs}")
        elif budget.own_clock is not None:
            base = budget.own_clock
            inc = budget.own_inc or 0
            mps = budget.remaining_moves or 0
            minutes, seconds = divmod(max(1, round(base)), 60)
            inc_text = str(int(inc)) if float(inc).is_integer() else f"{inc:g}"
            self._send(f"level {mps} {minutes}:{seconds:02d} {inc_text}")
            self._send(f"time {max(0, round(base * 100))}")
            opp = base if budget.opp_clock is None else budget.opp_clock
            self._send(f"otim {max(0, round(opp * 100))}")
        else:  # depth only: plenty of time
            self._send("st 36000")
        self._sync()

    def _think(self, board: Board, deadline: float) -> Tuple[Optional[str], Dict[str, Any], bool, bool]:
        """Sends go and reads until the engine moves or resigns: (move text,
        last thinking info, draw offered, resigned)."""
        self._send("go")
        info: Dict[str, Any] = {}
        draw = False
        while True:
            try:
                line = self._read(deadline, "waiting for its move")
            except EngineTimeoutError:
                self._game = None
                self._recover("?", ("move",))
                raise
            words = line.split()
            if not words:
                continue
            if words[0] == "move" and len(words) > 1:
                return words[1], info, draw, False
            if len(words) >= 4 and words[0] == "My" and words[1] == "move":  # protocol 1
                return words[-1], info, draw, False
            if words[0] == "resign" or line.startswith(("tellics resign", "tellopponent resign")):
                self._game = None
                return None, info, draw, True
            if words[0] == "offer" and words[1:2] == ["draw"]:
                draw = True
                continue
            if words[0].startswith(("Illegal", "Error")):
                self._game = None
                raise EngineError(f"engine {self.name!r} complained: {line!r}")
            thought = self._thinking(board, words)
            if thought:
                info = thought

    def _thinking(self, board: Board, words: List[str]) -> Dict[str, Any]:
        """Parses a thinking line: ply score time(cs) nodes pv..."""
        if len(words) < 4:
            return {}
        try:
            depth, score, cs, nodes = (int(w.rstrip(".&")) for w in words[:4])
        except ValueError:
            return {}
        if depth < 1:
            return {}
        info: Dict[str, Any] = {"depth": depth, "score": score, "mate": None,
                                "time": cs / 100.0, "nodes": nodes,
                                "pv": _wire.pv_prefix(board, words[4:])}
        if abs(score) >= 100000:  # xboard convention for mates: 100000 + moves
            mate = abs(score) - 100000
            info["mate"] = mate if score > 0 else -mate
            info["score"] = _wire.mate_score(info["mate"]) if mate else score
        return info

    def _play(self, board: Board, budget: Budget, banned: List[Move],
              deadline: float) -> PlayResult:
        if banned:
            raise EngineError("the xboard protocol cannot ban moves")
        self._prepare(board, budget)
        text, info, draw, resigned = self._think(board, deadline)
        if text is None:
            return PlayResult(None, None, info, draw, resigned)
        move = self._parse_move(text, f"move {text}")
        if self._game is not None:
            self._game[1].append(move)
        return PlayResult(move, None, info, draw, False)

    def _analyse(self, board: Board, budget: Budget, multipv: int,
                 deadline: float) -> List[Dict[str, Any]]:
        if multipv > 1:
            raise EngineError("xboard engines show one line only")
        self._prepare(board, budget)
        _, info, _, _ = self._think(board, deadline)
        # the engine has played its move on its own board: forget the game
        self._game = None
        return [info] if info else []
