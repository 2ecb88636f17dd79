"""Opening books: the moves masters played, looked up by position.

>>> from cxiangqi import Board
>>> book = Book.default()
>>> moves = book.moves(Board())          # [(Move, weight), ...], heaviest first
>>> all(move in Board().legal_moves for move, weight in moves)
True
>>> book.choice(Board(), rng=random.Random(1)) in Board().legal_moves
True
>>> book.moves(Board("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"))   # out of book
[]

A book maps a position (its Zobrist key, :meth:`cxiangqi.Board.zobrist_hash`,
which is the same on every run and machine) to the moves played there, each
with a weight; :meth:`Book.choice` picks one at random in proportion to the
weights.  Moves are checked against the position when they are looked up,
so a book never yields an illegal move, whatever is in the file.

Building a book
    :class:`BookBuilder` replays games from the start (PGN, XQF or DhtmlXQ
    files, JSON lines like ``games.jsonl``, or :class:`cxiangqi.pgn.Game`
    objects; only the main line), up to ``max_ply`` plies, and counts every
    (position, move) pair once per game.  A move is kept when at least
    ``min_count`` games played it.  Its weight comes from the results of
    those games and from how often it was played: each game gives 2 points
    when the side that played the move went on to win, 1 for a draw or an
    unknown result, 0 for a loss (the rule of Polyglot's book maker);
    moves whose games were all lost (weight 0) are left out.  Weights above
    65,535 are clamped.

    The shipped book (``Book.default()``, ``cxiangqi/data/book.bin``) is
    built from the 3,000 public games of the project's test data, and the
    test suite checks that this command rebuilds it byte for byte::

        python -m cxiangqi.book build ../shared/data/games.jsonl \\
            --max-ply 20 --min-count 3 -o src/cxiangqi/data/book.bin

    (``DEFAULT_MAX_PLY`` and ``DEFAULT_MIN_COUNT`` below.)  ``python -m
    cxiangqi.book show [FEN | moves...]`` prints the book moves of a
    position and ``python -m cxiangqi.book info`` a book's size.

File format (version 1; every number big-endian, as in Polyglot)
    =======  ====  ========================================================
    offset   size  content
    =======  ====  ========================================================
    0        7     magic ``b"CXQBOOK"``
    7        1     version, 1
    8        4     number of entries N
    12       4     CRC-32 (zlib) of the N entries
    16       16 N  entries, sorted by key, then weight (heaviest first),
                   then move
    =======  ====  ========================================================

    Each entry is Polyglot's 16 bytes, keyed by cxiangqi's Zobrist key
    instead of Polyglot's: ``key`` u64 (the position,
    ``Board.zobrist_hash()``), ``move`` u16 (``from_square * 90 +
    to_square``, squares 0..89 as in :class:`cxiangqi.Move`), ``weight``
    u16 (1..65535), ``games`` u32 (how many games of the collection played
    the move there; informational).  A position's moves are unique.  A file
    that breaks any of this raises :class:`BookError` (a ValueError) saying
    what is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import (Any, BinaryIO, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple,
                    Union)

from .board import Board
from .errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from .files import atomic_write
from .move import MOVES, Move

__all__ = ["Book", "BookEntry", "BookError", "BookBuilder", "build_book", "DEFAULT_BOOK_PATH",
           "DEFAULT_MAX_PLY", "DEFAULT_MIN_COUNT"]

MAGIC = b"CXQBOOK"
VERSION = 1
_HEADER = struct.Struct(">7sBII")
_ENTRY = struct.Struct(">QHHI")
MAX_WEIGHT = 0xFFFF
MAX_GAMES = 0xFFFFFFFF

#: the shipped book, opened by Book.default()
DEFAULT_BOOK_PATH = Path(__file__).with_name("data") / "book.bin"
#: how the shipped book is built (see the module documentation)
DEFAULT_MAX_PLY = 20
DEFAULT_MIN_COUNT = 3

PathLike = Union[str, "os.PathLike[str]"]


class BookError(ValueError):
    """A book file that is not a valid cxiangqi book (the message says why)."""


@dataclass(frozen=True)
class BookEntry:
    """One move of a position in a book."""

    move: Move
    weight: int
    games: int


class Book:
    """An opening book: positions (by Zobrist key) and their weighted moves.

    Open one with :meth:`open`, :meth:`from_bytes` or :meth:`default`, or
    make one with :class:`BookBuilder`.  A Book does not change once made.
    """

    def __init__(self, entries: Optional[Dict[int, Sequence[BookEntry]]] = None, *,
                 name: str = "<book>") -> None:
        self.name = name
        self._table: Dict[int, Tuple[BookEntry, ...]] = {}
        for key, row in (entries or {}).items():
            if not isinstance(key, int) or not 0 <= key < 1 << 64:
                raise BookError(f"{name}: key {key!r} is not a 64-bit unsigned integer")
            row = sorted(row, key=lambda e: (-e.weight, _code(e.move)))
            if len({e.move for e in row}) != len(row):
                raise BookError(f"{name}: position {key:#018x} lists a move twice")
            for e in row:
                if not isinstance(e.move, Move):
                    raise BookError(f"{name}: position {key:#018x}: {e.move!r} is not a Move")
                if not 1 <= e.weight <= MAX_WEIGHT or not 0 <= e.games <= MAX_GAMES:
                    raise BookError(f"{name}: position {key:#018x}, move {e.move}: weight "
                                    f"{e.weight} or games {e.games} out of range")
            if row:
                self._table[key] = tuple(row)

    # --- opening -----------------------------------------------------------

    @classmethod
    def open(cls, path: PathLike) -> "Book":
        """Reads a book file; BookError if it is not a valid book, OSError
        if it cannot be read."""
        with open(path, "rb") as fh:
            data = fh.read()
        return cls.from_bytes(data, name=os.fspath(path))

    @classmethod
    def from_bytes(cls, data: bytes, *, name: str = "<bytes>") -> "Book":
        """The book in `data` (the file format above); BookError if invalid."""
        data = bytes(data)
        if len(data) < _HEADER.size:
            raise BookError(f"{name}: not a cxiangqi book: {len(data)} bytes, shorter than "
                            f"the {_HEADER.size}-byte header")
        magic, version, count, crc = _HEADER.unpack_from(data)
        if magic != MAGIC:
            raise BookError(f"{name}: not a cxiangqi book (it does not start with {MAGIC!r})")
        if version != VERSION:
            raise BookError(f"{name}: unsupported book version {version} (this cxiangqi reads "
                            f"version {VERSION})")
        body = memoryview(data)[_HEADER.size:]
        if len(body) != count * _ENTRY.size:
            raise BookError(f"{name}: the header announces {count} entries "
                            f"({count * _ENTRY.size} bytes) but {len(body)} bytes follow "
                            f"(truncated or corrupt)")
        if zlib.crc32(body) != crc:
            raise BookError(f"{name}: checksum mismatch: the entries are corrupt")
        table: Dict[int, List[BookEntry]] = {}
        last: Optional[Tuple[int, int, int]] = None
        for i, (key, code, weight, games) in enumerate(_ENTRY.iter_unpack(body)):
            where = f"{name}: entry {i} (offset {_HEADER.size + i * _ENTRY.size})"
            if code >= len(MOVES) or MOVES[code] is None:
                raise BookError(f"{where}: {code} is not a move code (from * 90 + to)")
            if weight == 0:
                raise BookError(f"{where}: weight 0")
            order = (key, -weight, code)
            if last is not None and order <= last:
                raise BookError(f"{where}: entries out of order or repeated")
            last = order
            table.setdefault(key, []).append(BookEntry(MOVES[code], weight, games))
        return cls(table, name=name)

    _default: Optional["Book"] = None

    @classmethod
    def default(cls) -> "Book":
        """The book shipped with cxiangqi (read once, then shared)."""
        if cls._default is None:
            cls._default = cls.open(DEFAULT_BOOK_PATH)
        return cls._default

    # --- writing -----------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The book in the file format above (the same bytes for the same book)."""
        body = b"".join(_ENTRY.pack(key, _code(e.move), e.weight, e.games)
                        for key in sorted(self._table) for e in self._table[key])
        return _HEADER.pack(MAGIC, VERSION, len(body) // _ENTRY.size, zlib.crc32(body)) + body

    def save(self, path: PathLike) -> None:
        """Writes the book file with :func:`cxiangqi.files.atomic_write` (a
        crash never leaves half a file, a symbolic link is written through
        to its target, an existing file keeps its permissions); missing
        parent directories are created."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, self.to_bytes())

    # --- looking up --------------------------------------------------------

    def probe(self, key: int) -> List[BookEntry]:
        """The entries stored for a Zobrist key, heaviest first, unchecked
        (they may not even be legal if the key is not the position you
        think).  Prefer :meth:`entries`."""
        return list(self._table.get(key, ()))

    def entries(self, board: Board) -> List[BookEntry]:
        """The book's entries for the board's position whose moves are legal
        there, heaviest first; [] when out of book."""
        return [e for e in self._table.get(board.zobrist_hash(), ()) if board.is_legal(e.move)]

    def moves(self, board: Board) -> List[Tuple[Move, int]]:
        """``[(move, weight), ...]`` for the board's position, heaviest first,
        legal moves only; [] when out of book."""
        return [(e.move, e.weight) for e in self.entries(board)]

    def choice(self, board: Board, rng: Optional[random.Random] = None, *,
               exclude: Iterable[Move] = ()) -> Optional[Move]:
        """A book move picked at random with probability weight / total
        (``rng``: a random.Random, for repeatable choices; default the
        random module), leaving out the moves in `exclude`; None when the
        position is out of book."""
        banned = set(exclude)
        found = [(m, w) for m, w in self.moves(board) if m not in banned]
        if not found:
            return None
        total = sum(w for _, w in found)
        r = (rng or random).randrange(total)
        for move, weight in found:
            r -= weight
            if r < 0:
                return move
        raise AssertionError("unreachable")

    def __contains__(self, board: object) -> bool:
        return isinstance(board, Board) and bool(self.entries(board))

    def __len__(self) -> int:
        """The number of entries (position and move pairs)."""
        return sum(len(row) for row in self._table.values())

    @property
    def positions(self) -> int:
        """The number of positions."""
        return len(self._table)

    def depth(self, start: Optional[Board] = None) -> int:
        """The length in plies of the longest line of book moves from
        `start` (default: the start position); 0 when it is out of book."""
        memo: Dict[int, int] = {}

        def walk(board: Board, path: set) -> int:
            key = board.zobrist_hash()
            if key in memo:
                return memo[key]
            best = 0
            path.add(key)
            for e in self.entries(board):
                board.push(e.move)
                if board.zobrist_hash() not in path:   # a cycle (repetition) ends the line
                    best = max(best, 1 + walk(board, path))
                board.pop()
            path.discard(key)
            memo[key] = best
            return best

        return walk((start or Board()).copy(), set())

    def keys(self) -> Iterator[int]:
        """The Zobrist keys of the positions, in ascending order."""
        return iter(sorted(self._table))

    def __repr__(self) -> str:
        return f"<Book {self.name!r}: {self.positions} positions, {len(self)} moves>"


def _code(move: Move) -> int:
    return move.from_square * 90 + move.to_square


# --- building --------------------------------------------------------------------

_POINTS = {"win": 2, "draw": 1, "loss": 0}


def _red_points(result: Optional[str]) -> Tuple[int, int]:
    """(points for Red's moves, points for Black's moves) for a result."""
    result = (result or "").strip()
    if result == "1-0":
        return _POINTS["win"], _POINTS["loss"]
    if result == "0-1":
        return _POINTS["loss"], _POINTS["win"]
    return _POINTS["draw"], _POINTS["draw"]   # a draw, or no result known: frequency only


class BookBuilder:
    """Collects games and makes a :class:`Book` of their openings.

    >>> b = BookBuilder(max_ply=2, min_count=1)
    >>> b.add_game(["h2e2", "h9g7"], "1-0")
    2
    >>> b.add_game(["h2e2", "b9c7"], "0-1")
    2
    >>> book = b.build()
    >>> book.moves(Board())                    # 2 points for the win, 0 for the loss
    [(Move.from_iccs('h2e2'), 2)]
    >>> len(book), book.depth()                # after h2e2: h9g7 (a loss, 0) is left out
    (2, 2)
    """

    def __init__(self, *, max_ply: int = DEFAULT_MAX_PLY,
                 min_count: int = DEFAULT_MIN_COUNT) -> None:
        if not isinstance(max_ply, int) or max_ply < 1:
            raise ValueError(f"max_ply must be a positive integer, got {max_ply!r}")
        if not isinstance(min_count, int) or min_count < 1:
            raise ValueError(f"min_count must be a positive integer, got {min_count!r}")
        self.max_ply = max_ply
        self.min_count = min_count
        self.games = 0
        self.skipped: List[str] = []
        # key -> move code -> [games, points]
        self._counts: Dict[int, Dict[int, List[int]]] = {}

    def add_game(self, moves: Iterable[Union[Move, str]], result: Optional[str] = None,
                 board: Optional[Board] = None) -> int:
        """Adds one game: its moves (Move or ICCS text) from `board` (default
        the start position), and its result ("1-0", "0-1", "1/2-1/2", or
        None/"*" when unknown).  Returns the number of plies used (at most
        max_ply).  IllegalMoveError/InvalidMoveError for a bad move; the
        plies before it are kept."""
        board = Board() if board is None else board.copy(stack=False)
        red_points, black_points = _red_points(result)
        seen = set()
        used = 0
        self.games += 1
        for ply, move in enumerate(moves):
            if ply >= self.max_ply:
                break
            if isinstance(move, str):
                move = board.parse_iccs(move)
            elif not board.is_legal(move):
                raise IllegalMoveError(f"ply {ply + 1}: {move} is not legal in {board.fen()}")
            key = board.zobrist_hash()
            pair = (key, _code(move))
            if pair not in seen:        # a repetition counts once per game
                seen.add(pair)
                cell = self._counts.setdefault(key, {}).setdefault(pair[1], [0, 0])
                cell[0] += 1
                cell[1] += red_points if board.turn else black_points
            board.push(move)
            used += 1
        return used

    def add_pgn_game(self, game: Any) -> int:
        """Adds the main line of a :class:`cxiangqi.pgn.Game` (with its
        ``Result`` header and start position)."""
        return self.add_game(list(game.mainline_moves()), game.headers.get("Result"),
                             game.board())

    def add_file(self, path: PathLike) -> int:
        """Adds every game of a file, telling the format by its content: XQF
        (starts with ``XQ``), JSON lines (records with ``moves`` in ICCS and
        ``result``, like ``games.jsonl``), DhtmlXQ pages, else PGN.  Games
        that cannot be read are skipped and listed in ``self.skipped``.
        Returns the number of games added."""
        from . import dhtmlxq, pgn, xqf
        path = os.fspath(path)
        with open(path, "rb") as fh:
            head = fh.read(4096)
        before = self.games
        if head.startswith(b"XQ"):
            try:
                game = xqf.read_game(path, errors="keep")
            except xqf.XqfError as e:
                self.skipped.append(f"{path}: {e}")
            else:
                self.add_pgn_game(game)
        elif head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
            self.add_jsonl(path)
        elif b"[DhtmlXQ" in head or path.lower().endswith((".htm", ".html")):
            for game in dhtmlxq.read_games(path, errors="keep"):
                self.add_pgn_game(game)
        else:
            for k, game in enumerate(pgn.read_games(path, errors="keep")):
                if game.errors:
                    self.skipped.append(f"{path}: game {k + 1}: {game.errors[0]}; "
                                        f"its moves before the error are used")
                self.add_pgn_game(game)
        return self.games - before

    def add_jsonl(self, path: PathLike) -> int:
        """Adds the games of a JSON lines file: one object per line with
        ``moves`` (ICCS) and ``result``, optionally ``fen``."""
        before = self.games
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    board = Board(record["fen"]) if record.get("fen") else None
                    self.add_game(record["moves"], record.get("result"), board)
                except (ValueError, KeyError, TypeError, IllegalMoveError, InvalidMoveError,
                        InvalidFenError) as e:
                    self.skipped.append(f"{os.fspath(path)}: line {n}: {type(e).__name__}: {e}")
        return self.games - before

    def build(self) -> Book:
        """The book of the games added so far."""
        table: Dict[int, List[BookEntry]] = {}
        for key, row in self._counts.items():
            kept = [BookEntry(MOVES[code], min(points, MAX_WEIGHT), min(games, MAX_GAMES))
                    for code, (games, points) in row.items()
                    if games >= self.min_count and points > 0]
            if kept:
                table[key] = kept
        return Book(table, name="<built>")


def build_book(sources: Iterable[Union[PathLike, Any]], *, max_ply: int = DEFAULT_MAX_PLY,
               min_count: int = DEFAULT_MIN_COUNT) -> Book:
    """A book from files (see :meth:`BookBuilder.add_file`) and
    :class:`cxiangqi.pgn.Game` objects."""
    builder = BookBuilder(max_ply=max_ply, min_count=min_count)
    for source in sources:
        if isinstance(source, (str, os.PathLike)):
            builder.add_file(source)
        else:
            builder.add_pgn_game(source)
    return builder.build()


# --- command line ---------------------------------------------------------------------

def _board_from(words: Sequence[str]) -> Board:
    """A FEN (six fields or the first two), or ICCS moves from the start."""
    text = " ".join(words).strip()
    if not text:
        return Board()
    if "/" in text:
        return Board(text)
    board = Board()
    for word in words:
        board.push_iccs(word)
    return board


def main(argv: Optional[Sequence[str]] = None, out: Optional[BinaryIO] = None) -> int:
    """``python -m cxiangqi.book {build,show,info}``."""
    parser = argparse.ArgumentParser(prog="python -m cxiangqi.book",
                                     description="Build and inspect cxiangqi opening books.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="make a book from game collections")
    p.add_argument("files", nargs="+", help="PGN, XQF, DhtmlXQ or JSON-lines files")
    p.add_argument("-o", "--output", required=True, help="the book file to write")
    p.add_argument("--max-ply", type=int, default=DEFAULT_MAX_PLY,
                   help=f"plies from the start to take (default {DEFAULT_MAX_PLY})")
    p.add_argument("--min-count", type=int, default=DEFAULT_MIN_COUNT,
                   help=f"games a move needs to enter the book (default {DEFAULT_MIN_COUNT})")
    p = sub.add_parser("show", help="the book moves of a position")
    p.add_argument("position", nargs="*", help="a FEN, or ICCS moves from the start")
    p.add_argument("--book", help="book file (default: the shipped book)")
    p = sub.add_parser("info", help="size of a book")
    p.add_argument("--book", help="book file (default: the shipped book)")
    args = parser.parse_args(argv)

    def say(text: str) -> None:
        print(text, file=out or sys.stdout)

    try:
        if args.command == "build":
            builder = BookBuilder(max_ply=args.max_ply, min_count=args.min_count)
            for name in args.files:
                builder.add_file(name)
            book = builder.build()
            book.save(args.output)
            for problem in builder.skipped:
                say(f"skipped: {problem}")
            say(f"{args.output}: {builder.games} games, {book.positions} positions, {len(book)} "
                f"moves, depth {book.depth()} plies, {len(book.to_bytes())} bytes")
            return 0
        book = Book.open(args.book) if args.book else Book.default()
        if args.command == "info":
            say(f"{book.name}: {book.positions} positions, {len(book)} moves, "
                f"depth {book.depth()} plies, {len(book.to_bytes())} bytes")
            return 0
        board = _board_from(args.position)
        entries = book.entries(board)
        if not entries:
            say("out of book")
        total = sum(e.weight for e in entries)
        for e in entries:
            say(f"{e.move.iccs()}  weight {e.weight:5d}  {100 * e.weight / total:5.1f}%  "
                f"games {e.games}")
        return 0
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
