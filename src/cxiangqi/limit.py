"""Search limits: :class:`Limit`, named and meant as in python-chess's
``chess.engine.Limit``, for cxiangqi's own engine and for external engines."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Optional, Tuple

from . import _checks

__all__ = ["Limit", "MAX_NODES"]

#: largest node limit (the search counts nodes in a 64-bit integer)
MAX_NODES = 2 ** 62

_CLOCK_FIELDS = ("red_clock", "black_clock", "red_inc", "black_inc")


@dataclass(frozen=True, init=False)
class Limit:
    """When to stop, with python-chess's names and meanings (times in
    seconds).  All None: think until stop() is called.

    - ``time``: seconds for this move (``go movetime``); ``movetime=`` is
      accepted as another name for it.
    - ``depth``: plies; ``nodes``: nodes searched (0: answer at once with a
      legal move); ``mate``: search for a mate in that many moves and stop
      when one is found (combine it with a time, depth or node limit to
      bound a search where there is none).
    - ``red_clock``, ``black_clock``: the time left on each side's clock;
      ``red_inc``, ``black_inc``: the increment per move;
      ``remaining_moves``: moves to the next time control.  The clock of
      the side to move decides the time for this move.

    >>> Limit(time=0.5)
    Limit(time=0.5)
    >>> Limit(red_clock=60, black_clock=55, red_inc=1, black_inc=1).clock_for(True)
    (60.0, 1.0)
    """

    time: Optional[float]
    depth: Optional[int]
    nodes: Optional[int]
    mate: Optional[int]
    red_clock: Optional[float]
    black_clock: Optional[float]
    red_inc: Optional[float]
    black_inc: Optional[float]
    remaining_moves: Optional[int]

    def __init__(self, time: Optional[float] = None, depth: Optional[int] = None,
                 nodes: Optional[int] = None, mate: Optional[int] = None,
                 red_clock: Optional[float] = None, black_clock: Optional[float] = None,
                 red_inc: Optional[float] = None, black_inc: Optional[float] = None,
                 remaining_moves: Optional[int] = None, *,
                 movetime: Optional[float] = None, **unknown: Any) -> None:
        if unknown:
            name = sorted(unknown)[0]
            hint = ""
            if name in ("inc", "movestogo"):
                hint = (": Limit follows python-chess, time is the time for this move; give a "
                        "clock as red_clock/black_clock with red_inc/black_inc and "
                        "remaining_moves")
            raise TypeError(f"Limit() got an unexpected keyword argument {name!r}{hint}")
        if movetime is not None:
            if time is not None:
                raise ValueError("give Limit(time=...) or Limit(movetime=...), not both")
            time = movetime
        values = {
            "time": None if time is None else _checks.seconds(time, "Limit.time"),
            "depth": None if depth is None else _checks.integer(depth, "Limit.depth", 1),
            "nodes": None if nodes is None else _checks.integer(nodes, "Limit.nodes", 0,
                                                                  MAX_NODES),
            "mate": None if mate is None else _checks.integer(mate, "Limit.mate", 1),
            "remaining_moves": None if remaining_moves is None else _checks.integer(
                remaining_moves, "Limit.remaining_moves", 1),
        }
        for name, value in zip(_CLOCK_FIELDS, (red_clock, black_clock, red_inc, black_inc)):
            values[name] = None if value is None else _checks.seconds(value, f"Limit.{name}")
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                          if getattr(self, f.name) is not None)
        return f"Limit({shown})"

    @property
    def movetime(self) -> Optional[float]:
        """Another name for ``time`` (the seconds for this move)."""
        return self.time

    @property
    def infinite(self) -> bool:
        """No limit at all: the search goes on until stop()."""
        return all(getattr(self, f.name) is None for f in fields(self)
                   if f.name not in ("red_inc", "black_inc", "remaining_moves"))

    def clock_for(self, turn: bool) -> Tuple[Optional[float], float]:
        """(time left, increment) on the clock of the side to move (`turn`
        True for Red); time left is None when that clock is not given."""
        if turn:
            return self.red_clock, self.red_inc or 0.0
        return self.black_clock, self.black_inc or 0.0
