"""The position editor (摆棋): set up any position by dragging pieces from a
palette onto the board, then play or analyse from it.

The board is checked as it changes with the rules the library applies to
a FEN (Board(fen): kings in their palaces, elephants and advisors on their
points, pawns never behind their start, at most so many pieces of a kind,
the side not to move not in check); the window says what is wrong, in the
player's language with the library's detail, and only a legal position can
be played.

>>> fen_of({4: Piece.from_symbol("K"), 85: Piece.from_symbol("k")}, RED)
'4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1'
"""

from __future__ import annotations

import tkinter as tk
from typing import Any, Dict, Optional, Tuple

from cxiangqi import BLACK, RED, Board, Piece

from ..i18n import error_detail
from ..widgets import ACCENT, BG, INK, PANEL, WrapLabel
from .explain import position_problem
from .board_canvas import BoardCanvas, BoardGeometry, draw_piece

PALETTE = "KABNRCP"          # the piece kinds offered, in this order, for each side
PALETTE_WIDTH = 150


def fen_of(pieces: Dict[int, Piece], turn: bool) -> str:
    """The FEN of a set-up: pieces by square (rank * 9 + file), side to move."""
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = pieces.get(rank * 9 + f)
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p.symbol()
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if turn == RED else " b") + " - - 0 1"


class EditorCanvas(BoardCanvas):
    """The board and, on its right, the palette: two columns of pieces."""

    def __init__(self, master: tk.Misc, editor: "PositionEditor", **kw: Any) -> None:
        super().__init__(master, None, play_sound=editor.play_sound, check_text=lambda: "", **kw)
        self.editor = editor
        self.bind("<ButtonPress-3>", self._on_right)
        self._drag: Optional[Tuple[Piece, Optional[int]]] = None

    def redraw(self) -> None:
        self._anim += 1
        w, h = max(self.winfo_width(), 300), max(self.winfo_height(), 300)
        self.geo = BoardGeometry(w - PALETTE_WIDTH, h, self.flipped)
        self.delete("all")
        self._draw_board()
        for sq, piece in self.editor.pieces.items():
            self._draw_piece_at(sq, piece)
        self._draw_palette()

    def palette_xy(self, piece: Piece) -> Tuple[float, float]:
        """Where a piece of the palette is drawn (for tests and scripts)."""
        c = self.geo.cell
        x0 = self.geo.ox + 8 * c + c * 1.4
        col = 0 if piece.color == RED else 1
        row = PALETTE.index(piece.symbol().upper())
        return x0 + col * c * 1.1, self.geo.oy + row * c * 1.25

    def _draw_palette(self) -> None:
        r = self.geo.cell * 0.45
        for color in (RED, BLACK):
            for ch in PALETTE:
                piece = Piece.from_symbol(ch if color == RED else ch.lower())
                x, y = self.palette_xy(piece)
                draw_piece(self, x, y, r, piece, ("palette", f"pal{piece.symbol()}"), self.traditional)

    def _palette_at(self, x: float, y: float) -> Optional[Piece]:
        r = self.geo.cell * 0.5
        for color in (RED, BLACK):
            for ch in PALETTE:
                piece = Piece.from_symbol(ch if color == RED else ch.lower())
                px, py = self.palette_xy(piece)
                if (x - px) ** 2 + (y - py) ** 2 <= r * r:
                    return piece
        return None

    def _on_press(self, event: Any) -> None:
        sq = self.geo.square_at(event.x, event.y)
        if sq is not None and sq in self.editor.pieces:
            self._drag = (self.editor.pieces[sq], sq)
            tag = f"p{sq}"
        else:
            piece = self._palette_at(event.x, event.y)
            if piece is None:
                self._drag = None
                return
            self._drag = (piece, None)
            self._draw_piece_at(0, piece, "dragging")
            x0, y0 = self.geo.xy(0)
            self.move("dragging", event.x - x0, event.y - y0)
            tag = "dragging"
        self._drag_tag = tag
        self._drag_pos = (event.x, event.y)
        self.tag_raise(tag)

    def _on_motion(self, event: Any) -> None:
        if self._drag is None:
            return
        self.move(self._drag_tag, event.x - self._drag_pos[0], event.y - self._drag_pos[1])
        self._drag_pos = (event.x, event.y)

    def _on_release(self, event: Any) -> None:
        drag, self._drag = self._drag, None
        if drag is None:
            return
        piece, origin = drag
        self.editor.drop(piece, origin, self.geo.square_at(event.x, event.y))

    def _on_right(self, event: Any) -> None:
        sq = self.geo.square_at(event.x, event.y)
        if sq is not None and sq in self.editor.pieces:
            self.editor.drop(self.editor.pieces[sq], sq, None)


class PositionEditor(tk.Toplevel):
    """摆棋: a board to set up, the side to move, and what is wrong with it."""

    def __init__(self, screen: Any, fen: str) -> None:
        app = screen.app
        super().__init__(app.root, bg=PANEL, padx=12, pady=10)
        self.screen = screen
        self.app = app
        self.title(app.t("ed_title"))
        self.transient(app.root)
        board = Board(fen, validate=False)
        self.pieces: Dict[int, Piece] = {sq: p for sq in range(90)
                                         if (p := board.piece_at(sq)) is not None}
        self.turn = tk.StringVar(value="red" if board.turn == RED else "black")
        family = app.family
        WrapLabel(self, app.t("ed_help"), 640, bg=PANEL, fg=INK, font=(family, 11)).grid(
            row=0, column=0, columnspan=2, sticky="w")
        # as large as the main window allows (the board scales with the canvas)
        w = max(460, min(680, app.root.winfo_width() - 40))
        h = max(420, min(600, app.root.winfo_height() - 170))
        self.canvas = EditorCanvas(self, self, width=w, height=h, bg=BG)
        self.canvas.traditional = screen.settings.traditional
        self.canvas.grid(row=1, column=0, columnspan=2, pady=6)
        side = tk.Frame(self, bg=PANEL)
        side.grid(row=2, column=0, sticky="w")
        tk.Label(side, text=app.t("ed_to_move"), bg=PANEL, fg=ACCENT,
                 font=(family, 12, "bold")).pack(side="left")
        for value in ("red", "black"):
            tk.Radiobutton(side, text=app.t(value), value=value, variable=self.turn, bg=PANEL,
                           font=(family, 12), activebackground=PANEL, highlightthickness=0,
                           command=self.check).pack(side="left", padx=4)
        app.button(side, "ed_clear", self.clear).pack(side="left", padx=(12, 3))
        app.button(side, "ed_initial", self.initial).pack(side="left", padx=3)
        self.status = WrapLabel(self, "", 640, bg=PANEL, fg=INK, font=(family, 12))
        self.status.grid(row=3, column=0, columnspan=2, sticky="w", pady=(6, 0))
        row = tk.Frame(self, bg=PANEL)
        row.grid(row=4, column=0, columnspan=2, pady=(10, 0))
        self.play_button = app.button(row, "ed_play", lambda: self.play(False))
        self.play_button.pack(side="left", padx=4)
        self.analyse_button = app.button(row, "ed_analyse", lambda: self.play(True))
        self.analyse_button.pack(side="left", padx=4)
        app.button(row, "cancel", self.destroy).pack(side="left", padx=4)
        self.bind("<Escape>", lambda e: self.destroy())
        self.canvas.bind("<Configure>", lambda e: self.canvas.redraw(), add="+")
        self.check()

    def play_sound(self, name: str) -> None:
        self.app.play_sound(name)

    def fen(self) -> str:
        return fen_of(self.pieces, RED if self.turn.get() == "red" else BLACK)

    def problem(self) -> Optional[str]:
        """What is wrong with the position, in words for the player; None if
        it can be played."""
        try:
            board = Board(self.fen())
        except ValueError as exc:
            sep = "：" if self.app.lang == "zh" else ": "
            return self.app.t("ed_bad") + sep + position_problem(error_detail(exc), self.app.lang)
        if board.outcome() is not None:
            return self.app.t("ed_no_moves")
        return None

    def check(self) -> bool:
        """Updates the status line and the buttons; True when playable."""
        problem = self.problem()
        self.status.set_text(problem or self.app.t("ed_ok"))
        self.status.configure(fg=ACCENT if problem else "#2f5d3a")
        state = "disabled" if problem else "normal"
        self.play_button.configure(state=state)
        self.analyse_button.configure(state=state)
        return problem is None

    def drop(self, piece: Piece, origin: Optional[int], target: Optional[int]) -> None:
        """A dragged piece lands on `target` (None: off the board, removed)."""
        if origin is not None:
            self.pieces.pop(origin, None)
        if target is not None:
            self.pieces[target] = piece
            self.play_sound("move")
        self.canvas.redraw()
        self.check()

    def clear(self) -> None:
        self.pieces = {}
        self.canvas.redraw()
        self.check()

    def initial(self) -> None:
        board = Board()
        self.pieces = {sq: p for sq in range(90) if (p := board.piece_at(sq)) is not None}
        self.turn.set("red")
        self.canvas.redraw()
        self.check()

    def play(self, analyse: bool) -> None:
        if not self.check():
            return
        fen = self.fen()
        self.destroy()
        self.screen.play_from(fen, analyse=analyse)


def open_editor(screen: Any, fen: str) -> PositionEditor:
    """Opens the editor on `fen` (the position shown now), as a modal window."""
    editor = PositionEditor(screen, fen)
    screen.editor = editor
    screen._modal_window(editor)
    return editor
