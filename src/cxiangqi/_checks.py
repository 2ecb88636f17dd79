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
    info = {}
    try:
        with open(os.path.join(root, "proc/meminfo")) as f:
            for line in f:
                words = line.split()
                if len(words) >= 2 and words[1].isdigit():
                    info[words[0].rstrip(":")] = int(words[1]) * 1024
    except (OSError, ValueError):
        pass
    if "MemAvailable" in info:
        found.append(info["MemAvailable"])
    elif "MemFree" in info:         # kernels before 3.14
        found.append(info["MemFree"] + info.get("Cached", 0))
    left = _cgroup_left(root)
    if left is not None:
        found.append(left)
    return min(found) if found else None


def _cgroup_left(root: str) -> Optional[int]:
    """The least that any memory limit of this process's control group and
    its parents leaves (limit less usage, the reclaimable file cache not
    counted as usage): cgroup v2 by the "0::" line of /proc/self/cgroup,
    v1 by the memory controller's line, then the hierarchy's root as a
    container sees it.  None without a limit."""
    v2_path = v1_path = None
    try:
        with open(os.path.join(root, "proc/self/cgroup")) as f:
            for line in f:
                parts = line.rstrip("\n").split(":", 2)
                if len(parts) != 3:
                    continue
                if parts[0] == "0" and parts[1] == "":
                    v2_path = parts[2]
                elif "memory" in parts[1].split(","):
                    v1_path = parts[2]
    except (OSError, ValueError):
        pass
    base = os.path.join(root, "sys/fs/cgroup")
    v2 = ("memory.max", "memory.current", "inactive_file")
    v1 = ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")
    groups = []
    for path, top, names in ((v2_path, base, v2), (v1_path, os.path.join(base, "memory"), v1)):
        parts = [p for p in (path or "").split("/") if p]
        for k in range(len(parts), -1, -1):
            groups.append((os.path.join(top, *parts[:k]), names))
    least = None
    for where, (limit_name, usage_name, inactive_name) in groups:
        try:
            with open(os.path.join(where, limit_name)) as f:
                limit = f.read().strip()
            with open(os.path.join(where, usage_name)) as f:
                usage = int(f.read().strip())
        except (OSError, ValueError):
            continue
        if not limit.isdigit() or int(limit) >= 1 << 60:
            continue                # "max", or v1's "no limit"
        left = max(0, int(limit) - usage + _stat(os.path.join(where, "memory.stat"),
                                                 inactive_name))
        least = left if least is None else min(least, left)
    return least


def _stat(path: str, name: str) -> int:
    """The value of `name` in a memory.stat file (0 if absent)."""
    try:
        with open(path) as f:
            for line in f:
                words = line.split()
                if len(words) == 2 and words[0] == name:
                    return int(words[1])
    except (OSError, ValueError):
        pass
    return 0


def _range(lo: int, hi: Optional[int]) -> str:
    return f" {lo}..{hi}" if hi is not None else f" >= {lo}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:30] + f"... ({len(text)} characters)"
