"""What UCI and UCCI lines mean, for both ends of the wire: the engine
command (protocol.py) reads ``go`` and writes ``info``; the client for
external engines (external.py) writes ``go`` and reads ``info``.  Each
conversion is written once, here.

Scores: cxiangqi's own scale is centipawns, with a mate in p plies as
``MATE_SCORE - p`` (MATE_SCORE = 30000).  UCI says ``score mate N`` (moves,
negative when being mated); UCCI has no mate keyword and uses ElephantEye's
scale, ``10000 - plies``.

>>> to_ucci_score(0, 2), from_ucci_score(9997)
(9997, (29997, 2))
>>> b = Budget.from_limit(Limit(red_clock=60, black_clock=50, red_inc=1), turn=True)
>>> uci_go(b, turn=True)
'go wtime 60000 btime 50000 winc 1000 binc 1000'
>>> ucci_go(b, millisec=True)
'go time 60000 increment 1000 opptime 50000 oppincrement 1000'
>>> parse_uci_go("wtime 60000 btime 50000 winc 1000".split(), turn=True).limit.clock_for(True)
(60.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from ._search import MATE_SCORE, WIN_SCORE
from .limit import MAX_NODES, Limit
from .move import Move

if TYPE_CHECKING:  # pragma: no cover
    from .board import Board

__all__ = ["MATE_SCORE", "UCCI_MATE", "UCCI_WIN", "mate_in", "mate_score", "to_ucci_score",
           "from_ucci_score", "Budget", "GoCommand", "uci_go", "ucci_go", "parse_uci_go",
           "parse_ucci_go", "parse_uci_info", "parse_ucci_info"]

#: ElephantEye's mate scale (UCCI has no "mate" keyword): 10000 - plies
UCCI_MATE = 10000
#: UCCI scores beyond this (in absolute value) are mates
UCCI_WIN = 9900
#: largest number a go command may carry (times in ms, nodes, depth): 2**62
_MAX_NUMBER = MAX_NODES
#: deepest search a go command may ask for
MAX_GO_DEPTH = 10_000


# --- scores ------------------------------------------------------------------------

def mate_in(score: int) -> Optional[int]:
    """Moves to mate for a cxiangqi mate score (negative: being mated), else None."""
    if score > WIN_SCORE:
        return (MATE_SCORE - score + 1) // 2
    if score < -WIN_SCORE:
        return -((MATE_SCORE + score) // 2)
    return None


def mate_score(mate: int) -> int:
    """cxiangqi's score for 'mate in `mate` moves' (negative: being mated)."""
    if mate > 0:
        return MATE_SCORE - (2 * mate - 1)
    return -(MATE_SCORE - 2 * -mate)


def to_ucci_score(score: int, mate: Optional[int]) -> int:
    """A score on ElephantEye's scale: mates as 10000 minus the plies to go."""
    if mate is None:
        return max(-UCCI_WIN, min(UCCI_WIN, score))
    if mate > 0:
        return UCCI_MATE - (2 * mate - 1)
    return -(UCCI_MATE - 2 * -mate)


def from_ucci_score(value: int) -> Tuple[int, Optional[int]]:
    """(cxiangqi score, mate in moves or None) for a UCCI score."""
    if UCCI_WIN < abs(value) <= UCCI_MATE:
        plies = UCCI_MATE - abs(value)
        mate = (plies + 1) // 2 if value > 0 else -(plies // 2)
        if mate:
            return mate_score(mate), mate
    return value, None


# --- go: limits seen from the side to move ---------------------------------------------

@dataclass(frozen=True)
class Budget:
    """A :class:`Limit` seen from the side to move: its own clock and the
    opponent's, instead of Red's and Black's."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    movetime: Optional[float] = None
    own_clock: Optional[float] = None
    own_inc: Optional[float] = None
    opp_clock: Optional[float] = None
    opp_inc: Optional[float] = None
    remaining_moves: Optional[int] = None

    @classmethod
    def from_limit(cls, limit: Any, turn: bool, opponent_time: Optional[float] = None,
                   opponent_inc: Optional[float] = None) -> "Budget":
        """The budget of `limit` (a Limit, or an object with its attributes)
        for the side `turn` (True: Red).  `opponent_time`/`opponent_inc`
        fill in the opponent's clock when the limit does not give it."""
        get = lambda name: getattr(limit, name, None)  # noqa: E731
        own, opp = ("red", "black") if turn else ("black", "red")
        opp_clock = get(f"{opp}_clock")
        opp_inc = get(f"{opp}_inc")
        return cls(depth=get("depth"), nodes=get("nodes"), mate=get("mate"),
                   movetime=get("time"),
                   own_clock=get(f"{own}_clock"), own_inc=get(f"{own}_inc"),
                   opp_clock=opponent_time if opp_clock is None else opp_clock,
                   opp_inc=opponent_inc if opp_inc is None else opp_inc,
                   remaining_moves=get("remaining_moves"))

    def to_limit(self, turn: bool) -> Limit:
        """The Limit for the side `turn` (True: Red)."""
        own, opp = ("red", "black") if turn else ("black", "red")
        clocks = {f"{own}_clock": self.own_clock, f"{own}_inc": self.own_inc,
                  f"{opp}_clock": self.opp_clock, f"{opp}_inc": self.opp_inc}
        return Limit(time=self.movetime, depth=self.depth, nodes=self.nodes, mate=self.mate,
                     remaining_moves=self.remaining_moves if self.own_clock is not None
                     else None, **clocks)

    @property
    def empty(self) -> bool:
        return all(v is None for v in (self.depth, self.nodes, self.mate, self.movetime,
                                       self.own_clock))


def _ms(seconds: float) -> str:
    return str(max(0, round(seconds * 1000)))


def uci_go(budget: Budget, turn: bool) -> str:
    """The UCI go command for a budget; `turn` True when Red is to move.
    A clock or increment not given for the opponent is taken to be the same
    as the side to move's (both ends of this file do so)."""
    parts = ["go"]
    if budget.depth is not None:
        parts += ["depth", str(budget.depth)]
    if budget.nodes is not None:
        parts += ["nodes", str(budget.nodes)]
    if budget.mate is not None:
        parts += ["mate", str(budget.mate)]
    if budget.movetime is not None:
        parts += ["movetime", str(max(1, round(budget.movetime * 1000)))]
    if budget.own_clock is not None:
        opp = budget.own_clock if budget.opp_clock is None else budget.opp_clock
        wtime, btime = (budget.own_clock, opp) if turn else (opp, budget.own_clock)
        parts += ["wtime", _ms(wtime), "btime", _ms(btime)]
        if budget.own_inc is not None or budget.opp_inc is not None:
            own_inc = budget.own_inc or 0.0
            opp_inc = own_inc if budget.opp_inc is None else budget.opp_inc
            winc, binc = (own_inc, opp_inc) if turn else (opp_inc, own_inc)
            parts += ["winc", _ms(winc), "binc", _ms(binc)]
        if budget.remaining_moves is not None:
            parts += ["movestogo", str(budget.remaining_moves)]
    if len(parts) == 1:
        parts.append("infinite")
    return " ".join(parts)


def ucci_go(budget: Budget, millisec: bool) -> str:
    """The UCCI go command for a budget.  UCCI has one mode per go: a clock
    (one move's time is sent as the whole clock with ``movestogo 1``), else
    depth, else nodes; times in milliseconds or (millisec False) seconds."""
    def t(seconds: float) -> str:
        return _ms(seconds) if millisec else str(max(1, round(seconds)))

    if budget.movetime is not None:
        return f"go time {t(budget.movetime)} movestogo 1"
    if budget.own_clock is not None:
        parts = ["go", "time", t(budget.own_clock)]
        if budget.remaining_moves is not None:
            parts += ["movestogo", str(budget.remaining_moves)]
        else:
            parts += ["increment", t(budget.own_inc or 0.0)]
        if budget.opp_clock is not None:
            parts += ["opptime", t(budget.opp_clock)]
            if budget.remaining_moves is None:
                opp_inc = budget.own_inc if budget.opp_inc is None else budget.opp_inc
                parts += ["oppincrement", t(opp_inc or 0.0)]
        return " ".join(parts)
    if budget.depth is not None:
        return f"go depth {budget.depth}"
    if budget.nodes is not None:
        return f"go nodes {budget.nodes}"
    return "go infinite"


@dataclass
class GoCommand:
    """A parsed go command.  ``limit`` None: no limit was understood (only
    unknown words), so the engine's own default applies, not an endless
    search.  ``static``: UCCI's ``go depth 0``, answered with no move.
    ``problems`` lists what was wrong with the command (each was ignored)."""

    limit: Optional[Limit]
    static: bool = False
    ponder: bool = False
    infinite: bool = False
    draw: bool = False
    searchmoves: List[str] = field(default_factory=list)
    problems: List[str] = field(default_factory=list)


class GoError(ValueError):
    """A go command that cannot be carried out at all."""


def _number(tokens: Sequence[str], i: int, what: str, *, integer: bool = True,
            lo: float = 0, hi: float = _MAX_NUMBER) -> float:
    """The number after tokens[i] (a keyword), clamped to lo..hi; GoError
    if it is missing or not a finite number."""
    if i + 1 >= len(tokens):
        raise GoError(f"'{what}' needs a number")
    text = tokens[i + 1]
    try:
        value: float = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise GoError(f"'{what}' needs a number, got {_show(text)}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise GoError(f"'{what}' needs a finite number, got {_show(text)}")
    value = min(max(value, lo), hi)
    return int(value) if integer else float(value)


def _show(text: str, limit: int = 20) -> str:
    shown = text[:limit].encode("unicode_escape").decode("ascii")
    return repr(shown + ("..." if len(text) > limit else ""))


def parse_uci_go(tokens: Sequence[str], turn: bool) -> GoCommand:
    """The words after ``go`` of a UCI command; `turn` True when Red is to
    move (wtime/winc are Red's, as Pikafish has it).  GoError for a number
    that cannot be read."""
    go = GoCommand(None)
    kw: Dict[str, Any] = {}
    clock: Dict[str, float] = {}
    i = 0
    while i < len(tokens):
        t = tokens[i].lower()
        if t == "infinite":
            go.infinite = True
            i += 1
            continue
        if t == "ponder":
            go.ponder = True
            i += 1
            continue
        if t == "searchmoves":
            go.searchmoves = list(tokens[i + 1:])
            break
        if t == "depth":
            kw["depth"] = _number(tokens, i, t, lo=1, hi=MAX_GO_DEPTH)
        elif t == "nodes":
            kw["nodes"] = _number(tokens, i, t)
        elif t == "mate":
            kw["mate"] = _number(tokens, i, t, lo=1, hi=MAX_GO_DEPTH)
        elif t == "movetime":
            kw["movetime"] = _number(tokens, i, t, integer=False) / 1000.0
        elif t in ("wtime", "btime", "winc", "binc"):
            clock[t] = _number(tokens, i, t, integer=False) / 1000.0
        elif t == "movestogo":
            kw["remaining_moves"] = _number(tokens, i, t, lo=1, hi=MAX_GO_DEPTH)
        else:
            go.problems.append(f"unknown parameter {_show(tokens[i])} ignored")
            i += 1
            continue
        i += 2
    if go.infinite:
        go.limit = Limit()
        return go
    own, opp = ("w", "b") if turn else ("b", "w")
    budget = Budget(depth=kw.get("depth"), nodes=kw.get("nodes"), mate=kw.get("mate"),
                    movetime=kw.get("movetime"),
                    own_clock=clock.get(f"{own}time"), own_inc=clock.get(f"{own}inc"),
                    opp_clock=clock.get(f"{opp}time"), opp_inc=clock.get(f"{opp}inc"),
                    remaining_moves=kw.get("remaining_moves"))
    return _finish(go, budget, turn)


def _finish(go: GoCommand, budget: Budget, turn: bool) -> GoCommand:
    if budget.empty and go.problems:
        go.limit = None       # only unknown words: the default, not an endless search
    else:
        go.infinite = budget.empty
        go.limit = budget.to_limit(turn)
    return go


def parse_ucci_go(tokens: Sequence[str], turn: bool, millisec: bool) -> GoCommand:
    """The words after ``go`` of a UCCI command (``go [ponder|draw] {depth N
    | nodes N | time T [movestogo N | increment I] [opptime T [oppmovestogo
    N | oppincrement I]] | movetime T | infinite}``); times in milliseconds,
    or seconds when `millisec` is False.  ``movetime`` is not UCCI's, but
    is understood.  GoError for a number that cannot be read."""
    unit = 1000.0 if millisec else 1.0
    go = GoCommand(None)
    i = 0
    if tokens and tokens[0].lower() in ("ponder", "draw"):
        go.ponder, go.draw = tokens[0].lower() == "ponder", tokens[0].lower() == "draw"
        i = 1
    kw: Dict[str, Any] = {}
    depth_zero = False
    while i < len(tokens):
        t = tokens[i].lower()
        if t == "infinite":
            go.infinite = True
            i += 1
            continue
        if t == "depth":
            depth = _number(tokens, i, t, hi=MAX_GO_DEPTH)
            if depth == 0:
                depth_zero = True
            else:
                kw["depth"] = depth
        elif t == "nodes":
            kw["nodes"] = _number(tokens, i, t)
        elif t == "time":
            kw["own_clock"] = _number(tokens, i, t, integer=False) / unit
        elif t == "movetime":
            kw["movetime"] = _number(tokens, i, t, integer=False) / unit
        elif t == "movestogo":
            kw["remaining_moves"] = _number(tokens, i, t, lo=1, hi=MAX_GO_DEPTH)
        elif t == "increment":
            kw["own_inc"] = _number(tokens, i, t, integer=False) / unit
        elif t == "opptime":
            kw["opp_clock"] = _number(tokens, i, t, integer=False) / unit
        elif t == "oppincrement":
            kw["opp_inc"] = _number(tokens, i, t, integer=False) / unit
        elif t == "oppmovestogo":
            _number(tokens, i, t, hi=MAX_GO_DEPTH)  # checked, not used
        else:
            go.problems.append(f"unknown parameter {_show(tokens[i])} ignored")
            i += 1
            continue
        i += 2
    if go.infinite:
        go.limit = Limit()
        return go
    if depth_zero and not kw:
        go.static = True      # UCCI 'go depth 0': a static answer, no move
        return go
    if "own_clock" not in kw:
        for key in ("remaining_moves", "own_inc", "opp_clock", "opp_inc"):
            kw.pop(key, None)
    return _finish(go, Budget(**kw), turn)


# --- info lines ----------------------------------------------------------------------

def pv_prefix(board: "Board", words: Sequence[str]) -> List[Move]:
    """The legal prefix of a principal variation given as ICCS words."""
    from .errors import InvalidMoveError
    b = board.copy(stack=False)
    pv: List[Move] = []
    for text in words:
        try:
            move = Move.from_iccs(text)
        except InvalidMoveError:
            break
        if not b.is_legal(move):
            break
        b.push(move)
        pv.append(move)
    return pv


_UCI_INTS = {"depth", "seldepth", "nodes", "nps", "multipv", "hashfull", "tbhits"}


def parse_uci_info(board: "Board", words: Sequence[str]) -> Dict[str, Any]:
    """The fields of a UCI info line (the words after ``info``): depth,
    seldepth, nodes, nps, multipv, time (seconds), score and mate (see the
    module docstring), bound, pv (the legal prefix, as Moves), string.
    An empty dict for lines about the current move."""
    info: Dict[str, Any] = {}
    i = 0
    while i < len(words):
        key = words[i]
        try:
            if key in _UCI_INTS:
                info[key] = int(words[i + 1])
                i += 2
            elif key == "time":
                info["time"] = int(words[i + 1]) / 1000.0
                i += 2
            elif key == "score":
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "mate":
                    info["mate"] = value
                    info["score"] = mate_score(value) if value else -MATE_SCORE
                else:
                    info["mate"] = None
                    info["score"] = value
                i += 3
                if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                    info["bound"] = words[i]
                    i += 1
            elif key == "pv":
                info["pv"] = pv_prefix(board, words[i + 1:])
                break
            elif key == "string":
                info["string"] = " ".join(words[i + 1:])
                break
            elif key in ("currmove", "currmovenumber", "refutation", "currline", "wdl"):
                return {}
            else:
                i += 1
        except (IndexError, ValueError):
            i += 1
    return info


def parse_ucci_info(board: "Board", words: Sequence[str], millisec: bool) -> Dict[str, Any]:
    """The fields of a UCCI info line, as parse_uci_info names them (UCCI
    has depth, score, pv, time, nodes; ``message`` is read as string)."""
    info: Dict[str, Any] = {}
    i = 0
    while i < len(words):
        key = words[i]
        try:
            if key in ("depth", "nodes"):
                info[key] = int(words[i + 1])
                i += 2
            elif key == "time":
                info["time"] = int(words[i + 1]) / (1000.0 if millisec else 1.0)
                i += 2
            elif key == "score":
                info["score"], info["mate"] = from_ucci_score(int(words[i + 1]))
                i += 2
            elif key == "pv":
                info["pv"] = pv_prefix(board, words[i + 1:])
                break
            elif key in ("message", "string"):
                info["string"] = " ".join(words[i + 1:])
                break
            elif key == "currmove":
                return {}
            else:
                i += 1
        except (IndexError, ValueError):
            i += 1
    return info
