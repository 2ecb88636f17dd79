"""The Tk application: welcome screen and main menu, the game screen (board,
side panel with status, buttons, move list and engine panel), the rules and
history pages, dialogs, menus and sounds.

All game logic lives in controller.GameController; this module draws what
it reports and forwards the player's actions.  The controller is polled with
``after()``; the engine thinks in a worker thread, so the window stays live.
"""

from __future__ import annotations

import tkinter as tk
import tkinter.font as tkfont
from pathlib import Path
from tkinter import filedialog, messagebox, ttk
from typing import Any, Callable, Dict, List, Optional

from cxiangqi import BLACK, RED, Piece

from . import pages
from .board_canvas import BoardCanvas, cjk_family, draw_piece
from .controller import (CVC, EXTERNAL, HVC, HVH, GameController, clock_text, color_name,
                         level_label, probe_external_engine, parse_time_control, result_text)
from .i18n import tr
from .settings import LEVEL_NAMES, Settings
from .sounds import SoundPlayer

BG = "#3b2a1e"            # walnut window background
PANEL = "#f5ead6"         # paper side panel
INK = "#3a2412"
ACCENT = "#a8321e"
BUTTON = "#8b4a26"
BUTTON_HOT = "#a65a30"

POLL_MS = 20

# Other games for the main menu: name key -> "module:function" opened with the
# App, or None while not available (the gomoku issue fills in its entry).
GAMES: Dict[str, Optional[str]] = {"gomoku": "pyfrontend.gomoku:open_game"}


def _game_entry(key: str) -> Optional[Callable[["App"], None]]:
    target = GAMES.get(key)
    if not target:
        return None
    module, _, func = target.partition(":")
    try:
        import importlib
        return getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError):
        return None


class App:
    """The whole desktop game in one Tk root window."""

    def __init__(self, root: tk.Tk, settings: Optional[Settings] = None, *,
                 settings_path: Optional[Path] = None, autosave_path: Optional[Path] = None,
                 sounds: Optional[SoundPlayer] = None, engine_factory=None) -> None:
        self.root = root
        self.settings = settings or Settings.load(settings_path)
        self.settings_path = settings_path
        self.autosave_path = autosave_path
        self.sounds = sounds or SoundPlayer(self.settings.sound)
        self.sounds.enabled = self.settings.sound
        self.controller = GameController(self.settings, engine_factory=engine_factory)
        self.controller.subscribe(self._on_event)
        self.game_started = False
        self.screen = "welcome"
        self.previous_screen = "welcome"
        self.over_dialog: Optional[tk.Toplevel] = None
        self.new_game_dialog: Optional[tk.Toplevel] = None
        self.page: Optional[pages.ScrollPage] = None
        self.message = ""
        self._closed = False
        # other games' screens (gomoku): name -> object with show(container), hide(),
        # poll(), close(), undo(), again(), save_dialog(), load_dialog(), new_game_dialog()
        self.extra_screens: Dict[str, Any] = {}
        self.resume_game = GameController.read_autosave(autosave_path)
        root.title(tr("title", self.lang))
        root.configure(bg=BG)
        root.geometry(f"{self.settings.width}x{self.settings.height}")
        root.minsize(640, 520)
        root.protocol("WM_DELETE_WINDOW", self.quit)
        self._init_style()
        self._build()
        self.show("welcome")
        self._bind_keys()
        self._tick()

    # --- basics ----------------------------------------------------------------

    @property
    def lang(self) -> str:
        return self.settings.language

    def t(self, key: str, **fields: Any) -> str:
        return tr(key, self.lang, **fields)

    def _init_style(self) -> None:
        self._pick_family()
        style = ttk.Style(self.root)
        try:
            if style.theme_use() != "clam":
                style.theme_use("clam")
                self.root.update_idletasks()     # let Tk's ThemeChanged run now, not at exit
        except tk.TclError:
            pass
        style.configure("Moves.Treeview", background="#fffaf0", fieldbackground="#fffaf0",
                        foreground=INK, font=(self.family, 12), rowheight=24, borderwidth=0)
        style.configure("Moves.Treeview.Heading", font=(self.family, 11), background="#e8d5b0",
                        foreground=INK, relief="flat")
        style.map("Moves.Treeview", background=[("selected", "#d9b77a")],
                  foreground=[("selected", INK)])
        style.configure("TCombobox", padding=2)

    def play_sound(self, name: str) -> None:
        self.sounds.play(name)

    def _tick(self) -> None:
        if self._closed:
            return
        if self.game_started:
            try:
                self.controller.poll()
            except Exception as exc:       # never let a bad answer kill the loop
                self._set_message(str(exc))
        if self.screen == "game":
            self.refresh_clocks()
        for screen in list(self.extra_screens.values()):
            try:
                screen.poll()
            except Exception as exc:
                self._set_message(str(exc))
        self.root.after(POLL_MS, self._tick)

    def _extra(self) -> Any:
        """The other game's screen when it is showing, else None."""
        return self.extra_screens.get(self.screen)

    def _bind_keys(self) -> None:
        r = self.root
        r.bind_all("<Control-z>", lambda e: self.undo())
        r.bind_all("<Control-y>", lambda e: self.redo())
        r.bind_all("<Control-s>", lambda e: self.save_dialog())
        r.bind_all("<Control-o>", lambda e: self.load_dialog())
        r.bind_all("<Control-n>", lambda e: self.new_game_dialog_open())

    # --- building -----------------------------------------------------------------

    def _pick_family(self) -> None:
        """Chinese labels in the Kai font; English ones in a plain sans font."""
        self.family = cjk_family(self.root)
        if self.lang == "en":
            families = set(tkfont.families(self.root))
            self.family = next((f for f in ("DejaVu Sans", "Helvetica", "Arial", "Segoe UI")
                                if f in families), self.family)

    def _build(self) -> None:
        """(Re)builds menus and screens, e.g. after a language change."""
        self._pick_family()
        for child in self.root.winfo_children():
            if not isinstance(child, tk.Toplevel):
                child.destroy()
        self.root.title(tr("title", self.lang))
        self._build_menu()
        self.container = tk.Frame(self.root, bg=BG)
        self.container.pack(fill="both", expand=True)
        self.welcome = self._build_welcome(self.container)
        self.game = self._build_game(self.container)
        self.page = None

    def _button(self, master: tk.Misc, key: str, command: Callable[[], Any], *, big: bool = False,
                width: Optional[int] = None, text: Optional[str] = None) -> tk.Button:
        b = tk.Button(master, text=text or self.t(key), command=command, relief="flat", bd=0,
                      bg=BUTTON, fg="white", activebackground=BUTTON_HOT, activeforeground="white",
                      disabledforeground="#c9b79c", cursor="hand2",
                      font=(self.family, 17 if big else 12), padx=14 if big else 6,
                      pady=7 if big else 4)
        if width:
            b.configure(width=width)
        return b

    def add_shared_items(self, game: tk.Menu) -> None:
        """The items every game's Game menu ends with: sound, language, main
        menu, quit.  One pair of Tk variables serves every menu, so a
        change made in one shows in the others."""
        t = self.t
        if getattr(self, "sound_var", None) is None:
            self.sound_var = tk.BooleanVar(value=self.settings.sound)
            self.lang_var = tk.StringVar(value=self.lang)
        self.lang_var.set(self.lang)
        game.add_checkbutton(label=t("sound"), variable=self.sound_var,
                             command=lambda: self.set_sound(self.sound_var.get()))
        lang_menu = tk.Menu(game, tearoff=False)
        lang_menu.add_radiobutton(label="中文", value="zh", variable=self.lang_var,
                                  command=lambda: self.set_language("zh"))
        lang_menu.add_radiobutton(label="English", value="en", variable=self.lang_var,
                                  command=lambda: self.set_language("en"))
        game.add_cascade(label=t("language"), menu=lang_menu)
        game.add_separator()
        game.add_command(label=t("main_menu"), command=lambda: self.show("welcome"))
        game.add_command(label=t("quit"), command=self.quit)

    def _build_menu(self) -> None:
        t = self.t
        menu = tk.Menu(self.root)
        game = tk.Menu(menu, tearoff=False)
        game.add_command(label=t("new_game") + "…", command=self.new_game_dialog_open,
                         accelerator="Ctrl+N")
        game.add_command(label=t("again"), command=self.again)
        game.add_command(label=t("load_game"), command=self.load_dialog, accelerator="Ctrl+O")
        game.add_command(label=t("save_game"), command=self.save_dialog, accelerator="Ctrl+S")
        game.add_separator()
        game.add_command(label=t("copy_fen"), command=self.copy_fen)
        game.add_command(label=t("paste_fen"), command=self.paste_fen)
        game.add_separator()
        self.add_shared_items(game)
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
        self.level_vars = {}
        for color in (RED, BLACK):
            sub = tk.Menu(comp, tearoff=False)
            var = tk.StringVar(value=self.controller.levels[color])
            self.level_vars[color] = var
            for name in self._level_names():
                sub.add_radiobutton(label=level_label(name, self.lang), value=name, variable=var,
                                    command=lambda c=color, v=var: self.set_level(c, v.get()))
            comp.add_cascade(label=t("red_level" if color == RED else "black_level"), menu=sub)
        comp.add_separator()
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
        comp.add_separator()
        comp.add_command(label=t("ext_menu"), command=self.external_dialog_open)
        menu.add_cascade(label=t("menu_computer"), menu=comp)

        view = tk.Menu(menu, tearoff=False)
        self.engine_var = tk.BooleanVar(value=self.settings.show_engine)
        view.add_checkbutton(label=t("show_engine"), variable=self.engine_var,
                             command=lambda: self.show_engine(self.engine_var.get()))
        nmenu = tk.Menu(view, tearoff=False)
        self.notation_var = tk.StringVar(value=self.settings.notation)
        for n in ("chinese", "wxf", "iccs"):
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
        helpm.add_command(label=t("rules"), command=lambda: self.show("rules"))
        helpm.add_command(label=t("history"), command=lambda: self.show("history"))
        helpm.add_command(label=t("about"), command=lambda: messagebox.showinfo(
            t("about"), t("about_text"), parent=self.root))
        menu.add_cascade(label=t("menu_help"), menu=helpm)
        self.root.configure(menu=menu)
        self.menubar = menu

    def _level_names(self) -> List[str]:
        names = list(LEVEL_NAMES)
        if self.settings.external_engine:
            names.append(EXTERNAL)
        return names

    # --- welcome screen -------------------------------------------------------------

    def _build_welcome(self, master: tk.Misc) -> tk.Frame:
        frame = tk.Frame(master, bg=BG)
        cv = tk.Canvas(frame, bg=BG, highlightthickness=0)
        cv.place(relx=0, rely=0, relwidth=1, relheight=1)
        self.welcome_canvas = cv
        box = tk.Frame(frame, bg=BG)
        box.place(relx=0.5, rely=0.56, anchor="center")
        self.welcome_buttons: Dict[str, tk.Button] = {}

        def add(key: str, command: Callable[[], Any], text: Optional[str] = None) -> tk.Button:
            b = self._button(box, key, command, big=True, width=17, text=text)
            b.pack(pady=5)
            self.welcome_buttons[key] = b
            return b

        if self.resume_game is not None:
            n = len(list(self.resume_game.mainline_moves()))
            tk.Label(box, text=self.t("resume_q", n=n), bg=BG, fg="#f0d9a8",
                     font=(self.family, 11), wraplength=380).pack(pady=(0, 4))
            add("resume", self.resume_last).configure(bg=ACCENT)
        add("new_game", self.new_game_dialog_open)
        add("load_game", self.load_dialog)
        add("rules", lambda: self.show("rules"))
        add("history", lambda: self.show("history"))
        gomoku = _game_entry("gomoku")
        b = add("gomoku", (lambda: gomoku(self)) if gomoku else (lambda: None),
                text=self.t("gomoku") + ("" if gomoku else f"（{self.t('coming_soon')}）"))
        if gomoku is None:
            b.configure(state="disabled")
        add("sound", self.toggle_sound, text=self.t("sound_on" if self.settings.sound else "sound_off"))
        add("language", lambda: self.set_language("en" if self.lang == "zh" else "zh"),
            text="English" if self.lang == "zh" else "中文")
        add("quit", self.quit)
        cv.bind("<Configure>", self._draw_welcome)
        return frame

    def _draw_welcome(self, _event=None) -> None:
        cv = self.welcome_canvas
        cv.delete("all")
        w, h = cv.winfo_width(), cv.winfo_height()
        # a dark wood gradient
        steps = 24
        for i in range(steps):
            k = i / steps
            col = "#%02x%02x%02x" % (int(0x4a - 0x18 * k), int(0x33 - 0x10 * k), int(0x22 - 0x0c * k))
            cv.create_rectangle(0, h * i / steps, w, h * (i + 1) / steps + 1, fill=col, outline="")
        title_size = max(28, min(72, int(h * 0.085)))
        y = h * 0.13
        cv.create_text(w / 2 + 3, y + 3, text=self.t("title"), font=(self.family, -title_size),
                       fill="#1c120a")
        title = cv.create_text(w / 2, y, text=self.t("title"), font=(self.family, -title_size),
                               fill="#f3d9a4")
        cv.create_text(w / 2, y + title_size * 0.85, text=self.t("subtitle"),
                       font=(self.family, -max(12, title_size // 3)), fill="#d9b98a")
        r = max(26, min(60, h * 0.07))
        bbox = cv.bbox(title)                 # the discs sit beside the title, never on it
        half = max(3.6 * r, (bbox[2] - bbox[0]) / 2 + 1.4 * r) if bbox else 3.6 * r
        draw_piece(cv, w / 2 - half, y, r, Piece.from_symbol("K"), ("deco",))
        draw_piece(cv, w / 2 + half, y, r, Piece.from_symbol("k"), ("deco",))

    # --- game screen -----------------------------------------------------------------

    def _build_game(self, master: tk.Misc) -> tk.Frame:
        t = self.t
        frame = tk.Frame(master, bg=BG)
        frame.columnconfigure(0, weight=1)
        frame.rowconfigure(0, weight=1)
        self.canvas = BoardCanvas(frame, self.controller, play_sound=self.play_sound,
                                  lang=lambda: self.lang, check_text=lambda: self.t("check"), bg=BG)
        self.canvas.flipped = self._default_flip()
        self.canvas.traditional = self.settings.traditional
        self.canvas.grid(row=0, column=0, sticky="nsew", padx=(8, 4), pady=8)
        side = tk.Frame(frame, bg=PANEL, width=300)
        side.grid(row=0, column=1, sticky="ns", padx=(4, 8), pady=8)
        side.grid_propagate(False)
        side.columnconfigure(0, weight=1)
        side.rowconfigure(5, weight=1)
        self.side = side

        self.status = tk.Label(side, text="", bg=ACCENT, fg="white", font=(self.family, 15),
                               pady=8, wraplength=280)
        self.status.grid(row=0, column=0, sticky="ew")
        top = tk.Frame(side, bg=PANEL)
        top.grid(row=1, column=0, sticky="ew")
        # the clocks (shown only with a time control)
        self.clock_frame = tk.Frame(top, bg=PANEL)
        self.clock_labels: Dict[bool, tk.Label] = {}
        for i, color in enumerate((RED, BLACK)):
            lab = tk.Label(self.clock_frame, text="", font=(self.family, 16, "bold"), bd=1,
                           relief="solid", padx=4, pady=3)
            lab.grid(row=0, column=i, sticky="ew", padx=3, pady=(6, 0))
            self.clock_frame.columnconfigure(i, weight=1, uniform="clock")
            self.clock_labels[color] = lab
        self.substatus = tk.Label(top, text="", bg=PANEL, fg=INK, font=(self.family, 10),
                                  wraplength=280, justify="left")
        self.substatus.pack(side="bottom", fill="x", padx=8, pady=(4, 0))

        buttons = tk.Frame(side, bg=PANEL)
        buttons.grid(row=2, column=0, sticky="ew", padx=8, pady=6)
        self.buttons: Dict[str, tk.Button] = {}
        specs = [("undo", self.undo), ("redo", self.redo), ("hint", self.hint), ("flip", self.flip),
                 ("resign", self.resign), ("offer_draw", self.offer_draw), ("again", self.again),
                 ("main_menu", lambda: self.show("welcome"))]
        for i, (key, cmd) in enumerate(specs):
            b = self._button(buttons, key, cmd)
            b.grid(row=i // 2, column=i % 2, sticky="ew", padx=2, pady=2)
            self.buttons[key] = b
        buttons.columnconfigure(0, weight=1)
        buttons.columnconfigure(1, weight=1)

        # computer controls: levels, and for computer vs computer pause/step/speed
        self.comp_frame = tk.Frame(side, bg=PANEL)
        self.comp_frame.grid(row=3, column=0, sticky="ew", padx=8)
        self.level_boxes: Dict[bool, ttk.Combobox] = {}
        self.level_labels: Dict[bool, tk.Label] = {}
        names = self._level_names()
        for i, color in enumerate((RED, BLACK)):
            lab = tk.Label(self.comp_frame, text="", bg=PANEL, fg=INK, font=(self.family, 10))
            box = ttk.Combobox(self.comp_frame, state="readonly", width=10,
                               values=[level_label(n, self.lang) for n in names])
            box.bind("<<ComboboxSelected>>",
                     lambda e, c=color, b=box: self.set_level(c, names[b.current()]))
            self.level_labels[color] = lab
            self.level_boxes[color] = box
            lab.grid(row=i, column=0, sticky="w")
            box.grid(row=i, column=1, sticky="ew", pady=1)
        self.comp_frame.columnconfigure(1, weight=1)
        self.cvc_frame = tk.Frame(self.comp_frame, bg=PANEL)
        self.cvc_frame.grid(row=2, column=0, columnspan=2, sticky="ew", pady=2)
        self.pause_button = self._button(self.cvc_frame, "pause", self.toggle_pause)
        self.pause_button.pack(side="left", padx=2)
        self.step_button = self._button(self.cvc_frame, "step", self.step)
        self.step_button.pack(side="left", padx=2)
        tk.Label(self.cvc_frame, text=t("speed"), bg=PANEL, fg=INK,
                 font=(self.family, 10)).pack(side="left", padx=(6, 0))
        self.speed = tk.Scale(self.cvc_frame, from_=0, to=100, orient="horizontal", showvalue=False,
                              bg=PANEL, highlightthickness=0, troughcolor="#e0c9a0", length=90,
                              command=lambda v: self.controller.set_delay(2.0 * (1 - int(v) / 100)))
        self.speed.set(int(100 * (1 - min(2.0, self.controller.cvc_delay) / 2.0)))
        self.speed.pack(side="left", fill="x", expand=True)

        # move list
        head = tk.Frame(side, bg=PANEL)
        head.grid(row=4, column=0, sticky="ew", padx=8, pady=(6, 0))
        tk.Label(head, text=t("moves"), bg=PANEL, fg=ACCENT, font=(self.family, 13, "bold")).pack(side="left")
        self.notation_box = ttk.Combobox(head, state="readonly", width=7,
                                         values=[t("notation_" + n) for n in ("chinese", "wxf", "iccs")])
        self.notation_box.current(("chinese", "wxf", "iccs").index(self.settings.notation))
        self.notation_box.bind("<<ComboboxSelected>>", lambda e: self.set_notation(
            ("chinese", "wxf", "iccs")[self.notation_box.current()]))
        self.notation_box.pack(side="right")
        self.live_button = self._button(head, "back_to_game", lambda: self.controller.review(None))
        self.live_button.pack(side="right", padx=4)
        lst = tk.Frame(side, bg=PANEL)
        lst.grid(row=5, column=0, sticky="nsew", padx=8, pady=4)
        self.moves = ttk.Treeview(lst, columns=("n", "red", "black"), show="headings",
                                  style="Moves.Treeview", selectmode="browse", height=8)
        for col, text, width in (("n", "#", 34), ("red", t("red"), 110), ("black", t("black"), 110)):
            self.moves.heading(col, text=text)
            self.moves.column(col, width=width, anchor="center" if col == "n" else "w", stretch=col != "n")
        sb = ttk.Scrollbar(lst, orient="vertical", command=self.moves.yview)
        self.moves.configure(yscrollcommand=sb.set)
        self.moves.pack(side="left", fill="both", expand=True)
        sb.pack(side="right", fill="y")
        self.moves.bind("<ButtonRelease-1>", self._on_moves_click)

        # engine panel
        self.engine_frame = tk.LabelFrame(side, text=t("engine_panel"), bg=PANEL, fg=ACCENT,
                                          font=(self.family, 11, "bold"), bd=1, relief="groove")
        self.engine_frame.columnconfigure(1, weight=1)
        self.engine_labels: Dict[str, tk.Label] = {}
        for i, key in enumerate(("score", "depth", "nodes", "pv", "ponder")):
            tk.Label(self.engine_frame, text=t(key), bg=PANEL, fg=INK,
                     font=(self.family, 10)).grid(row=i, column=0, sticky="nw", padx=4)
            lab = tk.Label(self.engine_frame, text="–", bg=PANEL, fg=INK, font=(self.family, 10),
                           wraplength=175, justify="left", anchor="w")
            lab.grid(row=i, column=1, sticky="ew", padx=4)
            self.engine_labels[key] = lab
        if self.settings.show_engine:
            self.engine_frame.grid(row=6, column=0, sticky="ew", padx=8, pady=(0, 8))
        return frame

    def _default_flip(self) -> bool:
        c = self.controller
        if c.mode == HVC:
            return c.human_color == BLACK
        return self.settings.flipped

    # --- screens ------------------------------------------------------------------------

    def show(self, screen: str) -> None:
        """Shows "welcome", "game", "rules" or "history"."""
        if screen in ("rules", "history"):
            self.previous_screen = self.screen if self.screen in ("welcome", "game") else "welcome"
        for w in (self.welcome, self.game):
            w.pack_forget()
        if self.page is not None:
            self.page.destroy()
            self.page = None
        for extra in self.extra_screens.values():
            extra.hide()
        if screen == "game" and not self.game_started:
            screen = "welcome"
        self.screen = screen
        if screen in self.extra_screens:
            self.extra_screens[screen].show(self.container)
            return
        self.root.configure(menu=self.menubar)
        if screen == "welcome":
            self.welcome.pack(fill="both", expand=True)
        elif screen == "game":
            self.game.pack(fill="both", expand=True)
            self.refresh()
        else:
            make = pages.rules_page if screen == "rules" else pages.history_page
            self.page = make(self.container, self.lang, self.t(screen), self.t("back"),
                             lambda: self.show(self.previous_screen))
            self.page.pack(fill="both", expand=True)

    # --- controller events -----------------------------------------------------------------

    def _on_event(self, kind: str, data: Dict[str, Any]) -> None:
        if self._closed:
            return
        if kind == "reset":
            self.canvas.clear_selection()
            self.canvas.redraw()
            self.refresh()
        elif kind == "move":
            self.canvas.show_move(data["move"], data["captured"], data["check"])
            if data["check"]:
                self.play_sound("check")
            else:
                self.play_sound("capture" if data["captured"] is not None else "move")
            self._set_message("")
            self.refresh()
        elif kind == "over":
            self._game_over(data["outcome"])
        elif kind == "info":
            self._show_report(data["report"])
        elif kind == "hint":
            self._set_message(self.t("no_hint") if data["move"] is None else "")
            self.canvas.redraw()
            self.refresh_status()
        elif kind == "error":
            self._set_message(self.t("engine_failed", err=data["message"]))
            self.refresh_status()
        else:
            self.refresh_status()
            self._show_ponder_rate()

    def _set_message(self, text: str) -> None:
        self.message = text
        if hasattr(self, "substatus"):
            self.refresh_status()

    def refresh(self) -> None:
        self.refresh_clocks()
        self.refresh_status()
        self.refresh_moves()
        self._show_report(self.controller.report)

    def refresh_status(self) -> None:
        c, t = self.controller, self.t
        side = t("red" if c.board.turn == RED else "black")
        if c.review_ply is not None:
            text = t("reviewing", ply=c.review_ply) if c.review_ply else t("review_start")
            bg = "#6b5b3e"
        elif c.outcome is not None:
            text, bg = result_text(c.outcome, self.lang), "#2f5d3a"
        elif c.thinking is not None:
            text, bg = t("thinking", side=side), "#5a4632"
        else:
            text, bg = t("turn", side=side), ACCENT if c.board.turn == RED else "#2b2622"
            if c.board.is_check():
                text += " · " + t("check")
        if c.mode == CVC and c.paused and c.outcome is None:
            text += f"（{t('paused')}）"
        self.status.configure(text=text, bg=bg)
        mode = t("mode_" + c.mode)
        if c.mode == HVC:
            mode += f" · {t('you')}: {t(color_name(c.human_color))}"
        self.substatus.configure(text=mode + ("\n" + self.message if self.message else ""))
        # which controls make sense now
        names = self._level_names()
        for color in (RED, BLACK):
            shown = c.is_computer(color)
            lab, box = self.level_labels[color], self.level_boxes[color]
            if shown:
                lab.configure(text=t("red_level" if color == RED else "black_level") if c.mode == CVC
                              else t("level"))
                lab.grid()
                box.grid()
                level = c.levels[color]
                if level in names and names.index(level) < len(box.cget("values")):
                    box.current(names.index(level))
            else:
                lab.grid_remove()
                box.grid_remove()
            if hasattr(self, "level_vars"):
                self.level_vars[color].set(c.levels[color])
        if c.mode == CVC:
            self.cvc_frame.grid()
            self.pause_button.configure(text=t("resume_play") if c.paused else t("pause"))
        else:
            self.cvc_frame.grid_remove()
        live = c.review_ply is None
        state = lambda ok: "normal" if ok else "disabled"   # noqa: E731
        self.buttons["undo"].configure(state=state(bool(c.board.move_stack)))
        self.buttons["redo"].configure(state=state(bool(c.redo_stack) and live))
        self.buttons["hint"].configure(state=state(c.human_to_move() and not c.busy))
        self.buttons["resign"].configure(state=state(c.outcome is None and c.mode != CVC))
        self.buttons["offer_draw"].configure(state=state(c.outcome is None and c.mode == HVH))
        if live:
            self.live_button.pack_forget()
        elif not self.live_button.winfo_ismapped():
            self.live_button.pack(side="right", padx=4)

    def refresh_clocks(self) -> None:
        """The two clocks: the running one highlighted, red under 30 seconds."""
        c = self.controller
        if c.time_control is None:
            if self.clock_frame.winfo_ismapped():
                self.clock_frame.pack_forget()
            return
        if not self.clock_frame.winfo_ismapped():
            self.clock_frame.pack(side="top", fill="x", padx=5)
        for color, lab in self.clock_labels.items():
            left = c.remaining(color) or 0.0
            text = f"{self.t('red' if color == RED else 'black')} {clock_text(left)}"
            running = c.outcome is None and c.board.turn == color and c._clock_start is not None
            if running:
                bg, fg = (ACCENT if color == RED else "#2b2622"), "white"
            else:
                bg, fg = "#efe2c8", ("#8a2a1a" if color == RED else INK)
            if left < 30 and c.time_control is not None:
                fg = "#ffe082" if running else "#d32f2f"
            if lab.cget("text") != text or lab.cget("bg") != bg or lab.cget("fg") != fg:
                lab.configure(text=text, bg=bg, fg=fg)

    def refresh_moves(self) -> None:
        c = self.controller
        tree = self.moves
        tree.delete(*tree.get_children())
        texts = c.move_texts()
        start = c.start_board()
        number, red = start.fullmove_number, start.turn == RED
        row: List[str] = []
        rows: List[List[str]] = []
        for text in texts:
            if red:
                row = [str(number), text, ""]
                rows.append(row)
            else:
                if not rows:
                    row = [str(number), "…", text]
                    rows.append(row)
                else:
                    row[2] = text
                number += 1
            red = not red
        for i, r in enumerate(rows):
            tree.insert("", "end", iid=str(i), values=r)
        self._row_offset = 0 if start.turn == RED else 1    # black first: ply 1 is in column 2
        ply = c.review_ply if c.review_ply is not None else len(texts)
        if rows and ply > 0:
            iid = str((ply - 1 + self._row_offset) // 2)
            tree.selection_set(iid)
            tree.see(iid)
        else:
            tree.selection_set(())

    def _on_moves_click(self, event) -> None:
        iid = self.moves.identify_row(event.y)
        col = self.moves.identify_column(event.x)
        if not iid:
            return
        index = int(iid) * 2 + (1 if col == "#3" else 0) - self._row_offset
        ply = index + 1
        if 1 <= ply <= len(self.controller.board.move_stack):
            self.review(ply)

    def review(self, ply: Optional[int]) -> None:
        self.controller.review(ply)

    def _show_report(self, report) -> None:
        labels = self.engine_labels
        self._show_ponder_rate()
        if report is None:
            for key in ("score", "depth", "nodes", "pv"):
                labels[key].configure(text="–")
            return
        if getattr(report, "book", False):
            labels["score"].configure(text=self.t("book_move"))
            for key in ("depth", "nodes"):
                labels[key].configure(text="–")
            labels["pv"].configure(text=" ".join(report.pv))
            return
        if report.mate is not None:
            score = self.t("mate_in" if report.mate > 0 else "mated_in", n=abs(report.mate))
            score = ("+" if report.mate > 0 else "−") + " " + score
        else:
            score = f"{report.score / 100:+.2f}"
        labels["score"].configure(text=score)
        labels["depth"].configure(text=str(report.depth))
        labels["nodes"].configure(text=f"{report.nodes:,}  ({report.nps / 1e6:.2f} M/s)")
        labels["pv"].configure(text=" ".join(report.pv))

    def _show_ponder_rate(self) -> None:
        """The engine panel's ponder row: off, or this game's hit rate."""
        c = self.controller
        if not c.ponders():
            text = self.t("ponder_off")
        elif c.ponder_rate is None:
            text = "–"
        else:
            hits, total = c.ponder_rate
            text = self.t("ponder_rate", hits=hits, total=total, pct=round(100 * hits / total))
        self.engine_labels["ponder"].configure(text=text)

    def _game_over(self, outcome) -> None:
        c = self.controller
        if c.mode == HVC and outcome.winner is not None:
            self.play_sound("win" if outcome.winner == c.human_color else "loss")
        else:
            self.play_sound("draw" if outcome.winner is None else "win")
        self.refresh_status()
        self.root.after(450, lambda: self._open_over_dialog(outcome))

    def _open_over_dialog(self, outcome) -> None:
        if self._closed or self.controller.outcome != outcome:
            return
        self.close_over_dialog()
        t, c = self.t, self.controller
        d = tk.Toplevel(self.root, bg=PANEL)
        d.title(t("game_over"))
        d.transient(self.root)
        d.resizable(False, False)
        text = result_text(outcome, self.lang)
        tk.Label(d, text=text, bg=PANEL, fg=ACCENT, font=(self.family, 22), padx=30,
                 pady=16).pack()
        if c.mode == HVC and outcome.winner is not None:
            tk.Label(d, text=t("you_win" if outcome.winner == c.human_color else "you_lose"),
                     bg=PANEL, fg=INK, font=(self.family, 14)).pack()
        row = tk.Frame(d, bg=PANEL)
        row.pack(pady=14, padx=20)
        self._button(row, "again", lambda: (self.close_over_dialog(), self.again())).pack(side="left", padx=4)
        self._button(row, "review", lambda: (self.close_over_dialog(),
                                             self.review(len(c.board.move_stack)))).pack(side="left", padx=4)
        self._button(row, "close", self.close_over_dialog).pack(side="left", padx=4)
        d.protocol("WM_DELETE_WINDOW", self.close_over_dialog)
        self.place_dialog(d)
        self.over_dialog = d

    def place_dialog(self, d: tk.Toplevel) -> None:
        """Centres a dialog across the main window, a third of the way down."""
        d.update_idletasks()
        x = self.root.winfo_rootx() + (self.root.winfo_width() - d.winfo_width()) // 2
        y = self.root.winfo_rooty() + (self.root.winfo_height() - d.winfo_height()) // 3
        d.geometry(f"+{max(0, x)}+{max(0, y)}")

    def close_over_dialog(self) -> None:
        if self.over_dialog is not None:
            try:
                self.over_dialog.destroy()
            except tk.TclError:
                pass
            self.over_dialog = None

    # --- actions ------------------------------------------------------------------------------

    def new_game_dialog_open(self) -> None:
        """The new-game dialog: mode, side, level(s)."""
        if self._extra() is not None:
            self._extra().new_game_dialog()
            return
        if self.new_game_dialog is not None:
            try:
                self.new_game_dialog.destroy()
            except tk.TclError:
                pass
        t, s = self.t, self.settings
        d = tk.Toplevel(self.root, bg=PANEL, padx=20, pady=14)
        d.title(t("new_game"))
        d.transient(self.root)
        mode = tk.StringVar(value=s.mode)
        side = tk.StringVar(value=s.human_color)
        names = self._level_names()
        labels = [level_label(n, self.lang) for n in names]
        font = (self.family, 12)
        tk.Label(d, text=t("mode"), bg=PANEL, fg=ACCENT, font=(self.family, 13, "bold")).grid(
            row=0, column=0, sticky="w")
        for i, m in enumerate((HVC, HVH, CVC)):
            tk.Radiobutton(d, text=t("mode_" + m), value=m, variable=mode, bg=PANEL, font=font,
                           activebackground=PANEL).grid(row=0, column=i + 1, sticky="w")
        tk.Label(d, text=t("your_side"), bg=PANEL, fg=ACCENT, font=(self.family, 13, "bold")).grid(
            row=1, column=0, sticky="w")
        for i, c in enumerate(("red", "black")):
            tk.Radiobutton(d, text=t(c), value=c, variable=side, bg=PANEL, font=font,
                           activebackground=PANEL).grid(row=1, column=i + 1, sticky="w")
        boxes = {}
        for r, (key, default) in enumerate((("level", s.level), ("red_level", s.red_level),
                                             ("black_level", s.black_level))):
            tk.Label(d, text=t(key), bg=PANEL, fg=INK, font=font).grid(row=2 + r, column=0, sticky="w")
            box = ttk.Combobox(d, state="readonly", values=labels, width=12)
            box.current(names.index(default) if default in names else 1)
            box.grid(row=2 + r, column=1, columnspan=2, sticky="w", pady=2)
            boxes[key] = box

        tk.Label(d, text=t("time_control"), bg=PANEL, fg=INK, font=font).grid(row=5, column=0, sticky="w")
        presets = [None, (600.0, 0.0), (900.0, 10.0), (300.0, 3.0), (180.0, 2.0)]
        tc_labels = [t("tc_none")] + [
            t("tc_minutes", m=f"{b / 60:g}") if not i else t("tc_plus", m=f"{b / 60:g}", s=f"{i:g}")
            for b, i in presets[1:]] + [t("tc_custom")]
        tc_box = ttk.Combobox(d, state="readonly", values=tc_labels, width=18)
        try:
            current = parse_time_control(s.time_control)
        except ValueError:
            current = None
        base_var = tk.StringVar(value=f"{(current or (600.0, 0.0))[0] / 60:g}")
        inc_var = tk.StringVar(value=f"{(current or (600.0, 0.0))[1]:g}")
        tc_box.current(presets.index(current) if current in presets else len(presets))
        tc_box.grid(row=5, column=1, columnspan=2, sticky="w", pady=2)
        custom = tk.Frame(d, bg=PANEL)
        tk.Label(custom, text=t("tc_base"), bg=PANEL, fg=INK, font=font).pack(side="left")
        tk.Spinbox(custom, from_=1, to=180, width=4, textvariable=base_var).pack(side="left", padx=4)
        tk.Label(custom, text=t("tc_inc"), bg=PANEL, fg=INK, font=font).pack(side="left")
        tk.Spinbox(custom, from_=0, to=60, width=4, textvariable=inc_var).pack(side="left", padx=4)

        def on_tc(_event=None) -> None:
            if tc_box.current() == len(presets):
                custom.grid(row=6, column=0, columnspan=4, sticky="w", pady=2)
            else:
                custom.grid_remove()

        tc_box.bind("<<ComboboxSelected>>", on_tc)
        on_tc()
        self._new_game_widgets = {"time_control": tc_box, "base": base_var, "inc": inc_var,
                                  "mode": mode, "side": side}

        def start() -> None:
            k = tc_box.current()
            if k < len(presets):
                tc = presets[k]
            else:
                try:
                    tc = parse_time_control(f"{base_var.get().strip()}+{inc_var.get().strip() or 0}")
                except ValueError as exc:
                    messagebox.showerror(t("time_control"), t("bad_time_control", err=exc), parent=d)
                    return
            m = mode.get()
            human = RED if side.get() == "red" else BLACK
            if m == HVC:
                levels = {not human: names[boxes["level"].current()]}
            else:
                levels = {RED: names[boxes["red_level"].current()],
                          BLACK: names[boxes["black_level"].current()]}
            d.destroy()
            self.new_game_dialog = None
            self.start_game(m, human, levels, time_control=tc)

        row = tk.Frame(d, bg=PANEL)
        row.grid(row=7, column=0, columnspan=4, pady=(12, 0))
        self._button(row, "start", start).pack(side="left", padx=4)
        self._button(row, "cancel", lambda: d.destroy()).pack(side="left", padx=4)
        d.bind("<Return>", lambda e: start())
        self.new_game_dialog = d
        self._new_game_start = start

    def start_game(self, mode: str, human_color: bool = RED,
                   levels: Optional[Dict[bool, str]] = None, time_control: Any = False) -> None:
        """Starts a new game in `mode` and shows the board (time_control:
        (base, increment) seconds, None for no clocks, False to keep it)."""
        self.close_over_dialog()
        self.game_started = True
        self.controller.new_game(mode=mode, human_color=human_color, levels=levels or {},
                                 time_control=time_control)
        self.canvas.flipped = self._default_flip()
        self._set_message("")
        self.show("game")
        self.canvas.redraw()
        self.save_settings()

    def resume_last(self) -> None:
        game = self.resume_game
        if game is None:
            return
        self.resume_game = None
        self.game_started = True
        self.controller.load_game(game)
        if self.controller.mode == CVC:
            self.controller.paused = True
        self.canvas.flipped = self._default_flip()
        self.show("game")
        self.canvas.redraw()

    def again(self) -> None:
        """再来一局: same mode, side and levels."""
        if self._extra() is not None:
            self._extra().again()
            return
        if not self.game_started:
            self.new_game_dialog_open()
            return
        self.close_over_dialog()
        self.controller.new_game()
        self.show("game")

    def undo(self) -> None:
        if self._extra() is not None:
            if hasattr(self._extra(), "undo"):
                self._extra().undo()
            return
        if self.game_started:
            self.controller.undo()

    def redo(self) -> None:
        if self._extra() is not None:
            if hasattr(self._extra(), "redo"):
                self._extra().redo()
            return
        if self.game_started:
            self.controller.redo()

    def hint(self) -> None:
        if self.game_started and self.controller.hint():
            self._set_message(self.t("hint_thinking"))

    def flip(self) -> None:
        self.canvas.flipped = not self.canvas.flipped
        if self.controller.mode != HVC:
            self.settings.flipped = self.canvas.flipped
        self.canvas.redraw()

    def resign(self) -> None:
        c = self.controller
        if c.outcome is None and c.mode != CVC and self.game_started:
            if messagebox.askyesno(self.t("resign"), self.t("resign_q"), parent=self.root):
                c.resign()

    def offer_draw(self, answer: Optional[bool] = None) -> None:
        """Human vs human: the side to move offers a draw; the other accepts or not."""
        c = self.controller
        if c.mode != HVH or c.outcome is not None:
            return
        if answer is None:
            side = self.t("red" if c.board.turn == RED else "black")
            other = self.t("black" if c.board.turn == RED else "red")
            answer = messagebox.askyesno(self.t("offer_draw"),
                                         self.t("draw_offer_q", side=side, other=other), parent=self.root)
        if answer:
            c.agree_draw()
        else:
            self._set_message(self.t("draw_declined"))

    def toggle_pause(self) -> None:
        c = self.controller
        if c.paused:
            c.resume()
        else:
            c.pause()

    def step(self) -> None:
        self.controller.step()

    def set_level(self, color: bool, level: str) -> None:
        self.controller.set_level(color, level)
        self.save_settings()

    def set_ponder(self, mode: str) -> None:
        self.controller.set_ponder(mode)
        self.ponder_var.set(mode)
        self._show_ponder_rate()
        self.save_settings()

    def set_book(self, on: bool) -> None:
        self.controller.set_book(on)
        self.book_var.set(on)
        self.save_settings()

    def set_notation(self, notation: str) -> None:
        self.settings.notation = notation
        self.notation_var.set(notation)
        self.notation_box.current(("chinese", "wxf", "iccs").index(notation))
        self.controller.report = None
        self.refresh()
        self.save_settings()

    def set_piece_style(self, traditional: bool) -> None:
        """Simplified (帅马车炮) or traditional (帥傌俥砲) characters, remembered."""
        self.settings.traditional = bool(traditional)
        self.style_var.set(bool(traditional))
        self.canvas.traditional = bool(traditional)
        self.canvas.redraw()
        self.refresh_moves()
        self.save_settings()

    # --- external engine -------------------------------------------------------------------

    def external_dialog_open(self) -> None:
        """电脑 → 外部引擎…: the program and protocol, a test, and using it."""
        t, s = self.t, self.settings
        old = getattr(self, "external_dialog", None)
        if old is not None:
            try:
                old.destroy()
            except tk.TclError:
                pass
        d = tk.Toplevel(self.root, bg=PANEL, padx=16, pady=12)
        d.title(t("ext_title"))
        d.transient(self.root)
        font = (self.family, 11)
        tk.Label(d, text=t("ext_command"), bg=PANEL, fg=ACCENT,
                 font=(self.family, 12, "bold")).grid(row=0, column=0, columnspan=3, sticky="w")
        cmd = tk.StringVar(value=s.external_engine)
        entry = tk.Entry(d, textvariable=cmd, width=48, font=("TkFixedFont", 10))
        entry.grid(row=1, column=0, columnspan=2, sticky="ew", pady=4)

        def browse() -> None:
            path = filedialog.askopenfilename(parent=d, title=t("ext_command"))
            if path:
                cmd.set(path)

        self._button(d, "ext_browse", browse).grid(row=1, column=2, padx=(6, 0))
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
            self.set_external_engine(cmd.get(), proto.get(), use=use)
            d.destroy()
            self.external_dialog = None

        self._button(buttons, "ext_test", lambda: self.test_external_engine(
            cmd.get(), proto.get(), result)).pack(side="left", padx=3)
        self._button(buttons, "ext_save", lambda: save(False)).pack(side="left", padx=3)
        self._button(buttons, "ext_use", lambda: save(True)).pack(side="left", padx=3)
        self._button(buttons, "cancel", d.destroy).pack(side="left", padx=3)
        self.external_dialog = d
        self._external_vars = {"command": cmd, "protocol": proto, "result": result}

    def test_external_engine(self, command: str, protocol: str = "auto",
                             label: Optional[tk.Label] = None,
                             done: Optional[Callable[[bool, str], None]] = None) -> None:
        """Starts the engine in a worker thread (the handshake may take a few
        seconds), then reports: a label text and an info or error dialog."""
        import threading
        box: Dict[str, Any] = {}

        def work() -> None:
            try:
                box["ok"] = probe_external_engine(command, protocol)
            except Exception as exc:      # EngineError, OSError, ValueError, ...
                box["err"] = f"{type(exc).__name__}: {exc}"

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
                messagebox.showinfo(self.t("ext_title"), text, parent=self.root)
            else:
                messagebox.showerror(self.t("ext_title"), text, parent=self.root)

        self.root.after(50, check)

    def set_external_engine(self, command: str, protocol: str = "auto", use: bool = False) -> None:
        """Stores the engine (and with `use`, makes it the computer's level)."""
        c = self.controller
        c.set_external_engine(command, protocol)
        self._rebuild()                       # the level lists gain or lose "external"
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
        self.save_settings()

    def _rebuild(self) -> None:
        """Rebuilds menus and screens (new labels or level lists), keeping the screen."""
        screen = self.screen
        flipped = self.canvas.flipped
        self.close_over_dialog()
        self._build()
        self.canvas.flipped = flipped
        self.show(screen)

    def show_engine(self, on: bool) -> None:
        self.settings.show_engine = on
        self.engine_var.set(on)
        if on:
            self.engine_frame.grid(row=6, column=0, sticky="ew", padx=8, pady=(0, 8))
        else:
            self.engine_frame.grid_remove()
        self.save_settings()

    def set_sound(self, on: bool) -> None:
        self.settings.sound = on
        self.sounds.enabled = on
        self.sound_var.set(on)
        if "sound" in self.welcome_buttons:
            self.welcome_buttons["sound"].configure(text=self.t("sound_on" if on else "sound_off"))
        self.save_settings()

    def toggle_sound(self) -> None:
        self.set_sound(not self.settings.sound)

    def set_language(self, lang: str) -> None:
        if lang == self.lang:
            return
        self.settings.language = lang
        self._rebuild()
        self.save_settings()

    # --- records ----------------------------------------------------------------------------------

    def save_dialog(self) -> None:
        if self._extra() is not None:
            self._extra().save_dialog()
            return
        if not self.game_started:
            return
        path = filedialog.asksaveasfilename(parent=self.root, defaultextension=".pgn",
                                            filetypes=[(self.t("pgn_files"), "*.pgn"),
                                                       (self.t("all_files"), "*")])
        if path:
            self.save_to(path)

    def save_to(self, path: str) -> bool:
        try:
            self.controller.save_pgn(path)
        except (OSError, ValueError) as exc:
            messagebox.showerror(self.t("save_game"), self.t("save_failed", err=exc), parent=self.root)
            return False
        self._set_message(self.t("saved", path=Path(path).name))
        return True

    def load_dialog(self) -> None:
        if self._extra() is not None:
            self._extra().load_dialog()
            return
        path = filedialog.askopenfilename(parent=self.root,
                                          filetypes=[(self.t("pgn_files"), "*.pgn"),
                                                     (self.t("all_files"), "*")])
        if path:
            self.load_from(path)

    def load_from(self, path: str, show_errors: bool = True) -> bool:
        try:
            self.controller.load_pgn(path)
        except (OSError, ValueError) as exc:
            if show_errors:
                messagebox.showerror(self.t("load_game"), self.t("load_failed", err=exc), parent=self.root)
            return False
        self.game_started = True
        self.close_over_dialog()
        self.canvas.flipped = self._default_flip()
        self.show("game")
        self.canvas.redraw()
        return True

    def copy_fen(self) -> None:
        self.root.clipboard_clear()
        self.root.clipboard_append(self.controller.fen())
        self._set_message(self.t("fen_copied"))

    def paste_fen(self, text: Optional[str] = None) -> bool:
        if text is None:
            try:
                text = self.root.clipboard_get()
            except tk.TclError:
                text = ""
        try:
            self.game_started = True
            self.controller.set_fen(text)
        except ValueError as exc:
            messagebox.showerror(self.t("paste_fen"), self.t("bad_fen", err=exc), parent=self.root)
            return False
        self.show("game")
        return True

    # --- settings and exit -------------------------------------------------------------------------

    def save_settings(self) -> None:
        try:
            if self.root.winfo_exists() and self.root.state() == "normal":
                self.settings.width = max(640, self.root.winfo_width())
                self.settings.height = max(520, self.root.winfo_height())
        except tk.TclError:
            pass
        self.settings.save(self.settings_path)

    def quit(self) -> None:
        """Saves the game in progress and the settings, stops the engine, closes."""
        if self._closed:
            return
        if self.game_started:
            self.controller.autosave(self.autosave_path)
        for extra in self.extra_screens.values():
            extra.close()
        self.save_settings()
        self._closed = True
        self.controller.shutdown()
        self.sounds.close()
        try:
            self.root.update_idletasks()
            for job in self.root.tk.splitlist(self.root.tk.call("after", "info")):
                self.root.after_cancel(job)
            self.root.destroy()
        except tk.TclError:
            pass
