"""CCBridge (象棋桥) binary records: CBR game files and CBL libraries.

>>> from cxiangqi import cbr
>>> game = cbr.read_game("test.cbr")                          # doctest: +SKIP
>>> game.headers["Title"], len(game.mainline_moves())          # doctest: +SKIP
('黄丹青讲座004-破解新式弃马局的攻防要领', 28)

:func:`read_game` returns a :class:`cxiangqi.pgn.Game` (headers, the start
position as a FEN header when it is not the initial one, comments and
variations); :func:`read_library` yields the games of a CBL library.

The format, as far as read here (from the published description of the
CCBridge formats; integers little-endian, text UTF-16LE ended by a 0 unit):

* A record starts with ``"CCBridge Record\\0"``.  Text fields (offset,
  size in bytes): title 180/128, source 564/64, event 692/64, round
  756/64, group 820/32, table 852/32, date 884/64, site 948/64, red
  1076/64, red team 1140/64, black 1300/64, black team 1364/64,
  commentator 1652/64.  The result at 2076 (0 unknown, 1 red wins, 2 black
  wins, 3 draw), the side to move first at 2112 (1 red, 2 black), the board
  at 2120: 90 bytes, row by row from Black's back rank, 0x11..0x17 for Red's
  R N B A K C P and 0x21..0x27 for Black's.
* At 2214, the game comment: a 4-byte flag, and when it is not 0 a 4-byte
  length and that many bytes of text.
* Then the moves in depth-first order, 4 bytes each: a flag, a spare byte,
  the from and to points (0..89, ``row * 9 + column`` on the board above).
  Flag bit 1: this line ends here; bit 2: after this move's continuation,
  an alternative to this move follows; bit 4: a 4-byte length and the
  comment after the move follow.  Four zero bytes (or the end of the data)
  end the record.
* A CBL library starts with ``"CCBridgeLibrary\\0"``, the number of games at
  60 and the library's name at 64 (512 bytes); its records are CBR records
  in 4096-byte blocks, each starting a block (a long record spans several).

Errors: data that is not CBR/CBL, a truncated or corrupt record raise
:class:`CbrError` (a ValueError) saying what and where (``err.offset``);
nothing else escapes, whatever the bytes.  A record with more moves than
:data:`cxiangqi.pgn.MAX_MOVES`, or variations nested deeper than
:data:`cxiangqi.pgn.MAX_VARIATION_DEPTH`, is refused with CbrError; memory
and time grow in proportion to the data.  A move that is not legal where
it stands is left out with everything below it, as for XQF
(:mod:`cxiangqi.xqf`): ``CbrError`` for the first one, with the rest of the
game as ``err.game`` and every bad move in ``err.game.errors``, or the game
returned with ``errors="keep"``.
"""

from __future__ import annotations

import os
from typing import Any, Iterator, List, Optional, Tuple, Union

from . import pgn as _pgn
from .board import Board
from .errors import InvalidFenError
from .fen import STARTING_FEN
from .move import Move
from .pgn import Game, GameNode, PgnError
from .square import RED

__all__ = ["CbrError", "read_game", "read_library", "parse_record", "library_records",
           "is_note", "RECORD_MAGIC", "LIBRARY_MAGIC"]

RECORD_MAGIC = b"CCBridge Record\x00"
LIBRARY_MAGIC = b"CCBridgeLibrary\x00"

_HEAD_SIZE = 2214
_BLOCK = 4096
# (header tag, offset, size in bytes)
_STRINGS = (
    ("Title", 180, 128), ("Source", 564, 64), ("Event", 692, 64), ("Round", 756, 64),
    ("Group", 820, 32), ("Table", 852, 32), ("Date", 884, 64), ("Site", 948, 64),
    ("Red", 1076, 64), ("RedTeam", 1140, 64), ("Black", 1300, 64), ("BlackTeam", 1364, 64),
    ("Annotator", 1652, 64),
)
_RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "*"}
_PIECES = {0x11: "R", 0x12: "N", 0x13: "B", 0x14: "A", 0x15: "K", 0x16: "C", 0x17: "P"}
_PIECES.update({k + 0x10: v.lower() for k, v in _PIECES.items()})
# a comment longer than this is corrupt data, not text
_MAX_COMMENT = 1 << 20


class CbrError(PgnError):
    """A CBR record or CBL library that is not one, is truncated or
    corrupt, or holds an illegal move.  ``offset`` is the byte offset of
    the problem (None if it has none).  A ValueError."""

    def __init__(self, message: str, *, offset: Optional[int] = None,
                 game: Optional[Game] = None, ply: Optional[int] = None,
                 move_text: Optional[str] = None, game_index: Optional[int] = None) -> None:
        super().__init__(message, game=game, ply=ply, move_text=move_text,
                         game_index=game_index)
        self.offset = offset


def _utf16(raw: bytes) -> str:
    """UTF-16LE text up to its first 0 unit (undecodable units replaced)."""
    end = len(raw) - len(raw) % 2
    for i in range(0, end, 2):
        if raw[i] == 0 and raw[i + 1] == 0:
            end = i
            break
    text = raw[:end].decode("utf-16-le", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def _read_bytes(source: Any) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            return fh.read()
    if hasattr(source, "read"):
        data = source.read()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError("a CBR stream must be opened in binary mode")
        return bytes(data)
    raise TypeError(f"expected CBR bytes, a path or a binary stream, got {type(source).__name__}")


def _point(p: int) -> Optional[int]:
    """The square (rank * 9 + file) of a CBR point, None if off-board."""
    if not 0 <= p < 90:
        return None
    row, col = divmod(p, 9)
    return (9 - row) * 9 + col


class _Steps:
    """Reads the move records after the game comment."""

    def __init__(self, data: bytes, pos: int, base: int) -> None:
        self.data = data
        self.pos = pos
        self.base = base  # added to offsets in messages (a record inside a library)

    def _int(self, what: str) -> int:
        if self.pos + 4 > len(self.data):
            raise CbrError(f"truncated CBR record: {what} at offset {self.base + self.pos:#x} "
                           f"needs 4 bytes, {len(self.data) - self.pos} are left",
                           offset=self.base + self.pos)
        value = int.from_bytes(self.data[self.pos:self.pos + 4], "little", signed=True)
        self.pos += 4
        return value

    def text(self, what: str) -> str:
        offset = self.base + self.pos
        length = self._int(f"the length of {what}")
        if length < 0 or length > _MAX_COMMENT or self.pos + length > len(self.data):
            raise CbrError(f"truncated or corrupt CBR record: {what} at offset {offset:#x} "
                           f"claims {length} bytes, {len(self.data) - self.pos} are left",
                           offset=offset)
        raw = self.data[self.pos:self.pos + length]
        self.pos += length
        return _utf16(raw)

    def next(self) -> Optional[Tuple[int, int, int, str, int]]:
        """(flag, from, to, comment, offset) of the next move; None at the end."""
        offset = self.base + self.pos
        left = len(self.data) - self.pos
        if left <= 0:
            return None
        if left < 4:
            raise CbrError(f"truncated CBR record: a move at offset {offset:#x} needs 4 "
                           f"bytes, {left} are left", offset=offset)
        flag, _, src, dst = self.data[self.pos:self.pos + 4]
        if flag == 0 and src == 0 and dst == 0:
            return None
        self.pos += 4
        comment = self.text("the comment of the move") if flag & 0x04 else ""
        return flag, src, dst, comment, offset


def _start_fen(head: bytes, first_src: Optional[int]) -> str:
    rows = []
    board = head[2120:2210]
    for row in range(10):
        text, empty = "", 0
        for col in range(9):
            symbol = _PIECES.get(board[row * 9 + col])
            if symbol is None:
                empty += 1
            else:
                text += (str(empty) if empty else "") + symbol
                empty = 0
        rows.append(text + (str(empty) if empty else ""))
    red_first = head[2112] != 2
    if first_src is not None and 0 <= first_src < 90:
        mover = _PIECES.get(board[first_src])
        if mover is not None:
            red_first = mover.isupper()  # the first move tells who moves first
    return "/".join(rows) + (" w" if red_first else " b") + " - - 0 1"


def parse_record(data: bytes, *, base: int = 0, errors: str = "raise",
                 game_index: Optional[int] = None) -> Game:
    """The game of one CBR record (``base``: its offset in a library, for
    messages; ``game_index``: its index there)."""
    where = f"game {game_index + 1} of the library: " if game_index is not None else ""
    if not data.startswith(RECORD_MAGIC):
        raise CbrError(f"{where}not a CBR record (it does not start with 'CCBridge Record')",
                       offset=base, game_index=game_index)
    if len(data) < _HEAD_SIZE + 4:
        raise CbrError(f"{where}truncated CBR record: {len(data)} bytes, the header alone "
                       f"has {_HEAD_SIZE + 4}", offset=base + len(data), game_index=game_index)
    if is_note(data):
        raise CbrError(f"{where}a CBR record without a game: no piece on its board (a "
                       f"text-only note)", offset=base + 2120, game_index=game_index)
    game = Game()
    game.errors = []
    for tag, offset, size in _STRINGS:
        value = _utf16(data[offset:offset + size])
        if value:
            game.headers[tag] = value
    if game.headers.get("Event", "?") == "?" and "Title" in game.headers:
        game.headers["Event"] = game.headers["Title"]  # the title names the game best
    game.headers["Result"] = _RESULTS.get(data[2076], "*")

    steps = _Steps(data, _HEAD_SIZE, base)
    try:
        if steps._int("the game comment flag"):
            game.comment = steps.text("the game comment")
        first = steps.next()
        fen = _start_fen(data, first[1] if first else None)
        try:
            start = Board(fen)
        except InvalidFenError as e:
            raise CbrError(f"{where}corrupt CBR record: impossible start position: {e}",
                           offset=base + 2120, game_index=game_index) from None
        if start.fen() != STARTING_FEN:
            game.headers["FEN"] = start.fen()
        if first is not None:
            _read_tree(game, start, first, steps, where)
    except CbrError as e:
        if e.game is None:  # truncated or corrupt: keep what was read
            e.game = game
            e.game_index = game_index
            game.errors.insert(0, e)
        raise
    for err in game.errors:
        err.game_index = game_index
    if game.errors and errors == "raise":
        raise game.errors[0]
    return game


def _read_tree(game: Game, start: Board, first: Tuple[int, int, int, str, int],
               steps: _Steps, where: str) -> None:
    # Depth-first, as XQF: a move's continuation first, its alternative
    # after; pending alternatives wait on a stack (no recursion, so deep
    # lines cannot overflow Python's stack).  One board follows the walk: a
    # pending alternative remembers the board's ply, and the board is taken
    # back to it when the alternative's turn comes (a copy of the board with
    # its move stack for each alternative made memory grow with the square
    # of the record).  An illegal move is left out with everything below it
    # (parent None marks such a dead branch).  At most pgn.MAX_MOVES moves
    # and pgn.MAX_VARIATION_DEPTH nested variations, as in the other
    # formats.
    #
    # pending: (parent of the alternative, board ply there, the
    # alternative's variation depth)
    pending: List[Tuple[Optional[GameNode], int, int]] = []
    parent: Optional[GameNode] = game
    board = start
    step: Optional[Tuple[int, int, int, str, int]] = first
    depth = 0               # how deep in side variations the current move is
    first_child = True      # the current move continues its parent's line
    nodes = 0
    while step is not None:
        flag, src, dst, comment, offset = step
        has_next, has_variation = not flag & 0x01, bool(flag & 0x02)
        node = None
        if has_variation:
            alt_depth = depth + 1 if first_child else depth
            if alt_depth > _pgn.MAX_VARIATION_DEPTH:
                raise CbrError(f"{where}CBR record too deep: variations nested more than "
                               f"{_pgn.MAX_VARIATION_DEPTH} deep (move at offset {offset:#x}); "
                               f"refused", offset=offset)
            pending.append((parent, len(board.move_stack), alt_depth))
        if parent is not None:
            nodes += 1
            if nodes > _pgn.MAX_MOVES:
                raise CbrError(f"{where}CBR record too big: more than {_pgn.MAX_MOVES:,} moves; "
                               f"refused", offset=offset)
            node = _play(game, parent, board, src, dst, comment, offset, where)
        if has_next:
            parent = node
            first_child = True
        elif pending:
            parent, ply, depth = pending.pop()
            first_child = False
            while len(board.move_stack) > ply:
                board.pop()
        else:
            return
        step = steps.next()
        if step is None:
            raise CbrError(f"{where}truncated CBR record: the moves end at offset "
                           f"{steps.base + steps.pos:#x} in the middle of a line",
                           offset=steps.base + steps.pos)


def _play(game: Game, parent: GameNode, board: Board, src: int, dst: int, comment: str,
          offset: int, where: str) -> Optional[GameNode]:
    a, b = _point(src), _point(dst)
    text = None
    if a is None or b is None or a == b:
        reason = f"the record has no valid points (bytes {src}, {dst})"
    else:
        move = Move(a, b)
        text = move.iccs()
        if board.is_legal(move):
            board.push(move)
            return parent.add_variation(move, comment=comment)
        reason = "no piece to move there" if board.piece_at(a) is None else "not legal here"
    ply = len(board.move_stack)
    side = "Red" if board.turn == RED else "Black"
    game.errors.append(CbrError(
        f"{where}illegal move {text or '?'} in the record at offset {offset:#x} after {ply} "
        f"plies (move {board.fullmove_number}, {side}): {reason}",
        offset=offset, game=game, ply=ply, move_text=text))
    return None


def read_game(source: Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", Any], *,
              errors: str = "raise") -> Game:
    """Reads a CBR game from bytes, a path or a binary stream.

    Raises :class:`CbrError` for data that is not CBR, is truncated or is
    corrupt.  Moves that are not legal are left out with what hangs below
    them; then CbrError is raised with the rest of the game as ``err.game``
    (``errors="raise"``), or that game is returned with the errors in
    ``game.errors`` (``errors="keep"``).
    """
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    return parse_record(_read_bytes(source), errors=errors)


def is_note(record: bytes) -> bool:
    """Is this a text-only record (no piece on its board)?  CCBridge
    libraries use them for notes between the games."""
    board = record[2120:2210]
    return len(board) == 90 and not any(b in _PIECES for b in board)


def library_records(data: bytes) -> Tuple[str, List[Tuple[int, int]]]:
    """The name of a CBL library and the (start, end) byte spans of its
    records, text-only records included (see :func:`is_note`).  Raises
    CbrError if the data is not a CBL library."""
    if not data.startswith(LIBRARY_MAGIC):
        raise CbrError("not a CBL library (it does not start with 'CCBridgeLibrary')",
                       offset=0)
    if len(data) < 576:
        raise CbrError(f"truncated CBL library: {len(data)} bytes, the header alone has 576",
                       offset=len(data))
    name = _utf16(data[64:576])
    starts = []
    first = data.find(RECORD_MAGIC, 576)
    if first >= 0:
        for pos in range(first, len(data), _BLOCK):
            if data.startswith(RECORD_MAGIC, pos):
                starts.append(pos)
    spans = [(s, starts[i + 1] if i + 1 < len(starts) else len(data))
             for i, s in enumerate(starts)]
    return name, spans


def read_library(source: Union[bytes, str, "os.PathLike[str]", Any], *,
                 errors: str = "raise") -> Iterator[Game]:
    """The games of a CBL library, in order (text-only records, see
    :func:`is_note`, left out; ``err.game_index`` still counts them).  A record that cannot be read
    raises CbrError (``err.game_index`` says which) with ``errors="raise"``;
    with ``errors="keep"`` games with illegal moves are yielded with
    ``game.errors``, and unreadable records still raise."""
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    data = _read_bytes(source)
    name, spans = library_records(data)
    for index, (start, end) in enumerate(spans):
        if is_note(data[start:end]):
            continue
        game = parse_record(data[start:end], base=start, errors=errors, game_index=index)
        if name:
            game.headers.setdefault("Library", name)
        yield game
