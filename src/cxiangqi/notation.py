"""Move notation: WXF, Chinese (中文纵线记谱) and whole lines of moves.

Both notations name a piece by the file it stands on, counted 1..9 from the
mover's right (Red's file 1 is file ``i``, Black's file 1 is file ``a``), then
say where it goes: ``+`` / 进 forward, ``-`` / 退 backward, ``=`` / 平 along
the rank.  King, rook, cannon and pawn moving forward or backward give the
number of steps; sideways they give the target file.  Advisor, elephant and
horse always give the target file (they never move sideways).

>>> from cxiangqi import Board, Move
>>> board = Board()
>>> wxf(board, Move.from_iccs("h2e2")), chinese(board, Move.from_iccs("h2e2"))
('C2=5', '炮二平五')
>>> parse_chinese(board, "马二进三")
Move.from_iccs('h0g2')

Conventions written (``wxf``, ``chinese``)
------------------------------------------
* WXF letters K A E H R C P; ``=`` for sideways (C2=5), as in the examples of
  the project spec (the WXF itself prints ``.``; both are read).
* Two pieces of a kind on one file (tandem), always marked (not only when
  the file alone would be ambiguous): WXF ``R++1`` / ``R-=4``, the sign in
  place of the file digit, after the letter, as the WXF's notation page,
  xqbase and Fairy-Stockfish write it (the sign before the letter,
  ``+R+1``, which earlier versions of cxiangqi wrote, is still read);
  Chinese 前/后 before the piece (前车进一 / 后车平四).  Advisors and elephants
  never need
  前/后 (the one that can go forward is always the rear one), so they keep
  their file number, as the Chinese rules and the WXF examples say.
* Pawns (three or more on a file, or two files with several pawns):
  - WXF, following the WXF's own "Official Xiangqi Piece Names and
    Notation" (wxf.org, AXF 1980/82, adopted by WXF 1997):
    two on the file ``P+`` ``P-``; three: ``P+`` (front), ``P3`` (middle,
    plain file form), ``P-`` (rear); four: ``++`` ``P+`` ``P-`` ``--``;
    five: ``++`` ``P+`` ``P3`` ``P-`` ``--``; several pawns on two files:
    the file digit, then ``+`` front, the file digit again for the middle,
    ``-`` rear (``3+=4``, ``33=4``, ``3-=4``, ``7+=6``).
  - Chinese, following xqbase's 《中国象棋电脑应用规范(二)：着法表示》 as
    implemented in ElephantEye/XiangQi Wizard (``cchess.cpp``: Move2File):
    two on the file 前兵/后兵, three on one file 前兵/中兵/后兵; otherwise
    (four or five on one file, or several on two files) the pawns on those
    files are numbered 一兵, 二兵, 三兵 ... from the mover's rightmost such
    file to the left and, within a file, front to back: 三兵平六.  The
    ordinal is a Chinese numeral for both colours.
* Chinese numbers: Red 一..九, Black full-width １..９.
  Traditional characters on request: 帥仕相傌俥炮兵 / 將士象馬車砲卒, 進, 後.

Conventions read (``parse_wxf``, ``parse_chinese``)
--------------------------------------------------
Liberal: the text is matched against the legal moves and accepted when it
names exactly one of them.  So the plain file form of a tandem piece is
read when only one of the two can make the move (real records do this:
车六平三 for the rear rook; so does Fairy-Stockfish's WXF, ``C3+7``).
* WXF: upper or lower case, ``=`` or ``.`` for sideways, full-width
  characters; letters B (elephant) and N (horse) as well as E and H; tandem
  signs before or after the letter (``+R+1``, ``R++1``); ``++``/``--``,
  ``3+``/``33``/``3-``; xqbase's ordinals ``Pa``..``Pe`` and middle ``P.``;
  Fairy-Stockfish's ``15=6`` (first pawn on file 5).  With three or five
  pawns on a file, ``P3`` means the middle one, as the WXF document says.
* Chinese: simplified and traditional characters (车車俥, 马馬傌, 炮砲包,
  帅帥将將, 进進, 后後, ...), any piece character for either colour (兵 for a
  black pawn is read as 卒); numbers as Chinese numerals, full-width or ASCII
  digits for either colour, always counted from the right of the side to
  move (so 马二进三 is also read for Black, meaning 马２进３); 前/中/后 before
  or after the piece (前车进一, 车前进一), optionally followed by the file
  (前兵三平四); ordinals 一兵..五兵 (also digits, ２卒) as described above;
  前/后 for advisors and elephants too.
InvalidMoveError for text that is not a move in the notation at all,
IllegalMoveError for text that names no legal move, AmbiguousMoveError (an
IllegalMoveError) for text that names more than one.

``Board.wxf``, ``parse_wxf``, ``push_wxf``, ``chinese``, ``parse_chinese``
and ``push_chinese`` delegate here; ``move_list`` and ``format_line`` write
whole lines (numbered, either colour first) for PGN and move lists.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Tuple, Union

from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from .move import MOVES, Move
from .square import (ADVISOR, BLACK, CANNON, ELEPHANT, HORSE, KING, PAWN, PIECE_NAMES, RED,
                     ROOK, SQUARE_NAMES, Color, PieceType, Square)

if TYPE_CHECKING:  # pragma: no cover
    from .board import Board
    from .piece import Piece

__all__ = [
    "wxf", "parse_wxf", "chinese", "parse_chinese", "parse_move",
    "move_list", "format_line", "NOTATIONS",
]

NOTATIONS = ("chinese", "wxf", "iccs")

# pieces that move along files and ranks give steps when they go forward or
# back; the others (advisor, elephant, horse) give the target file
_LINEAR = (False, True, False, False, False, True, True, True)  # indexed by piece type

_WXF_LETTER = (None, "K", "A", "E", "H", "R", "C", "P")
_WXF_TYPE = {"K": KING, "A": ADVISOR, "E": ELEPHANT, "B": ELEPHANT, "H": HORSE, "N": HORSE,
             "R": ROOK, "C": CANNON, "P": PAWN}

_CN_NUMERALS = "一二三四五六七八九"
_FW_DIGITS = "１２３４５６７８９"
_CN_NAMES = {  # [traditional][color][piece type]
    False: {RED: (None, "帅", "仕", "相", "马", "车", "炮", "兵"),
            BLACK: (None, "将", "士", "象", "马", "车", "炮", "卒")},
    True: {RED: (None, "帥", "仕", "相", "傌", "俥", "炮", "兵"),
           BLACK: (None, "將", "士", "象", "馬", "車", "砲", "卒")},
}
_CN_OPS = {False: {"+": "进", "-": "退", "=": "平"}, True: {"+": "進", "-": "退", "=": "平"}}
_CN_POS = {False: ("前", "中", "后"), True: ("前", "中", "後")}

_CN_PIECE = {
    "帅": KING, "帥": KING, "将": KING, "將": KING,
    "仕": ADVISOR, "士": ADVISOR,
    "相": ELEPHANT, "象": ELEPHANT,
    "马": HORSE, "馬": HORSE, "傌": HORSE,
    "车": ROOK, "車": ROOK, "俥": ROOK,
    "炮": CANNON, "砲": CANNON, "包": CANNON,
    "兵": PAWN, "卒": PAWN,
}
_CN_NUMBER = {c: i + 1 for s in (_CN_NUMERALS, _FW_DIGITS, "123456789") for i, c in enumerate(s)}
_CN_OP = {"进": "+", "進": "+", "退": "-", "平": "="}
_CN_POSITION = {"前": "front", "中": "middle", "后": "rear", "後": "rear"}
_SPACES = re.compile(r"\s+")

_COLOR_NAME = {RED: "red", BLACK: "black"}

# Chooses the piece a text names: given {file: squares front to back} of the
# mover's pieces of the named type, returns (candidate squares, the square
# preferred when several fit or None, message template for no candidate).
_Pick = Callable[[Dict[int, List[Square]]], Tuple[List[Square], Optional[Square], str]]


# --- geometry from the mover's side --------------------------------------------

def _file_no(color: Color, sq: Square) -> int:
    """File 1..9 counted from the right of `color`."""
    return 9 - sq % 9 if color else sq % 9 + 1


def _fwd_rank(color: Color, sq: Square) -> int:
    """Rank 0..9 counted from `color`'s back rank."""
    return sq // 9 if color else 9 - sq // 9


def _square(color: Color, file_no: int, fwd_rank: int) -> Square:
    file = 9 - file_no if color else file_no - 1
    rank = fwd_rank if color else 9 - fwd_rank
    return rank * 9 + file


def _op_number(pt: PieceType, color: Color, frm: Square, to: Square) -> Tuple[str, int]:
    """The direction sign and the number of a move: ('=', target file),
    ('+'/'-', steps) for linear pieces, ('+'/'-', target file) for the others."""
    r1, r2 = _fwd_rank(color, frm), _fwd_rank(color, to)
    if r1 == r2:
        return "=", _file_no(color, to)
    op = "+" if r2 > r1 else "-"
    return op, (abs(r2 - r1) if _LINEAR[pt] else _file_no(color, to))


def _target(pt: PieceType, color: Color, frm: Square, op: str, n: int) -> Optional[Square]:
    """The square a piece on `frm` reaches by (op, n), or None if the
    description cannot fit that piece from there."""
    f1, r1 = _file_no(color, frm), _fwd_rank(color, frm)
    if _LINEAR[pt]:
        if op == "=":
            return None if n == f1 else _square(color, n, r1)
        r2 = r1 + n if op == "+" else r1 - n
        return _square(color, f1, r2) if 0 <= r2 <= 9 else None
    if op == "=":
        return None
    df = abs(n - f1)
    if pt == ADVISOR:
        dr = 1 if df == 1 else 0
    elif pt == ELEPHANT:
        dr = 2 if df == 2 else 0
    else:
        dr = 2 if df == 1 else 1 if df == 2 else 0
    if not dr:
        return None
    r2 = r1 + dr if op == "+" else r1 - dr
    return _square(color, n, r2) if 0 <= r2 <= 9 else None


def _columns(board: "Board", color: Color, pt: PieceType) -> Dict[int, List[Square]]:
    """{file number: squares front to back} for every file holding a piece
    of that type and colour."""
    cols: Dict[int, List[Square]] = {}
    for sq in board.pieces(pt, color):  # ascending squares = Red's back to front
        cols.setdefault(_file_no(color, sq), []).append(sq)
    if color:
        for col in cols.values():
            col.reverse()
    return cols


def _tandem(cols: Dict[int, List[Square]]) -> Dict[int, List[Square]]:
    """Only the files with two or more pieces."""
    return {f: col for f, col in cols.items() if len(col) > 1}


def _ordinal_order(tandem: Dict[int, List[Square]]) -> List[Square]:
    """Pieces on tandem files, rightmost file first, front to back (xqbase)."""
    return [sq for f in sorted(tandem) for sq in tandem[f]]


def _mover(board: "Board", move: Move, notation: str) -> "Piece":
    """The piece that makes `move`; IllegalMoveError unless it is legal."""
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, got {type(move).__name__}")
    if not board.is_legal(move):
        raise IllegalMoveError(
            f"cannot write {move.iccs()} in {notation}: it is not a legal move in {board.fen()}")
    return board.piece_at(move.from_square)


# --- WXF ---------------------------------------------------------------------

def wxf(board: "Board", move: Move) -> str:
    """The legal `move` in WXF notation: ``C2=5``, ``H8+7``, ``R++1``, ``P3=4``.

    IllegalMoveError if the move is not legal on `board`.
    """
    piece = _mover(board, move, "WXF")
    pt, color, frm = piece.piece_type, piece.color, move.from_square
    op, n = _op_number(pt, color, frm, move.to_square)
    letter = _WXF_LETTER[pt]
    f = _file_no(color, frm)
    if pt in (KING, ADVISOR, ELEPHANT):
        return f"{letter}{f}{op}{n}"
    tandem = _tandem(_columns(board, color, pt))
    col = tandem.get(f)
    if col is None:
        return f"{letter}{f}{op}{n}"
    i, count = col.index(frm), len(col)
    if len(tandem) > 1:  # pawns on two files: file digit, then + / file digit / -
        pos = "+" if i == 0 else "-" if i == count - 1 else str(f)
        return f"{f}{pos}{op}{n}"
    if count <= 3:
        head = letter + "+" if i == 0 else letter + "-" if i == count - 1 else f"{letter}{f}"
    elif i == 0:
        head = "++"
    elif i == count - 1:
        head = "--"
    elif i == 1:
        head = letter + "+"
    elif i == count - 2:
        head = letter + "-"
    else:
        head = f"{letter}{f}"
    return f"{head}{op}{n}"


_WXF_FORM = "expected piece, file, + - = or ., number (like 'C2=5', 'H8+7', 'R++1')"


def parse_wxf(board: "Board", text: str) -> Move:
    """The legal move that WXF `text` names on `board`.

    InvalidMoveError if the text is not WXF, IllegalMoveError if it names no
    legal move or more than one.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"WXF move must be a string, got {type(text).__name__}")
    s = _SPACES.sub("", unicodedata.normalize("NFKC", text)).upper()
    if len(s) != 4:
        raise InvalidMoveError(f"invalid WXF move {_shown(text)}: {_WXF_FORM}")
    c0, c1, c2, c3 = s
    if c2 not in "+-=." or c3 not in "123456789":
        raise InvalidMoveError(
            f"invalid WXF move {_shown(text)}: the last two characters must be + - = or . and a "
            f"number 1-9")
    op, n = ("=" if c2 == "." else c2), int(c3)
    color = board.turn
    # the head (first two characters) says which piece moves
    pick: _Pick
    if c0 in _WXF_TYPE and c1 in "123456789":
        pt, f = _WXF_TYPE[c0], int(c1)
        pick = _pick_file(f, prefer_middle=True)
    elif c0 in _WXF_TYPE and c1 in "+-":
        pt, pick = _WXF_TYPE[c0], _pick_wxf_sign(c1)
    elif c0 in "+-" and c1 in _WXF_TYPE:
        pt, pick = _WXF_TYPE[c1], _pick_wxf_sign(c0)
    elif c0 in _WXF_TYPE and c1 in ".=":
        pt, pick = _WXF_TYPE[c0], _pick_position("middle", None)
    elif c0 in ".=" and c1 in _WXF_TYPE:
        pt, pick = _WXF_TYPE[c1], _pick_position("middle", None)
    elif c0 in _WXF_TYPE and c1 in "ABCDE":
        pt, pick = _WXF_TYPE[c0], _pick_ordinal("ABCDE".index(c1) + 1, None)
    elif c0 + c1 in ("++", "--"):
        pt, pick = PAWN, _pick_position("front" if c0 == "+" else "rear", None)
    elif c0 in "123456789" and c1 in "+-":
        pt, pick = PAWN, _pick_position("front" if c1 == "+" else "rear", int(c0))
    elif c0 in "123456789" and c1 in "123456789":
        if c0 == c1:  # WXF: the middle pawn of the file
            pt, pick = PAWN, _pick_position("middle", int(c0))
        else:  # Fairy-Stockfish: the c0-th pawn (from the front) of file c1
            pt, pick = PAWN, _pick_ordinal(int(c0), int(c1))
    else:
        raise InvalidMoveError(f"invalid WXF move {_shown(text)}: {_WXF_FORM}")
    if op == "=" and not _LINEAR[pt]:
        raise InvalidMoveError(
            f"invalid WXF move {_shown(text)}: {_a(PIECE_NAMES[pt])} cannot move sideways ('=')")
    return _resolve(board, text, "WXF", pt, color, pick, op, n)


def _pick_wxf_sign(sign: str) -> _Pick:
    """WXF + / -: the front / rear of two or three; with four or five pawns
    on a file, the second from the front / back (``++`` and ``--`` are the
    outermost)."""
    def pick(cols: Dict[int, List[Square]]):
        out = []
        for col in _tandem(cols).values():
            if len(col) >= 4:
                out.append(col[1] if sign == "+" else col[-2])
            else:
                out.append(col[0] if sign == "+" else col[-1])
        return out, None, f"has no two {{name}}s on one file (for '{sign}')"
    return pick


# --- Chinese -----------------------------------------------------------------

def chinese(board: "Board", move: Move, traditional: bool = False) -> str:
    """The legal `move` in Chinese notation: ``炮二平五``, ``马８进７``, ``前车进一``,
    ``中兵平四``, ``二兵平三``; traditional characters if asked (``傌二進三``).

    IllegalMoveError if the move is not legal on `board`.
    """
    piece = _mover(board, move, "Chinese notation")
    pt, color, frm = piece.piece_type, piece.color, move.from_square
    op, n = _op_number(pt, color, frm, move.to_square)
    digits = _CN_NUMERALS if color else _FW_DIGITS
    name = _CN_NAMES[bool(traditional)][color][pt]
    tail = _CN_OPS[bool(traditional)][op] + digits[n - 1]
    f = _file_no(color, frm)
    if pt in (KING, ADVISOR, ELEPHANT):
        return name + digits[f - 1] + tail
    tandem = _tandem(_columns(board, color, pt))
    col = tandem.get(f)
    if col is None:
        return name + digits[f - 1] + tail
    i, count = col.index(frm), len(col)
    if len(tandem) == 1 and count <= 3:
        front, middle, rear = _CN_POS[bool(traditional)]
        return (front if i == 0 else rear if i == count - 1 else middle) + name + tail
    # four or five pawns on a file, or pawns on two files: 一兵 .. 五兵
    return _CN_NUMERALS[_ordinal_order(tandem).index(frm)] + name + tail


_CN_FORM = "expected piece, file, 进/退/平, number (like '炮二平五', '马８进７', '前车进一')"


def parse_chinese(board: "Board", text: str) -> Move:
    """The legal move that Chinese-notation `text` names on `board`.

    Simplified or traditional characters; Chinese numerals, full-width or
    ASCII digits for either side.  InvalidMoveError if the text is not
    Chinese notation, IllegalMoveError if it names no legal move or more
    than one.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"Chinese move must be a string, got {type(text).__name__}")
    s = _SPACES.sub("", text)
    if len(s) not in (4, 5):
        raise InvalidMoveError(f"invalid Chinese move {_shown(text)}: {_CN_FORM}")
    op, n = _CN_OP.get(s[-2]), _CN_NUMBER.get(s[-1])
    if op is None:
        raise InvalidMoveError(
            f"invalid Chinese move {_shown(text)}: {s[-2]!r} should be 进, 退 or 平")
    if n is None:
        raise InvalidMoveError(
            f"invalid Chinese move {_shown(text)}: {s[-1]!r} should be a number 1-9 "
            f"(一..九, １..９ or 1..9)")
    head = s[:-2]
    a, b = head[0], head[1]
    c = head[2] if len(head) == 3 else None
    file_after = None
    if c is not None:
        file_after = _CN_NUMBER.get(c)
        if file_after is None:
            raise InvalidMoveError(
                f"invalid Chinese move {_shown(text)}: {c!r} should be the file number")
    if a in _CN_PIECE and b in _CN_NUMBER and c is None:       # 炮二 ...
        pt = _CN_PIECE[a]
        pick = _pick_file(_CN_NUMBER[b], prefer_middle=False)
    elif a in _CN_POSITION and b in _CN_PIECE:                  # 前车 ... / 前兵三 ...
        pt, pick = _CN_PIECE[b], _pick_position(_CN_POSITION[a], file_after)
    elif a in _CN_PIECE and b in _CN_POSITION:                  # 车前 ... (WXF's Chinese)
        pt, pick = _CN_PIECE[a], _pick_position(_CN_POSITION[b], file_after)
    elif a in _CN_NUMBER and _CN_NUMBER[a] <= 5 and b in _CN_PIECE:  # 二兵 ... / 二兵三 ...
        pt, pick = _CN_PIECE[b], _pick_ordinal(_CN_NUMBER[a], file_after)
    else:
        bad = next((ch for ch in head if ch not in _CN_PIECE and ch not in _CN_NUMBER
                    and ch not in _CN_POSITION), None)
        why = f"unknown character {bad!r}" if bad else _CN_FORM
        raise InvalidMoveError(f"invalid Chinese move {_shown(text)}: {why}")
    if op == "=" and not _LINEAR[pt]:
        raise InvalidMoveError(
            f"invalid Chinese move {_shown(text)}: {_a(PIECE_NAMES[pt])} cannot move sideways (平)")
    return _resolve(board, text, "Chinese", pt, board.turn, pick, op, n)


# --- choosing the piece (see _Pick) ---------------------------------------------

def _pick_file(f: int, prefer_middle: bool) -> _Pick:
    """The pieces on file f.  For WXF, with three or five pawns there, the
    middle one is meant (and preferred when several fit)."""
    def pick(cols: Dict[int, List[Square]]):
        col = cols.get(f, [])
        prefer = col[len(col) // 2] if prefer_middle and len(col) in (3, 5) else None
        return list(col), prefer, f"has no {{name}} on file {f}"
    return pick


def _pick_position(which: str, f: Optional[int]) -> _Pick:
    """front / middle / rear of a tandem file (of file f if given)."""
    def pick(cols: Dict[int, List[Square]]):
        tandem = _tandem(cols)
        if f is None:
            chosen = list(tandem.values())
        else:
            chosen = [tandem[f]] if f in tandem else []
        out = []
        for col in chosen:
            if which == "front":
                out.append(col[0])
            elif which == "rear":
                out.append(col[-1])
            elif len(col) % 2 == 1:
                out.append(col[len(col) // 2])
        where = f" on file {f}" if f is not None else " on one file"
        need = "three or five" if which == "middle" else "two"
        return out, None, f"has no {need} {{name}}s{where} (for the {which} one)"
    return pick


def _pick_ordinal(k: int, f: Optional[int]) -> _Pick:
    """The k-th (from 1): of file f front to back if given, else of all
    tandem files, rightmost file first, front to back (xqbase)."""
    def pick(cols: Dict[int, List[Square]]):
        order = cols.get(f, []) if f is not None else _ordinal_order(_tandem(cols))
        where = f" on file {f}" if f is not None else " on files holding several"
        if k > len(order):
            return [], None, f"has no {k} {{name}}s{where} (for number {k})"
        return [order[k - 1]], None, ""
    return pick


def _resolve(board: "Board", text: str, notation: str, pt: PieceType, color: Color,
             pick: _Pick, op: str, n: int) -> Move:
    """The one legal move of the picked pieces that (op, n) describes."""
    froms, prefer, missing = pick(_columns(board, color, pt))
    name = PIECE_NAMES[pt]
    if not froms:
        raise IllegalMoveError(_illegal_head(board, text, notation)
                               + f"{_COLOR_NAME[color]} " + missing.format(name=name))
    tried: List[Move] = []
    legal: List[Move] = []
    for frm in froms:
        to = _target(pt, color, frm, op, n)
        if to is None:
            continue
        move = MOVES[frm * 90 + to]
        tried.append(move)
        if board.is_legal(move):
            legal.append(move)
    if len(legal) == 1:
        return legal[0]
    if legal:
        for move in legal:
            if move.from_square == prefer:
                return move
        raise AmbiguousMoveError(
            f"ambiguous {notation} move {_shown(text)} in {board.fen()}: it fits "
            f"{' and '.join(m.iccs() for m in legal)}")
    head = _illegal_head(board, text, notation)
    where = " or ".join(SQUARE_NAMES[s] for s in froms)
    if not tried:
        raise IllegalMoveError(head + f"the {_COLOR_NAME[color]} {name} on {where} cannot "
                               f"move that way")
    reasons = []
    for move in tried:
        if board.piece_at(move.to_square) is not None and \
                board.piece_at(move.to_square).color == color:
            why = "its own piece is there"
        elif board.is_pseudo_legal(move):
            why = "it would leave the king in check or facing the other king"
        else:
            why = f"{_a(name)} cannot move so from there (blocked or out of reach)"
        reasons.append(f"{move.iccs()} ({why})")
    raise IllegalMoveError(head + f"the {_COLOR_NAME[color]} {name} on {where} cannot go "
                           f"there: " + "; ".join(reasons))


def _illegal_head(board: "Board", text: str, notation: str) -> str:
    return f"illegal {notation} move {_shown(text)} in {board.fen()}: "


def _a(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def _shown(text: object) -> str:
    s = str(text)
    return repr(s if len(s) <= 20 else s[:20] + "...")


# --- any notation -------------------------------------------------------------

_ICCS = re.compile(r"[a-iA-I][0-9][a-iA-I][0-9]")


def parse_move(board: "Board", text: str, notation: Optional[str] = None) -> Move:
    """The legal move `text` names, in `notation` ("chinese", "wxf", "iccs")
    or, if None, in whichever the text is written: ICCS (``h2e2``), Chinese
    (any CJK character) or WXF."""
    if notation is None:
        if not isinstance(text, str):
            raise InvalidMoveError(f"move text must be a string, got {type(text).__name__}")
        s = text.strip()
        if _ICCS.fullmatch(s):
            notation = "iccs"
        elif any(ch in _CN_CHARS for ch in s):
            notation = "chinese"
        else:
            notation = "wxf"
    if notation == "iccs":
        return board.parse_iccs(text.strip() if isinstance(text, str) else text)
    if notation == "wxf":
        return parse_wxf(board, text)
    if notation == "chinese":
        return parse_chinese(board, text)
    raise ValueError(f"unknown notation {notation!r} (expected one of {', '.join(NOTATIONS)})")


_CN_CHARS = frozenset(_CN_PIECE) | frozenset(_CN_POSITION) | frozenset(_CN_OP)


def _write(board: "Board", move: Move, notation: str, traditional: bool) -> str:
    if notation == "chinese":
        return chinese(board, move, traditional)
    if notation == "wxf":
        return wxf(board, move)
    if notation == "iccs":
        if not board.is_legal(move):
            raise IllegalMoveError(f"{move.iccs()} is not a legal move in {board.fen()}")
        return move.iccs()
    raise ValueError(f"unknown notation {notation!r} (expected one of {', '.join(NOTATIONS)})")


def _start_board(start: Union["Board", str, None]) -> "Board":
    from .board import Board
    if start is None:
        return Board()
    if isinstance(start, Board):
        return start.copy(stack=False)
    if isinstance(start, str):
        return Board(start)
    raise TypeError(f"expected a Board, a FEN string or None, got {type(start).__name__}")


def move_list(start: Union["Board", str, None], moves: Iterable[Union[Move, str]],
              notation: str = "chinese", *, traditional: bool = False) -> List[str]:
    """The moves of a line written one by one in `notation` ("chinese",
    "wxf" or "iccs"), played from `start`: a Board (its current position; the
    board is not changed), a FEN, or None for the standard start.  Moves may
    be Move objects or text in any notation (see parse_move).

    >>> move_list(None, ["h2e2", "h9g7"], "wxf")
    ['C2=5', 'H8+7']

    IllegalMoveError (naming the ply) at the first move that is not legal.
    """
    if notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r} (expected one of {', '.join(NOTATIONS)})")
    board = _start_board(start)
    out: List[str] = []
    for ply, move in enumerate(moves, 1):
        try:
            if not isinstance(move, Move):
                move = parse_move(board, move)
            out.append(_write(board, move, notation, traditional))
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise type(exc)(f"ply {ply}: {exc}") from None
        board.push(move)
    return out


def format_line(start: Union["Board", str, None], moves: Iterable[Union[Move, str]],
                notation: str = "chinese", *, traditional: bool = False) -> str:
    """The line as numbered text, move numbers from the start position's
    full-move number: ``1. 炮二平五 马８进７ 2. 马二进三``; a line that starts
    with Black's move begins ``1. ... 马８进７``.

    >>> format_line(None, ["h2e2", "h9g7", "h0g2"])
    '1. 炮二平五 马８进７ 2. 马二进三'
    """
    board = _start_board(start)
    texts = move_list(board, moves, notation, traditional=traditional)
    number, red = board.fullmove_number, board.turn
    parts: List[str] = []
    for text in texts:
        if red:
            parts.append(f"{number}. {text}")
        else:
            if not parts:
                parts.append(f"{number}. ... {text}")
            else:
                parts.append(text)
            number += 1
        red = not red
    return " ".join(parts)
