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
import os
from typing import Any, Optional

__all__ = ["integer", "seconds", "square", "memory_available"]


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


def memory_available(root: str = "/") -> Optional[int]:
    """Bytes of memory this process can still fill: the smaller of the
    kernel's MemAvailable and what its control group's limit leaves; None
    where neither is known (not Linux).  Memory is promised before it is
    touched (overcommit), so a table larger than this is granted and then
    filled until the kernel kills the process: the hash table is checked
    against it before it is allocated.  `root`: where /proc and /sys are
    (tests)."""
    found = []
    try:
        with open(os.path.join(root, "proc/meminfo")) as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    left = _cgroup_left(root)
    if left is not None:
        found.append(left)
    return min(found) if found else None


def _cgroup_left(root: str) -> Optional[int]:
    """The control group's memory limit less its usage (cgroup v2, else v1),
    None without a limit."""
    paths = [""]
    try:
        with open(os.path.join(root, "proc/self/cgroup")) as f:
            for line in f:
                parts = line.rstrip("\n").split(":", 2)
                if len(parts) == 3 and (parts[1] == "" or "memory" in parts[1].split(",")):
                    paths.insert(0, parts[2].lstrip("/"))
    except OSError:
        pass
    for limit_name, usage_name, sub in (("memory.max", "memory.current", ""),
                                        ("memory.limit_in_bytes", "memory.usage_in_bytes",
                                         "memory")):
        for path in paths:
            where = os.path.join(root, "sys/fs/cgroup", sub, path)
            try:
                with open(os.path.join(where, limit_name)) as f:
                    limit = f.read().strip()
                with open(os.path.join(where, usage_name)) as f:
                    usage = int(f.read().strip())
            except (OSError, ValueError):
                continue
            if limit == "max" or not limit.isdigit() or int(limit) >= 1 << 60:
                return None         # this group has no limit
            return max(0, int(limit) - usage)
    return None


def _range(lo: int, hi: Optional[int]) -> str:
    return f" {lo}..{hi}" if hi is not None else f" >= {lo}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:30] + f"... ({len(text)} characters)"
