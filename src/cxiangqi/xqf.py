"""XQF game files (XQStudio's binary format, common in Chinese collections).

>>> from cxiangqi import xqf
>>> game = xqf.read_game("030-黄松轩先胜冯敬如.XQF")              # doctest: +SKIP
>>> game.headers["Red"], len(game.mainline_moves())              # doctest: +SKIP
('黄松轩', 37)

:func:`read_game` returns a :class:`cxiangqi.pgn.Game` (headers, start
position as a FEN header when it is not the initial one, comments and
variations), so a file can be saved as PGN with :func:`cxiangqi.pgn.write_game`.

The format, as far as it matters here (learnt from XQStudio's own
description of XQF 1.0 and from public readers; all numbers little-endian):

* Header, 1024 bytes: ``"XQ"``, version byte (10 = XQF 1.0, up to 18 for
  XQStudio's last versions), key bytes at 3 and 8..15 (mask, four "or"
  keys, the key sum and the three keys of piece positions, move sources
  and move targets), 32 piece positions at 0x10 (red R N B A K A B N R C C
  P P P P P then black in the same order; ``x * 10 + y`` with x the file
  from Red's left and y the rank from Red's side, >= 90 for a captured
  piece), side to move at 0x32, result at 0x33, game type at 0x40, then
  length-prefixed GBK strings: title 0x50, event 0xD0, date 0x110, site
  0x120, red 0x130, black 0x140, annotator 0x1D0, author 0x1E0.
* Records from 0x400, in depth-first order: ``from + 24``, ``to + 32``, a
  flag byte, a spare byte, then (version 10 and older) always a 4-byte
  comment length, or (newer) a 4-byte length only when flag bit 0x20 is
  set; the comment text follows.  Flag bit 0x80 (0xF0 in version 10) says
  the next record continues this line; bit 0x40 (0x0F) says that, after
  this record's continuation, a record follows that is an alternative to
  this move.  Record 0 is not a move: its comment is the game's comment.
* Version 11 and newer are encrypted.  Three offsets come from the keys
  (``k -> (54 k^2 + 221) * seed mod 256``, chained from the position key
  to the source key to the target key); they are subtracted from the piece
  positions and from the move squares.  Since version 12 the 32 positions
  are also rotated by ``position offset + 1``.  Every byte from 0x400 on
  is reduced by a 32-byte key stream (the string ``"[(C) Copyright Mr.
  Dong Shiwei.]"`` masked with the four combined keys), and comment
  lengths carry an offset of ``(key sum * 256 + position key) mod 32000 +
  767``.

Errors: a file that is not XQF, is truncated or is corrupt raises
:class:`XqfError` (a ValueError) saying what and where (``err.offset``;
``err.game`` holds the moves read before a truncation); nothing else
escapes, whatever the bytes.  A record whose move is not legal where it
stands is left out together with everything below it (its continuation
and the variations inside that), and reading goes on with the rest of the
tree.  Then ``XqfError`` is raised for the first such record, with the
whole remaining game as ``err.game`` and every bad record in
``err.game.errors``; with ``errors="keep"`` that game is returned instead.
(WildHouse.xqf of the cchess test data has one: after a move commented
红胜 its author recorded a move from an empty point.)  A file with more
moves than :data:`cxiangqi.pgn.MAX_MOVES`, or variations nested deeper than
:data:`cxiangqi.pgn.MAX_VARIATION_DEPTH`, is refused with XqfError; memory
and time grow in proportion to the file.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple, Union

from .board import Board
from .errors import InvalidFenError
from .fen import STARTING_FEN
from .move import MOVES, Move
from . import pgn as _pgn
from .pgn import Game, GameNode, PgnError
from .piece import Piece
from .square import RED, SQUARE_NAMES

__all__ = ["XqfError", "read_game"]

HEADER_SIZE = 0x400
MAX_VERSION = 18

# piece order of the 32 position bytes, for each side
_SLOT_TYPES = "RNBAKABNRCCPPPPP"
_KEY_STREAM_MASK = b"[(C) Copyright Mr. Dong Shiwei.]"
_RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}
# (header tag, offset of the length byte, field size including that byte)
_STRINGS = (
    ("Title", 0x50, 64), ("Event", 0xD0, 64), ("Date", 0x110, 16), ("Site", 0x120, 16),
    ("Red", 0x130, 16), ("Black", 0x140, 16), ("Annotator", 0x1D0, 16), ("Author", 0x1E0, 16),
)


class XqfError(PgnError):
    """An XQF file that is not XQF, is truncated or corrupt, or records an
    illegal move.  ``offset`` is the byte offset of the problem (None if it
    has none); ``game`` the game read up to an illegal move (else None).
    A :class:`~cxiangqi.pgn.PgnError`, and so a ValueError."""

    def __init__(self, message: str, *, offset: Optional[int] = None,
                 game: Optional[Game] = None, ply: Optional[int] = None,
                 move_text: Optional[str] = None) -> None:
        super().__init__(message, game=game, ply=ply, move_text=move_text)
        self.offset = offset


def _key(k: int, seed: int) -> int:
    # XQStudio's ((((k*k*3 + 9)*3 + 8)*2 + 1)*3 + 8) * seed, kept to a byte
    return ((54 * k * k + 221) * seed) & 0xFF


class _Keys:
    """The decryption parameters of a file (all zero for version <= 10)."""

    def __init__(self, head: bytes, version: int) -> None:
        self.encrypted = version > 10
        self.rotated = version >= 12
        if not self.encrypted:
            self.pieces = self.source = self.target = self.comment = 0
            self.stream = bytes(32)
            return
        mask = head[3]
        ors = head[8:12]
        key_sum, key_xy, key_from, key_to = head[12:16]
        self.pieces = _key(key_xy, key_xy)
        self.source = _key(key_from, self.pieces)
        self.target = _key(key_to, self.source)
        self.comment = (key_sum * 256 + key_xy) % 32000 + 767
        combined = [(k & mask) | o for k, o in zip((key_sum, key_xy, key_from, key_to), ors)]
        self.stream = bytes(c & combined[i % 4] for i, c in enumerate(_KEY_STREAM_MASK))


def _decrypt(body: bytes, stream: bytes) -> bytes:
    """Subtracts the 32-byte key stream from the record bytes (0x400 is a
    multiple of 32, so the stream starts at index 0)."""
    if not any(stream):
        return bytes(body)
    n = len(body)
    key = (stream * (n // 32 + 1))[:n]
    return bytes((b - k) & 0xFF for b, k in zip(body, key))


def _square(xy: int) -> Optional[int]:
    """The square of an XQF coordinate byte (x * 10 + y), None if off-board."""
    if xy >= 90:
        return None
    x, y = divmod(xy, 10)
    return y * 9 + x


def _text(raw: bytes) -> str:
    text = raw.decode("gb18030", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\x00", "").strip()


def _read_bytes(source: Any) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            return fh.read()
    if hasattr(source, "read"):
        data = source.read()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError("an XQF stream must be opened in binary mode")
        return bytes(data)
    raise TypeError(f"expected XQF bytes, a path or a binary stream, got {type(source).__name__}")


class _Record:
    __slots__ = ("src", "dst", "has_next", "has_variation", "comment", "offset")

    def __init__(self, src: int, dst: int, has_next: bool, has_variation: bool,
                 comment: str, offset: int) -> None:
        self.src = src
        self.dst = dst
        self.has_next = has_next
        self.has_variation = has_variation
        self.comment = comment
        self.offset = offset


class _Records:
    """Reads the records from the decrypted body, one at a time."""

    def __init__(self, body: bytes, keys: _Keys, version: int) -> None:
        self.body = body
        self.keys = keys
        self.old = version <= 10
        self.pos = 0

    def _take(self, n: int, what: str) -> bytes:
        if self.pos + n > len(self.body):
            raise XqfError(f"truncated XQF file: {what} at offset "
                           f"{HEADER_SIZE + self.pos:#x} needs {n} bytes, the file ends "
                           f"{len(self.body) - self.pos} bytes later",
                           offset=HEADER_SIZE + self.pos)
        data = self.body[self.pos:self.pos + n]
        self.pos += n
        return data

    def next(self) -> _Record:
        offset = HEADER_SIZE + self.pos
        src, dst, flag, _ = self._take(4, "a move record")
        length = 0
        if self.old:
            has_next, has_variation = bool(flag & 0xF0), bool(flag & 0x0F)
            length = int.from_bytes(self._take(4, "a comment length"), "little", signed=True)
        else:
            has_next, has_variation = bool(flag & 0x80), bool(flag & 0x40)
            if flag & 0x20:
                length = int.from_bytes(self._take(4, "a comment length"), "little", signed=True)
                length -= self.keys.comment
        if length < 0 or length > len(self.body) - self.pos:
            raise XqfError(f"truncated or corrupt XQF file: the record at offset {offset:#x} "
                           f"has a comment "
                           f"of {length} bytes, but {len(self.body) - self.pos} bytes are left",
                           offset=offset)
        comment = _text(self._take(length, "a comment")) if length else ""
        src = (src - 24 - self.keys.source) & 0xFF
        dst = (dst - 32 - self.keys.target) & 0xFF
        return _Record(src, dst, has_next, has_variation, comment, offset)


def _start_position(head: bytes, keys: _Keys) -> List[Tuple[int, Piece]]:
    raw = head[0x10:0x30]
    xys = [0] * 32
    for i in range(32):
        j = (keys.pieces + 1 + i) % 32 if keys.rotated else i
        xys[j] = (raw[i] - keys.pieces) & 0xFF
    placement: List[Tuple[int, Piece]] = []
    seen: Dict[int, Piece] = {}
    for i, xy in enumerate(xys):
        sq = _square(xy)
        if sq is None:
            continue
        piece = Piece.from_symbol(_SLOT_TYPES[i % 16] if i < 16 else _SLOT_TYPES[i % 16].lower())
        if sq in seen:
            raise XqfError(f"corrupt XQF file: two pieces ({seen[sq]} and {piece}) on "
                           f"{SQUARE_NAMES[sq]} in the start position", offset=0x10)
        seen[sq] = piece
        placement.append((sq, piece))
    return placement


def _fen(placement: List[Tuple[int, Piece]], red_first: bool) -> str:
    grid = [[""] * 9 for _ in range(10)]
    for sq, piece in placement:
        grid[sq // 9][sq % 9] = piece.symbol()
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for cell in grid[rank]:
            if cell:
                row += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if red_first else " b") + " - - 0 1"


def read_game(source: Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", Any], *,
              errors: str = "raise") -> Game:
    """Reads an XQF game from bytes, a path or a binary stream.

    Raises :class:`XqfError` for data that is not XQF, is truncated or is
    corrupt.  Records with illegal moves are left out with what hangs below
    them; then XqfError is raised with the rest of the game as ``err.game``
    (``errors="raise"``), or that game is returned with the errors in
    ``game.errors`` (``errors="keep"``).
    """
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    data = _read_bytes(source)
    other = _pgn.wrong_kind(data, "xqf")
    if other is not None:
        raise XqfError(other, offset=0)
    if len(data) < HEADER_SIZE:
        if not data.startswith(b"XQ"[:len(data)]) or not data:
            raise XqfError("not an XQF file (it does not start with 'XQ')", offset=0)
        raise XqfError(f"truncated XQF file: {len(data)} bytes, the header alone has "
                       f"{HEADER_SIZE}", offset=len(data))
    if data[:2] != b"XQ":
        raise XqfError("not an XQF file (it does not start with 'XQ')", offset=0)
    version = data[2]
    if not 1 <= version <= MAX_VERSION:
        raise XqfError(f"unsupported XQF version {version} (known: 1..{MAX_VERSION})", offset=2)
    head = data[:HEADER_SIZE]
    keys = _Keys(head, version)
    if keys.encrypted and sum(head[12:16]) % 256 != 0:
        raise XqfError("corrupt XQF file: the key bytes at 0x0c..0x0f do not sum to 0 "
                       "modulo 256", offset=0x0C)

    game = Game()
    game.errors = []
    headers = game.headers
    for tag, offset, size in _STRINGS:
        n = min(head[offset], size - 1)
        value = _text(head[offset + 1:offset + 1 + n])
        if value:
            headers[tag] = value
    if "Event" not in headers or headers["Event"] == "?":
        headers["Event"] = headers.get("Title", "?")  # the title names the game best
    headers["Result"] = _RESULTS.get(head[0x33], "*")

    records = _Records(_decrypt(data[HEADER_SIZE:], keys.stream), keys, version)
    root = records.next()
    game.comment = root.comment
    first = records.next() if root.has_next else None

    placement = _start_position(head, keys)
    if first is not None:  # the first move tells who moves first
        mover = next((p for sq, p in placement if sq == _square(first.src)), None)
        red_first = mover.color == RED if mover is not None else head[0x32] != 1
    else:
        red_first = head[0x32] != 1
    fen = _fen(placement, red_first)
    try:
        start = Board(fen)
    except InvalidFenError as e:
        raise XqfError(f"corrupt XQF file: impossible start position: {e}", offset=0x10) from None
    if fen != STARTING_FEN:
        headers["FEN"] = fen
    if first is None:
        return game

    # Depth-first: a record's continuation comes first, its alternative
    # after; pending alternatives wait on a stack (no recursion, so deep
    # lines cannot overflow Python's stack).  One board follows the walk:
    # a pending alternative remembers the board's ply, and the board is
    # taken back to it when the alternative's turn comes (copying the board
    # with its move stack for each alternative was quadratic).  A record
    # with an illegal move is left out with everything below it (parent None
    # marks such a dead branch), and reading goes on with the rest of the
    # tree.
    #
    # pending: (parent of the alternative, board ply there, the
    # alternative's variation depth)
    pending: List[Tuple[Optional[GameNode], int, int]] = []
    parent: Optional[GameNode] = game
    board = start
    record = first
    depth = 0            # how deep in side variations the current record is
    first_child = True   # the current record continues its parent's line
    nodes = 0
    try:
        while True:
            node = None
            ply = len(board.move_stack)
            if record.has_variation:
                alt_depth = depth + 1 if first_child else depth
                if alt_depth > _pgn.MAX_VARIATION_DEPTH:
                    raise XqfError(f"XQF file too deep: variations nested more than "
                                   f"{_pgn.MAX_VARIATION_DEPTH} deep (record at offset "
                                   f"{record.offset:#x}); refused", offset=record.offset)
                pending.append((parent, ply, alt_depth))
            if parent is not None:
                nodes += 1
                if nodes > _pgn.MAX_MOVES:
                    raise XqfError(f"XQF file too big: more than {_pgn.MAX_MOVES:,} moves; "
                                   f"refused", offset=record.offset)
                node = _play(game, parent, board, record)
            if record.has_next:
                parent = node
                first_child = True
            elif pending:
                parent, ply, depth = pending.pop()
                first_child = False
                while len(board.move_stack) > ply:
                    board.pop()
            else:
                break
            record = records.next()
    except XqfError as e:  # truncated, corrupt or too big: keep what was read
        e.game = game
        game.errors.insert(0, e)
        raise
    if game.errors and errors == "raise":
        raise game.errors[0]
    return game


def _play(game: Game, parent: GameNode, board: Board, record: _Record) -> Optional[GameNode]:
    """Plays a record's move on board and adds it below parent; on an
    illegal move records an XqfError in game.errors and returns None."""
    src, dst = _square(record.src), _square(record.dst)
    text = None
    reason = None
    if src is None or dst is None or src == dst:
        reason = f"the record has no valid squares (bytes {record.src}, {record.dst})"
    else:
        move = MOVES[src * 90 + dst]     # the shared Move objects: none made per move
        text = move.iccs()
        if board.is_legal(move):
            board.push(move)
            node = parent.add_variation(move, comment=record.comment)
            return node
        reason = _illegal_reason(board, move)
    ply = len(board.move_stack)
    side = "Red" if board.turn == RED else "Black"
    err = XqfError(f"illegal move {text or '?'} in the record at offset {record.offset:#x} "
                   f"after {ply} plies (move {board.fullmove_number}, {side}): {reason}",
                   offset=record.offset, game=game, ply=ply, move_text=text)
    game.errors.append(err)
    return None


def _illegal_reason(board: Board, move: Move) -> str:
    try:
        board.push(move)
    except ValueError as e:
        msg = str(e)
        return msg.split(": ", 1)[-1] if ": " in msg else msg
    board.pop()
    return "illegal"

