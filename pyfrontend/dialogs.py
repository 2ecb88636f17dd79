"""The dialogs both games use, in the player's language: questions,
errors and notes (our own, so that every word, the buttons too, follows
the chosen language and the box is as wide as its text), the Tk file
dialogs (translated through Tk's message catalogue), and the game-over
box.  While a modal dialog is open the games are held: their clocks stop
and nothing moves (App.modal())."""

from __future__ import annotations

import tkinter as tk
from tkinter import filedialog
from typing import Any, Callable, List, Optional, Sequence, Tuple

from .widgets import ACCENT, INK, PANEL, WrapLabel, button

Buttons = Sequence[Tuple[str, str]]      # (key returned, label)


def place(d: tk.Toplevel, root: tk.Misc) -> None:
    """Centres a dialog across the main window, a third of the way down."""
    d.update_idletasks()
    x = root.winfo_rootx() + (root.winfo_width() - d.winfo_reqwidth()) // 2
    y = root.winfo_rooty() + (root.winfo_height() - d.winfo_reqheight()) // 3
    d.geometry(f"+{max(0, x)}+{max(0, y)}")


class Dialog(tk.Toplevel):
    """A modal question box: a message (lines broken by the CJK rules at a
    width that suits it), an optional note, and buttons.  show() waits for
    an answer and returns the pressed button's key (None: closed)."""

    def __init__(self, app: Any, title: str, message: str, buttons: Buttons, *,
                 default: Optional[str] = None, note: str = "", kind: str = "question") -> None:
        super().__init__(app.root, bg=PANEL, padx=22, pady=16)
        self.app = app
        self.result: Optional[str] = None
        self.title(title)
        self.transient(app.root)
        self.resizable(False, False)
        family = app.family
        width = max(260, min(520, app.text_width(message, (family, 13)) // 2 + 120))
        colour = ACCENT if kind == "error" else INK
        self.message = WrapLabel(self, message, width, bg=PANEL, fg=colour, font=(family, 13))
        self.message.pack(anchor="w")
        self.note: Optional[WrapLabel] = None
        if note:
            self.note = WrapLabel(self, note, width, bg=PANEL, fg="#6a4a2a", font=(family, 11))
            self.note.pack(anchor="w", pady=(8, 0))
        row = tk.Frame(self, bg=PANEL)
        row.pack(pady=(14, 0))
        self.buttons = {}
        for key, label in buttons:
            b = button(row, label, lambda k=key: self.press(k), family)
            b.pack(side="left", padx=4)
            self.buttons[key] = b
        self.protocol("WM_DELETE_WINDOW", lambda: self.press(None))
        self.bind("<Escape>", lambda e: self.press(None))
        if default is not None:
            self.bind("<Return>", lambda e: self.press(default))

    def press(self, key: Optional[str]) -> None:
        self.result = key
        try:
            self.destroy()
        except tk.TclError:
            pass

    def show(self) -> Optional[str]:
        place(self, self.app.root)
        with self.app.modal(self):
            try:
                self.wait_visibility()
                self.grab_set()
                self.focus_set()
            except tk.TclError:         # answered (destroyed) before it was even shown
                pass
            try:
                self.wait_window()
            except tk.TclError:
                pass
        return self.result


def ask(app: Any, title: str, message: str, buttons: Buttons, *, default: Optional[str] = None,
        note: str = "") -> Optional[str]:
    """Asks and waits; the key of the pressed button, None when closed."""
    return Dialog(app, title, message, buttons, default=default, note=note).show()


def ask_yes_no(app: Any, title: str, message: str, note: str = "") -> bool:
    return ask(app, title, message, [("yes", app.t("yes")), ("no", app.t("no"))],
               default="yes", note=note) == "yes"


def show_error(app: Any, title: str, message: str) -> None:
    Dialog(app, title, message, [("ok", app.t("ok"))], default="ok", kind="error").show()


def show_info(app: Any, title: str, message: str) -> None:
    Dialog(app, title, message, [("ok", app.t("ok"))], default="ok").show()


def ask_open_filename(app: Any, title: str, filetypes: List[Tuple[str, str]]) -> str:
    """Tk's open dialog (its words translated by Tk's catalogue), the game held."""
    with app.modal(None):
        return filedialog.askopenfilename(parent=app.root, title=title, filetypes=filetypes) or ""


def ask_save_filename(app: Any, title: str, filetypes: List[Tuple[str, str]],
                      defaultextension: str, initialfile: str = "") -> str:
    with app.modal(None):
        return filedialog.asksaveasfilename(parent=app.root, title=title, filetypes=filetypes,
                                            defaultextension=defaultextension,
                                            initialfile=initialfile) or ""


class GameOverDialog(tk.Toplevel):
    """The box both games show when a game ends: the result, a line for
    the human, and buttons (再来一局, 复盘, 关闭, ...).  Not modal: the board
    stays live behind it."""

    def __init__(self, app: Any, result: str, subtitle: str,
                 buttons: Sequence[Tuple[str, str, Callable[[], Any]]],
                 on_close: Callable[[], Any]) -> None:
        super().__init__(app.root, bg=PANEL)
        self.title(app.t("game_over"))
        self.transient(app.root)
        self.resizable(False, False)
        family = app.family
        tk.Label(self, text=result, bg=PANEL, fg=ACCENT, font=(family, 22), padx=30,
                 pady=16).pack()
        if subtitle:
            tk.Label(self, text=subtitle, bg=PANEL, fg=INK, font=(family, 14)).pack()
        row = tk.Frame(self, bg=PANEL)
        row.pack(pady=14, padx=20)
        self.buttons = {}
        for key, label, command in buttons:
            b = button(row, label, command, family)
            b.pack(side="left", padx=4)
            self.buttons[key] = b
        self.protocol("WM_DELETE_WINDOW", on_close)
        self.bind("<Escape>", lambda e: on_close())
        place(self, app.root)

    def texts(self) -> List[str]:
        return [w.cget("text") for w in self.winfo_children() if isinstance(w, tk.Label)]
