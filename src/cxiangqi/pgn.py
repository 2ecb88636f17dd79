"""Xiangqi games in PGN: read and write, with comments and variations.

Names and habits follow python-chess's ``chess.pgn``: a :class:`Game` is the
root of a tree of :class:`ChildNode` objects, each holding the move that
leads to it, a comment, NAGs and its own variations (the first one is the
main line).

>>> import io
>>> game = read_game(io.StringIO('[Red "Hu"]\\n1. h2e2 h9g7 2. h0g2 {ok} (2. b0c2) 1-0'))
>>> game.headers["Red"], game.headers["Result"]
('Hu', '1-0')
>>> [m.iccs() for m in game.mainline_moves()]
['h2e2', 'h9g7', 'h0g2']
>>> game.end().comment, len(game.end().parent.variations)
('ok', 2)

What is read
    * ``f`` is a path (``str`` or ``os.PathLike``), a text stream, or a
      binary stream.  Bytes (a path or a binary stream) may be UTF-8 (with or
      without BOM), GBK/GB18030 or Big5; the encoding is detected (see
      :func:`detect_encoding`); UTF-16 with a BOM is read from paths only.
      A bad FEN header is an error (PgnError) like a bad move.
    * Headers ``[Name "value"]``, also when the value contains brackets or
      unescaped quotes (``[Event ""中立杯"象棋 [特别报道]"]``).
    * Move numbers in the common styles (``1.``, ``1...``, ``1、``, ``1 .``,
      ``1．``, a bare ``1``, or none at all).
    * Moves in ICCS (``h2e2``, ``h2-e2``, ``H2-E2``), WXF (``C2=5``) and
      Chinese (``炮二平五``, ``馬８進７``).  The notation is recognised per
      move, so the ``[Format]`` header is informative only.
    * Comments ``{...}`` (over several lines) and ``; ...`` to the end of the
      line, variations ``( ... )`` nested to any depth, NAGs ``$n`` (0..255,
      as PGN defines them; a larger number is skipped) and the suffixes
      ``! ? !! ?? !? ?!``, results ``1-0 0-1 1/2-1/2 *``.
    * A game ends at its result token, at the header of the next game, or at
      the end of the input.

Errors
    A move that cannot be read (unknown text, or illegal in its position)
    stops the game: :func:`read_game` raises :class:`PgnError`, which names
    the game (its index in the input and its Event), the ply and the move
    text, and carries the game read so far as ``err.game`` (its tree holds
    every move before the bad one; ``err.game.errors`` holds the error).
    The rest of the bad game is still consumed, so calling :func:`read_game`
    again on the same stream reads the next game.  With ``errors="keep"``
    the partial game is returned instead of raising, with the error in
    ``game.errors``; :func:`read_games` also accepts ``errors="skip"``.

    Reading takes time and memory in proportion to the text (one board
    follows the tree; a node costs about 200 bytes).  A game with more than
    :data:`MAX_MOVES` moves (variations included), or with variations nested
    more than :data:`MAX_VARIATION_DEPTH` deep, is refused with PgnError;
    the XQF and DhtmlXQ readers apply the same limits.

Writing
    :func:`write_game` writes ICCS, WXF or Chinese move text (the WXF and
    Chinese forms come from :mod:`cxiangqi.notation`).  Writing to a path is
    atomic: the text goes to a temporary file in the same directory, which
    then replaces the target with ``os.replace``, so an interrupted save
    never destroys the previous file.  ``comments=False, variations=False``
    writes plain PGN (headers and main line), for readers that know no more,
    such as cchess.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import unicodedata
import weakref
from typing import (Any, Callable, Dict, Generic, Iterable, Iterator, List, Mapping,
                    MutableMapping, Optional, Set, TextIO, Tuple, TypeVar, Union)

from .board import Board
from .errors import InvalidFenError
from .files import atomic_write
from .fen import STARTING_FEN
from .move import Move
from .square import BLACK, RED, Color

__all__ = [
    "PgnError", "Headers", "GameNode", "ChildNode", "Game", "Mainline",
    "read_game", "read_games", "write_game", "detect_encoding",
    "NOTATIONS", "TAG_ROSTER", "MAX_MOVES", "MAX_VARIATION_DEPTH", "sniff",
]

PathOrStream = Union[str, "os.PathLike[str]", TextIO, Any]

NOTATIONS = ("iccs", "wxf", "chinese")
"""The move notations :func:`write_game` can write."""

_FORMAT_NAMES = {"iccs": "ICCS", "wxf": "WXF", "chinese": "Chinese"}

TAG_ROSTER = ("Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result")
"""Headers every game has (with python-chess-style "?" defaults) and that
are written first, in this order."""

_ROSTER_DEFAULTS = {
    "Game": "Chinese Chess", "Event": "?", "Site": "?", "Date": "????.??.??",
    "Round": "?", "Red": "?", "Black": "?", "Result": "*",
}

_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: most moves (nodes, variations included) in one record; a bigger one is
#: refused with PgnError (or the reader's own subclass), never MemoryError.
#: A node takes about 170 bytes, so this caps a record at about 170 MB.
MAX_MOVES = 1_000_000
#: deepest nesting of variations (a variation inside a variation ...) in a
#: record; a deeper one is refused
MAX_VARIATION_DEPTH = 1000

# glyph suffixes and their standard NAG numbers
_GLYPH_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


class PgnError(ValueError):
    """A PGN game that could not be read completely.

    Attributes (None when not known):

    * ``game``: the :class:`Game` read up to the error: headers, and every
      move, comment and variation before the bad move.
    * ``game_index``: 0-based index of the game in its input (counted per
      stream by :func:`read_game`, exactly by :func:`read_games`); the
      message counts from 1 ("game 3").
    * ``ply``: how many half-moves had been played on the bad move's line
      (python-chess's ``board.ply()`` before it): the bad move is ply
      ``ply + 1`` counted from 1.
    * ``move_text``: the text of the bad move, as written in the file.
    """

    def __init__(self, message: str, *, game: Optional["Game"] = None,
                 game_index: Optional[int] = None, ply: Optional[int] = None,
                 move_text: Optional[str] = None) -> None:
        super().__init__(message)
        self.game = game
        self.game_index = game_index
        self.ply = ply
        self.move_text = move_text


# --- headers --------------------------------------------------------------------------

class Headers(MutableMapping[str, str]):
    """The header tags of a game: a dict that iterates the tag roster
    (:data:`TAG_ROSTER`) first, then the other tags in insertion order.

    ``Headers()`` has the roster with "?" defaults (python-chess's habit);
    ``Headers({})`` is empty.
    """

    def __init__(self, data: Optional[Union[Mapping[str, str], Iterable[Tuple[str, str]]]] = None,
                 **kwargs: str) -> None:
        self._tags: Dict[str, str] = {}
        if data is None:
            self._tags.update(_ROSTER_DEFAULTS)
        else:
            self.update(data)
        self.update(kwargs)

    def __getitem__(self, key: str) -> str:
        return self._tags[key]

    def __setitem__(self, key: str, value: str) -> None:
        if not isinstance(key, str) or not re.fullmatch(r"[A-Za-z0-9_]+", key):
            raise ValueError(f"invalid header tag name {key!r} (letters, digits and _ only)")
        self._tags[key] = str(value)

    def __delitem__(self, key: str) -> None:
        del self._tags[key]

    def __iter__(self) -> Iterator[str]:
        for key in TAG_ROSTER:
            if key in self._tags:
                yield key
        for key in self._tags:
            if key not in TAG_ROSTER:
                yield key

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> "Headers":
        return Headers(dict(self.items()))

    def __repr__(self) -> str:
        return "Headers({})".format(", ".join(f"{k}={v!r}" for k, v in self.items()))


# --- the game tree --------------------------------------------------------------------

class GameNode:
    """A node of the game tree: the root (:class:`Game`) or a
    :class:`ChildNode`.  ``variations`` are the moves played from here; the
    first is the main line."""

    parent: Optional["GameNode"]
    move: Optional[Move]

    # Slots keep a node small (a record read from a file holds one node per
    # move): about 170 bytes, against 600 with a __dict__ and an empty set
    # of NAGs for every node.  __dict__ is still there, made only when an
    # attribute of one's own is set on a node.
    __slots__ = ("parent", "move", "variations", "comment", "_nags", "__dict__",
                 "__weakref__")

    def __init__(self) -> None:
        self.parent = None
        self.move = None
        self.variations: List["ChildNode"] = []
        self.comment = ""
        self._nags: Optional[Set[int]] = None

    @property
    def nags(self) -> Set[int]:
        """The NAGs of this node (a set, made when first asked for)."""
        if self._nags is None:
            self._nags = set()
        return self._nags

    @nags.setter
    def nags(self, value: Iterable[int]) -> None:
        self._nags = set(value)

    # navigation
    def root(self) -> "GameNode":
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> "Game":
        """The :class:`Game` at the root of this tree."""
        root = self.root()
        if not isinstance(root, Game):
            raise ValueError("this node is not part of a Game")
        return root

    def ply(self) -> int:
        """Half-moves from the root to this node."""
        n, node = 0, self
        while node.parent is not None:
            n += 1
            node = node.parent
        return n

    def _path(self) -> List[Move]:
        moves: List[Move] = []
        node = self
        while node.parent is not None:
            moves.append(node.move)  # type: ignore[arg-type]
            node = node.parent
        moves.reverse()
        return moves

    def board(self) -> Board:
        """A new board with the position at this node (the game's start
        position with the moves to here played, so ``move_stack`` holds them)."""
        board = self.root().board()
        for move in self._path():
            board.push(move)
        return board

    def turn(self) -> Color:
        """The side to move at this node."""
        return self.board().turn

    def next(self) -> Optional["ChildNode"]:
        """The main continuation, or None at the end of a line."""
        return self.variations[0] if self.variations else None

    def end(self) -> "GameNode":
        """The last node of the main line from here."""
        node: GameNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        return not self.variations

    def variation(self, move: Union[int, Move, "GameNode"]) -> "ChildNode":
        """The variation at an index, or the one starting with a move (KeyError if none)."""
        if isinstance(move, int):
            return self.variations[move]
        for child in self.variations:
            if child is move or child.move == move:
                return child
        raise KeyError(move)

    def has_variation(self, move: Union[Move, "GameNode"]) -> bool:
        return any(child is move or child.move == move for child in self.variations)

    def is_mainline(self) -> bool:
        """Is this node on the game's main line?"""
        node: GameNode = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def is_main_variation(self) -> bool:
        """Is this node the first variation of its parent (or the root)?"""
        return self.parent is None or self.parent.variations[0] is self

    # editing
    def add_variation(self, move: Move, *, comment: str = "", starting_comment: str = "",
                      nags: Iterable[int] = ()) -> "ChildNode":
        """Appends a variation with this move and returns its node.  The move
        is not checked here (a game may be built before its start position
        is set); readers and :meth:`board` check it."""
        if not isinstance(move, Move):
            raise TypeError(f"expected a Move, got {type(move).__name__}")
        node = ChildNode(self, move, comment=comment, starting_comment=starting_comment,
                         nags=nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "",
                           nags: Iterable[int] = ()) -> "ChildNode":
        """Adds a variation with this move and makes it the main line."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.remove(node)
        self.variations.insert(0, node)
        return node

    def add_line(self, moves: Iterable[Move], *, comment: str = "", starting_comment: str = "",
                 nags: Iterable[int] = ()) -> "GameNode":
        """Adds a line of moves (the first as a new variation here) and
        returns the last node; the comment and NAGs go to that last node."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        node.comment = comment
        node.nags.update(nags)
        return node

    def remove_variation(self, move: Union[int, Move, "GameNode"]) -> None:
        self.variations.remove(self.variation(move))

    def promote_to_main(self, move: Union[int, Move, "GameNode"]) -> None:
        variation = self.variation(move)
        self.variations.remove(variation)
        self.variations.insert(0, variation)

    def promote(self, move: Union[int, Move, "GameNode"]) -> None:
        variation = self.variation(move)
        i = self.variations.index(variation)
        if i > 0:
            self.variations[i - 1], self.variations[i] = self.variations[i], self.variations[i - 1]

    def demote(self, move: Union[int, Move, "GameNode"]) -> None:
        variation = self.variation(move)
        i = self.variations.index(variation)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = self.variations[i], self.variations[i + 1]

    # lines
    def mainline(self) -> "Mainline[ChildNode]":
        """The nodes of the main line after this one (a re-iterable view)."""
        return Mainline(self, lambda node: node)

    def mainline_moves(self) -> "Mainline[Move]":
        """The moves of the main line after this node (a re-iterable view;
        ``list(...)`` for a list)."""
        return Mainline(self, lambda node: node.move)


class ChildNode(GameNode):
    """A node reached by a move.  ``comment`` is the comment after the move;
    ``starting_comment`` a comment before it (written only where a
    variation starts)."""

    parent: GameNode
    move: Move

    __slots__ = ("starting_comment",)

    def __init__(self, parent: GameNode, move: Move, *, comment: str = "",
                 starting_comment: str = "", nags: Iterable[int] = ()) -> None:
        self.parent = parent
        self.move = move
        self.variations = []
        self.comment = comment
        self.starting_comment = starting_comment
        self._nags = set(nags) if nags else None

    def starts_variation(self) -> bool:
        """Is this the first move of a side variation?"""
        return self.parent.variations[0] is not self

    def iccs(self) -> str:
        return self.move.iccs()

    def wxf(self) -> str:
        """The move in WXF notation (from :mod:`cxiangqi.notation`)."""
        from . import notation
        return notation.wxf(self.parent.board(), self.move)

    def chinese(self, traditional: bool = False) -> str:
        """The move in Chinese notation (from :mod:`cxiangqi.notation`)."""
        from . import notation
        return notation.chinese(self.parent.board(), self.move, traditional=traditional)

    def __repr__(self) -> str:
        return f"<ChildNode {self.move.iccs()} at ply {self.ply()}>"


class Game(GameNode):
    """The root of a game tree, with its :class:`Headers`.

    The start position comes from the ``FEN`` header (the initial position
    without one).  ``errors`` lists the :class:`PgnError` met while reading
    this game (empty for a complete game).
    """

    def __init__(self, headers: Optional[Union[Headers, MutableMapping[str, str]]] = None) -> None:
        super().__init__()
        self.headers: Headers = headers if isinstance(headers, Headers) else Headers(headers)
        self.errors: List[PgnError] = []

    def board(self) -> Board:
        """A new board with the start position (InvalidFenError if the FEN
        header is not a valid position)."""
        fen = self.headers.get("FEN")
        if fen is None or not fen.strip():
            return Board()
        return Board(_normalize_fen(fen))

    def setup(self, board: Union[Board, str]) -> None:
        """Sets the start position (a Board, whose current position is used,
        or a FEN); the FEN header is removed for the initial position."""
        fen = board.fen() if isinstance(board, Board) else Board(_normalize_fen(board)).fen()
        if fen == STARTING_FEN:
            self.headers.pop("FEN", None)
        else:
            self.headers["FEN"] = fen

    @classmethod
    def from_board(cls, board: Board) -> "Game":
        """A game with the moves of ``board.move_stack`` as its main line,
        from the position before them; Result from ``board.outcome()`` when
        the game is over."""
        start = board.copy()
        moves = list(start.move_stack)
        while start.move_stack:
            start.pop()
        game = cls()
        game.setup(start)
        node: GameNode = game
        for move in moves:
            node = node.add_variation(move)
        outcome = board.outcome()
        if outcome is not None:
            game.headers["Result"] = outcome.result()
        return game

    @classmethod
    def without_tag_roster(cls) -> "Game":
        return cls(Headers({}))

    def __str__(self) -> str:
        return _format_game(self, "iccs")

    def __repr__(self) -> str:
        h = self.headers
        return (f"<Game ({h.get('Red', '?')!r} vs. {h.get('Black', '?')!r}, "
                f"{h.get('Event', '?')!r}, {len(self.mainline_moves())} plies)>")


_T = TypeVar("_T")


class Mainline(Generic[_T]):
    """A re-iterable view of the main line below a node, mapping each node
    with ``f`` (python-chess's ``Mainline``)."""

    def __init__(self, start: GameNode, f: Callable[[ChildNode], _T]) -> None:
        self.start = start
        self.f = f

    def __iter__(self) -> Iterator[_T]:
        node = self.start
        while node.variations:
            node = node.variations[0]
            yield self.f(node)

    def __reversed__(self) -> Iterator[_T]:
        return reversed(list(self))

    def __len__(self) -> int:
        n, node = 0, self.start
        while node.variations:
            node = node.variations[0]
            n += 1
        return n

    def __bool__(self) -> bool:
        return bool(self.start.variations)

    def __getitem__(self, i: int) -> _T:
        return list(self)[i]

    def __repr__(self) -> str:
        items = [x.iccs() if hasattr(x, "iccs") else repr(x) for x in self]
        return f"<Mainline ({' '.join(items)})>"


def _normalize_fen(fen: str) -> str:
    """Accepts the variants found in xiangqi files: side 'r'/'red' for Red,
    missing counters, a fullmove number 0."""
    fields = fen.split()
    if len(fields) >= 2:
        side = fields[1].lower()
        if side in ("r", "red"):
            fields[1] = "w"
        elif side == "black":
            fields[1] = "b"
    elif len(fields) == 1:
        fields.append("w")
    if len(fields) >= 6 and fields[5] == "0":
        fields[5] = "1"
    return " ".join(fields)


# --- encodings ------------------------------------------------------------------------

# Characters of xiangqi move text and headers, simplified and traditional:
# decoded with the right codec they are everywhere; with the wrong one, rare.
_XQ_CHARS = frozenset(
    "车車俥马馬傌炮砲包相象仕士帅帥将將兵卒进進退平前后後中"
    "一二三四五六七八九１２３４５６７８９"
    "红紅黑方先胜勝负負和局对對赛賽杯年月日象棋队隊国國全第届屆"
)


def _frequent(ch: str, codec: str) -> bool:
    """Is ch one of the frequent characters of the codec's own repertoire:
    the GB2312 hanzi for GBK, the level-1 hanzi (A440-C67E) for Big5?
    Bytes decoded with the wrong codec mostly give other characters
    (rare hanzi, kana, box drawing)."""
    try:
        if codec == "gb18030":
            b = ch.encode("gb2312")
            return b[0] >= 0xB0
        b = ch.encode("big5")
        return 0xA440 <= (b[0] << 8 | b[1]) <= 0xC67E
    except (UnicodeEncodeError, IndexError):
        return False


def _score(text: str, codec: str) -> int:
    score = 0
    for ch in text:
        if ch < "\x80":
            continue
        if ch in _XQ_CHARS:
            score += 3
        elif ch == "\ufffd":
            score -= 8
        elif _frequent(ch, codec):
            score += 1
        elif not ("\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef"
                  or unicodedata.category(ch).startswith("P")):
            score -= 1  # punctuation and full-width forms count for neither
    return score


def detect_encoding(data: bytes) -> str:
    """The codec name for PGN bytes: ``"utf-8-sig"`` with a BOM, ``"utf-8"``
    when the bytes are valid UTF-8 (a truncated last character allowed),
    else ``"gb18030"`` (GBK) or ``"big5hkscs"`` (Big5), whichever decodes
    the first 64 KB with non-ASCII bytes into more common characters:
    xiangqi words (车馬炮進退平…) count most, then the frequent hanzi of
    each codec's own repertoire; invalid sequences and rare characters count
    against.  Ties go to GBK.

    >>> detect_encoding("炮二平五".encode("gbk")), detect_encoding("馬８進７".encode("big5"))
    ('gb18030', 'big5hkscs')
    >>> detect_encoding('[Red "胡榮華"]'.encode("big5"))
    'big5hkscs'
    """
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
        return "utf-8"
    except UnicodeDecodeError:
        pass
    first = next((i for i, b in enumerate(data) if b >= 0x80), 0)
    sample = data[first:first + (1 << 16)]
    best, best_score = "gb18030", None
    for codec in ("gb18030", "big5hkscs"):
        score = _score(sample.decode(codec, errors="replace"), codec)
        if best_score is None or score > best_score:
            best, best_score = codec, score
    return best


# --- reading: line sources --------------------------------------------------------------

# Per-stream state kept between read_game calls on the same stream: a line
# read past the end of a game (the next game's header) and where the stream
# stood after it, and the encoding found for a binary stream.
class _StreamState:
    __slots__ = ("pending", "position", "encoding", "games")

    def __init__(self) -> None:
        self.pending: Optional[str] = None
        self.position: Any = None
        self.encoding: Optional[str] = None
        self.games = 0


_STATES: "weakref.WeakKeyDictionary[Any, _StreamState]" = weakref.WeakKeyDictionary()


def _tell(stream: Any) -> Any:
    try:
        return stream.tell()
    except (OSError, AttributeError, ValueError):
        return None


class _Source:
    """Lines of one stream (text or binary), with a one-line push-back that
    survives between read_game calls (see _StreamState)."""

    def __init__(self, stream: Any, binary: bool) -> None:
        self.stream = stream
        self.binary = binary
        try:
            state = _STATES.get(stream)
            if state is None:
                state = _StreamState()
                _STATES[stream] = state
        except TypeError:  # not weak-referenceable: no state across calls
            state = _StreamState()
        self.state = state
        if state.pending is not None and _tell(stream) != state.position:
            state.pending = None  # the stream was moved since: the line is stale
        self.first = True

    def readline(self) -> str:
        state = self.state
        if state.pending is not None:
            line, state.pending = state.pending, None
            return line
        raw = self.stream.readline()
        if not raw:
            return ""
        if self.binary:
            line = self._decode(raw)
        else:
            line = raw
        if self.first:
            self.first = False
            line = line.lstrip("\ufeff")
        return line

    def _decode(self, raw: bytes) -> str:
        state = self.state
        if state.encoding is None:
            if raw.isascii():
                return raw.decode("ascii")
            sample = raw
            pos = _tell(self.stream)
            try:
                if pos is not None:  # look ahead, then come back
                    sample += self.stream.read(1 << 16)
                    self.stream.seek(pos)
                elif hasattr(self.stream, "peek"):  # what is buffered already
                    sample += self.stream.peek(1 << 16)[:1 << 16]
            except (OSError, ValueError):
                pass
            state.encoding = detect_encoding(sample)
            if state.encoding == "utf-8-sig":
                state.encoding = "utf-8"
        return raw.decode(state.encoding, errors="replace")

    def unread(self, line: str) -> None:
        self.state.pending = line
        self.state.position = _tell(self.stream)


def _open_source(f: PathOrStream) -> _Source:
    """A line source for f: a path is read and decoded whole (so UTF-16
    with a BOM works there too); a stream is read line by line.  A file
    (or a stream at its start) of another kind of record is refused with
    a PgnError that names it (see sniff)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            data = fh.read()
        _refuse_other_kinds(data, "pgn")
        text = data.decode(detect_encoding(data), errors="replace")
        return _Source(io.StringIO(text), binary=False)
    if isinstance(f, (bytes, bytearray)):
        raise TypeError("read_game takes a path or a stream; wrap PGN bytes in io.BytesIO "
                        "(or text in io.StringIO)")
    if not hasattr(f, "readline"):
        raise TypeError(f"expected a path or a stream, got {type(f).__name__}")
    binary = isinstance(f, (io.RawIOBase, io.BufferedIOBase)) or (
        not isinstance(f, io.TextIOBase) and isinstance(f.read(0), bytes))
    if _tell(f) == 0:
        try:
            head = f.read(_SNIFF_SIZE)
            f.seek(0)
        except (OSError, ValueError, AttributeError):
            head = None
        if head:
            try:
                _refuse_other_kinds(head if binary else head.encode("utf-8", "replace"), "pgn")
            except PgnError:
                try:    # nothing in it is PGN: a next read_game finds its end
                    f.seek(0, io.SEEK_END)
                except (OSError, ValueError):
                    pass
                raise
    return _Source(f, binary=binary)


# --- which kind of record is this? ------------------------------------------------------

_SNIFF_SIZE = 4096
_PGN_LOOK = re.compile(rb"^\s*(?:\xef\xbb\xbf)?\s*\[\s*[A-Za-z0-9_]+\s+\"|^\s*1\s*\.\s*\S", re.M)


def sniff(data: bytes) -> Optional[str]:
    """What kind of game record the first bytes of a file look like: "xqf",
    "cbr", "cbf" (CCBridge / 象棋桥), "dhtmlxq", "pgn", "binary" (some other
    binary data), or None (text of no known kind).

    >>> sniff(b"XQ\\x0a" + bytes(1021)), sniff(b'[Event "x"]\\n1. h2e2'), sniff(b"hello")
    ('xqf', 'pgn', None)
    """
    head = data[:_SNIFF_SIZE]
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):     # text, read as UTF-8
        head = head.decode("utf-16", "replace").encode("utf-8", "replace")
        data = head
    if head[:2] == b"XQ" and len(head) > 2 and 1 <= head[2] <= 18:
        return "xqf"
    if head.startswith(b"CCBridge Record"):
        return "cbr"
    if b"<ChineseChessRecord" in head:
        return "cbf"
    if b"[DhtmlXQ" in data[:1 << 16]:
        return "dhtmlxq"
    # binary: many control bytes (a text file with a few damaged bytes is
    # still text, and read as well as it can be)
    if sum(1 for b in head if b < 9 or 13 < b < 32) * 10 > len(head):
        return "binary"
    if _PGN_LOOK.search(head):
        return "pgn"
    return None


_READERS = {"pgn": "cxiangqi.pgn.read_game", "xqf": "cxiangqi.xqf.read_game",
            "dhtmlxq": "cxiangqi.dhtmlxq.read_game"}
_KIND_NAMES = {"pgn": "a PGN file", "xqf": "an XQF file", "dhtmlxq": "a DhtmlXQ page",
               "cbf": "a CCBridge (象棋桥) CBF file", "cbr": "a CCBridge (象棋桥) CBR file",
               "binary": "binary data"}


def wrong_kind(data: bytes, expected: str) -> Optional[str]:
    """A message saying what `data` is when it is clearly not the
    `expected` kind of record ("pgn", "xqf", "dhtmlxq"); None otherwise."""
    kind = sniff(data)
    if kind is None or kind == expected or (kind == "binary" and expected == "xqf"):
        return None
    if kind == "pgn" and expected == "dhtmlxq":
        return None      # a DhtmlXQ block may sit in any text; the reader says if there is none
    text = f"this is {_KIND_NAMES[kind]}"
    if kind in _READERS:
        return f"{text}: use {_READERS[kind]}"
    if kind == "binary":
        return f"{text}, not {_KIND_NAMES[expected]}"
    return f"{text}, which {_READERS[expected].rsplit('.', 1)[0]} cannot read"


def _refuse_other_kinds(data: bytes, expected: str) -> None:
    message = wrong_kind(data, expected)
    if message is not None:
        raise PgnError(message)


# --- reading: the parser ----------------------------------------------------------------

_TAG_START = re.compile(r"\s*\[\s*[A-Za-z0-9_]+\s*\"")
# One tag.  The value ends at the last quote that is followed by "]" and
# then by the end of the line or another tag, so values may contain
# brackets and unescaped quotes.
_TAG = re.compile(r"\[\s*([A-Za-z0-9_]+)\s*\"(.*?)\"\s*\](?=\s*(?:\[\s*[A-Za-z0-9_]+\s*\"|$))")
# the first closing quote and bracket: for a tag followed by movetext
_TAG_LOOSE = re.compile(r"\[\s*([A-Za-z0-9_]+)\s*\"(.*?)\"\s*\]")

_TOKEN = re.compile(r"""
    (?P<open_comment>\{)
  | (?P<line_comment>;.*)
  | (?P<open_var>\()
  | (?P<close_var>\))
  | (?P<nag>\$\d+)
  | (?P<result>(?:1-0|0-1|1/2-1/2|½-½|\*))(?=$|[\s(){};])
  | (?P<number>\d+\s*(?:\.+|…+|、|．+|。)|\d+(?=$|\s))
  | (?P<glyph>[!?]{1,2})(?=$|[\s(){};$])
  | (?P<dots>\.{2,}|…+)
  | (?P<word>[^\s(){};$]+)
""", re.VERBOSE)

_ICCS_WORD = re.compile(r"([a-iA-I])([0-9])\s*[-–]?\s*([a-iA-I])([0-9])")
_GLYPH_SUFFIX = re.compile(r"(!!|\?\?|!\?|\?!|!|\?)$")


def _unescape(value: str) -> str:
    if "\\" not in value:
        return value
    return re.sub(r"\\([\\\"])", r"\1", value)


class _GameBuilder:
    """Builds one game from header and movetext tokens; on the first bad
    move it records a PgnError and ignores the rest of the game."""

    def __init__(self, game_index: Optional[int]) -> None:
        self.game = Game()
        self.game_index = game_index
        self.node: GameNode = self.game
        # One board for the whole tree, at self.node: a variation takes back
        # the move it varies and puts it back at its end, so reading costs
        # time and memory in proportion to the text (copying the board with
        # its move stack for each variation was quadratic).
        self.board: Optional[Board] = None
        # per open variation: the node to return to, the move taken back,
        # and the board's ply at the variation's start
        self.stack: List[Tuple[GameNode, Move, int]] = []
        self.nodes = 0
        self.skip_depth = 0          # inside a variation that has no move to vary
        self.at_start = True         # no move yet in the current (variation) line
        self.start_comment: List[str] = []
        self.failed = False
        self.result_in_text: Optional[str] = None
        self.seen_tags: Set[str] = set()

    # headers
    def header(self, name: str, value: str) -> None:
        self.seen_tags.add(name)
        self.game.headers[name] = value

    def _describe(self) -> str:
        h = self.game.headers
        where = f"game {self.game_index + 1}" if self.game_index is not None else "game"
        event = h.get("Event", "?")
        if event not in ("", "?"):
            where += f" ({event!r})"
        return where

    def _fail(self, message: str, ply: Optional[int] = None,
              move_text: Optional[str] = None) -> None:
        err = PgnError(f"{self._describe()}: {message}", game=self.game,
                       game_index=self.game_index, ply=ply, move_text=move_text)
        self.game.errors.append(err)
        self.failed = True

    def _start_board(self) -> bool:
        if self.board is None and not self.failed:
            try:
                self.board = self.game.board()
            except InvalidFenError as e:
                self._fail(f"bad FEN header: {e}")
        return not self.failed

    # movetext
    def word(self, text: str) -> None:
        if self.failed or self.skip_depth or not self._start_board():
            return
        board = self.board
        assert board is not None
        nags: List[int] = []
        glyph = _GLYPH_SUFFIX.search(text)
        core = text
        if glyph and len(text) > len(glyph.group(1)):
            nags.append(_GLYPH_NAGS[glyph.group(1)])
            core = text[:glyph.start()]
        try:
            move = _parse_move(board, core)
            board.push(move)
        except (ValueError, ImportError) as e:
            ply = len(board.move_stack)
            side = "Red" if board.turn == RED else "Black"
            reason = str(e)
            self._fail(f"cannot play move {core!r} after {ply} plies (move "
                       f"{board.fullmove_number}, {side}): {reason}", ply=ply, move_text=core)
            return
        self.nodes += 1
        if self.nodes > MAX_MOVES:  # (looked up at run time, so tests can lower them)
            board.pop()
            self._fail(f"the game has more than {MAX_MOVES:,} moves (with its variations); "
                       f"refused as too big", ply=len(board.move_stack), move_text=core)
            return
        node = self.node.add_variation(move, nags=nags)
        if self.start_comment:
            node.starting_comment = " ".join(self.start_comment)
            self.start_comment = []
        self.node = node
        self.at_start = False

    def comment(self, text: str) -> None:
        if self.failed or self.skip_depth:
            return
        text = text.strip()
        if not text:
            return
        if self.at_start:
            if self.node is self.game and not self.stack:
                self.game.comment = f"{self.game.comment} {text}".strip()
            else:
                self.start_comment.append(text)
        else:
            self.node.comment = f"{self.node.comment} {text}".strip()

    def nag(self, value: int) -> None:
        if self.failed or self.skip_depth or self.at_start:
            return
        self.node.nags.add(value)

    def open_variation(self) -> None:
        if self.failed:
            return
        if self.skip_depth or self.node.parent is None or self.board is None:
            self.skip_depth += 1
            return
        if len(self.stack) >= MAX_VARIATION_DEPTH:
            self._fail(f"variations nested more than {MAX_VARIATION_DEPTH} deep; refused",
                       ply=len(self.board.move_stack))
            return
        varied = self.board.pop()
        self.stack.append((self.node, varied, len(self.board.move_stack)))
        self.node = self.node.parent
        self.at_start = True
        self.start_comment = []

    def close_variation(self) -> None:
        if self.failed:
            return
        if self.skip_depth:
            self.skip_depth -= 1
        elif self.stack:
            node, varied, ply = self.stack.pop()
            board = self.board
            assert board is not None
            while len(board.move_stack) > ply:
                board.pop()
            board.push(varied)
            self.node = node
            self.at_start = False
            self.start_comment = []

    def result(self, text: str) -> bool:
        """A result token; True when it ends the game (outside variations)."""
        if self.stack or self.skip_depth:
            return False
        if text == "½-½":
            text = "1/2-1/2"
        self.result_in_text = text
        return True

    def finish(self) -> Game:
        self._start_board()  # a bad FEN header is an error even without moves
        headers = self.game.headers
        if self.result_in_text is not None and headers.get("Result", "*") in ("*", "", "?"):
            headers["Result"] = self.result_in_text
        return self.game


def _parse_move(board: Board, text: str) -> Move:
    """The legal move written as ICCS, WXF or Chinese (recognised per move)."""
    m = _ICCS_WORD.fullmatch(text)
    if m:
        return board.parse_iccs("".join(m.groups()))
    from . import notation  # noqa: PLC0415  (optional until it exists)
    if any(ord(ch) > 0x2e80 for ch in text):
        return notation.parse_chinese(board, text)
    return notation.parse_wxf(board, text)


def _read(source: _Source, game_index: Optional[int]) -> Optional[Game]:
    """Reads one game from the source (None at the end of the input)."""
    builder = _GameBuilder(game_index)
    # 1. headers (skipping blank lines and % escapes before and between them)
    line = source.readline()
    saw_anything = False
    while line:
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            line = source.readline()
            continue
        if not _TAG_START.match(line):
            break
        rest, new_game = _read_tags(line, builder)
        if new_game:
            source.unread(line)
            return builder.finish()
        saw_anything = True
        if rest.strip():
            line = rest
            break
        line = source.readline()
    if not line:
        return builder.finish() if saw_anything else None

    # 2. movetext, line by line; a brace comment may span lines
    comment: Optional[List[str]] = None
    while line:
        if comment is None:
            if _TAG_START.match(line) and _TAG.match(line.strip()):
                source.unread(line)  # the next game's headers
                break
            if line.lstrip().startswith("%"):
                line = source.readline()
                continue
        pos = 0
        ended = False
        while pos < len(line):
            if comment is not None:
                close = line.find("}", pos)
                if close < 0:
                    comment.append(line[pos:])
                    pos = len(line)
                    break
                comment.append(line[pos:close])
                builder.comment("".join(comment))
                comment = None
                pos = close + 1
                continue
            m = _TOKEN.search(line, pos)
            if m is None:
                break
            pos = m.end()
            kind = m.lastgroup
            if kind == "word":
                builder.word(m.group())
            elif kind == "open_comment":
                comment = []
            elif kind == "line_comment":
                builder.comment(m.group()[1:])
            elif kind == "open_var":
                builder.open_variation()
            elif kind == "close_var":
                builder.close_variation()
            elif kind == "nag":
                digits = m.group()[1:].lstrip("0") or "0"
                if len(digits) <= 3 and int(digits) <= 255:     # (no int of 5000 digits)
                    builder.nag(int(digits))
            elif kind == "glyph":
                builder.nag(_GLYPH_NAGS[m.group()])
            elif kind == "result":
                if builder.result(m.group()):
                    ended = True
                    break
        if ended:
            break
        line = source.readline()
    if comment is not None:
        builder.comment("".join(comment))
    return builder.finish()


def _read_tags(line: str, builder: _GameBuilder) -> Tuple[str, bool]:
    """Reads the tags on a header line.  Returns the rest of the line after
    them, and True when the line starts a new game (a tag seen again)."""
    pos = 0
    text = line.strip()
    while pos < len(text):
        m = _TAG.match(text, pos) or _TAG_LOOSE.match(text, pos)
        if m is None:
            break
        name, value = m.group(1), _unescape(m.group(2))
        if name in builder.seen_tags and pos == 0:
            return "", True
        builder.header(name, value)
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    if pos == 0:  # a malformed header line: ignored
        return "", False
    return text[pos:], False


def read_game(f: PathOrStream, *, errors: str = "raise") -> Optional[Game]:
    """Reads the next game from a stream (or the first game of a file
    path); None at the end of the input.

    A move that cannot be read ends the game: with ``errors="raise"`` (the
    default) :class:`PgnError` is raised, with the partial game as
    ``err.game``; with ``errors="keep"`` the partial game is returned and
    the error is in ``game.errors``.  Either way the stream is left after
    the bad game.
    """
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', not {errors!r}")
    source = _open_source(f)
    state = source.state
    game = _read(source, state.games)
    if game is None:
        return None
    state.games += 1
    if game.errors and errors == "raise":
        raise game.errors[0]
    return game


def read_games(f: PathOrStream, *, errors: str = "raise") -> Iterator[Game]:
    """Iterates over the games of a path or stream.

    ``errors``: ``"raise"`` raises :class:`PgnError` at the first bad game
    (ending the iteration), ``"keep"`` yields bad games with their partial
    tree and ``game.errors``, ``"skip"`` leaves them out.
    """
    if errors not in ("raise", "keep", "skip"):
        raise ValueError(f"errors must be 'raise', 'keep' or 'skip', not {errors!r}")
    source = _open_source(f)
    index = source.state.games
    while True:
        game = _read(source, index)
        if game is None:
            return
        index += 1
        source.state.games = index
        if game.errors:
            if errors == "raise":
                raise game.errors[0]
            if errors == "skip":
                continue
        yield game


# --- writing --------------------------------------------------------------------------

def _width(text: str) -> int:
    """Display columns: CJK and full-width characters count 2."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


class _Writer:
    def __init__(self, notation: str, traditional: bool, columns: int, comments: bool = True,
                 variations: bool = True) -> None:
        self.lines: List[str] = []
        self.current: List[str] = []
        self.width = 0
        self.columns = columns
        self.notation = notation
        self.traditional = traditional
        self.comments = comments      # False: no comments and no NAGs
        self.variations = variations  # False: the main line only
        if notation != "iccs":
            from . import notation as _notation  # noqa: PLC0415
            self._nt = _notation

    def token(self, text: str) -> None:
        w = _width(text)
        if self.current and self.width + 1 + w > self.columns:
            self.lines.append(" ".join(self.current))
            self.current, self.width = [], 0
        self.width += w + (1 if self.current else 0)
        self.current.append(text)

    def comment(self, text: str) -> None:
        if not self.comments:
            return
        text = text.replace("}", "").strip()
        if text:
            self.token("{ " + text + " }")

    def move_text(self, board: Board, move: Move) -> str:
        if self.notation == "iccs":
            return move.iccs()
        if self.notation == "wxf":
            return self._nt.wxf(board, move)
        return self._nt.chinese(board, move, traditional=self.traditional)

    def move(self, board: Board, node: ChildNode, force_number: bool) -> None:
        text = self.move_text(board, node.move)
        if board.turn == RED:
            text = f"{board.fullmove_number}. {text}"
        elif force_number:
            text = f"{board.fullmove_number}... {text}"
        self.token(text)  # the number and its move stay on one line
        if self.comments:
            for nag in sorted(node._nags or ()):
                self.token(f"${nag}")
        self.comment(node.comment)

    def commented(self, node: GameNode) -> bool:
        """Is a comment written after this node (so the next move needs its number)?"""
        return self.comments and bool(node.comment)

    def line(self, parent: GameNode, board: Board, force_number: bool) -> None:
        """Writes the main line below ``parent`` with its side variations;
        the board is at ``parent`` and is restored afterwards.  Iterative
        (a stack of open lines), so deep nesting cannot overflow Python's
        stack."""
        # per open line: [node, plies pushed on its main line, index of the
        # next side variation to write (None: the main move is not written
        # yet), force the next move number]
        lines: List[List[Any]] = [[parent, 0, None, force_number]]
        while lines:
            top = lines[-1]
            node = top[0]
            if top[2] is None:
                if not node.variations:           # the end of this line
                    for _ in range(top[1]):
                        board.pop()
                    lines.pop()
                    if lines:                     # it was a side variation
                        board.pop()
                        self.token(")")
                        lines[-1][3] = True
                    continue
                main = node.variations[0]
                self.move(board, main, top[3])
                top[3] = self.commented(main)
                top[2] = 1
            if self.variations and top[2] < len(node.variations):
                side = node.variations[top[2]]
                top[2] += 1
                self.token("(")
                self.comment(side.starting_comment)
                self.move(board, side, True)
                board.push(side.move)
                lines.append([side, 0, None, self.commented(side)])
                continue
            board.push(node.variations[0].move)
            top[0], top[1], top[2] = node.variations[0], top[1] + 1, None

    def text(self) -> str:
        if self.current:
            self.lines.append(" ".join(self.current))
        return "\n".join(self.lines)


def _header_value(value: str) -> str:
    value = " ".join(str(value).splitlines())
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _format_game(game: Game, notation: str = "iccs", *, traditional: bool = False,
                 columns: int = 80, comments: bool = True, variations: bool = True) -> str:
    if notation not in NOTATIONS:
        raise ValueError(f"notation must be one of {', '.join(NOTATIONS)}, not {notation!r}")
    out = []
    for name, value in game.headers.items():
        if name == "Format":
            continue
        out.append(f'[{name} "{_header_value(value)}"]')
    out.append(f'[Format "{_FORMAT_NAMES[notation]}"]')
    out.append("")
    writer = _Writer(notation, traditional, columns, comments, variations)
    writer.comment(game.comment)
    board = game.board()
    writer.line(game, board, writer.commented(game) or board.turn == BLACK)
    result = game.headers.get("Result", "*")
    writer.token(result if result in _RESULTS else "*")
    out.append(writer.text())
    return "\n".join(out) + "\n"


def write_game(game: Game, f: PathOrStream, notation: str = "iccs", *,
               traditional: bool = False, encoding: str = "utf-8", columns: int = 80,
               comments: bool = True, variations: bool = True) -> None:
    """Writes a game as PGN with moves in ``notation`` (``"iccs"``,
    ``"wxf"`` or ``"chinese"``; ``traditional=True`` for traditional
    Chinese characters) and a matching ``[Format]`` header.

    ``comments=False`` leaves out the comments and the NAGs,
    ``variations=False`` the side variations (as python-chess's
    ``StringExporter`` does); with both the game is plain PGN, headers and
    main line only.  cchess (the ``cchess`` package) cannot read comments
    ``{...}``, NAGs ``$2`` or variations ``(...)``, so an annotated game
    (:func:`cxiangqi.analysis.annotate`) written in full is for cxiangqi
    and PGN viewers, and written plain, in ICCS and one game a file, for
    cchess (whose reader also stops, silently, at some Chinese moves and
    reads no WXF).

    ``f`` is a text stream (the game is appended, followed by a blank line),
    a binary stream (encoded with ``encoding``), or a path: the file is
    replaced atomically with :func:`cxiangqi.files.atomic_write` (a
    symbolic link is written through to its target, the file keeps its
    permissions) and written in
    ``encoding`` (UTF-8 by default; ``"gbk"``/``"big5"`` for old Chinese
    programs).  Raises InvalidFenError for a bad FEN header,
    IllegalMoveError if the tree holds an illegal move and
    UnicodeEncodeError if the text has characters the encoding lacks;
    nothing is written then (for a path, the old file is untouched).
    """
    text = _format_game(game, notation, traditional=traditional, columns=columns,
                        comments=comments, variations=variations) + "\n"
    if isinstance(f, (str, os.PathLike)):
        atomic_write(f, _encode(text, encoding))
    elif isinstance(f, (io.RawIOBase, io.BufferedIOBase)):
        f.write(_encode(text, encoding))
    else:
        f.write(text)


def _encode(text: str, encoding: str) -> bytes:
    """text in encoding; plain Big5 lacks 俥 (red rook, traditional), which
    is then written 車 (as Big5 collections do; it reads back the same)."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        if "俥" not in text:
            raise
        return text.replace("俥", "車").encode(encoding)
