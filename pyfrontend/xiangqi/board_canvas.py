"""The board: a Tk Canvas that draws the wooden board and the pieces at any
size and turns clicks and drags into moves for the controller.

The board state always changes first (in the controller); the canvas then
redraws the new position and, for a move, slides the piece from its old
square (about 0.2 s).  A redraw cancels a running slide, so fast clicks can
never leave the picture behind the game.
"""

from __future__ import annotations

import math
import random
import tkinter as tk
import tkinter.font as tkfont
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from cxiangqi import BLACK, RED, Board, Move, Piece

from ..widgets import cjk_family

# colours: warm wood, dark ink lines, ivory discs with red / black carving
WOOD = "#e6b877"
WOOD_DARK = "#d7a45f"
WOOD_EDGE = "#8a5a2b"
WOOD_EDGE_LIGHT = "#b07a40"
INK = "#4a2a10"
DISC = "#f6e3b4"
DISC_EDGE = "#8c6430"
DISC_SHADE = "#e2c48a"
SHADOW = "#9a7040"
RED_INK = "#b3201c"
BLACK_INK = "#1f1a16"
HIGHLIGHT = "#fffbe8"
SELECT = "#1677d2"
TARGET = "#2f8f4e"
LAST = "#1565c0"
CHECK = "#e02020"
HINT = "#1f8f3a"

RED_FILES = "九八七六五四三二一"      # Red's file numbers, Red's left to right
BLACK_FILES = "123456789"            # Black's, Black's right to left seen from Red


def draw_piece(canvas: tk.Canvas, x: float, y: float, r: float, piece: Piece, tags: Sequence[str],
               traditional: bool = False) -> None:
    """An ivory disc with a ring and the carved character of `piece`."""
    ink = RED_INK if piece.color == RED else BLACK_INK
    t = tuple(tags)
    sh = max(1.5, r * 0.09)
    canvas.create_oval(x - r + sh * 0.4, y - r + sh, x + r + sh * 0.4, y + r + sh,
                       fill=SHADOW, outline="", tags=t)
    canvas.create_oval(x - r, y - r, x + r, y + r, fill=DISC_SHADE, outline=DISC_EDGE,
                       width=max(1, r * 0.05), tags=t)
    rt = r * 0.9
    canvas.create_oval(x - rt, y - rt - r * 0.04, x + rt, y + rt - r * 0.04, fill=DISC, outline="",
                       tags=t)
    ri = r * 0.78
    canvas.create_oval(x - ri, y - ri, x + ri, y + ri, outline=ink, width=max(1, r * 0.055), tags=t)
    size = max(7, int(r * 1.08))
    family = cjk_family(canvas)
    weight = "normal" if "Kai" in family or "Ming" in family or "Serif" in family else "bold"
    font = (family, -size, weight)
    ch = piece.chinese(traditional)
    off = max(1, r * 0.045)
    # carved: a light edge below-right, the ink on top
    canvas.create_text(x + off, y + off, text=ch, font=font, fill=HIGHLIGHT, tags=t)
    canvas.create_text(x, y, text=ch, font=font, fill=ink, tags=t)


class BoardGeometry:
    """Where the 90 points are on a canvas of a given size."""

    def __init__(self, width: int, height: int, flipped: bool = False) -> None:
        self.flipped = flipped
        self.cell = max(12.0, min(width / 9.85, height / 11.5))
        c = self.cell
        self.ox = (width - 8 * c) / 2
        self.oy = (height - 9 * c) / 2

    def col_row(self, sq: int) -> Tuple[int, int]:
        f, r = sq % 9, sq // 9
        return (8 - f, r) if self.flipped else (f, 9 - r)

    def xy(self, sq: int) -> Tuple[float, float]:
        col, row = self.col_row(sq)
        return self.ox + col * self.cell, self.oy + row * self.cell

    def point(self, col: float, row: float) -> Tuple[float, float]:
        return self.ox + col * self.cell, self.oy + row * self.cell

    def square_at(self, x: float, y: float) -> Optional[int]:
        """The point nearest (x, y) if within half a cell, else None."""
        col = round((x - self.ox) / self.cell)
        row = round((y - self.oy) / self.cell)
        if not (0 <= col <= 8 and 0 <= row <= 9):
            return None
        px, py = self.point(col, row)
        if math.hypot(x - px, y - py) > self.cell * 0.5:
            return None
        f, r = (8 - col, row) if self.flipped else (col, 9 - row)
        return r * 9 + f


class BoardCanvas(tk.Canvas):
    """Draws controller.shown_board() and forwards the human's moves."""

    SLIDE_SECONDS = 0.2

    def __init__(self, master: tk.Misc, controller, *, play_sound: Callable[[str], None],
                 check_text: Callable[[], str],
                 on_illegal: Callable[[Move], None] = lambda move: None,
                 on_wait: Callable[[bool], None] = lambda preselected: None, **kw) -> None:
        super().__init__(master, highlightthickness=0, bg=kw.pop("bg", "#3b2a1e"), **kw)
        self.controller = controller
        self.play_sound = play_sound
        self.check_text = check_text
        self.on_illegal = on_illegal        # an illegal target was clicked: say why
        self.on_wait = on_wait              # a click while the computer thinks
        self.flipped = False
        self.traditional = False
        self.selected: Optional[int] = None
        self.targets: List[int] = []
        self.geo = BoardGeometry(600, 660)
        self._anim = 0                      # id of the current animation; a redraw bumps it
        self._press: Optional[Tuple[float, float]] = None
        self._dragging = False
        self._pending_deselect = False
        self._drag_pos: Tuple[float, float] = (0, 0)
        self._banner_job: Optional[str] = None
        self._redraw_job: Optional[str] = None
        self._slide_next = True
        self.bind("<Configure>", self._on_configure)
        self.bind("<ButtonPress-1>", self._on_press)
        self.bind("<B1-Motion>", self._on_motion)
        self.bind("<ButtonRelease-1>", self._on_release)

    # --- geometry ------------------------------------------------------------

    def _on_configure(self, _event=None) -> None:
        if self._redraw_job is None:
            self._redraw_job = self.after_idle(self._deferred_redraw)

    def _deferred_redraw(self) -> None:
        self._redraw_job = None
        self.redraw()

    def square_xy(self, sq: int) -> Tuple[float, float]:
        """Canvas coordinates of a square (for tests and scripted clicks)."""
        return self.geo.xy(sq)

    # --- drawing -------------------------------------------------------------

    def redraw(self) -> None:
        self._anim += 1
        w, h = max(self.winfo_width(), 100), max(self.winfo_height(), 100)
        self.geo = BoardGeometry(w, h, self.flipped)
        self.delete("all")
        self._draw_board()
        self._draw_marks_under()
        board = self.controller.shown_board()
        for sq in range(90):
            piece = board.piece_at(sq)
            if piece is not None:
                self._draw_piece_at(sq, piece)
        self._draw_marks_over(board)

    def _draw_board(self) -> None:
        g, c = self.geo, self.geo.cell
        x0, y0 = g.ox - 0.74 * c, g.oy - 1.1 * c
        x1, y1 = g.ox + 8.74 * c, g.oy + 10.1 * c
        # frame and wood
        self.create_rectangle(x0 - c * 0.16 + 3, y0 - c * 0.16 + 4, x1 + c * 0.16 + 3, y1 + c * 0.16 + 4,
                              fill="#24180f", outline="")
        self.create_rectangle(x0 - c * 0.16, y0 - c * 0.16, x1 + c * 0.16, y1 + c * 0.16,
                              fill=WOOD_EDGE, outline="#5c3a1a", width=1)
        self.create_rectangle(x0, y0, x1, y1, fill=WOOD, outline=WOOD_EDGE_LIGHT, width=1)
        # wood grain: gentle wavy lines, the same on every redraw
        rnd = random.Random(7)
        n = 26
        for i in range(n):
            yy = y0 + (i + rnd.random()) * (y1 - y0) / n
            amp = c * rnd.uniform(0.03, 0.12)
            phase = rnd.uniform(0, 6.28)
            pts = []
            steps = 14
            for k in range(steps + 1):
                xx = x0 + (x1 - x0) * k / steps
                pts += [xx, min(y1, max(y0, yy + amp * math.sin(phase + k * 0.7)))]
            self.create_line(*pts, smooth=True, fill=WOOD_DARK if i % 3 else "#dcac6a",
                             width=max(1, c * 0.03))
        lw = max(1, round(c / 32))
        # outer double border
        pad = c * 0.1
        self.create_rectangle(g.ox - pad, g.oy - pad, g.ox + 8 * c + pad, g.oy + 9 * c + pad,
                              outline=INK, width=lw * 2 + 1)
        # ranks
        for row in range(10):
            xa, ya = g.point(0, row)
            xb, _ = g.point(8, row)
            self.create_line(xa, ya, xb, ya, fill=INK, width=lw)
        # files, broken by the river except the two edge files
        for col in range(9):
            if col in (0, 8):
                self.create_line(*g.point(col, 0), *g.point(col, 9), fill=INK, width=lw)
            else:
                self.create_line(*g.point(col, 0), *g.point(col, 4), fill=INK, width=lw)
                self.create_line(*g.point(col, 5), *g.point(col, 9), fill=INK, width=lw)
        # palaces
        for r0 in (0, 7):
            self.create_line(*g.point(3, r0), *g.point(5, r0 + 2), fill=INK, width=lw)
            self.create_line(*g.point(5, r0), *g.point(3, r0 + 2), fill=INK, width=lw)
        # river
        family = cjk_family(self)
        font = (family, -int(c * 0.56))
        traditional = self.traditional
        ym = g.oy + 4.5 * c
        left, right = ("楚 河", "漢 界") if traditional else ("楚 河", "汉 界")
        self.create_text(g.ox + 2 * c, ym, text=left, font=font, fill="#6a3f1c")
        self.create_text(g.ox + 6 * c, ym, text=right, font=font, fill="#6a3f1c")
        # cannon and pawn points
        for col, row in [(1, 2), (7, 2), (1, 7), (7, 7)] + \
                        [(cc, rr) for cc in (0, 2, 4, 6, 8) for rr in (3, 6)]:
            self._point_mark(col, row, lw)
        # file numbers: the bottom side's in its own numerals, the top side's too
        nfont = (family, -max(8, int(c * 0.34)))
        bottom, top = (BLACK_FILES[::-1], RED_FILES[::-1]) if self.flipped else (RED_FILES, BLACK_FILES)
        for col in range(9):
            x, _ = g.point(col, 0)
            self.create_text(x, g.oy - 0.8 * c, text=top[col], font=nfont, fill="#5a3514")
            self.create_text(x, g.oy + 9.8 * c, text=bottom[col], font=nfont, fill="#5a3514")

    def _point_mark(self, col: int, row: int, lw: int) -> None:
        g, c = self.geo, self.geo.cell
        x, y = g.point(col, row)
        gap, ln = c * 0.08, c * 0.2
        for dx in (-1, 1):
            if (col == 0 and dx < 0) or (col == 8 and dx > 0):
                continue
            for dy in (-1, 1):
                xa, ya = x + dx * gap, y + dy * gap
                self.create_line(xa + dx * ln, ya, xa, ya, xa, ya + dy * ln, fill=INK, width=lw)

    def _draw_piece_at(self, sq: int, piece: Piece, tag: Optional[str] = None) -> None:
        x, y = self.geo.xy(sq)
        draw_piece(self, x, y, self.geo.cell * 0.45, piece, ("piece", tag or f"p{sq}"),
                   self.traditional)

    def _corners(self, sq: int, color: str, tag: str) -> None:
        x, y = self.geo.xy(sq)
        c = self.geo.cell
        d, ln = c * 0.48, c * 0.16
        w = max(2, c * 0.05)
        for dx in (-1, 1):
            for dy in (-1, 1):
                xa, ya = x + dx * d, y + dy * d
                self.create_line(xa - dx * ln, ya, xa, ya, xa, ya - dy * ln, fill=color, width=w,
                                 tags=(tag,))

    def _draw_marks_under(self) -> None:
        last = self.controller.last_move()
        if last is not None:
            self._corners(last.from_square, LAST, "last")
            self._corners(last.to_square, LAST, "last")

    def _draw_marks_over(self, board: Board) -> None:
        c = self.geo.cell
        if board.is_check():
            k = board.king(board.turn)
            if k is not None:
                x, y = self.geo.xy(k)
                r = c * 0.5
                self.create_oval(x - r, y - r, x + r, y + r, outline=CHECK, width=max(3, c * 0.08),
                                 tags=("check",))
        if self.selected is not None:
            x, y = self.geo.xy(self.selected)
            r = c * 0.49
            self.create_oval(x - r, y - r, x + r, y + r, outline=SELECT, width=max(3, c * 0.07),
                             tags=("select", f"p{self.selected}"))
        for t in self.targets:
            x, y = self.geo.xy(t)
            if board.piece_at(t) is not None:
                r = c * 0.5
                self.create_oval(x - r, y - r, x + r, y + r, outline=TARGET, width=max(2, c * 0.06),
                                 dash=(4, 3), tags=("target",))
            else:
                r = c * 0.13
                self.create_oval(x - r, y - r, x + r, y + r, fill=TARGET, outline="#e8f5e9",
                                 width=max(1, c * 0.03), tags=("target",))
        hint = self.controller.hint_move
        if hint is not None and self.controller.review_ply is None:
            (xa, ya), (xb, yb) = self.geo.xy(hint.from_square), self.geo.xy(hint.to_square)
            self.create_line(xa, ya, xb, yb, fill=HINT, width=max(3, c * 0.11), arrow=tk.LAST,
                             arrowshape=(c * 0.35, c * 0.42, c * 0.16), capstyle=tk.ROUND,
                             tags=("hint",))

    # --- animations ------------------------------------------------------------

    def animate_move(self, move: Move, captured: Optional[Piece]) -> None:
        """Slides the (already redrawn) piece from its old square; a captured
        piece stays visible under it until the slide ends."""
        anim = self._anim
        tag = f"p{move.to_square}"
        (xa, ya), (xb, yb) = self.geo.xy(move.from_square), self.geo.xy(move.to_square)
        if captured is not None:
            self._draw_piece_at(move.to_square, captured, "ghost")
            self.tag_lower("ghost", tag)
        self.move(tag, xa - xb, ya - yb)
        self.tag_raise(tag)
        frames = max(1, int(self.SLIDE_SECONDS / 0.016))
        state = {"i": 0, "x": xa - xb, "y": ya - yb}

        def step() -> None:
            if anim != self._anim:
                return
            state["i"] += 1
            k = state["i"] / frames
            ease = 1 - (1 - k) ** 3
            nx, ny = (xa - xb) * (1 - ease), (ya - yb) * (1 - ease)
            self.move(tag, nx - state["x"], ny - state["y"])
            state["x"], state["y"] = nx, ny
            if state["i"] < frames:
                self.after(16, step)
            else:
                self.delete("ghost")

        self.after(16, step)

    def shake(self, sq: int) -> None:
        """A short shake of the piece on `sq` (an illegal target was clicked)."""
        anim = self._anim
        tag = f"p{sq}"
        offsets = [5, -5, 4, -4, 2, -2, 0]
        state = {"i": 0, "x": 0}

        def step() -> None:
            if anim != self._anim or state["i"] >= len(offsets):
                return
            dx = offsets[state["i"]] * max(1.0, self.geo.cell / 60)
            self.move(tag, dx - state["x"], 0)
            state["x"] = dx
            state["i"] += 1
            self.after(28, step)

        step()

    def banner(self, text: str, color: str = CHECK, seconds: float = 1.2) -> None:
        """A large word across the river ("将军") that disappears by itself."""
        self.delete("banner")
        g, c = self.geo, self.geo.cell
        x, y = g.ox + 4 * c, g.oy + 4.5 * c
        font = (cjk_family(self), -int(c * 0.9), "bold")
        self.create_rectangle(x - 1.7 * c, y - 0.55 * c, x + 1.7 * c, y + 0.55 * c, fill="#fff4dc",
                              outline=color, width=max(2, c * 0.06), tags=("banner",))
        self.create_text(x, y, text=text, font=font, fill=color, tags=("banner",))
        if self._banner_job is not None:
            self.after_cancel(self._banner_job)
        self._banner_job = self.after(int(seconds * 1000), self._clear_banner)

    def _clear_banner(self) -> None:
        self._banner_job = None
        self.delete("banner")

    # --- input ------------------------------------------------------------------

    def clear_selection(self) -> None:
        self.selected = None
        self.targets = []

    def _select(self, sq: Optional[int]) -> None:
        self.selected = sq
        self.targets = self.controller.legal_targets(sq) if sq is not None else []
        self.redraw()

    def _own_piece(self, sq: int) -> bool:
        piece = self.controller.board.piece_at(sq)
        return piece is not None and piece.color == self.controller.board.turn

    def _on_press(self, event) -> None:
        self._press = (event.x, event.y)
        self._dragging = False
        self._pending_deselect = False
        sq = self.geo.square_at(event.x, event.y)
        c = self.controller
        if not c.human_to_move():
            if c.thinking is not None and c.review_ply is None and c.outcome is None:
                self._preselect(sq)
            return
        if sq is None:
            return
        if self.selected is not None and sq in self.targets:
            self._move_to(sq, slide=True)
        elif self._own_piece(sq):
            if sq == self.selected:
                self._pending_deselect = True       # unless this press starts a drag
            else:
                self.play_sound("select")
                self._select(sq)
        elif self.selected is not None:
            self.play_sound("illegal")
            self.shake(self.selected)
            self.on_illegal(Move(self.selected, sq))

    def _preselect(self, sq: Optional[int]) -> None:
        """While the computer thinks: a click on one of the human's pieces
        selects it for the coming turn (premove); any other click only says
        that the computer is thinking."""
        c = self.controller
        piece = c.board.piece_at(sq) if sq is not None else None
        mine = piece is not None and not c.is_computer(piece.color)
        if mine and sq != self.selected:
            self.play_sound("select")
            self.selected, self.targets = sq, []
            self.redraw()
        elif mine:
            self.selected = None
            self.redraw()
        self.on_wait(self.selected is not None)

    def _on_motion(self, event) -> None:
        if self.selected is None or self._press is None or not self.controller.human_to_move():
            return
        if not self._dragging:
            if math.hypot(event.x - self._press[0], event.y - self._press[1]) < 5:
                return
            sq = self.geo.square_at(*self._press)
            if sq != self.selected:
                return
            self._dragging = True
            self._pending_deselect = False
            self._drag_pos = self._press
            self.tag_raise(f"p{self.selected}")
        self.move(f"p{self.selected}", event.x - self._drag_pos[0], event.y - self._drag_pos[1])
        self._drag_pos = (event.x, event.y)

    def _on_release(self, event) -> None:
        press, self._press = self._press, None
        if self._dragging:
            self._dragging = False
            sq = self.geo.square_at(event.x, event.y)
            if sq is not None and sq in self.targets:
                self._move_to(sq, slide=False)
            else:
                if sq is not None and sq != self.selected:
                    self.play_sound("illegal")
                self.redraw()                       # snap back
            return
        if self._pending_deselect and press is not None:
            self._pending_deselect = False
            self._select(None)

    def _move_to(self, sq: int, slide: bool) -> None:
        frm = self.selected
        assert frm is not None
        self.clear_selection()
        self._slide_next = slide
        if not self.controller.play(Move(frm, sq)):
            self.redraw()

    def show_move(self, move: Move, captured: Optional[Piece], check: bool) -> None:
        """The view calls this for every move made (by anyone).  A piece
        preselected while the computer thought stays selected when it is
        still there and the human is to move."""
        slide = self._slide_next
        self._slide_next = True
        keep = self.selected
        self.clear_selection()
        if keep is not None and keep != move.to_square and self._own_piece(keep) \
                and self.controller.human_to_move():
            self.selected = keep
            self.targets = self.controller.legal_targets(keep)
        self.redraw()
        if slide:
            self.animate_move(move, captured)
        if check:
            self.banner(self.check_text())
