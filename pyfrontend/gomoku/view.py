"""Gomoku (五子棋) in the desktop game: a second game on the main menu.

``open_game(app)`` shows the gomoku screen inside the App's window: a 15x15
wooden board on a Canvas that scales with the window (with the five star
points, 天元 H8 in the middle), and a side panel with the status, undo /
再来一局 / save / load / main menu, and the settings of the next game
(human vs human or vs the computer, colour, level).  The game flow is in
controller.GomokuController; this module only draws and forwards clicks.
The game-over box, the dialogs and the autosave are the ones xiangqi uses
(dialogs.py, settings.Autosave): the game in progress is saved on exit
(``gomoku_autosave.txt`` next to the xiangqi autosave) and restored the
next time gomoku is opened.
"""

from __future__ import annotations

import math
import random
import tkinter as tk
from pathlib import Path
from tkinter import ttk
from typing import Any, Callable, Dict, List, Optional, Tuple

from cxiangqi.gomoku import BLACK, WHITE, Board

from .. import dialogs
from ..widgets import ACCENT, BG, INK, PANEL, FixedLines, WrapLabel, cjk_family
from ..xiangqi.board_canvas import WOOD, WOOD_DARK, WOOD_EDGE, WOOD_EDGE_LIGHT
from .controller import (FILE_SUFFIX, HVC, HVH, LEVELS, GomokuController, color_name,
                         result_text)

LINE = "#4a2a10"
LAST_MARK = "#e53935"
WIN_LINE = "#d32f2f"
WIN_RING = "#ffcf40"
HOVER_BLACK = "#6b5a48"
HOVER_WHITE = "#f4ecdc"

Point = Tuple[int, int]
STAR_POINTS = ((3, 3), (3, 11), (7, 7), (11, 3), (11, 11))    # (7, 7) is 天元, H8
COLUMNS = "ABCDEFGHJKLMNOP"        # the usual gomoku/go letters (no I)


def _mix(a: str, b: str, k: float) -> str:
    """The colour k of the way from a to b (both '#rrggbb')."""
    ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#%02x%02x%02x" % tuple(int(x + (y - x) * k) for x, y in zip(ca, cb))


def draw_stone(canvas: tk.Canvas, x: float, y: float, r: float, color: Any,
               tags: Tuple[str, ...] = ()) -> None:
    """A glossy stone: shadow, body, and a soft highlight toward the top left."""
    sh = max(1.5, r * 0.12)
    canvas.create_oval(x - r + sh * 0.5, y - r + sh, x + r + sh * 0.5, y + r + sh,
                       fill="#7a5530", outline="", tags=tags)
    if color == BLACK:
        body, light, edge = "#141414", "#5a5a5a", "#000000"
    else:
        body, light, edge = "#dcd8cc", "#ffffff", "#9a9488"
    canvas.create_oval(x - r, y - r, x + r, y + r, fill=body, outline=edge,
                       width=max(1, r * 0.04), tags=tags)
    steps = 6
    for i in range(1, steps + 1):
        k = i / steps
        rr = r * (0.92 - 0.62 * k)
        cx, cy = x - r * 0.28 * k, y - r * 0.3 * k
        canvas.create_oval(cx - rr, cy - rr, cx + rr, cy + rr, fill=_mix(body, light, k * 0.85),
                           outline="", tags=tags)


class GomokuGeometry:
    """Where the size x size intersections are on a canvas of a given size."""

    def __init__(self, width: int, height: int, size: int = 15) -> None:
        self.size = size
        span = size - 1
        self.cell = max(10.0, min(width / (span + 2.3), height / (span + 2.3)))
        self.ox = (width - span * self.cell) / 2
        self.oy = (height - span * self.cell) / 2

    def xy(self, point: Point) -> Tuple[float, float]:
        row, col = point
        return self.ox + col * self.cell, self.oy + row * self.cell

    def point_at(self, x: float, y: float) -> Optional[Point]:
        """The intersection nearest (x, y) if within half a cell, else None."""
        col = round((x - self.ox) / self.cell)
        row = round((y - self.oy) / self.cell)
        if not (0 <= row < self.size and 0 <= col < self.size):
            return None
        px, py = self.xy((row, col))
        if math.hypot(x - px, y - py) > self.cell * 0.5:
            return None
        return row, col


class GomokuCanvas(tk.Canvas):
    """Draws the controller's board and forwards the human's clicks."""

    def __init__(self, master: tk.Misc, controller: GomokuController, *,
                 play_sound: Callable[[str], None], on_occupied: Callable[[], None],
                 **kw: Any) -> None:
        super().__init__(master, highlightthickness=0, bg=kw.pop("bg", BG), **kw)
        self.controller = controller
        self.play_sound = play_sound
        self.on_occupied = on_occupied
        self.geo = GomokuGeometry(600, 600)
        self.hover: Optional[Point] = None
        self._redraw_job: Optional[str] = None
        self._drop = 0
        self.bind("<Configure>", self._on_configure)
        self.bind("<ButtonPress-1>", self._on_click)
        self.bind("<Motion>", self._on_motion)
        self.bind("<Leave>", lambda e: self._set_hover(None))

    def _on_configure(self, _event: Any = None) -> None:
        if self._redraw_job is None:
            self._redraw_job = self.after_idle(self._deferred_redraw)

    def _deferred_redraw(self) -> None:
        self._redraw_job = None
        self.redraw()

    def point_xy(self, point: Point) -> Tuple[float, float]:
        """Canvas coordinates of an intersection (for tests and scripted clicks)."""
        return self.geo.xy(point)

    # --- drawing ----------------------------------------------------------------

    def redraw(self) -> None:
        board = self.controller.board
        w, h = max(self.winfo_width(), 100), max(self.winfo_height(), 100)
        self.geo = GomokuGeometry(w, h, board.size)
        self.delete("all")
        self._draw_board(board.size)
        r = self.geo.cell * 0.46
        for point in board.move_stack:
            x, y = self.geo.xy(point)
            color = board.color_at(point)
            draw_stone(self, x, y, r, color, ("stone", f"s{point[0]}_{point[1]}"))
        self._draw_marks(board)
        self._draw_hover()

    def _draw_board(self, size: int) -> None:
        g, c = self.geo, self.geo.cell
        span = (size - 1) * c
        m = c * 0.95
        x0, y0, x1, y1 = g.ox - m, g.oy - m, g.ox + span + m, g.oy + span + m
        f = c * 0.18
        self.create_rectangle(x0 - f + 3, y0 - f + 4, x1 + f + 3, y1 + f + 4, fill="#24180f", outline="")
        self.create_rectangle(x0 - f, y0 - f, x1 + f, y1 + f, fill=WOOD_EDGE, outline="#5c3a1a")
        self.create_rectangle(x0, y0, x1, y1, fill=WOOD, outline=WOOD_EDGE_LIGHT)
        rnd = random.Random(11)
        n = 30
        for i in range(n):
            yy = y0 + (i + rnd.random()) * (y1 - y0) / n
            amp, phase = c * rnd.uniform(0.05, 0.2), rnd.uniform(0, 6.28)
            pts: List[float] = []
            steps = 16
            for k in range(steps + 1):
                xx = x0 + (x1 - x0) * k / steps
                pts += [xx, min(y1, max(y0, yy + amp * math.sin(phase + k * 0.6)))]
            self.create_line(*pts, smooth=True, fill=WOOD_DARK if i % 3 else "#dcac6a",
                             width=max(1, c * 0.04))
        lw = max(1, round(c / 36))
        for i in range(size):
            xa, ya = g.xy((i, 0))
            xb, yb = g.xy((i, size - 1))
            self.create_line(xa, ya, xb, yb, fill=LINE, width=lw)
            xa, ya = g.xy((0, i))
            xb, yb = g.xy((size - 1, i))
            self.create_line(xa, ya, xb, yb, fill=LINE, width=lw)
        pad = c * 0.12
        self.create_rectangle(g.ox - pad, g.oy - pad, g.ox + span + pad, g.oy + span + pad,
                              outline=LINE, width=lw * 2 + 1)
        stars = STAR_POINTS if size == 15 else ((size // 2, size // 2),)
        for p in stars:
            x, y = g.xy(p)
            rs = max(3.0, c * (0.14 if p == (size // 2, size // 2) else 0.11))
            self.create_oval(x - rs, y - rs, x + rs, y + rs, fill=LINE, outline="",
                             tags=("star", f"star{p[0]}_{p[1]}"))
        font = (cjk_family(self), -max(8, int(c * 0.34)))
        for i in range(size):
            x, _ = g.xy((0, i))
            self.create_text(x, g.oy - c * 0.58, text=COLUMNS[i], font=font, fill="#5a3514")
            self.create_text(x, g.oy + span + c * 0.58, text=COLUMNS[i], font=font, fill="#5a3514")
            _, y = g.xy((i, 0))
            self.create_text(g.ox - c * 0.6, y, text=str(size - i), font=font, fill="#5a3514")
            self.create_text(g.ox + span + c * 0.6, y, text=str(size - i), font=font, fill="#5a3514")

    def _draw_marks(self, board: Board) -> None:
        c = self.geo.cell
        line = board.winning_line()
        if line:
            for p in line:
                x, y = self.geo.xy(p)
                r = c * 0.5
                self.create_oval(x - r, y - r, x + r, y + r, outline=WIN_RING, width=max(2, c * 0.08),
                                 tags=("win",))
            (xa, ya), (xb, yb) = self.geo.xy(line[0]), self.geo.xy(line[-1])
            self.create_line(xa, ya, xb, yb, fill=WIN_LINE, width=max(3, c * 0.12), capstyle=tk.ROUND,
                             tags=("win", "winline"))
        last = board.peek()
        if last is not None:
            x, y = self.geo.xy(last)
            r = max(3.0, c * 0.13)
            self.create_oval(x - r, y - r, x + r, y + r, fill=LAST_MARK, outline="#ffffff" if
                             board.color_at(last) == BLACK else "", width=1, tags=("last",))

    def _draw_hover(self) -> None:
        self.delete("hover")
        c = self.controller
        p = self.hover
        if p is None or not c.human_to_move() or not c.board.is_legal(p):
            return
        x, y = self.geo.xy(p)
        r = self.geo.cell * 0.42
        black = c.board.turn == BLACK
        self.create_oval(x - r, y - r, x + r, y + r, outline=HOVER_BLACK if black else "#fffaf0",
                         width=max(2, self.geo.cell * 0.06), dash=(3, 3), tags=("hover",))
        rd = self.geo.cell * 0.1
        self.create_oval(x - rd, y - rd, x + rd, y + rd, fill=HOVER_BLACK if black else HOVER_WHITE,
                         outline="", tags=("hover",))

    def drop(self, point: Point) -> None:
        """A short 'landing' ring around a stone just played."""
        self._drop += 1
        drop = self._drop
        x, y = self.geo.xy(point)
        c = self.geo.cell
        frames = 8

        def step(i: int) -> None:
            if drop != self._drop:
                return
            self.delete("drop")
            if i >= frames:
                return
            r = c * (0.5 + 0.35 * i / frames)
            self.create_oval(x - r, y - r, x + r, y + r, outline=_mix("#fff3c4", WOOD, i / frames),
                             width=max(1, c * 0.05), tags=("drop",))
            self.after(22, lambda: step(i + 1))

        step(0)

    # --- input --------------------------------------------------------------------

    def _set_hover(self, point: Optional[Point]) -> None:
        if point != self.hover:
            self.hover = point
            self._draw_hover()

    def _on_motion(self, event: Any) -> None:
        self._set_hover(self.geo.point_at(event.x, event.y))

    def _on_click(self, event: Any) -> None:
        c = self.controller
        point = self.geo.point_at(event.x, event.y)
        if point is None or not c.human_to_move():
            return
        if not c.play(point):
            self.play_sound("illegal")
            self.on_occupied()


class GomokuScreen:
    """The gomoku screen inside the App: canvas, side panel, menu bar."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.controller = GomokuController(app.settings)
        self.controller.subscribe(self._on_event)
        self.controller.hold()              # not shown yet
        self._hidden = True
        self.frame: Optional[tk.Frame] = None
        self.menubar: Optional[tk.Menu] = None
        self.over_dialog: Optional[dialogs.GameOverDialog] = None
        self.message = ""
        self.last_error: Optional[str] = None
        base = getattr(app, "autosave_path", None)
        self.autosave_path = (Path(base).parent / "gomoku_autosave.txt" if base
                              else GomokuController.autosave_path())
        if self.controller.restore(self.autosave_path):
            self.message = self.t("g_restored")

    # --- basics --------------------------------------------------------------------

    def t(self, key: str, **fields: Any) -> str:
        return self.app.t(key, **fields)

    @property
    def family(self) -> str:
        return self.app.family

    def side_name(self, color: Any) -> str:
        return self.t("g_black" if color == BLACK else "g_white")

    # --- the App's screen protocol -------------------------------------------------------

    def rebuild(self, container: tk.Misc) -> None:
        """After a language change: built again when next shown."""
        self.close_over_dialog()
        self.frame = None

    def show(self, container: tk.Misc) -> None:
        """Packs the screen (building it first, or again after a language change)."""
        if self.frame is None or not self.frame.winfo_exists():
            self.frame = self._build(container)
        self.menubar = self._build_menu()
        self.app.root.configure(menu=self.menubar)
        self.app.root.title(self.t("g_title"))
        self.frame.pack(fill="both", expand=True)
        if self._hidden:
            self._hidden = False
            self.controller.release()
        self.refresh()
        self.canvas.redraw()

    def hide(self) -> None:
        if self.frame is not None and self.frame.winfo_exists():
            self.frame.pack_forget()
        self.close_over_dialog()
        if not self._hidden:
            self._hidden = True
            self.controller.hold()

    def report_error(self, exc: BaseException) -> None:
        self._set_message(self.app.error_message(exc))

    def confirm_leave(self, key: str) -> bool:
        """Asks before a game in progress is abandoned (`key`: confirm_new,
        confirm_load, confirm_menu); True to go on."""
        c = self.controller
        if c.over or not c.board.move_stack or key == "confirm_menu":
            return True         # the menu loses nothing: the game waits behind 五子棋
        go = self.t("go_menu") if key == "confirm_menu" else self.t("abandon")
        return dialogs.ask(self.app, self.t("confirm_title"), self.t(key),
                           [("yes", go), ("no", self.t("cancel"))], default="yes",
                           note=self.t("autosave_note")) == "yes"

    # --- building ---------------------------------------------------------------------

    def _build(self, master: tk.Misc) -> tk.Frame:
        t, app = self.t, self.app
        frame = tk.Frame(master, bg=BG)
        frame.columnconfigure(0, weight=1)
        frame.rowconfigure(0, weight=1)
        self.canvas = GomokuCanvas(frame, self.controller, play_sound=app.play_sound,
                                   on_occupied=lambda: self._set_message(t("g_occupied")))
        self.canvas.grid(row=0, column=0, sticky="nsew", padx=(8, 4), pady=8)
        side = tk.Frame(frame, bg=PANEL, width=300)
        side.grid(row=0, column=1, sticky="ns", padx=(4, 8), pady=8)
        side.grid_propagate(False)
        side.columnconfigure(0, weight=1)
        side.rowconfigure(6, weight=1)
        tk.Label(side, text=t("g_title"), bg=PANEL, fg=ACCENT,
                 font=(self.family, 20, "bold")).grid(row=0, column=0, pady=(8, 2))
        self.status = tk.Label(side, text="", bg=ACCENT, fg="white", font=(self.family, 15),
                               pady=8)
        self.status.grid(row=1, column=0, sticky="ew")
        self.substatus = FixedLines(side, 3, (self.family, 10), 284, fg=INK)
        self.substatus.grid(row=2, column=0, sticky="ew", padx=8, pady=(4, 0))

        buttons = tk.Frame(side, bg=PANEL)
        buttons.grid(row=3, column=0, sticky="ew", padx=8, pady=6)
        self.buttons: Dict[str, tk.Button] = {}
        specs = [("undo", self.undo), ("again", self.again), ("save_game", self.save_dialog),
                 ("load_game", self.load_dialog), ("main_menu", app.main_menu)]
        for i, (key, cmd) in enumerate(specs):
            b = app.button(buttons, key, cmd)
            b.grid(row=i // 2, column=i % 2, sticky="ew", padx=2, pady=2)
            self.buttons[key] = b
        buttons.columnconfigure(0, weight=1)
        buttons.columnconfigure(1, weight=1)

        # the next game's settings
        box = tk.LabelFrame(side, text=t("g_new_settings"), bg=PANEL, fg=ACCENT,
                            font=(self.family, 11, "bold"), bd=1, relief="groove", padx=6, pady=4)
        box.grid(row=4, column=0, sticky="ew", padx=8, pady=(6, 0))
        box.columnconfigure(1, weight=1)
        c = self.controller
        font = (self.family, 11)
        self.mode_var = tk.StringVar(value=c.mode)
        self.side_var = tk.StringVar(value=color_name(c.human_color))
        tk.Label(box, text=t("mode"), bg=PANEL, fg=INK, font=font).grid(row=0, column=0, sticky="w")
        for i, m in enumerate((HVC, HVH)):
            tk.Radiobutton(box, text=t("mode_" + m), value=m, variable=self.mode_var, bg=PANEL,
                           activebackground=PANEL, highlightthickness=0, font=font).grid(row=i, column=1, sticky="w")
        tk.Label(box, text=t("your_side"), bg=PANEL, fg=INK, font=font).grid(row=2, column=0, sticky="w")
        for i, (v, key) in enumerate((("black", "g_play_black"), ("white", "g_play_white"))):
            tk.Radiobutton(box, text=t(key), value=v, variable=self.side_var, bg=PANEL,
                           activebackground=PANEL, highlightthickness=0, font=font).grid(row=2 + i, column=1, sticky="w")
        tk.Label(box, text=t("level"), bg=PANEL, fg=INK, font=font).grid(row=4, column=0, sticky="w")
        self.level_box = ttk.Combobox(box, state="readonly", width=10,
                                      values=[t("level_" + lv) for lv in LEVELS])
        self.level_box.current(LEVELS.index(c.level))
        self.level_box.bind("<<ComboboxSelected>>",
                            lambda e: self.set_level(LEVELS[self.level_box.current()]))
        self.level_box.grid(row=4, column=1, sticky="w", pady=2)
        app.button(box, "g_start", self.start_from_panel).grid(row=5, column=0, columnspan=2,
                                                                 sticky="ew", pady=(6, 2))
        WrapLabel(side, t("g_rules"), 270, bg=PANEL, fg="#6a4a2a", font=(self.family, 10)).grid(
            row=5, column=0, sticky="ew", padx=10, pady=10)
        return frame

    def _build_menu(self) -> tk.Menu:
        t, app = self.t, self.app
        menu = tk.Menu(app.root)
        game = tk.Menu(menu, tearoff=False)
        game.add_command(label=t("again"), command=self.again, accelerator="Ctrl+N")
        game.add_command(label=t("load_game"), command=self.load_dialog, accelerator="Ctrl+O")
        game.add_command(label=t("save_game"), command=self.save_dialog, accelerator="Ctrl+S")
        game.add_separator()
        app.add_shared_items(game)
        menu.add_cascade(label=t("menu_game"), menu=game)
        moves = tk.Menu(menu, tearoff=False)
        moves.add_command(label=t("undo"), command=self.undo, accelerator="Ctrl+Z")
        menu.add_cascade(label=t("menu_move"), menu=moves)
        comp = tk.Menu(menu, tearoff=False)
        self.level_var = tk.StringVar(value=self.controller.level)
        for lv in LEVELS:
            comp.add_radiobutton(label=t("level_" + lv), value=lv, variable=self.level_var,
                                 command=lambda lv=lv: self.set_level(lv))
        menu.add_cascade(label=t("menu_computer"), menu=comp)
        return menu

    # --- controller events ----------------------------------------------------------------

    def _alive(self) -> bool:
        return (self.frame is not None and self.frame.winfo_exists()
                and not getattr(self.app, "_closed", False))

    def _on_event(self, kind: str, data: Dict[str, Any]) -> None:
        if not self._alive():
            return
        if kind == "reset":
            self.close_over_dialog()
            self.canvas.redraw()
        elif kind == "move":
            self.message = ""
            self.canvas.redraw()
            self.canvas.drop(data["point"])
            self.app.play_sound("move")
        elif kind == "over":
            self._game_over(data["winner"])
        elif kind == "error":
            self.message = self.t("g_search_failed", err=data["message"])
        self.refresh()

    def _set_message(self, text: str) -> None:
        self.message = text
        if self._alive():
            self.refresh()

    def refresh(self) -> None:
        if not self._alive():
            return
        c, t = self.controller, self.t
        b = c.board
        if c.over:
            text, bg, fg = result_text(b, self.app.lang), "#2f5d3a", "white"
        elif c.thinking is not None:
            text, bg, fg = t("g_thinking", side=self.side_name(c.thinking)), "#5a4632", "white"
        else:
            text = t("g_turn", side=self.side_name(b.turn))
            bg, fg = ("#1d1a17", "white") if b.turn == BLACK else ("#f2eee4", INK)
        self.status.configure(text=text, bg=bg, fg=fg)
        info = t("mode_" + c.mode)
        if c.mode == HVC:
            info += f" · {t('you')}: {self.side_name(c.human_color)} · {t('level_' + c.level)}"
        info += "\n" + t("g_moves", n=len(b.move_stack))
        if self.message:
            info += "\n" + self.message
        self.substatus.set(info)
        self.buttons["undo"].configure(state="normal" if b.move_stack else "disabled")
        if self.level_box.current() != LEVELS.index(c.level):
            self.level_box.current(LEVELS.index(c.level))
        if hasattr(self, "level_var"):
            self.level_var.set(c.level)

    def _game_over(self, winner: Any) -> None:
        c = self.controller
        if winner is None:
            self.app.play_sound("draw")
        elif c.mode == HVC:
            self.app.play_sound("win" if winner == c.human_color else "loss")
        else:
            self.app.play_sound("win")
        board = c.board
        self.app.root.after(500, lambda: self._open_over_dialog(board))

    def _open_over_dialog(self, board: Board) -> None:
        c, t = self.controller, self.t
        if not self._alive() or c.board is not board or not c.over or self.app.screen != "gomoku" \
                or self.app.dialog is not None:
            return
        self.close_over_dialog()
        winner = board.winner()
        sub = ""
        if c.mode == HVC and winner is not None:
            sub = t("you_win" if winner == c.human_color else "you_lose")
        self.over_dialog = dialogs.GameOverDialog(
            self.app, result_text(board, self.app.lang), sub,
            [("again", t("again"), self.again), ("close", t("close"), self.close_over_dialog)],
            self.close_over_dialog)

    def close_over_dialog(self) -> None:
        if self.over_dialog is not None:
            try:
                self.over_dialog.destroy()
            except tk.TclError:
                pass
            self.over_dialog = None

    # --- actions -----------------------------------------------------------------------------

    def poll(self) -> None:
        self.controller.poll()

    def undo(self) -> None:
        if self.controller.undo():
            self.message = ""
            self.refresh()

    def again(self) -> None:
        """再来一局: same mode, colour and level."""
        if not self.confirm_leave("confirm_new"):
            return
        self.close_over_dialog()
        self.message = ""
        self.controller.new_game()
        self.app.play_sound("select")
        self.app.save_settings()

    def new_game_dialog(self) -> None:
        """Ctrl+N: a new game with the panel's settings."""
        self.start_from_panel()

    def start_from_panel(self) -> None:
        if not self.confirm_leave("confirm_new"):
            return
        human = BLACK if self.side_var.get() == "black" else WHITE
        self.start(self.mode_var.get(), human, LEVELS[self.level_box.current()])

    def start(self, mode: str, human_color: Any = BLACK, level: Optional[str] = None) -> None:
        self.close_over_dialog()
        self.message = ""
        self.controller.new_game(mode=mode, human_color=human_color, level=level)
        if hasattr(self, "mode_var"):
            self.mode_var.set(mode)
            self.side_var.set(color_name(human_color))
        self.app.play_sound("select")
        self.app.save_settings()
        self.refresh()

    def set_level(self, level: str) -> None:
        self.controller.set_level(level)
        self.app.save_settings()

    def save_dialog(self) -> None:
        path = dialogs.ask_save_filename(
            self.app, self.t("save_game"),
            [(self.t("g_files"), "*" + FILE_SUFFIX), (self.t("all_files"), "*")],
            FILE_SUFFIX, "game" + FILE_SUFFIX)
        if path:
            self.save_to(path)

    def save_to(self, path: str, show_errors: bool = True) -> bool:
        try:
            self.controller.save(path)
        except OSError as exc:
            self.last_error = self.app.error_message(exc)
            if show_errors:
                dialogs.show_error(self.app, self.t("save_failed"), self.last_error)
            return False
        self._set_message(self.t("saved", path=Path(path).name))
        return True

    def load_dialog(self) -> None:
        if not self.confirm_leave("confirm_load"):
            return
        path = dialogs.ask_open_filename(
            self.app, self.t("load_game"),
            [(self.t("g_files"), "*" + FILE_SUFFIX), (self.t("all_files"), "*")])
        if path:
            self.load_from(path)

    def load_from(self, path: str, show_errors: bool = True) -> bool:
        try:
            self.controller.load(path)
        except (OSError, ValueError) as exc:
            self.last_error = self.app.error_message(exc)
            if show_errors:
                dialogs.show_error(self.app, self.t("g_load_failed"),
                                   f"{Path(path).name}\n{self.last_error}")
            return False
        self.message = ""
        if hasattr(self, "mode_var"):
            self.mode_var.set(self.controller.mode)
            self.side_var.set(color_name(self.controller.human_color))
        self.refresh()
        return True

    def close(self) -> None:
        """On exit: autosave the game in progress and stop the computer."""
        self.controller.autosave(self.autosave_path)
        self.controller.shutdown()


def open_game(app: Any) -> None:
    """Shows the gomoku screen in `app` (the main menu's 五子棋 entry)."""
    screen = app.screens.get("gomoku")
    if screen is None:
        screen = GomokuScreen(app)
        app.screens["gomoku"] = screen
    app.show("gomoku")
