"""The desktop application: one Tk window, the welcome screen with the main
menu, the rules and history pages, and the games' screens (xiangqi/ and
gomoku/), which it shows one at a time.

What the screens share lives here or beside it: the settings, the sounds,
the language (labels, Tk's own dialogs through its message catalogue), the
Game menu's common items, the dialogs (dialogs.py) and holding the games
while a dialog is open (modal()), and on quit the autosave of every game
in progress.

A screen is an object with ``show(container)``, ``hide()``, ``poll()``,
``close()`` (autosave and stop), ``rebuild()`` and a ``controller`` with
hold()/release(); the xiangqi screen is created at start, gomoku's when it
is first opened.
"""

from __future__ import annotations

import contextlib
import importlib
import tkinter as tk
import tkinter.font as tkfont
from pathlib import Path
from tkinter import ttk
from typing import Any, Callable, Dict, Iterator, Optional

from cxiangqi import Piece

from . import dialogs
from .i18n import error_text, tr
from .settings import Settings
from .sounds import SoundPlayer
from .widgets import ACCENT, BG, INK, PANEL, WrapLabel, button, cjk_family, text_family
from .xiangqi import pages
from .xiangqi.board_canvas import draw_piece
from .xiangqi.controller import GameController
from .xiangqi.view import XiangqiScreen

POLL_MS = 20

# Other games for the main menu: name key -> "module:function" opened with the App.
GAMES: Dict[str, Optional[str]] = {"gomoku": "pyfrontend.gomoku.view:open_game"}


def _game_entry(key: str) -> Optional[Callable[["App"], None]]:
    target = GAMES.get(key)
    if not target:
        return None
    module, _, func = target.partition(":")
    try:
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
        self.screen = "welcome"
        self.previous_screen = "welcome"
        self.page: Optional[pages.ScrollPage] = None
        self.dialog: Optional[tk.Toplevel] = None      # the modal dialog open now (tests press it)
        self._closed = False
        self.resume_game = GameController.read_autosave(autosave_path)
        # the games' screens: "game" is xiangqi, others are added when opened
        self.screens: Dict[str, Any] = {}
        root.configure(bg=BG)
        root.geometry(f"{self.settings.width}x{self.settings.height}")
        root.minsize(640, 520)
        root.protocol("WM_DELETE_WINDOW", self.quit)
        self._init_style()
        self.xiangqi = XiangqiScreen(self, engine_factory)
        self.screens["game"] = self.xiangqi
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

    def text_width(self, text: str, font: Any) -> int:
        return tkfont.Font(self.root, font=font).measure(text)

    def error_message(self, exc: BaseException) -> str:
        return error_text(exc, self.lang)

    def _init_style(self) -> None:
        self._apply_language()
        style = ttk.Style(self.root)
        try:
            if style.theme_use() != "clam":
                style.theme_use("clam")
                self.root.update_idletasks()     # let Tk's ThemeChanged run now, not at exit
        except tk.TclError:
            pass
        style.configure("TCombobox", padding=2)

    def _apply_language(self) -> None:
        """Fonts for the language, and Tk's own dialogs in it (msgcat)."""
        self.family = text_family(self.root, self.lang)
        self.cjk = cjk_family(self.root)
        try:
            self.root.tk.call("::msgcat::mclocale", "zh_cn" if self.lang == "zh" else "en")
            # Tk keeps its file dialog for reuse, with the words of its first use
            for name in (".__tk_filedialog", ".__tk__messagebox"):
                if self.root.tk.call("winfo", "exists", name):
                    self.root.tk.call("destroy", name)
        except tk.TclError:
            pass

    def play_sound(self, name: str) -> None:
        self.sounds.play(name)

    @contextlib.contextmanager
    def modal(self, dialog: Optional[tk.Toplevel]) -> Iterator[None]:
        """While the block runs (a modal dialog is open) every game is held:
        its clocks stop and nothing moves."""
        previous, self.dialog = self.dialog, dialog
        held = [s.controller for s in self.screens.values()]
        for c in held:
            c.hold()
        try:
            yield
        finally:
            for c in held:
                c.release()
            self.dialog = previous

    def _tick(self) -> None:
        if self._closed:
            return
        for screen in list(self.screens.values()):
            try:
                screen.poll()
            except Exception as exc:       # never let a bad answer kill the loop
                screen.report_error(exc)
        self.root.after(POLL_MS, self._tick)

    def _active(self) -> Any:
        """The game screen showing now, or None."""
        return self.screens.get(self.screen)

    def _bind_keys(self) -> None:
        r = self.root
        for seq, name in (("<Control-z>", "undo"), ("<Control-y>", "redo"),
                          ("<Control-s>", "save_dialog"), ("<Control-o>", "load_dialog"),
                          ("<Control-n>", "new_game_dialog")):
            r.bind_all(seq, lambda e, n=name: self._key(n))
        for seq in ("<Left>", "<Right>", "<Home>", "<End>"):
            r.bind_all(seq, lambda e, s=seq: self._key("review_key", e, s[1:-1]))

    def _key(self, name: str, event: Any = None, *args: Any) -> None:
        if self.dialog is not None:
            return
        if event is not None and event.widget.winfo_class() in ("Entry", "TEntry", "Spinbox",
                                                                 "TCombobox", "TSpinbox"):
            return
        screen = self._active()
        if screen is None and name == "new_game_dialog":
            screen = self.xiangqi
        if screen is not None and hasattr(screen, name):
            getattr(screen, name)(*args)

    # --- building -----------------------------------------------------------------

    def _build(self) -> None:
        """(Re)builds the screens, e.g. after a language change."""
        self._apply_language()
        for child in self.root.winfo_children():
            if not isinstance(child, tk.Toplevel):
                child.destroy()
        self.root.title(tr("title", self.lang))
        self.container = tk.Frame(self.root, bg=BG)
        self.container.pack(fill="both", expand=True)
        for screen in self.screens.values():
            screen.rebuild(self.container)
        self.welcome = self._build_welcome(self.container)
        self.page = None

    def button(self, master: tk.Misc, key: str, command: Callable[[], Any], *, big: bool = False,
               width: Optional[int] = None, text: Optional[str] = None) -> tk.Button:
        return button(master, text or self.t(key), command, self.family, big=big, width=width)

    _button = button

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
        game.add_command(label=t("main_menu"), command=self.main_menu)
        game.add_command(label=t("quit"), command=self.quit)

    # --- welcome screen -------------------------------------------------------------

    def _build_welcome(self, master: tk.Misc) -> tk.Frame:
        frame = tk.Frame(master, bg=BG)
        cv = tk.Canvas(frame, bg=BG, highlightthickness=0)
        cv.place(relx=0, rely=0, relwidth=1, relheight=1)
        self.welcome_canvas = cv
        box = tk.Frame(frame, bg=BG)
        self.welcome_box = box
        self.welcome_buttons: Dict[str, tk.Button] = {}

        def add(key: str, command: Callable[[], Any], text: Optional[str] = None) -> tk.Button:
            b = self.button(box, key, command, big=True, width=17, text=text)
            b.pack(pady=4)
            self.welcome_buttons[key] = b
            return b

        self.resume_label: Optional[WrapLabel] = None
        if self.xiangqi.game_started and self.xiangqi.controller.in_progress:
            add("continue_game", lambda: self.show("game")).configure(bg=ACCENT)
        elif self.resume_game is not None:
            n = len(list(self.resume_game.mainline_moves()))
            font = (self.family, 12)
            width = self.text_width("M" * 17, (self.family, 17)) + 28
            self.resume_label = WrapLabel(box, self.t("resume_q", n=n), width, bg=BG, fg="#f0d9a8",
                                          font=font, justify="center", anchor="n")
            self.resume_label.pack(pady=(0, 2))
            add("resume", self.resume_last).configure(bg=ACCENT)
        add("new_game", lambda: self.xiangqi.new_game_dialog())
        add("load_game", lambda: self.xiangqi.load_dialog())
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
        box_h = self.welcome_box.winfo_reqheight()
        title_size = max(26, min(72, int(h * 0.085), int((h - box_h - 40) / 2.1)))
        y = max(title_size * 0.75, h * 0.11)
        face = self.cjk if self.lang == "zh" else self.family
        cv.create_text(w / 2 + 3, y + 3, text=self.t("title"), font=(face, -title_size),
                       fill="#1c120a")
        title = cv.create_text(w / 2, y, text=self.t("title"), font=(face, -title_size),
                               fill="#f3d9a4")
        sub_size = max(12, title_size // 3)
        sub = cv.create_text(w / 2, y + title_size * 0.85, text=self.t("subtitle"),
                             font=(self.family, -sub_size), fill="#d9b98a", tags=("subtitle",))
        r = max(24, min(60, h * 0.07, title_size * 0.85))
        bbox = cv.bbox(title)                 # the discs sit beside the title, never on it
        half = max(3.6 * r, (bbox[2] - bbox[0]) / 2 + 1.4 * r) if bbox else 3.6 * r
        draw_piece(cv, w / 2 - half, y, r, Piece.from_symbol("K"), ("deco",))
        draw_piece(cv, w / 2 + half, y, r, Piece.from_symbol("k"), ("deco",))
        # the buttons start under the subtitle, never over it
        sb = cv.bbox(sub)
        top = (sb[3] if sb else y + title_size) + max(10, h * 0.03)
        top = min(top, max(sb[3] + 4 if sb else 0, h - box_h - 6))
        self.welcome_box.place(relx=0.5, y=int(top), anchor="n")

    # --- screens ------------------------------------------------------------------------

    def show(self, screen: str) -> None:
        """Shows "welcome", "game" (xiangqi), "rules", "history" or another game's screen."""
        if screen in ("rules", "history"):
            self.previous_screen = self.screen if self.screen not in ("rules", "history") else "welcome"
        self.welcome.pack_forget()
        if self.page is not None:
            self.page.destroy()
            self.page = None
        for name, s in self.screens.items():
            if name != screen:
                s.hide()
        if screen == "game" and not self.xiangqi.game_started:
            screen = "welcome"
        self.screen = screen
        if screen in self.screens:
            self.screens[screen].show(self.container)
            return
        self.root.configure(menu=self.xiangqi.menubar)
        self.root.title(tr("title", self.lang))
        if screen == "welcome":
            self.welcome.destroy()
            self.welcome = self._build_welcome(self.container)
            self.welcome.pack(fill="both", expand=True)
        else:
            make = pages.rules_page if screen == "rules" else pages.history_page
            self.page = make(self.container, self.lang, self.t(screen), self.t("back"),
                             lambda: self.show(self.previous_screen), self.family)
            self.page.pack(fill="both", expand=True)

    def main_menu(self) -> None:
        """Back to the main menu; a game in progress waits there, paused."""
        screen = self._active()
        if screen is not None and not screen.confirm_leave("confirm_menu"):
            return
        self.show("welcome")

    def resume_last(self) -> None:
        game = self.resume_game
        if game is None:
            return
        self.resume_game = None
        self.xiangqi.resume(game)

    # --- settings -------------------------------------------------------------------

    def set_sound(self, on: bool) -> None:
        self.settings.sound = on
        self.sounds.enabled = on
        if getattr(self, "sound_var", None) is not None:
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
        self.rebuild()
        self.save_settings()

    def rebuild(self) -> None:
        """Rebuilds menus and screens (new labels or level lists), keeping the screen."""
        screen = self.screen
        for s in self.screens.values():
            s.hide()
        self._build()
        self.show(screen)

    def save_settings(self) -> None:
        try:
            if self.root.winfo_exists() and self.root.state() == "normal":
                self.settings.width = max(640, self.root.winfo_width())
                self.settings.height = max(520, self.root.winfo_height())
        except tk.TclError:
            pass
        self.settings.save(self.settings_path)

    def quit(self) -> None:
        """Saves every game in progress and the settings, stops the engines, closes."""
        if self._closed:
            return
        for screen in self.screens.values():
            screen.close()
        self.save_settings()
        self._closed = True
        self.sounds.close()
        try:
            self.root.update_idletasks()
            for job in self.root.tk.splitlist(self.root.tk.call("after", "info")):
                self.root.after_cancel(job)
            self.root.destroy()
        except tk.TclError:
            pass

    # --- the xiangqi screen's names, for scripts and tests ------------------------------

    @property
    def controller(self) -> GameController:
        return self.xiangqi.controller

    def load_from(self, path: str, show_errors: bool = True) -> bool:
        return self.xiangqi.load_from(path, show_errors=show_errors)

    def start_game(self, *args: Any, **kw: Any) -> None:
        self.xiangqi.start_game(*args, **kw)


__all__ = ["App", "GAMES", "dialogs", "INK", "PANEL"]
