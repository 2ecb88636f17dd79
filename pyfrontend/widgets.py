"""What both games' screens are made of: the colours, the fonts, the
button style, a label that breaks lines by the rules of Chinese
typesetting, and fixed-height text lines that never make a panel jump."""

from __future__ import annotations

import tkinter as tk
import tkinter.font as tkfont
from typing import Any, Callable, List, Optional

from .i18n import break_lines

BG = "#3b2a1e"            # walnut window background
PANEL = "#f5ead6"         # paper side panel
INK = "#3a2412"
ACCENT = "#a8321e"
BUTTON = "#8b4a26"
BUTTON_HOT = "#a65a30"
MUTED = "#6a4a2a"

CJK_FONTS = (
    "AR PL UKai CN", "AR PL UKai TW", "AR PL UKai HK", "KaiTi", "STKaiti", "Kaiti SC", "BiauKai",
    "DFKai-SB", "AR PL UMing CN", "Noto Serif CJK SC", "Source Han Serif SC", "SimSun",
    "WenQuanYi Zen Hei", "Noto Sans CJK SC", "Microsoft YaHei", "PingFang SC", "SimHei",
)
LATIN_FONTS = ("DejaVu Sans", "Helvetica", "Arial", "Segoe UI", "Liberation Sans")

_families: dict = {}


def cjk_family(root: tk.Misc) -> str:
    """The nicest installed font for Chinese (a Kai font if any)."""
    if "cjk" not in _families:
        have = set(tkfont.families(root))
        _families["cjk"] = next((f for f in CJK_FONTS if f in have), "TkDefaultFont")
    return _families["cjk"]


def text_family(root: tk.Misc, lang: str) -> str:
    """The font for running text: the Kai font for Chinese, a proportional
    sans font for English (the Kai font sets Latin letters like a typewriter)."""
    if lang != "en":
        return cjk_family(root)
    if "latin" not in _families:
        have = set(tkfont.families(root))
        _families["latin"] = next((f for f in LATIN_FONTS if f in have), "TkDefaultFont")
    return _families["latin"]


def button(master: tk.Misc, text: str, command: Callable[[], Any], family: str, *,
           big: bool = False, width: Optional[int] = None) -> tk.Button:
    """The games' flat wooden button."""
    b = tk.Button(master, text=text, command=command, relief="flat", bd=0,
                  bg=BUTTON, fg="white", activebackground=BUTTON_HOT, activeforeground="white",
                  disabledforeground="#c9b79c", cursor="hand2",
                  font=(family, 17 if big else 12), padx=14 if big else 6, pady=7 if big else 4)
    if width:
        b.configure(width=width)
    return b


class WrapLabel(tk.Label):
    """A label whose text is broken into lines by i18n.break_lines (no line
    starts with closing punctuation, numbers and words stay whole) at the
    width it is given with set_width() or, with follow=True, at the width
    it gets from its geometry manager."""

    def __init__(self, master: tk.Misc, text: str = "", width: int = 300, follow: bool = False,
                 **kw: Any) -> None:
        super().__init__(master, justify=kw.pop("justify", "left"), anchor=kw.pop("anchor", "nw"),
                         **kw)
        self._text = text
        self._width = max(40, width)
        self._font = tkfont.Font(self, font=self.cget("font"))
        self.lines: List[str] = []
        self._layout()
        if follow:
            self.bind("<Configure>", self._on_configure, add="+")

    def _on_configure(self, event: Any) -> None:
        pad = 2 * (int(self.cget("padx")) + int(self.cget("bd")) + int(self.cget("highlightthickness")))
        self.set_width(event.width - pad)

    def set_text(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self._layout()

    def set_width(self, width: int) -> None:
        width = max(40, int(width))
        if width != self._width:
            self._width = width
            self._layout()

    def _layout(self) -> None:
        self.lines = break_lines(self._text, self._width, self._font.measure) if self._text else []
        super().configure(text="\n".join(self.lines))


class FixedLines(tk.Frame):
    """A box exactly `lines` text lines high whatever it shows (a longer
    text is cut with '…'), so the widgets under it never move."""

    def __init__(self, master: tk.Misc, lines: int, font: Any, width: int, **kw: Any) -> None:
        bg = kw.pop("bg", PANEL)
        f = tkfont.Font(master, font=font)
        height = f.metrics("linespace") * lines + 6
        super().__init__(master, bg=bg, height=height, width=width)
        self.pack_propagate(False)
        self.grid_propagate(False)
        self.nlines = lines
        self._font = f
        self.label = tk.Label(self, text="", bg=bg, font=font, justify="left", anchor="nw", **kw)
        self.label.place(x=0, y=2, relwidth=1, relheight=1)
        self.text = ""
        self._default_width = width
        self._shown_width = 0
        self.bind("<Configure>", lambda e: self.set(self.text) if e.width != self._shown_width else None)

    def set(self, text: str, width: Optional[int] = None, words: Optional[bool] = None) -> None:
        """Shows `text`, broken to the box's width and cut to its lines;
        with words=True only at spaces (a line of moves: 马８进７ stays whole)."""
        self.text = text
        if words is not None:
            self.words = words
        self._shown_width = self.winfo_width()
        w = width or (self._shown_width - 4 if self._shown_width > 20 else self._default_width)
        if not text:
            lines: List[str] = []
        elif getattr(self, "words", False):
            lines = break_lines(text.replace(" ", "\n"), w, self._font.measure)
            lines = _join_words(lines, w, self._font.measure)
        else:
            lines = break_lines(text, w, self._font.measure)
        if len(lines) > self.nlines:
            lines = lines[:self.nlines]
            last = lines[-1]
            while last and self._font.measure(last + "…") > w:
                last = last[:-1]
            lines[-1] = last + "…"
        self.label.configure(text="\n".join(lines))


def _join_words(words: List[str], width: int, measure: Callable[[str], float]) -> List[str]:
    """Words put on lines, a space between, as many as fit."""
    lines: List[str] = []
    for word in words:
        if lines and measure(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def chars_for(root: tk.Misc, values: List[str], font: Any, extra: int = 2) -> int:
    """A width in characters (what Entry and Combobox take) that fits the
    widest of `values` in `font`: CJK characters count double, measured."""
    f = tkfont.Font(root, font=font)
    zero = max(1, f.measure("0"))
    return max(4, -(-max(f.measure(v) for v in values) // zero) + extra)
