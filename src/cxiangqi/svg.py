"""SVG pictures of a board, for notebooks and web pages.

>>> from cxiangqi import Board, Move
>>> picture = board(Board(), lastmove=Move.from_iccs("h2e2"), size=360)
>>> picture.startswith("<svg")
True

``Board._repr_svg_`` uses this, so a Board shows itself in Jupyter.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple, Union
from xml.sax.saxutils import escape

from .move import Move
from .square import BLACK, RED, Color, Square, square_file, square_rank

__all__ = ["board", "Arrow"]

Arrow = Union[Move, Tuple[Square, Square]]

STEP = 50           # distance between two lines
MARGIN = 58         # room for the file numbers
WIDTH = 8 * STEP + 2 * MARGIN
HEIGHT = 9 * STEP + 2 * MARGIN
PIECE_RADIUS = 22

_RED_FILES = "九八七六五四三二一"      # Red counts files from its right
_BLACK_FILES = "１２３４５６７８９"    # Black from its right, i.e. Red's left

_STYLE = {
    "board": "#e8c48a", "frame": "#8b5a2b", "line": "#5a3a1a",
    "piece": "#fbf0d9", "red": "#b22222", "black": "#1a1a1a",
    "lastmove": "#3b7dd8", "check": "#e0201b", "arrow": "#2e8b57",
}


def _xy(sq: Square, orientation: Color) -> Tuple[float, float]:
    f, r = square_file(sq), square_rank(sq)
    if orientation == BLACK:
        f, r = 8 - f, 9 - r
    return MARGIN + f * STEP, MARGIN + (9 - r) * STEP


def _line(x1: float, y1: float, x2: float, y2: float, width: float = 1.2) -> str:
    return (f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
            f'stroke="{_STYLE["line"]}" stroke-width="{width:g}"/>')


def _grid() -> List[str]:
    out = []
    left, right = MARGIN, MARGIN + 8 * STEP
    top, bottom = MARGIN, MARGIN + 9 * STEP
    river_top, river_bottom = MARGIN + 4 * STEP, MARGIN + 5 * STEP
    for i in range(10):
        y = top + i * STEP
        out.append(_line(left, y, right, y))
    for i in range(9):
        x = left + i * STEP
        if i in (0, 8):
            out.append(_line(x, top, x, bottom))
        else:                                   # the river cuts the inner files
            out.append(_line(x, top, x, river_top))
            out.append(_line(x, river_bottom, x, bottom))
    # palace diagonals
    for y0 in (top, top + 7 * STEP):
        out.append(_line(left + 3 * STEP, y0, left + 5 * STEP, y0 + 2 * STEP))
        out.append(_line(left + 5 * STEP, y0, left + 3 * STEP, y0 + 2 * STEP))
    out.append(f'<rect x="{left - 4}" y="{top - 4}" width="{8 * STEP + 8}" '
               f'height="{9 * STEP + 8}" fill="none" stroke="{_STYLE["line"]}" stroke-width="2.5"/>')
    # point marks where cannons and pawns start
    marks = [(1, 2), (7, 2), (1, 7), (7, 7)] + [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 6)]
    for f, row in marks:
        cx, cy = left + f * STEP, top + row * STEP
        for dx in (-1, 1):
            if not (0 <= f + dx <= 8):
                continue
            for dy in (-1, 1):
                x0, y0 = cx + dx * 4, cy + dy * 4
                out.append(_line(x0, y0, x0 + dx * 8, y0))
                out.append(_line(x0, y0, x0, y0 + dy * 8))
    mid = (river_top + river_bottom) / 2
    font = 'font-family="KaiTi, STKaiti, AR PL UKai CN, serif" font-size="26"'
    out.append(f'<text x="{left + 2 * STEP}" y="{mid + 9}" {font} fill="{_STYLE["line"]}" '
               f'text-anchor="middle">楚 河</text>')
    out.append(f'<text x="{left + 6 * STEP}" y="{mid + 9}" {font} fill="{_STYLE["line"]}" '
               f'text-anchor="middle">汉 界</text>')
    return out


def _coordinates(orientation: Color) -> List[str]:
    out = []
    bottom_labels = _RED_FILES if orientation == RED else _BLACK_FILES[::-1]
    top_labels = _BLACK_FILES if orientation == RED else _RED_FILES[::-1]
    for i in range(9):
        x = MARGIN + i * STEP
        for y, text in ((MARGIN - 41, top_labels[i]), (HEIGHT - MARGIN + 41, bottom_labels[i])):
            out.append(f'<text x="{x}" y="{y + 5}" font-size="15" fill="{_STYLE["line"]}" '
                       f'text-anchor="middle">{text}</text>')
    return out


def _arrow(frm: Square, to: Square, orientation: Color, color: str) -> str:
    x1, y1 = _xy(frm, orientation)
    x2, y2 = _xy(to, orientation)
    return (f'<line class="arrow" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{color}" '
            f'stroke-width="7" stroke-linecap="round" opacity="0.75" marker-end="url(#arrowhead)"/>')


def board(board: Optional["object"] = None, *, orientation: Color = RED,
          lastmove: Optional[Move] = None, check: Optional[Square] = None,
          arrows: Iterable[Arrow] = (), size: Optional[int] = None,
          coordinates: bool = True, traditional: bool = False) -> str:
    """An SVG picture of a board (an empty grid when `board` is None):
    `orientation` is the side at the bottom, `lastmove` marks both of its
    squares, `check` rings a (king's) square, `arrows` are moves or
    (from, to) pairs, `size` the width in pixels (the picture scales)."""
    parts: List[str] = []
    w, h = (size, round(size * HEIGHT / WIDTH)) if size else (WIDTH, HEIGHT)
    parts.append(f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
                 f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{w}" height="{h}">')
    parts.append('<defs><marker id="arrowhead" markerWidth="4" markerHeight="4" refX="2.2" '
                 f'refY="2" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="{_STYLE["arrow"]}"/>'
                 '</marker></defs>')
    parts.append(f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="8" '
                 f'fill="{_STYLE["frame"]}"/>')
    parts.append(f'<rect x="8" y="8" width="{WIDTH - 16}" height="{HEIGHT - 16}" rx="4" '
                 f'fill="{_STYLE["board"]}"/>')
    parts.extend(_grid())
    if coordinates:
        parts.extend(_coordinates(orientation))
    if lastmove is not None:
        for sq in (lastmove.from_square, lastmove.to_square):
            x, y = _xy(sq, orientation)
            parts.append(f'<rect class="lastmove" x="{x - 24:g}" y="{y - 24:g}" width="48" '
                         f'height="48" fill="none" stroke="{_STYLE["lastmove"]}" '
                         'stroke-width="2.5" stroke-dasharray="12 24" stroke-dashoffset="6"/>')
    if board is not None:
        font = 'font-family="KaiTi, STKaiti, AR PL UKai CN, Noto Serif CJK SC, serif"'
        for sq in range(90):
            piece = board.piece_at(sq)  # type: ignore[attr-defined]
            if piece is None:
                continue
            x, y = _xy(sq, orientation)
            ink = _STYLE["red"] if piece.color == RED else _STYLE["black"]
            parts.append(f'<g class="piece {"red" if piece.color == RED else "black"} '
                         f'{piece.symbol()}">')
            parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{PIECE_RADIUS}" fill="{_STYLE["piece"]}" '
                         f'stroke="{ink}" stroke-width="2"/>')
            parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{PIECE_RADIUS - 4}" fill="none" '
                         f'stroke="{ink}" stroke-width="1"/>')
            parts.append(f'<text x="{x:g}" y="{y + 8:g}" {font} font-size="24" fill="{ink}" '
                         f'text-anchor="middle">'
                         f'{escape(piece.chinese(traditional))}</text></g>')
    if check is not None:
        x, y = _xy(check, orientation)
        parts.append(f'<circle class="check" cx="{x:g}" cy="{y:g}" r="{PIECE_RADIUS + 3}" '
                     f'fill="none" stroke="{_STYLE["check"]}" stroke-width="3.5"/>')
    for a in arrows:
        frm, to = (a.from_square, a.to_square) if isinstance(a, Move) else a
        parts.append(_arrow(frm, to, orientation, _STYLE["arrow"]))
    parts.append("</svg>")
    return "".join(parts)


def _board_svg(b: "object", size: Optional[int] = 400) -> str:
    """The picture Board._repr_svg_ shows: last move and check marked."""
    stack: Sequence[Move] = b.move_stack  # type: ignore[attr-defined]
    check = None
    if b.is_check():  # type: ignore[attr-defined]
        check = b.king(b.turn)  # type: ignore[attr-defined]
    return board(b, lastmove=stack[-1] if stack else None, check=check, size=size)
