"""Shared test helpers: where the test data lives and cached loaders for it.

The data is read in place from ``../shared/data`` (relative to the repository
root); it is never copied into the repository.  Set ``CXIANGQI_DATA`` to point
somewhere else.  A missing data directory is an error, not a skip: a suite
that silently skips its differential tests proves nothing.
"""
from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("CXIANGQI_DATA") or REPO_ROOT.parent / "shared" / "data").resolve()

_REQUIRED = (
    "perft.json",
    "positions.jsonl",
    "games.jsonl",
    "games_rejected.jsonl",
    "bad_fens.jsonl",
)

_missing = [name for name in _REQUIRED if not (DATA / name).is_file()]
if _missing:
    raise RuntimeError(
        f"cxiangqi test data not found: {DATA} lacks {', '.join(_missing)}. "
        "The tests read ../shared/data relative to the repository root; "
        "set CXIANGQI_DATA to the data directory."
    )


@lru_cache(maxsize=None)
def load_jsonl(name: str) -> tuple:
    """All records of DATA/<name> (one JSON object per line), cached.

    Returns a tuple of dicts shared between tests: do not mutate them.
    """
    with open(DATA / name, encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


@lru_cache(maxsize=None)
def load_json(name: str):
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


def positions() -> tuple:
    return load_jsonl("positions.jsonl")


def games() -> tuple:
    return load_jsonl("games.jsonl")


def games_rejected() -> tuple:
    return load_jsonl("games_rejected.jsonl")


def bad_fens() -> tuple:
    return load_jsonl("bad_fens.jsonl")


def perft_rows() -> list:
    return load_json("perft.json")


def chunks(seq, size: int) -> list:
    """Split seq into consecutive slices of at most `size` items."""
    seq = list(seq)
    return [seq[i:i + size] for i in range(0, len(seq), size)]


_FFISH_MOVE = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])")


def ffish_to_iccs(move: str) -> str:
    """Convert a Fairy-Stockfish/pyffish move (ranks 1..10) to ICCS (ranks 0..9).

    "h3e3" -> "h2e2", "a10a9" -> "a9a8", "e1e10" -> "e0e9".
    """
    m = _FFISH_MOVE.fullmatch(move)
    if m is None:
        raise ValueError(f"not a pyffish xiangqi move: {move!r}")
    f1, r1, f2, r2 = m.groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def iccs_to_ffish(move: str) -> str:
    """Inverse of ffish_to_iccs: "h2e2" -> "h3e3", "a9a8" -> "a10a9"."""
    m = re.fullmatch(r"([a-i])([0-9])([a-i])([0-9])", move)
    if m is None:
        raise ValueError(f"not an ICCS move: {move!r}")
    f1, r1, f2, r2 = m.groups()
    return f"{f1}{int(r1) + 1}{f2}{int(r2) + 1}"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


def failing_writes(monkeypatch, keep: int, error: BaseException) -> None:
    """From now on (until monkeypatch.undo()) every file opened with
    os.fdopen, the way cxiangqi.files writes, takes the first `keep` bytes
    of a write and then raises `error`: a full disk, an interrupt."""
    real_fdopen = os.fdopen

    class Failing:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[:keep])
            raise error

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Failing(real_fdopen(fd, mode)))
