"""The xiangqi screen: the board and the side panel (status, clocks,
messages, buttons, the computers' levels, the move list, the score graph
and the engine box), its menus and its dialogs.

All game logic lives in controller.GameController; this module draws what
it reports and forwards the player's actions.  The panel is built by one
builder per region, and every region has a fixed height (only the move
list grows with the window), so nothing moves while a game is played.
"""

from __future__ import annotations

import math
import os
import threading
import tkinter as tk
from pathlib import Path
from tkinter import ttk
from typing import Any, Callable, Dict, List, Optional

from cxiangqi import BLACK, RED, Board

from .. import dialogs
from ..i18n import error_detail
from ..settings import LEVEL_NAMES
from ..widgets import ACCENT, BG, INK, MUTED, PANEL, FixedLines, chars_for
from . import files
from .board_canvas import BoardCanvas
from .controller import (CVC, EXTERNAL, HVC, HVH, NOTATIONS, GameController, clock_text,
                         color_name, level_label, parse_time_control, probe_external_engine,
                         randomises, result_text)

SIDE_WIDTH = 312
MIN_MOVES_HEIGHT = 96        # the move list keeps at least this much; the graph and
                             # the engine box give way in a small window
MESSAGE_SECONDS = 6.0
TIME_PRESETS = [None, (600.0, 0.0), (900.0, 10.0), (300.0, 3.0), (180.0, 2.0)]


class XiangqiScreen:
    """The game screen of xiangqi inside the App."""

    def __init__(self, app: Any, engine_factory: Any = None) -> None:
        self.app = app
        self.settings = app.settings
        self.controller = GameController(self.settings, engine_factory=engine_factory)
        self.controller.subscribe(self._on_event)
        self.controller.hold()              # not shown yet: nothing runs
        self._hidden = True
        self.game_started = False
        self.frame: Optional[tk.Frame] = None
        self.menubar: Optional[tk.Menu] = None
        self.over_dialog: Optional[dialogs.GameOverDialog] = None
        self.ng_dialog: Optional[tk.Toplevel] = None
        self.external_dialog: Optional[tk.Toplevel] = None
        self.message = ""
        self._message_job: Optional[str] = None
        self.last_error: Optional[str] = None
        self.flipped = False
        self.editor: Optional[tk.Toplevel] = None

    # --- basics ------------------------------------------------------------------------

    @property
    def root(self) -> tk.Tk:
        return self.app.root

    @property
    def lang(self) -> str:
        return self.app.lang

    @property
    def family(self) -> str:
        return self.app.family

    def t(self, key: str, **fields: Any) -> str:
        return self.app.t(key, **fields)

    def side_name(self, color: bool) -> str:
        return self.t(color_name(color))

    def _level_names(self) -> List[str]:
        names = list(LEVEL_NAMES)
        if self.settings.external_engine:
            names.append(EXTERNAL)
        return names

    # --- the App's screen protocol --------------------------------------------------

    def rebuild(self, container: tk.Misc) -> None:
        """(Re)builds the frame and the menu bar (after a language change)."""
        self.close_over_dialog()
        self.frame = self._build(container)
        self.menubar = self._build_menu()

    def show(self, container: tk.Misc) -> None:
        if self.frame is None or not self.frame.winfo_exists():
            self.rebuild(container)
        self.root.configure(menu=self.menubar)
        self.frame.pack(fill="both", expand=True)
        self.canvas.flipped = self.flipped
        if self._hidden:
            self._hidden = False
            self.controller.release()
        self._update_title()
        self.refresh()
        self.canvas.redraw()

    def hide(self) -> None:
        if self.frame is not None and self.frame.winfo_exists():
            self.frame.pack_forget()
        if not self._hidden:
            self._hidden = True
            self.controller.hold()

    def poll(self) -> None:
        if self.game_started:
            self.controller.poll()
        if not self._hidden:
            self.refresh_clocks()

    def close(self) -> None:
        if self.game_started:
            self.controller.autosave(self.app.autosave_path)
        self.controller.shutdown()

    def report_error(self, exc: BaseException) -> None:
        self.set_message(self.app.error_message(exc), 15)

    def confirm_leave(self, key: str) -> bool:
        """Asks before a game in progress is left or abandoned (`key`:
        confirm_new, confirm_load or confirm_menu); True to go on."""
        c = self.controller
        if not self.game_started or not c.in_progress:
            return True
        go = self.t("go_menu") if key == "confirm_menu" else self.t("abandon")
        answer = dialogs.ask(self.app, self.t("confirm_title"), self.t(key),
                             [("yes", go), ("no", self.t("cancel"))], default="yes",
                             note=self.t("autosave_note"))
        return answer == "yes"

    # --- building: the frame ------------------------------------------------------------

    def _build(self, master: tk.Misc) -> tk.Frame:
        frame = tk.Frame(master, bg=BG)
        frame.columnconfigure(0, weight=1)
        frame.rowconfigure(0, weight=1)
        self.canvas = BoardCanvas(frame, self.controller, play_sound=self.app.play_sound,
                                  check_text=lambda: self.t("check"), bg=BG,
                                  on_illegal=self._on_illegal, on_wait=self._on_wait)
        self.canvas.flipped = self.flipped
        self.canvas.traditional = self.settings.traditional
        self.canvas.grid(row=0, column=0, sticky="nsew", padx=(8, 4), pady=8)
        side = tk.Frame(frame, bg=PANEL, width=SIDE_WIDTH)
        side.grid(row=0, column=1, sticky="ns", padx=(4, 8), pady=8)
        side.grid_propagate(False)
        side.columnconfigure(0, weight=1)
        self.side = side
        self._fit_job: Optional[str] = None
        self._engine_wanted = False
        self._build_status(side, 0)
        self._build_clocks(side, 1)
        self._build_info(side, 2)
        self._build_buttons(side, 3)
        self._build_computers(side, 4)
        self._build_moves(side, 5)
        self._build_graph(side, 7)
        self._build_engine(side, 8)
        side.rowconfigure(6, weight=1, minsize=MIN_MOVES_HEIGHT)
        side.bind("<Configure>", lambda e: self._layout_for_mode())
        return frame

    def _build_status(self, side: tk.Frame, row: int) -> None:
        """Whose move, thinking, the result: one line of fixed height."""
        box = tk.Frame(side, bg=ACCENT, height=46)
        box.grid(row=row, column=0, sticky="ew")
        box.pack_propagate(False)
        self.status_box = box
        self.status = tk.Label(box, text="", bg=ACCENT, fg="white", font=(self.family, 15))
        self.status.pack(fill="both", expand=True)

    def _build_clocks(self, side: tk.Frame, row: int) -> None:
        """The two clocks (shown only with a time control)."""
        self.clock_frame = tk.Frame(side, bg=PANEL)
        self.clock_frame.grid(row=row, column=0, sticky="ew", padx=5)
        self.clock_labels: Dict[bool, tk.Label] = {}
        for i, color in enumerate((RED, BLACK)):
            lab = tk.Label(self.clock_frame, text="", font=(self.family, 16, "bold"), bd=1,
                           relief="solid", padx=4, pady=3)
            lab.grid(row=0, column=i, sticky="ew", padx=3, pady=(6, 0))
            self.clock_frame.columnconfigure(i, weight=1, uniform="clock")
            self.clock_labels[color] = lab
        self.clock_frame.grid_remove()

    def _build_info(self, side: tk.Frame, row: int) -> None:
        """The mode line and two lines for messages that come and go."""
        box = tk.Frame(side, bg=PANEL)
        box.grid(row=row, column=0, sticky="ew", padx=8, pady=(4, 0))
        box.columnconfigure(0, weight=1)
        w = SIDE_WIDTH - 16
        self.substatus = FixedLines(box, 1, (self.family, 10), w, fg=INK)
        self.substatus.grid(row=0, column=0, sticky="ew")
        self.message_box = FixedLines(box, 2, (self.family, 11), w, fg=ACCENT)
        self.message_box.grid(row=1, column=0, sticky="ew")

    def _build_buttons(self, side: tk.Frame, row: int) -> None:
        buttons = tk.Frame(side, bg=PANEL)
        buttons.grid(row=row, column=0, sticky="ew", padx=8, pady=4)
        self.buttons: Dict[str, tk.Button] = {}
        specs = [("undo", self.undo), ("redo", self.redo), ("hint", self.hint), ("flip", self.flip),
                 ("resign", self.resign), ("offer_draw", self.offer_draw), ("again", self.again),
                 ("main_menu", self.app.main_menu)]
        for i, (key, cmd) in enumerate(specs):
            b = self.app.button(buttons, key, cmd)
            b.grid(row=i // 2, column=i % 2, sticky="ew", padx=2, pady=2)
            self.buttons[key] = b
        buttons.columnconfigure(0, weight=1, uniform="b")
        buttons.columnconfigure(1, weight=1, uniform="b")

    def _build_computers(self, side: tk.Frame, row: int) -> None:
        """One level box per computer side; pause, step and speed for two computers."""
        self.comp_frame = tk.Frame(side, bg=PANEL)
        self.comp_frame.grid(row=row, column=0, sticky="ew", padx=8)
        self.level_boxes: Dict[bool, ttk.Combobox] = {}
        self.level_labels: Dict[bool, tk.Label] = {}
        names = self._level_names()
        labels = [level_label(n, self.lang) for n in names]
        for i, color in enumerate((RED, BLACK)):
            lab = tk.Label(self.comp_frame, text=self.t("computer_level", side=self.side_name(color)),
                           bg=PANEL, fg=INK, font=(self.family, 10))
            box = ttk.Combobox(self.comp_frame, state="readonly", values=labels,
                               width=chars_for(side, labels, "TkTextFont", 1))
            box.bind("<<ComboboxSelected>>",
                     lambda e, c=color, b=box: self.set_level(c, names[b.current()]))
            self.level_labels[color] = lab
            self.level_boxes[color] = box
            lab.grid(row=i, column=0, sticky="w")
            box.grid(row=i, column=1, sticky="ew", pady=1)
        self.comp_frame.columnconfigure(1, weight=1)
        self.cvc_frame = tk.Frame(self.comp_frame, bg=PANEL)
        self.cvc_frame.grid(row=2, column=0, columnspan=2, sticky="ew", pady=2)
        self.pause_button = self.app.button(self.cvc_frame, "pause", self.toggle_pause)
        self.pause_button.pack(side="left", padx=2)
        self.step_button = self.app.button(self.cvc_frame, "step", self.step)
        self.step_button.pack(side="left", padx=2)
        tk.Label(self.cvc_frame, text=self.t("speed"), bg=PANEL, fg=INK,
                 font=(self.family, 10)).pack(side="left", padx=(6, 0))
        self.speed = tk.Scale(self.cvc_frame, from_=0, to=100, orient="horizontal", showvalue=False,
                              bg=PANEL, highlightthickness=0, troughcolor="#e0c9a0", length=90,
                              command=lambda v: self.controller.set_delay(2.0 * (1 - int(v) / 100)))
        self.speed.set(int(100 * (1 - min(2.0, self.controller.cvc_delay) / 2.0)))
        self.speed.pack(side="left", fill="x", expand=True)

    def _build_moves(self, side: tk.Frame, row: int) -> None:
        """The move list: one line a move pair; a half-move is clicked to see
        its position, and only the shown half-move is highlighted."""
        head = tk.Frame(side, bg=PANEL, height=32)
        head.grid(row=row, column=0, sticky="ew", padx=8, pady=(6, 0))
        head.pack_propagate(False)
        tk.Label(head, text=self.t("moves"), bg=PANEL, fg=ACCENT,
                 font=(self.family, 13, "bold")).pack(side="left")
        names = [self.t("notation_" + n) for n in NOTATIONS]
        self.notation_box = ttk.Combobox(head, state="readonly", values=names,
                                         width=chars_for(side, names, "TkTextFont", 1))
        self.notation_box.current(NOTATIONS.index(self.settings.notation))
        self.notation_box.bind("<<ComboboxSelected>>", lambda e: self.set_notation(
            NOTATIONS[self.notation_box.current()]))
        self.notation_box.pack(side="right")
        self.live_button = self.app.button(head, "back_to_game", self.back_to_game)
        lst = tk.Frame(side, bg=PANEL)
        lst.grid(row=row + 1, column=0, sticky="nsew", padx=8, pady=4)
        self.moves = tk.Text(lst, height=6, width=24, bg="#fffaf0", fg=INK, bd=0, cursor="hand2",
                             font=(self.app.cjk if self.lang == "zh" else self.family, 12),
                             highlightthickness=1, highlightbackground="#d8c3a0", wrap="none",
                             padx=4, pady=2, spacing1=2, spacing3=2)
        self.moves.configure(tabs=(44, "left", 152, "left"))
        self.moves.tag_configure("num", foreground=MUTED)
        self.moves.tag_configure("shown", background="#d9b77a")
        sb = ttk.Scrollbar(lst, orient="vertical", command=self.moves.yview)
        self.moves.configure(yscrollcommand=sb.set, state="disabled")
        self.moves.pack(side="left", fill="both", expand=True)
        sb.pack(side="right", fill="y")
        self.moves.bind("<ButtonRelease-1>", self._on_moves_click)
        self.move_count = 0

    def _build_graph(self, side: tk.Frame, row: int) -> None:
        """The score graph: the evaluation (Red's view) after every ply."""
        self.graph = tk.Canvas(side, height=48, bg="#fffaf0", highlightthickness=1,
                               highlightbackground="#d8c3a0", cursor="hand2")
        self.graph.grid(row=row, column=0, sticky="ew", padx=8, pady=(0, 4))
        self.graph.bind("<Configure>", lambda e: self.draw_graph())
        self.graph.bind("<ButtonRelease-1>", self._on_graph_click)

    def _build_engine(self, side: tk.Frame, row: int) -> None:
        """Score, depth and nodes, the ponder hit rate, the line, and what
        the computer played."""
        f = tk.LabelFrame(side, text=self.t("engine_panel"), bg=PANEL, fg=ACCENT,
                          font=(self.family, 11, "bold"), bd=1, relief="groove")
        f.grid(row=row, column=0, sticky="ew", padx=8, pady=(0, 8))
        f.columnconfigure(1, weight=1)
        self.engine_frame = f
        self.engine_labels: Dict[str, Any] = {}
        font = (self.family, 10)
        for i, key in enumerate(("score", "depth", "nodes", "ponder")):
            tk.Label(f, text=self.t(key), bg=PANEL, fg=INK, font=font).grid(
                row=i, column=0, sticky="w", padx=4)
            lab = tk.Label(f, text="–", bg=PANEL, fg=INK, font=font, anchor="w")
            lab.grid(row=i, column=1, sticky="ew", padx=4)
            self.engine_labels[key] = lab
        tk.Label(f, text=self.t("pv"), bg=PANEL, fg=INK, font=font).grid(row=4, column=0, sticky="nw",
                                                                        padx=4)
        w = SIDE_WIDTH - 110
        self.engine_labels["pv"] = FixedLines(f, 2, font, w, fg=INK)
        self.engine_labels["pv"].grid(row=4, column=1, sticky="ew", padx=4)
        self.engine_labels["played"] = FixedLines(f, 2, (self.family, 10), SIDE_WIDTH - 30, fg=MUTED)
        self.engine_labels["played"].grid(row=5, column=0, columnspan=2, sticky="ew", padx=4)

    # --- building: the menu bar ------------------------------------------------------

    def _build_menu(self) -> tk.Menu:
        t = self.t
        menu = tk.Menu(self.root)
        game = tk.Menu(menu, tearoff=False)
        game.add_command(label=t("new_game") + "…", command=self.new_game_dialog,
                         accelerator="Ctrl+N")
        game.add_command(label=t("again"), command=self.again)
        game.add_command(label=t("load_game"), command=self.load_dialog, accelerator="Ctrl+O")
        game.add_command(label=t("save_game"), command=self.save_dialog, accelerator="Ctrl+S")
        game.add_command(label=t("editor") + "…", command=self.open_editor)
        game.add_separator()
        game.add_command(label=t("copy_fen"), command=self.copy_fen)
        game.add_command(label=t("paste_fen"), command=self.paste_fen)
        game.add_command(label=t("copy_pgn"), command=self.copy_pgn)
        game.add_command(label=t("export_png"), command=self.export_png_dialog)
        game.add_command(label=t("export_svg"), command=self.export_svg_dialog)
        game.add_separator()
        self.app.add_shared_items(game)
        menu.add_cascade(label=t("menu_game"), menu=game)

        moves = tk.Menu(menu, tearoff=False)
        moves.add_command(label=t("undo"), command=self.undo, accelerator="Ctrl+Z")
        moves.add_command(label=t("redo"), command=self.redo, accelerator="Ctrl+Y")
        moves.add_command(label=t("hint"), command=self.hint)
        moves.add_command(label=t("flip"), command=self.flip)
        moves.add_separator()
        moves.add_command(label=t("resign"), command=self.resign)
        moves.add_command(label=t("offer_draw"), command=self.offer_draw)
        menu.add_cascade(label=t("menu_move"), menu=moves)

        comp = tk.Menu(menu, tearoff=False)
        self.level_vars: Dict[bool, tk.StringVar] = {}
        for color in (RED, BLACK):
            sub = tk.Menu(comp, tearoff=False)
            var = tk.StringVar(value=self.controller.levels[color])
            self.level_vars[color] = var
            for name in self._level_names():
                sub.add_radiobutton(label=level_label(name, self.lang, strength=True), value=name,
                                    variable=var,
                                    command=lambda c=color, v=var: self.set_level(c, v.get()))
            comp.add_cascade(label=t("computer_level", side=self.side_name(color)), menu=sub)
        comp.add_separator()
        self.analysis_var = tk.BooleanVar(value=self.controller.analysing)
        comp.add_checkbutton(label=t("analysis"), variable=self.analysis_var,
                             command=lambda: self.set_analysis(self.analysis_var.get()))
        comp.add_command(label=t("pause") + " / " + t("resume_play"), command=self.toggle_pause)
        comp.add_command(label=t("step"), command=self.step)
        comp.add_separator()
        pmenu = tk.Menu(comp, tearoff=False)
        self.ponder_var = tk.StringVar(value=self.settings.ponder)
        for mode in ("auto", "on", "off"):
            pmenu.add_radiobutton(label=t("ponder_" + mode), value=mode, variable=self.ponder_var,
                                  command=lambda m=mode: self.set_ponder(m))
        comp.add_cascade(label=t("ponder"), menu=pmenu)
        self.book_var = tk.BooleanVar(value=self.settings.book)
        comp.add_checkbutton(label=t("book"), variable=self.book_var,
                             command=lambda: self.set_book(self.book_var.get()))
        tmenu = tk.Menu(comp, tearoff=False)
        self.threads_var = tk.IntVar(value=self.settings.threads)
        for n in range(1, max(self.settings.threads, min(os.cpu_count() or 1, 8)) + 1):
            tmenu.add_radiobutton(label=str(n), value=n, variable=self.threads_var,
                                  command=lambda n=n: self.set_threads(n))
        comp.add_cascade(label=t("threads"), menu=tmenu)
        comp.add_separator()
        comp.add_command(label=t("ext_menu"), command=self.external_dialog_open)
        menu.add_cascade(label=t("menu_computer"), menu=comp)

        view = tk.Menu(menu, tearoff=False)
        self.engine_var = tk.BooleanVar(value=self.settings.show_engine)
        view.add_checkbutton(label=t("show_engine"), variable=self.engine_var,
                             command=lambda: self.show_engine(self.engine_var.get()))
        nmenu = tk.Menu(view, tearoff=False)
        self.notation_var = tk.StringVar(value=self.settings.notation)
        for n in NOTATIONS:
            nmenu.add_radiobutton(label=t("notation_" + n), value=n, variable=self.notation_var,
                                  command=lambda n=n: self.set_notation(n))
        view.add_cascade(label=t("notation"), menu=nmenu)
        smenu = tk.Menu(view, tearoff=False)
        self.style_var = tk.BooleanVar(value=self.settings.traditional)
        for value, key in ((False, "style_simplified"), (True, "style_traditional")):
            smenu.add_radiobutton(label=t(key), value=value, variable=self.style_var,
                                  command=lambda v=value: self.set_piece_style(v))
        view.add_cascade(label=t("piece_style"), menu=smenu)
        view.add_command(label=t("flip"), command=self.flip)
        menu.add_cascade(label=t("menu_view"), menu=view)

        helpm = tk.Menu(menu, tearoff=False)
        helpm.add_command(label=t("rules"), command=lambda: self.app.show("rules"))
        helpm.add_command(label=t("history"), command=lambda: self.app.show("history"))
        helpm.add_command(label=t("about"), command=lambda: dialogs.show_info(
            self.app, t("about"), t("about_text")))
        menu.add_cascade(label=t("menu_help"), menu=helpm)
        return menu

    # --- controller events -----------------------------------------------------------

    def _alive(self) -> bool:
        return self.frame is not None and not self.app._closed

    def _on_event(self, kind: str, data: Dict[str, Any]) -> None:
        if not self._alive():
            return
        if kind == "reset":
            self.canvas.clear_selection()
            self.canvas.redraw()
            self.set_message("")
            self.refresh()
        elif kind == "move":
            self.canvas.show_move(data["move"], data["captured"], data["check"])
            if data["check"]:
                self.app.play_sound("check")
            else:
                self.app.play_sound("capture" if data["captured"] is not None else "move")
            self.set_message("")
            self.refresh()
        elif kind == "over":
            self._game_over(data["outcome"])
        elif kind == "info":
            self.show_report(data["report"])
            self.draw_graph()
        elif kind == "hint":
            self.set_message(self.t("no_hint") if data["move"] is None else "")
            self.canvas.redraw()
            self.refresh_status()
        elif kind == "error":
            exc = data.get("exc")
            if isinstance(exc, ValueError) and "no external engine" in str(exc):
                text = self.t("err_no_external")
            else:
                text = self.t("engine_failed", err=data["message"])
            self.last_error = text
            self.set_message(text, 15)
            self.refresh_status()
        else:
            self.refresh_status()

    def set_message(self, text: str, seconds: float = MESSAGE_SECONDS) -> None:
        """A status message that belongs to the action that made it: the next
        move or new position clears it, and it expires after `seconds`."""
        self.message = text
        if self._message_job is not None:
            try:
                self.root.after_cancel(self._message_job)
            except tk.TclError:
                pass
            self._message_job = None
        if text:
            self._message_job = self.root.after(int(seconds * 1000), self.expire_message)
        if self._alive():
            self.message_box.set(text)

    def expire_message(self) -> None:
        self._message_job = None
        self.message = ""
        if self._alive():
            self.message_box.set("")

    def _on_illegal(self, move: Any) -> None:
        reason = self.controller.why_illegal(move)
        if reason is not None:
            self.set_message(self.t(reason))

    def _on_wait(self, preselected: bool) -> None:
        self.set_message(self.t("preselected" if preselected else "wait_computer"))

    # --- drawing the panel -------------------------------------------------------------

    def refresh(self) -> None:
        if not self._alive():
            return
        self.refresh_clocks()
        self.refresh_status()
        self.refresh_moves()
        self.show_report(self.controller.report)
        self.draw_graph()

    def refresh_status(self) -> None:
        if not self._alive():
            return
        c, t = self.controller, self.t
        side = self.side_name(c.board.turn)
        if c.review_ply is not None:
            text = t("reviewing", ply=c.review_ply) if c.review_ply else t("review_start")
            bg = "#6b5b3e"
        elif c.outcome is not None:
            text, bg = result_text(c.outcome, self.lang), "#2f5d3a"
        elif c.thinking is not None:
            text, bg = t("thinking", side=side), "#5a4632"
        elif c.analysing:
            text, bg = t("analysing", side=side), "#3d5a6b"
        else:
            text, bg = t("turn", side=side), ACCENT if c.board.turn == RED else "#2b2622"
            if c.board.is_check():
                text += " · " + t("check")
        if c.mode == CVC and c.paused and c.outcome is None:
            text += t("paused_suffix")
        self.status.configure(text=text, bg=bg)
        self.status_box.configure(bg=bg)
        self.substatus.set(self._mode_line())
        self._show_ponder_rate()
        self._layout_for_mode()
        names = self._level_names()
        for color in (RED, BLACK):
            box = self.level_boxes[color]
            level = c.levels[color]
            if level in names and box.current() != names.index(level):
                box.current(names.index(level))
            self.level_vars[color].set(level)
        if c.mode == CVC:
            self.pause_button.configure(text=t("resume_play") if c.paused else t("pause"))
        live = c.review_ply is None
        state = lambda ok: "normal" if ok else "disabled"   # noqa: E731
        undo_ok = bool(c.board.move_stack) and (c.mode != HVC or c.analysing or any(
            color == c.human_color for color in self._movers()))
        self.buttons["undo"].configure(state=state(undo_ok))
        self.buttons["redo"].configure(state=state(bool(c.redo_stack) and live))
        self.buttons["hint"].configure(state=state(c.human_to_move() and not c.busy
                                                   and not c.analysing))
        self.buttons["resign"].configure(state=state(c.outcome is None and self.game_started))
        self.buttons["offer_draw"].configure(state=state(c.outcome is None and c.mode != CVC
                                                         and not c.analysing))
        if live:
            self.live_button.pack_forget()
        elif not self.live_button.winfo_ismapped():
            self.live_button.pack(side="right", padx=4)
        self.analysis_var.set(c.analysing)

    def _movers(self) -> List[bool]:
        """The colour that played each move of the game."""
        c = self.controller
        first = c.start_board().turn
        return [first if i % 2 == 0 else not first for i in range(len(c.board.move_stack))]

    def _mode_line(self) -> str:
        c, t = self.controller, self.t
        if c.record_name:
            line = c.record_name
            players = c.players()
            return f"{line} · {players}" if players else line
        line = t("mode_" + c.mode)
        if c.mode == HVC:
            line += f" · {t('you')}: {self.side_name(c.human_color)}"
        if c.review_ply is not None:
            line += " · " + t("review_keys")
        return line

    def _layout_for_mode(self) -> None:
        """Shows the regions this mode uses: the levels of the computer sides,
        pause/step/speed for two computers, the graph and the engine box only
        where an engine plays or analyses (human vs human gets a longer move list)."""
        c = self.controller
        any_computer = False
        for i, color in enumerate((RED, BLACK)):
            shown = c.mode == CVC or (c.mode == HVC and color != c.human_color)
            any_computer |= shown
            for w in (self.level_labels[color], self.level_boxes[color]):
                if shown and not w.winfo_manager():
                    w.grid()
                elif not shown and w.winfo_manager():
                    w.grid_remove()
        if c.mode == CVC:
            self.cvc_frame.grid()
        else:
            self.cvc_frame.grid_remove()
        if any_computer:
            self.comp_frame.grid()
        else:
            self.comp_frame.grid_remove()
        self._engine_wanted = (any_computer or c.analysing) and self.settings.show_engine
        if self._fit_job is None:
            self._fit_job = self.side.after_idle(self._fit_side)

    def _fit_side(self) -> None:
        """Shows the engine box and the graph when wanted and there is room:
        in a small window they give way, the move list keeps its minimum.
        Runs after the mode's regions got their sizes."""
        self._fit_job = None
        if not self._alive() or not self.side.winfo_exists():
            return
        engine = self._engine_wanted
        room = self.side.winfo_height() - MIN_MOVES_HEIGHT - 12
        for w in (self.status_box, self.clock_frame, self.substatus.master, self.buttons["undo"].master,
                  self.comp_frame, self.live_button.master):
            if w.winfo_manager():
                room -= w.winfo_reqheight() + 10
        show_engine = engine and room >= self.engine_frame.winfo_reqheight()
        room -= self.engine_frame.winfo_reqheight() if show_engine else 0
        show_graph = engine and room >= self.graph.winfo_reqheight() + 4
        for w, shown in ((self.graph, show_graph), (self.engine_frame, show_engine)):
            if shown and not w.winfo_manager():
                w.grid()
            elif not shown and w.winfo_manager():
                w.grid_remove()

    def refresh_clocks(self) -> None:
        """The two clocks: the running one highlighted, red under 30 seconds."""
        if not self._alive():
            return
        c = self.controller
        if c.time_control is None:
            if self.clock_frame.winfo_manager():
                self.clock_frame.grid_remove()
            return
        if not self.clock_frame.winfo_manager():
            self.clock_frame.grid()
        for color, lab in self.clock_labels.items():
            left = c.remaining(color) or 0.0
            text = f"{self.side_name(color)} {clock_text(left)}"
            running = c.outcome is None and c.board.turn == color and c.clock_running
            if running:
                bg, fg = (ACCENT if color == RED else "#2b2622"), "white"
            else:
                bg, fg = "#efe2c8", ("#8a2a1a" if color == RED else INK)
            if left < 30:
                fg = "#ffe082" if running else "#d32f2f"
            if lab.cget("text") != text or lab.cget("bg") != bg or lab.cget("fg") != fg:
                lab.configure(text=text, bg=bg, fg=fg)

    def refresh_moves(self) -> None:
        """Rewrites the move list, highlights the shown half-move and keeps it
        (the newest move in a live game) in view."""
        c = self.controller
        text = self.moves
        texts = c.move_texts()
        start = c.start_board()
        number, red = start.fullmove_number, start.turn == RED
        text.configure(state="normal")
        text.delete("1.0", "end")
        for ply, move in enumerate(texts, 1):
            if red or ply == 1:
                if ply > 1:
                    text.insert("end", "\n")
                text.insert("end", f"{number:>3}.", ("num",))
                text.insert("end", "\t")
                if not red:
                    text.insert("end", "…\t")
            else:
                text.insert("end", "\t")
            text.insert("end", move, ("mv", f"p{ply}"))
            if not red:
                number += 1
            red = not red
        text.configure(state="disabled")
        self.move_count = len(texts)
        self._mark_shown()

    def _mark_shown(self) -> None:
        c = self.controller
        text = self.moves
        text.tag_remove("shown", "1.0", "end")
        ply = c.shown_ply()
        if ply > 0:
            ranges = text.tag_ranges(f"p{ply}")
            if ranges:
                text.tag_add("shown", ranges[0], ranges[1])
                text.see(ranges[1])
                text.xview_moveto(0)            # see() may scroll sideways: the numbers stay
                return
        text.see("1.0" if ply == 0 else "end")
        text.xview_moveto(0)

    def ply_at(self, x: int, y: int) -> Optional[int]:
        """The half-move written at (x, y) in the move list, or None."""
        for tag in self.moves.tag_names(f"@{x},{y}"):
            if tag.startswith("p") and tag[1:].isdigit():
                return int(tag[1:])
        return None

    def ply_xy(self, ply: int) -> Optional[tuple]:
        """Where the half-move `ply` is written in the move list (for tests)."""
        ranges = self.moves.tag_ranges(f"p{ply}")
        if not ranges:
            return None
        self.moves.see(ranges[0])
        box = self.moves.bbox(ranges[0])
        return None if box is None else (box[0] + 3, box[1] + box[3] // 2)

    def _on_moves_click(self, event: Any) -> None:
        ply = self.ply_at(event.x, event.y)
        if ply is not None:
            self.review(ply)

    def show_report(self, report: Any) -> None:
        if not self._alive():
            return
        labels = self.engine_labels
        self._show_ponder_rate()
        if report is None:
            for key in ("score", "depth", "nodes"):
                labels[key].configure(text="–")
            labels["pv"].set("–")
            labels["played"].set("")
            return
        if report.book:
            labels["score"].configure(text=self.t("book_move"))
            for key in ("depth", "nodes"):
                labels[key].configure(text="–")
            labels["pv"].set(" ".join(report.pv) or "–", words=True)
            labels["played"].set(f"{self.t('played')} {report.played}" if report.played else "")
            return
        if report.mate is not None:
            score = self.t("mate_in" if report.mate > 0 else "mated_in", n=abs(report.mate))
            score = ("+" if report.mate > 0 else "−") + " " + score
        else:
            score = f"{report.score / 100:+.2f}"
        labels["score"].configure(text=score)
        labels["depth"].configure(text=str(report.depth) if report.depth else "–")
        nodes = f"{report.nodes:,}" if report.nodes else "–"
        if report.nps:
            nodes += f"  ({report.nps / 1e6:.2f} M/s)"
        labels["nodes"].configure(text=nodes)
        labels["pv"].set(" ".join(report.pv) or "–", words=True)
        played = ""
        if report.played is not None:
            played = f"{self.t('played')} {report.played}"
            if report.best is not None:
                played += " · " + self.t("chosen_weaker", best=report.best)
        labels["played"].set(played)

    def _show_ponder_rate(self) -> None:
        """The engine box's ponder row: off, or this game's hit rate."""
        c = self.controller
        if not c.ponders():
            text = self.t("ponder_off")
        elif c.ponder_rate is None:
            text = "–"
        else:
            hits, total = c.ponder_rate
            text = self.t("ponder_rate", hits=hits, total=total, pct=round(100 * hits / total))
        label = self.engine_labels["ponder"]
        if label.cget("text") != text:
            label.configure(text=text)

    def draw_graph(self) -> None:
        """The evaluation after every ply, Red above the middle line."""
        if not self._alive():
            return
        g = self.graph
        g.delete("all")
        w, h = max(g.winfo_width(), 60), max(g.winfo_height(), 30)
        c = self.controller
        n = max(len(c.board.move_stack), 20)
        mid = h / 2
        g.create_line(0, mid, w, mid, fill="#d8c3a0")
        g.create_text(4, 3, text=self.t("graph"), anchor="nw", fill=MUTED, font=(self.family, 8))

        def xy(ply: int, score: int) -> tuple:
            return 4 + (w - 8) * ply / n, mid - (h / 2 - 4) * math.tanh(score / 500)

        points = sorted(c.evals.items())
        if len(points) >= 2:
            coords = [v for p, s in points for v in xy(p, s)]
            g.create_line(*coords, fill=ACCENT, width=2, tags=("evals",))
        for p, s in points:
            x, y = xy(p, s)
            g.create_oval(x - 1.5, y - 1.5, x + 1.5, y + 1.5, fill=ACCENT, outline="", tags=("evals",))
        x, _ = xy(c.shown_ply(), 0)
        g.create_line(x, 0, x, h, fill="#1565c0", dash=(2, 2))

    def _on_graph_click(self, event: Any) -> None:
        c = self.controller
        if not c.board.move_stack:
            return
        w = max(self.graph.winfo_width(), 60)
        n = max(len(c.board.move_stack), 20)
        ply = round((event.x - 4) * n / (w - 8))
        self.review(max(0, min(ply, len(c.board.move_stack))))

    def _update_title(self) -> None:
        title = self.t("title")
        c = self.controller
        if self.game_started and c.record_name:
            title += f" — {c.record_name}"
            players = c.players()
            if players:
                title += f" — {players}"
        self.root.title(title)

    # --- game over ------------------------------------------------------------------

    def _game_over(self, outcome: Any) -> None:
        c = self.controller
        if c.mode == HVC and outcome.winner is not None:
            self.app.play_sound("win" if outcome.winner == c.human_color else "loss")
        else:
            self.app.play_sound("draw" if outcome.winner is None else "win")
        self.refresh_status()
        self.root.after(450, lambda: self._open_over_dialog(outcome))

    def _open_over_dialog(self, outcome: Any) -> None:
        c = self.controller
        if not self._alive() or c.outcome != outcome or self._hidden or self.app.dialog is not None:
            return
        self.close_over_dialog()
        sub = ""
        if c.mode == HVC and outcome.winner is not None:
            sub = self.t("you_win" if outcome.winner == c.human_color else "you_lose")
        self.over_dialog = dialogs.GameOverDialog(
            self.app, result_text(outcome, self.lang), sub,
            [("again", self.t("again"), lambda: (self.close_over_dialog(), self.again())),
             ("review", self.t("review"), lambda: (self.close_over_dialog(),
                                                   self.review(len(c.board.move_stack)))),
             ("close", self.t("close"), self.close_over_dialog)],
            self.close_over_dialog)

    def close_over_dialog(self) -> None:
        if self.over_dialog is not None:
            try:
                self.over_dialog.destroy()
            except tk.TclError:
                pass
            self.over_dialog = None

    # --- actions: games --------------------------------------------------------------

    def start_game(self, mode: str, human_color: bool = RED,
                   levels: Optional[Dict[bool, str]] = None, time_control: Any = False,
                   fen: Optional[str] = None) -> None:
        """Starts a new game in `mode` and shows the board (time_control:
        (base, increment) seconds, None for no clocks, False to keep it)."""
        self.close_over_dialog()
        self.game_started = True
        if self.controller.analysing:
            self.controller.set_analysis(False)
        self.controller.new_game(mode=mode, human_color=human_color, levels=levels or {},
                                 time_control=time_control, fen=fen)
        self.flipped = self._default_flip()
        self.app.show("game")
        self.canvas.redraw()
        self.app.save_settings()

    def resume(self, game: Any) -> None:
        """Goes on with the autosaved game."""
        self.game_started = True
        self.controller.load_game(game)
        if self.controller.mode == CVC:
            self.controller.paused = True
        self.flipped = self._default_flip()
        self.app.show("game")

    def again(self) -> None:
        """再来一局: same mode, side and levels."""
        if not self.game_started:
            self.new_game_dialog()
            return
        if not self.confirm_leave("confirm_new"):
            return
        self.close_over_dialog()
        self.controller.new_game()
        self._update_title()
        self.app.show("game")

    def _default_flip(self) -> bool:
        c = self.controller
        if c.mode == HVC:
            return c.human_color == BLACK
        return self.settings.flipped

    def undo(self) -> None:
        if self.game_started and self.controller.undo():
            self.close_over_dialog()

    def redo(self) -> None:
        if self.game_started:
            self.controller.redo()

    def hint(self) -> None:
        if self.game_started and self.controller.hint():
            self.set_message(self.t("hint_thinking"))

    def flip(self) -> None:
        self.flipped = not self.flipped
        self.canvas.flipped = self.flipped
        if self.controller.mode != HVC:
            self.settings.flipped = self.flipped
        self.canvas.redraw()

    def resign(self) -> None:
        c = self.controller
        if c.outcome is not None or not self.game_started:
            return
        if c.mode == HVC:
            question = self.t("resign_q")
        else:
            question = self.t("resign_side_q", side=self.side_name(c.board.turn))
        if dialogs.ask_yes_no(self.app, self.t("resign"), question):
            c.resign()

    def offer_draw(self, answer: Optional[bool] = None) -> None:
        """Human vs human: the side to move offers a draw and the other
        answers; against the computer it decides by its evaluation."""
        c = self.controller
        if c.outcome is not None or c.mode == CVC:
            return
        if c.mode == HVC:
            result = c.offer_draw()
            if result:
                self.set_message(self.t("draw_accepted"))
            elif len(c.board.move_stack) < 40:
                self.set_message(self.t("draw_refused_short"))
            else:
                self.set_message(self.t("draw_refused"))
            return
        if answer is None:
            side = self.side_name(c.board.turn)
            other = self.side_name(not c.board.turn)
            answer = dialogs.ask_yes_no(self.app, self.t("offer_draw"),
                                        self.t("draw_offer_q", side=side, other=other))
        if answer:
            c.agree_draw()
        else:
            self.set_message(self.t("draw_declined"))

    def toggle_pause(self) -> None:
        c = self.controller
        if c.paused:
            c.resume()
        else:
            c.pause()

    def step(self) -> None:
        self.controller.step()

    def set_level(self, color: bool, level: str) -> None:
        try:
            self.controller.set_level(color, level)
        except ValueError as exc:
            self.report_error(exc)
            return
        self.app.save_settings()

    def set_analysis(self, on: bool) -> None:
        self.controller.set_analysis(on)
        self.refresh()

    def set_ponder(self, mode: str) -> None:
        """后台思考: "auto" (off at the easy levels), "on" or "off", remembered."""
        self.controller.set_ponder(mode)
        self.ponder_var.set(mode)
        self._show_ponder_rate()
        self.app.save_settings()

    def set_threads(self, threads: int) -> None:
        """搜索线程: cxiangqi's engine searches with this many threads, remembered."""
        self.controller.set_threads(threads)
        self.threads_var.set(threads)
        self.app.save_settings()

    def set_book(self, on: bool) -> None:
        """使用开局库: the computer opens from the book, remembered."""
        self.controller.set_book(on)
        self.book_var.set(bool(on))
        self.app.save_settings()

    def set_notation(self, notation: str) -> None:
        self.settings.notation = notation
        self.notation_var.set(notation)
        self.notation_box.current(NOTATIONS.index(notation))
        self.controller.report = None
        self.refresh()
        self.app.save_settings()

    def set_piece_style(self, traditional: bool) -> None:
        """Simplified (帅马车炮) or traditional (帥傌俥砲) characters, remembered."""
        self.settings.traditional = bool(traditional)
        self.style_var.set(bool(traditional))
        self.canvas.traditional = bool(traditional)
        self.canvas.redraw()
        self.refresh_moves()
        self.app.save_settings()

    def show_engine(self, on: bool) -> None:
        self.settings.show_engine = on
        self.engine_var.set(on)
        self._layout_for_mode()
        self.app.save_settings()

    # --- review ---------------------------------------------------------------------

    def review(self, ply: Optional[int]) -> None:
        self.controller.review(ply)
        self._mark_shown()
        self.draw_graph()

    def back_to_game(self) -> None:
        """Leaves review: the game goes on from its last position."""
        self.review(None)

    def review_key(self, key: str) -> None:
        """←/→ one half-move, Home/End the start/the end (the live game)."""
        c = self.controller
        if not self.game_started or self._hidden:
            return
        if key == "Left":
            c.step_review(-1)
        elif key == "Right":
            c.step_review(+1)
        elif key == "Home":
            c.review(0)
        elif key == "End":
            c.review(len(c.board.move_stack))
        self._mark_shown()
        self.draw_graph()

    # --- the new-game dialog ----------------------------------------------------------

    def new_game_dialog(self) -> None:
        """Mode; the human's side (against the computer); one level per
        computer side, shown only when that side is a computer; time control."""
        if self.ng_dialog is not None:
            try:
                self.ng_dialog.destroy()
            except tk.TclError:
                pass
        t, s = self.t, self.settings
        d = tk.Toplevel(self.root, bg=PANEL, padx=20, pady=14)
        d.title(t("new_game"))
        d.transient(self.root)
        d.resizable(False, False)
        mode = tk.StringVar(value=s.mode)
        side = tk.StringVar(value=s.human_color)
        names = self._level_names()
        labels = [level_label(n, self.lang, strength=True) for n in names]
        font = (self.family, 12)
        bold = (self.family, 13, "bold")
        tk.Label(d, text=t("mode"), bg=PANEL, fg=ACCENT, font=bold).grid(row=0, column=0, sticky="nw")
        modes = tk.Frame(d, bg=PANEL)
        modes.grid(row=0, column=1, columnspan=2, sticky="w")
        for m in (HVC, HVH, CVC):
            tk.Radiobutton(modes, text=t("mode_" + m), value=m, variable=mode, bg=PANEL, font=font,
                           activebackground=PANEL, highlightthickness=0,
                           command=lambda: update()).pack(anchor="w")
        side_label = tk.Label(d, text=t("your_side"), bg=PANEL, fg=ACCENT, font=bold)
        side_row = tk.Frame(d, bg=PANEL)
        for c in ("red", "black"):
            tk.Radiobutton(side_row, text=t(c), value=c, variable=side, bg=PANEL, font=font,
                           activebackground=PANEL, highlightthickness=0,
                           command=lambda: update()).pack(side="left", padx=(0, 12))
        width = chars_for(d, labels, (self.family, 11))
        level_rows: Dict[bool, tuple] = {}
        defaults = {RED: s.red_level, BLACK: s.black_level}
        if s.mode == HVC:
            defaults[BLACK if s.human_color == "red" else RED] = s.level
        for color in (RED, BLACK):
            lab = tk.Label(d, text=t("computer_level", side=self.side_name(color)), bg=PANEL, fg=INK,
                           font=font)
            box = ttk.Combobox(d, state="readonly", values=labels, width=width,
                               font=(self.family, 11))
            default = defaults[color]
            box.current(names.index(default) if default in names else names.index("normal"))
            ext = self.app.button(d, "ext_setup", lambda: self.external_dialog_open(parent=d))
            level_rows[color] = (lab, box, ext)

        tc_label = tk.Label(d, text=t("time_control"), bg=PANEL, fg=INK, font=font)
        tc_label.grid(row=6, column=0, sticky="w", pady=(6, 0))
        tc_labels = [t("tc_none")] + [
            t("tc_minutes", m=f"{b / 60:g}") if not i else t("tc_plus", m=f"{b / 60:g}", s=f"{i:g}")
            for b, i in TIME_PRESETS[1:]] + [t("tc_custom")]
        tc_box = ttk.Combobox(d, state="readonly", values=tc_labels,
                              width=chars_for(d, tc_labels, (self.family, 11)), font=(self.family, 11))
        try:
            current = parse_time_control(s.time_control)
        except ValueError:
            current = None
        base_var = tk.StringVar(value=f"{(current or (600.0, 0.0))[0] / 60:g}")
        inc_var = tk.StringVar(value=f"{(current or (600.0, 0.0))[1]:g}")
        tc_box.current(TIME_PRESETS.index(current) if current in TIME_PRESETS else len(TIME_PRESETS))
        tc_box.grid(row=6, column=1, columnspan=2, sticky="w", pady=(6, 0))
        custom = tk.Frame(d, bg=PANEL)
        tk.Label(custom, text=t("tc_base"), bg=PANEL, fg=INK, font=font).pack(side="left")
        tk.Spinbox(custom, from_=1, to=180, width=4, textvariable=base_var).pack(side="left", padx=4)
        tk.Label(custom, text=t("tc_inc"), bg=PANEL, fg=INK, font=font).pack(side="left")
        tk.Spinbox(custom, from_=0, to=60, width=4, textvariable=inc_var).pack(side="left", padx=4)

        def update(_event: Any = None) -> None:
            m = mode.get()
            if m == HVC:
                side_label.grid(row=1, column=0, sticky="w", pady=(6, 0))
                side_row.grid(row=1, column=1, columnspan=2, sticky="w", pady=(6, 0))
            else:
                side_label.grid_remove()
                side_row.grid_remove()
            human = RED if side.get() == "red" else BLACK
            for i, color in enumerate((RED, BLACK)):
                computer = m == CVC or (m == HVC and color != human)
                for j, w in enumerate(level_rows[color]):
                    if computer:
                        w.grid(row=2 + i, column=j, sticky="w", pady=2, padx=(0, 6))
                    else:
                        w.grid_remove()
            if tc_box.current() == len(TIME_PRESETS):
                custom.grid(row=7, column=0, columnspan=3, sticky="w", pady=2)
            else:
                custom.grid_remove()

        tc_box.bind("<<ComboboxSelected>>", update)
        update()
        self._new_game_widgets = {"time_control": tc_box, "base": base_var, "inc": inc_var,
                                  "mode": mode, "side": side,
                                  "levels": {c: row[1] for c, row in level_rows.items()},
                                  "level_rows": level_rows, "side_row": side_row, "update": update}

        def start() -> None:
            k = tc_box.current()
            if k < len(TIME_PRESETS):
                tc = TIME_PRESETS[k]
            else:
                try:
                    tc = parse_time_control(f"{base_var.get().strip()}+{inc_var.get().strip() or 0}")
                except ValueError as exc:
                    dialogs.show_error(self.app, t("time_control"),
                                       t("bad_time_control", err=self.app.error_message(exc)))
                    return
            m = mode.get()
            human = RED if side.get() == "red" else BLACK
            levels = {}
            for color in (RED, BLACK):
                if m == CVC or (m == HVC and color != human):
                    levels[color] = names[level_rows[color][1].current()]
            if not self.confirm_leave("confirm_new"):
                return
            close()
            try:
                self.start_game(m, human, levels, time_control=tc)
            except ValueError as exc:
                dialogs.show_error(self.app, t("new_game"), self.app.error_message(exc))

        def close() -> None:
            self.ng_dialog = None
            try:
                d.grab_release()
                d.destroy()
            except tk.TclError:
                pass

        row = tk.Frame(d, bg=PANEL)
        row.grid(row=8, column=0, columnspan=3, pady=(14, 0))
        self.app.button(row, "start", start).pack(side="left", padx=4)
        self.app.button(row, "cancel", close).pack(side="left", padx=4)
        d.bind("<Return>", lambda e: start())
        d.bind("<Escape>", lambda e: close())
        d.protocol("WM_DELETE_WINDOW", close)
        self.ng_dialog = d
        self._new_game_start = start
        self._modal_window(d)

    def _modal_window(self, d: tk.Toplevel) -> None:
        """Places `d`, grabs the input, and holds the game until it closes."""
        dialogs.place(d, self.root)
        for c in self.app.screens.values():
            c.controller.hold()
        previous = self.app.dialog
        self.app.dialog = d

        def released(event: Any) -> None:
            if event.widget is d:
                self.app.dialog = previous if previous is not d else None
                for c in self.app.screens.values():
                    c.controller.release()
                try:
                    if isinstance(previous, tk.Toplevel) and previous.winfo_exists():
                        previous.grab_set()         # back to the dialog this one came from
                except tk.TclError:
                    pass

        d.bind("<Destroy>", released, add="+")
        try:
            d.wait_visibility()
            d.grab_set()
        except tk.TclError:
            pass

    # --- external engine ---------------------------------------------------------------

    def external_dialog_open(self, parent: Optional[tk.Misc] = None) -> None:
        """电脑 → 外部引擎…: the program and protocol, a test, and using it."""
        t, s = self.t, self.settings
        if self.external_dialog is not None:
            try:
                self.external_dialog.destroy()
            except tk.TclError:
                pass
        d = tk.Toplevel(parent or self.root, bg=PANEL, padx=16, pady=12)
        d.title(t("ext_title"))
        d.transient(parent or self.root)
        font = (self.family, 11)
        tk.Label(d, text=t("ext_command"), bg=PANEL, fg=ACCENT,
                 font=(self.family, 12, "bold")).grid(row=0, column=0, columnspan=3, sticky="w")
        cmd = tk.StringVar(value=s.external_engine)
        entry = tk.Entry(d, textvariable=cmd, width=48, font=("TkFixedFont", 10))
        entry.grid(row=1, column=0, columnspan=2, sticky="ew", pady=4)

        def browse() -> None:
            path = dialogs.ask_open_filename(self.app, t("ext_command"), [(t("all_files"), "*")])
            if path:
                cmd.set(path)

        self.app.button(d, "ext_browse", browse).grid(row=1, column=2, padx=(6, 0))
        proto = tk.StringVar(value=s.external_protocol or "auto")
        row = tk.Frame(d, bg=PANEL)
        row.grid(row=2, column=0, columnspan=3, sticky="w", pady=4)
        tk.Label(row, text=t("ext_protocol"), bg=PANEL, fg=INK, font=font).pack(side="left")
        for value, label in (("auto", t("ext_auto")), ("uci", "UCI"), ("ucci", "UCCI")):
            tk.Radiobutton(row, text=label, value=value, variable=proto, bg=PANEL, font=font,
                           activebackground=PANEL, highlightthickness=0).pack(side="left", padx=4)
        result = tk.Label(d, text="" if s.external_engine else t("ext_none"), bg=PANEL, fg=INK,
                          font=font, wraplength=460, justify="left")
        result.grid(row=3, column=0, columnspan=3, sticky="w", pady=4)
        buttons = tk.Frame(d, bg=PANEL)
        buttons.grid(row=4, column=0, columnspan=3, pady=(8, 0))

        def save(use: bool) -> None:
            d.destroy()
            self.external_dialog = None
            self.set_external_engine(cmd.get(), proto.get(), use=use)

        self.app.button(buttons, "ext_test", lambda: self.test_external_engine(
            cmd.get(), proto.get(), result)).pack(side="left", padx=3)
        self.app.button(buttons, "ext_save", lambda: save(False)).pack(side="left", padx=3)
        self.app.button(buttons, "ext_use", lambda: save(True)).pack(side="left", padx=3)
        self.app.button(buttons, "cancel", d.destroy).pack(side="left", padx=3)
        self.external_dialog = d
        self._external_vars = {"command": cmd, "protocol": proto, "result": result}
        self._modal_window(d)

    def test_external_engine(self, command: str, protocol: str = "auto",
                             label: Optional[tk.Label] = None,
                             done: Optional[Callable[[bool, str], None]] = None) -> None:
        """Starts the engine in a worker thread (the handshake may take a few
        seconds), then reports: a label text and an info or error dialog."""
        box: Dict[str, Any] = {}

        def work() -> None:
            try:
                box["ok"] = probe_external_engine(command, protocol)
            except Exception as exc:      # EngineError, OSError, ValueError, ...
                box["err"] = error_detail(exc)

        thread = threading.Thread(target=work, daemon=True, name="cxiangqi-probe")
        thread.start()
        if label is not None:
            label.configure(text=self.t("ext_testing"), fg=INK)

        def check() -> None:
            if thread.is_alive():
                self.root.after(50, check)
                return
            ok = "ok" in box
            text = self.t("ext_ok", name=box["ok"]) if ok else self.t("ext_failed", err=box["err"])
            try:
                if label is not None and label.winfo_exists():
                    label.configure(text=text, fg="#2f5d3a" if ok else ACCENT)
            except tk.TclError:
                pass
            self.last_external_test = (ok, text)
            if done is not None:
                done(ok, text)
            elif ok:
                dialogs.show_info(self.app, self.t("ext_title"), text)
            else:
                dialogs.show_error(self.app, self.t("ext_title"), text)

        self.root.after(50, check)

    def set_external_engine(self, command: str, protocol: str = "auto", use: bool = False) -> None:
        """Stores the engine (and with `use`, makes it the computer's level)."""
        c = self.controller
        c.set_external_engine(command, protocol)
        self.app.rebuild()                    # the level lists gain or lose "external"
        if use and command.strip():
            if c.mode == HVC and self.game_started:
                c.set_level(not c.human_color, EXTERNAL)
            else:
                self.settings.level = EXTERNAL
        elif not command.strip():
            for color in (RED, BLACK):
                if c.levels[color] == EXTERNAL:
                    c.set_level(color, "normal")
            if self.settings.level == EXTERNAL:
                self.settings.level = "normal"
        self.app.save_settings()
        if self.ng_dialog is not None:
            self.new_game_dialog()

    # --- records --------------------------------------------------------------------

    def save_dialog(self) -> None:
        if not self.game_started:
            return
        path = dialogs.ask_save_filename(self.app, self.t("save_game"),
                                         [(self.t("pgn_files"), "*.pgn"), (self.t("all_files"), "*")],
                                         ".pgn", "game.pgn")
        if path:
            self.save_to(path)

    def save_to(self, path: str, show_errors: bool = True) -> bool:
        try:
            self.controller.save_pgn(path)
        except (OSError, ValueError) as exc:
            self.last_error = self.app.error_message(exc)
            if show_errors:
                dialogs.show_error(self.app, self.t("save_failed"), self.last_error)
            return False
        self.set_message(self.t("saved", path=Path(path).name))
        return True

    def load_dialog(self) -> None:
        if not self.confirm_leave("confirm_load"):
            return
        path = dialogs.ask_open_filename(self.app, self.t("load_game"), files.open_filetypes(self.t))
        if path:
            self.load_from(path)

    def load_from(self, path: str, show_errors: bool = True) -> bool:
        """Opens a record of any format (told by its content); a record from
        elsewhere opens in review at its start."""
        try:
            opened = files.open_record(path)
            self.controller.load_game(opened.game, name=Path(path).name)
        except (OSError, ValueError) as exc:
            self.last_error = self.app.error_message(exc)
            if show_errors:
                dialogs.show_error(self.app, self.t("load_failed"), self.last_error)
            return False
        self.game_started = True
        self.close_over_dialog()
        self.flipped = self._default_flip()
        self.app.show("game")
        self.canvas.redraw()
        if opened.count > 1:      # a CBL library or a PGN of several games: the first opens
            self.set_message(self.t("loaded_many", name=Path(path).name, count=opened.count))
        else:
            self.set_message(self.t("loaded", name=Path(path).name))
        return True

    def copy_fen(self) -> None:
        self.root.clipboard_clear()
        self.root.clipboard_append(self.controller.fen())
        self.set_message(self.t("fen_copied"))

    def copy_pgn(self) -> None:
        if not self.game_started:
            return
        self.root.clipboard_clear()
        self.root.clipboard_append(self.controller.pgn_text())
        self.set_message(self.t("pgn_copied"))

    def paste_fen(self, text: Optional[str] = None) -> bool:
        if text is None:
            try:
                text = self.root.clipboard_get()
            except tk.TclError:
                text = ""
        try:
            Board(text.strip())
        except ValueError as exc:
            self.last_error = self.app.error_message(exc)
            dialogs.show_error(self.app, self.t("paste_fen"), self.last_error)
            return False
        if not self.confirm_leave("confirm_new"):
            return False
        self.game_started = True
        self.controller.set_fen(text)
        self._update_title()
        self.app.show("game")
        self.set_message(self.t("fen_pasted"))
        return True

    def export_svg(self, path: str) -> bool:
        """Writes the shown position as an SVG picture (cxiangqi.svg)."""
        from cxiangqi import svg
        c = self.controller
        board = c.shown_board()
        try:
            text = svg.board(board, orientation=BLACK if self.flipped else RED,
                             lastmove=c.last_move(), size=540)
            Path(path).write_text(text, encoding="utf-8")
        except (OSError, ValueError) as exc:
            self.last_error = self.app.error_message(exc)
            dialogs.show_error(self.app, self.t("export_failed"), self.last_error)
            return False
        self.set_message(self.t("exported", path=Path(path).name))
        return True

    def export_svg_dialog(self) -> None:
        path = dialogs.ask_save_filename(self.app, self.t("export_svg"),
                                         [(self.t("svg_files"), "*.svg")], ".svg", "position.svg")
        if path:
            self.export_svg(path)

    def export_png(self, path: str) -> bool:
        """Writes the board as drawn on the screen as a PNG picture."""
        from ..tools.grab import grab_png
        self.root.update()
        try:
            grab_png(self.canvas, path)
        except (OSError, ValueError, RuntimeError) as exc:
            self.last_error = self.t("png_unavailable") + "\n" + self.app.error_message(exc)
            dialogs.show_error(self.app, self.t("export_failed"), self.last_error)
            return False
        self.set_message(self.t("exported", path=Path(path).name))
        return True

    def export_png_dialog(self) -> None:
        path = dialogs.ask_save_filename(self.app, self.t("export_png"),
                                         [(self.t("png_files"), "*.png")], ".png", "position.png")
        if path:
            self.root.after(150, lambda: self.export_png(path))

    # --- the position editor ---------------------------------------------------------

    def open_editor(self) -> None:
        """Game → 摆棋: the editor starts from the position shown now."""
        from .editor import open_editor
        open_editor(self, self.controller.shown_board().fen())

    def play_from(self, fen: str, analyse: bool = False) -> bool:
        """Starts a game (or the analysis) from a position set up in the editor."""
        if not self.confirm_leave("confirm_new"):
            return False
        c = self.controller
        mode = HVH if analyse else c.mode
        self.start_game(mode, c.human_color, time_control=False, fen=fen)
        if analyse:
            self.set_analysis(True)
        return True
