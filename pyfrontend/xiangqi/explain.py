"""Why a move is not legal, in words a player understands: the key of a
label in i18n.TEXT ("horse_leg" is 马腿被绊, "flying_general" 将帅不能照面,
"in_check" 走后被将军, ...).

The board knows only *that* a move is illegal; this looks at the piece and
the points around it to say *why*.  Squares are ``rank * 9 + file``, rank 0
being Red's back rank.

>>> from cxiangqi import Board, Move
>>> illegal_reason(Board(), Move.from_iccs("b0b1"))
'horse_step'
>>> illegal_reason(Board("3k5/9/9/9/9/4P4/4N4/9/9/4K4 w - - 0 1"), Move.from_iccs("e3d5"))
'horse_leg'
>>> illegal_reason(Board(), Move.from_iccs("h2e2")) is None
True
"""

from __future__ import annotations

from typing import Dict, Optional

from cxiangqi import (ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, RED, ROOK, Board, Move,
                      Piece)

__all__ = ["illegal_reason"]


def _fr(sq: int):
    return sq % 9, sq // 9


def _in_palace(sq: int, color: bool) -> bool:
    f, r = _fr(sq)
    return 3 <= f <= 5 and (r <= 2 if color == RED else r >= 7)


def _between(pieces: Dict[int, Piece], a: int, b: int) -> Optional[int]:
    """Pieces strictly between two squares on one line (None if not on a line)."""
    fa, ra = _fr(a)
    fb, rb = _fr(b)
    if fa != fb and ra != rb:
        return None
    step = (1 if fb > fa else -1) if ra == rb else (9 if rb > ra else -9)
    return sum(1 for sq in range(a + step, b, step) if sq in pieces)


def illegal_reason(board: Board, move: Move) -> Optional[str]:
    """The key of the reason `move` is illegal on `board`; None if legal."""
    if board.is_legal(move):
        return None
    frm, to = move.from_square, move.to_square
    piece = board.piece_at(frm)
    if piece is None or piece.color != board.turn:
        return "not_your_piece"
    target = board.piece_at(to)
    if target is not None and target.color == piece.color:
        return "own_piece"
    pieces = {sq: p for sq in range(90) if (p := board.piece_at(sq)) is not None}
    (ff, fr), (tf, tr) = _fr(frm), _fr(to)
    df, dr = tf - ff, tr - fr
    kind = piece.piece_type
    forward = 1 if piece.color == RED else -1
    if not board.is_pseudo_legal(move):
        if kind == KING:
            if not _in_palace(to, piece.color):
                return "king_palace"
            return "king_step"
        if kind == ADVISOR:
            if not _in_palace(to, piece.color):
                return "advisor_palace"
            return "advisor_step"
        if kind == ELEPHANT:
            if abs(df) == 2 and abs(dr) == 2:
                crossed = tr >= 5 if piece.color == RED else tr <= 4
                if crossed:
                    return "elephant_river"
                if frm + (df // 2) + 9 * (dr // 2) in pieces:
                    return "elephant_eye"
            return "elephant_step"
        if kind == HORSE:
            if sorted((abs(df), abs(dr))) == [1, 2]:
                leg = frm + (df // 2 if abs(df) == 2 else 0) + 9 * (dr // 2 if abs(dr) == 2 else 0)
                if leg in pieces:
                    return "horse_leg"
            return "horse_step"
        if kind == ROOK:
            if (df == 0) != (dr == 0):
                return "blocked"
            return "rook_line"
        if kind == CANNON:
            if (df == 0) != (dr == 0):
                if target is None:
                    return "blocked"
                return "cannon_screen"
            return "cannon_line"
        if kind == PAWN:
            if dr * forward < 0:
                return "pawn_back"
            crossed = fr >= 5 if piece.color == RED else fr <= 4
            if dr == 0 and abs(df) == 1 and not crossed:
                return "pawn_side"
            return "pawn_step"
        return "bad_move"
    # the move itself is fine: it leaves the own king attacked or facing the other
    after = dict(pieces)
    after.pop(frm)
    after[to] = piece
    kings = {p.color: sq for sq, p in after.items() if p.piece_type == KING}
    if len(kings) == 2:
        a, b = kings[True], kings[False]
        if a % 9 == b % 9 and _between(after, a, b) == 0:
            return "flying_general"
    return "still_in_check" if board.is_check() else "in_check"


_SIDE = {"red": "红方", "black": "黑方"}
_PIECE = {"king": "帅（将）", "advisor": "仕（士）", "elephant": "相（象）", "horse": "马",
          "rook": "车", "cannon": "炮", "pawn": "兵（卒）"}
_POSITION_TEXTS = [
    (r"the (red|black) king is missing", "缺少{0}的帅（将）"),
    (r"(\d+) (red|black) (\w+?)s \(a side has at most (\d+)\)", "{1}的{2}太多了：{0} 个（最多 {3} 个）"),
    (r"(red|black) (\w+) on (\w\d) is outside its palace", "{2} 的{0}{1}不在九宫里"),
    (r"(red|black) (\w+) on (\w\d) is not on one of the five advisor", "{2} 的{0}{1}不在士可以到的点上"),
    (r"(red|black) (\w+) on (\w\d) is not on one of the seven elephant",
     "{2} 的{0}{1}不在象可以到的点上（象不过河）"),
    (r"(red|black) (\w+) on (\w\d) is behind its starting rank", "{2} 的{0}{1}在起始位置之后（兵不后退）"),
    (r"(red|black) (\w+) on (\w\d) is on a file no pawn starts on",
     "{2} 的{0}{1}没过河，不可能在这一路（过河前只能直走）"),
    (r"the kings face each other", "将帅照面"),
    (r"the (red|black) king on (\w\d) is in check .* but (red|black) is to move",
     "{0}正被将军，却轮到{2}走棋"),
]


def position_problem(detail: str, lang: str) -> str:
    """The library's words on an impossible position, in the player's language
    (Chinese for the common cases; otherwise the detail as it is).

    >>> position_problem("impossible position: the red king is missing", "zh")
    '缺少红方的帅（将）'
    >>> position_problem("impossible position: 3 red rooks (a side has at most 2)", "zh")
    '红方的车太多了：3 个（最多 2 个）'
    """
    import re
    detail = detail.split("impossible position: ", 1)[-1]
    if lang != "zh":
        return detail
    for pattern, text in _POSITION_TEXTS:
        m = re.search(pattern, detail)
        if m:
            words = [_SIDE.get(g, _PIECE.get(g, g)) for g in m.groups()]
            return text.format(*words)
    return detail
