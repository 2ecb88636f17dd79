"""Checks of numbers at the Python boundary, before they reach the compiled
core (whose C ints would otherwise wrap or raise OverflowError).

Every failure is a ValueError that names the value and the range:

>>> integer(7, "depth", 1, 64)
7
>>> integer(2 ** 31, "halfmove clock", 0, 1_000_000)
Traceback (most recent call last):
...
ValueError: halfmove clock must be an integer 0..1000000, got 2147483648
"""

from __future__ import annotations

import math
import operator
from typing import Any, Optional

__all__ = ["integer", "seconds", "square"]


def integer(value: Any, what: str, lo: int, hi: Optional[int] = None) -> int:
    """`value` as an int in lo..hi (hi None: no upper bound).  Accepts
    anything with ``__index__`` (numpy integers too) but not bool or float."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise ValueError(f"{what} must be an integer{_range(lo, hi)}, got {_shown(value)}") \
            from None
    if n < lo or (hi is not None and n > hi):
        raise ValueError(f"{what} must be an integer{_range(lo, hi)}, got {_shown(n)}")
    return n


def seconds(value: Any, what: str) -> float:
    """`value` as a finite, non-negative number of seconds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = operator.index(value)
        except TypeError:
            raise ValueError(f"{what} must be a number of seconds, got {_shown(value)}") \
                from None
    try:
        value = float(value)
    except OverflowError:           # an int beyond any float
        raise ValueError(f"{what} must be a finite, non-negative number of seconds, "
                         f"got an integer of {value.bit_length()} bits") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{what} must be a finite, non-negative number of seconds, "
                         f"got {value!r}")
    return value


def square(value: Any) -> int:
    """A square 0..89 (``rank * 9 + file``)."""
    if isinstance(value, bool):
        raise ValueError(f"square must be an int 0..89, got {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise ValueError(f"square must be an int 0..89, got {_shown(value)}") from None
    if not 0 <= n < 90:
        raise ValueError(f"square {_shown(n)} is not on the board (0..89)")
    return n


def _range(lo: int, hi: Optional[int]) -> str:
    return f" {lo}..{hi}" if hi is not None else f" >= {lo}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:30] + f"... ({len(text)} characters)"
