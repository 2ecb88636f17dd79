"""The rules page (象棋规则, with board diagrams) and the history page
(象棋历史), in Chinese and English.

The text column follows the window's width and its lines are broken by the
rules of Chinese typesetting (i18n.break_lines); English pages use a
proportional font.  Diagrams draw their pieces as large as on a real board
(the characters at least 24 px) and show only the ranks a rule needs; in a
narrow window they stand above their text instead of beside it."""

from __future__ import annotations

import tkinter as tk
from typing import Any, Dict, List, Optional, Sequence, Tuple

from cxiangqi import Piece, parse_square

from ..widgets import WrapLabel, cjk_family
from .board_canvas import CHECK, INK, TARGET, WOOD, draw_piece

PAPER = "#f5ead6"
TEXT_INK = "#3a2412"
ACCENT = "#a8321e"

# A diagram: pieces {square: FEN symbol}, dots (where the piece may go),
# crosses (blocked), rings (captures / the king in check), arrows.
Diagram = Dict[str, Sequence]

RULES: List[Tuple[Tuple[str, str], Tuple[str, str], Optional[Diagram]]] = [
    (("棋盘与目标", "Board and goal"),
     ("棋盘由九条竖线和十条横线组成，中间的“河界”（楚河汉界）把双方分开，两边各有一个画着斜线的“九宫”。"
      "棋子放在交叉点上。红方先走，双方轮流各走一步。把对方的将（帅）将死或困毙即获胜。",
      "The board has nine files and ten ranks; the river (楚河 汉界) divides the two sides and each "
      "side has a palace marked with diagonals. Pieces stand on the points. Red moves first, then "
      "the players alternate. Checkmate or stalemate the enemy general to win."),
     None),
    (("帅（将）", "General (帅/将)"),
     ("帅和将只能在九宫内走，每步沿横线或竖线走一格。双方的将帅不能在同一条竖线上直接对面（中间无子）。",
      "The general stays inside the palace and moves one point along a line. The two generals may "
      "never face each other on an open file."),
     {"pieces": {"e1": "K"}, "dots": ["e0", "e2", "d1", "f1"], "ranks": (0, 3)}),
    (("仕（士）", "Advisor (仕/士)"),
     ("仕（士）只能在九宫内沿斜线走一格。", "The advisor moves one point diagonally, inside the palace."),
     {"pieces": {"e1": "A"}, "dots": ["d0", "f0", "d2", "f2"], "ranks": (0, 3)}),
    (("相（象）", "Elephant (相/象)"),
     ("相（象）走“田”字，每步斜走两格，不能过河。“田”字中心有子（塞象眼）时不能走。",
      "The elephant moves exactly two points diagonally and may not cross the river. It is blocked "
      "when the point in between is occupied (its 'eye')."),
     {"pieces": {"e2": "B", "f3": "p"}, "dots": ["c0", "g0", "c4"], "crosses": ["g4"],
      "ranks": (0, 5)}),
    (("马", "Horse (马)"),
     ("马走“日”字：先直走一格，再斜走一格。直走的那一格有子（蹩马腿）时不能走。",
      "The horse moves one point along a line, then one diagonally outward. It is blocked when the "
      "first point is occupied ('hobbling the horse's leg')."),
     {"pieces": {"e4": "N", "e5": "P"}, "dots": ["c3", "c5", "d2", "f2", "g3", "g5"],
      "crosses": ["d6", "f6"], "ranks": (1, 7)}),
    (("车", "Chariot (车)"),
     ("车沿横线或竖线走任意格，不能越过棋子，可以吃掉路上遇到的第一个对方棋子。",
      "The chariot moves any distance along a line, without jumping, and captures the first enemy "
      "piece in its way."),
     {"pieces": {"b2": "R", "b7": "n"}, "dots": ["b0", "b1", "b3", "b4", "b5", "b6", "a2", "c2",
                                                 "d2", "e2", "f2", "g2", "h2", "i2"],
      "rings": ["b7"]}),
    (("炮", "Cannon (炮)"),
     ("炮不吃子时与车走法相同；吃子时必须隔一个棋子（炮架）跳吃。",
      "The cannon moves like the chariot, but captures by jumping over exactly one piece (the "
      "screen)."),
     {"pieces": {"b2": "C", "b5": "P", "b8": "n"}, "dots": ["b0", "b1", "b3", "b4", "a2", "c2",
                                                            "d2", "e2", "f2", "g2", "h2", "i2"],
      "rings": ["b8"]}),
    (("兵（卒）", "Soldier (兵/卒)"),
     ("兵（卒）每步向前走一格，过河以后也可以横走一格，永不后退。",
      "The soldier moves one point forward; after crossing the river it may also move one point "
      "sideways. It never moves back."),
     {"pieces": {"c3": "P", "g6": "P"}, "dots": ["c4", "g7", "f6", "h6"], "ranks": (2, 7)}),
    (("将军", "Check (将军)"),
     ("走一步棋后攻击到对方的将（帅），叫“将军”。被将军的一方必须立即应将。",
      "A move that attacks the enemy general gives check (将军). The side in check must answer it "
      "at once."),
     {"pieces": {"e9": "k", "d7": "N", "d0": "K"}, "rings": ["e9"], "arrows": [("d7", "e9")]}),
    (("将死", "Checkmate (将死)"),
     ("被将军而无法应将，就是被将死，判负。图中黑将被双车将死（e 线被红帅控制，将帅不能对面）。",
      "In check with no way out: checkmate, a loss. Here two chariots mate the black general (the "
      "red general holds the e-file: the generals may not face each other)."),
     {"pieces": {"a9": "R", "b8": "R", "d9": "k", "e0": "K"}, "rings": ["d9"],
      "crosses": ["d8", "e9", "e8"]}),
    (("困毙", "Stalemate (困毙) loses"),
     ("轮到走棋的一方虽未被将军，但已无棋可走，称为“困毙”。与国际象棋不同，困毙的一方判负。",
      "The side to move is not in check but has no legal move: stalemate. Unlike chess, the "
      "stalemated side LOSES."),
     {"pieces": {"i8": "R", "d9": "k", "e0": "K"}, "crosses": ["d8", "e9"]}),
    (("长将作负", "Perpetual check loses"),
     ("一方不停地将军，使局面反复出现，称为“长将”，长将的一方判负；长捉（不停地捉对方同一个子）也判负。"
      "双方都不违例而局面重复三次，则判和。六十回合（120 步）没有吃子，也判和。",
      "Checking again and again so that the position repeats (perpetual check) loses for the "
      "checking side; so does perpetually chasing the same piece. A repetition with no such "
      "violation is a draw, and so are 60 moves by each side without a capture."),
     None),
]

HISTORY: List[Tuple[Tuple[str, str], Tuple[str, str]]] = [
    (("起源", "Origins"),
     ("象棋是中国流传最广的棋类游戏，起源众说纷纭。古籍中早有“象棋”“象戏”之名：北周武帝曾作《象经》，"
      "但那时的象戏与今天的象棋并不相同。",
      "Xiangqi is the most widely played board game of China, and its origins are debated. Ancient "
      "books mention games called 象棋 and 象戏 — Emperor Wu of the Northern Zhou wrote a Classic "
      "of the Elephant Game (象经) — but those games differed from today's.")),
    (("唐宋定型", "Tang and Song dynasties"),
     ("唐代已有以“将、马、车、卒”为子的象棋，如牛僧孺《玄怪录》中“岑顺”的故事所述。"
      "到了北宋末、南宋时期，加入了炮，并有了河界与九宫，象棋大致定型为今天的样子，在民间和宫廷都十分流行。",
      "In the Tang dynasty a game with generals, horses, chariots and soldiers was played, as a "
      "story in Niu Sengru's Xuanguai Lu tells. By the end of the Northern Song and in the "
      "Southern Song the cannon, the river and the palaces had been added, and the game took "
      "essentially its present form, popular among common people and at court.")),
    (("明清棋谱", "Classic manuals"),
     ("明清两代出现了许多著名棋谱，如明代的《橘中秘》《适情雅趣》，清代的《梅花谱》《竹香斋象戏谱》，"
      "总结了开局、中局和残局的大量变化，至今仍被棋手研读。",
      "The Ming and Qing dynasties produced famous manuals — The Secret in the Tangerine (橘中秘), "
      "Shiqing Yaqu (适情雅趣), the Plum Blossom Manual (梅花谱) — that collect openings, middle "
      "games and endgames still studied today.")),
    (("现代象棋", "Modern xiangqi"),
     ("1956 年，中国举办了第一届全国象棋比赛，象棋成为正式的体育项目。此后亚洲象棋联合会、世界象棋联合会"
      "相继成立，世界象棋锦标赛定期举行，象棋在世界各地的华人中广泛流传。",
      "In 1956 China held its first national xiangqi championship and xiangqi became an official "
      "sport. The Asian and World Xiangqi Federations followed, world championships are held "
      "regularly, and the game is played wherever Chinese communities live.")),
    (("电脑象棋", "Computer xiangqi"),
     ("象棋程序采用与国际象棋程序相同的方法：走法生成、局面评估和 Alpha-Beta 搜索。"
      "今天最强的象棋引擎早已超过人类最强棋手。本程序的引擎 cxiangqi 用 Cython 编译的核心实现了这些方法。",
      "Xiangqi programs use the same methods as chess programs: move generation, evaluation and "
      "alpha-beta search. The strongest engines now far surpass the best human players. This "
      "game's engine, cxiangqi, implements these methods in a compiled Cython core.")),
]


DIAGRAM_CELL = 50            # pixels between two lines: piece characters of 24 px
NARROW_TEXT = 300            # a text column narrower than this goes under its diagram


def diagram_size(spec: Diagram, cell: int = DIAGRAM_CELL) -> Tuple[int, int]:
    lo, hi = spec.get("ranks", (0, 9))
    return int(cell * 9.4), int(cell * (hi - lo + 1.4))


def draw_diagram(canvas: tk.Canvas, spec: Diagram, cell: int = DIAGRAM_CELL) -> None:
    """A board (or the ranks ``spec["ranks"]`` of one) with the pieces, target
    dots, crosses, rings and arrows of `spec` (squares in ICCS names: "e1")."""
    lo, hi = spec.get("ranks", (0, 9))
    w, h = diagram_size(spec, cell)
    canvas.configure(width=w, height=h)
    c = cell
    ox, oy = 0.7 * c, 0.7 * c

    def xy(name: str) -> Tuple[float, float]:
        sq = parse_square(name)
        return ox + (sq % 9) * c, oy + (hi - sq // 9) * c

    def pt(col: int, rank: int) -> Tuple[float, float]:
        return ox + col * c, oy + (hi - rank) * c

    canvas.create_rectangle(ox - 0.55 * c, oy - 0.55 * c, ox + 8.55 * c, oy + (hi - lo + 0.55) * c,
                            fill=WOOD, outline="#8a5a2b", width=2)
    # lines run on past a cut edge, to show the board goes on
    top = oy - (0.4 * c if hi < 9 else 0)
    bottom = oy + (hi - lo) * c + (0.4 * c if lo > 0 else 0)
    for rank in range(lo, hi + 1):
        canvas.create_line(*pt(0, rank), *pt(8, rank), fill=INK)
    for col in range(9):
        segments = [(lo, hi)] if col in (0, 8) else [(lo, min(hi, 4)), (max(lo, 5), hi)]
        for a, b in segments:
            if a > b:
                continue
            y0 = top if b == hi else pt(col, b)[1]
            y1 = bottom if a == lo else pt(col, a)[1]
            canvas.create_line(ox + col * c, y0, ox + col * c, y1, fill=INK)
    for r0 in (0, 7):
        if lo <= r0 and r0 + 2 <= hi:
            canvas.create_line(*pt(3, r0), *pt(5, r0 + 2), fill=INK)
            canvas.create_line(*pt(5, r0), *pt(3, r0 + 2), fill=INK)
    for name, symbol in spec.get("pieces", {}).items():
        x, y = xy(name)
        draw_piece(canvas, x, y, c * 0.45, Piece.from_symbol(symbol), ("piece",))
    for name in spec.get("dots", []):
        x, y = xy(name)
        r = c * 0.14
        canvas.create_oval(x - r, y - r, x + r, y + r, fill=TARGET, outline="white", tags=("dot",))
    for name in spec.get("rings", []):
        x, y = xy(name)
        r = c * 0.52
        canvas.create_oval(x - r, y - r, x + r, y + r, outline=CHECK, width=3)
    for name in spec.get("crosses", []):
        x, y = xy(name)
        r = c * 0.18
        canvas.create_line(x - r, y - r, x + r, y + r, fill=CHECK, width=3)
        canvas.create_line(x - r, y + r, x + r, y - r, fill=CHECK, width=3)
    for a, b in spec.get("arrows", []):
        (xa, ya), (xb, yb) = xy(a), xy(b)
        canvas.create_line(xa, ya, xb, yb, fill=CHECK, width=4, arrow=tk.LAST,
                           arrowshape=(16, 20, 7))


class ScrollPage(tk.Frame):
    """A titled, scrollable page of sections with a back button; the text
    follows the page's width."""

    def __init__(self, master: tk.Misc, title: str, back_text: str, on_back, lang: str,
                 family: Optional[str] = None) -> None:
        super().__init__(master, bg=PAPER)
        self.lang = lang
        self.family = family or cjk_family(self)
        head = tk.Frame(self, bg=ACCENT)
        head.pack(fill="x")
        self.back_button = tk.Button(head, text="← " + back_text, command=on_back, relief="flat",
                                     bg=ACCENT, fg="white", activebackground="#c04a30",
                                     activeforeground="white", font=(self.family, 13), bd=0, padx=12)
        self.back_button.pack(side="left", padx=6, pady=6)
        tk.Label(head, text=title, bg=ACCENT, fg="white", font=(self.family, 20)).pack(side="left", padx=20)
        self.canvas = tk.Canvas(self, bg=PAPER, highlightthickness=0)
        bar = tk.Scrollbar(self, orient="vertical", command=self.canvas.yview)
        self.canvas.configure(yscrollcommand=bar.set)
        bar.pack(side="right", fill="y")
        self.canvas.pack(side="left", fill="both", expand=True)
        self.body = tk.Frame(self.canvas, bg=PAPER)
        self._win = self.canvas.create_window(0, 0, window=self.body, anchor="nw")
        self.body.bind("<Configure>", lambda e: self.canvas.configure(scrollregion=self.canvas.bbox("all")))
        self.canvas.bind("<Configure>", self._fit)
        for seq, delta in (("<Button-4>", -3), ("<Button-5>", 3)):
            self.canvas.bind_all(seq, lambda e, d=delta: self._scroll(d))
        self.canvas.bind_all("<MouseWheel>", lambda e: self._scroll(-1 if e.delta > 0 else 1))
        self.sections = 0
        self.rows: List[Dict[str, Any]] = []
        self.texts: List[WrapLabel] = []
        self.page_width = 0

    def _scroll(self, units: int) -> None:
        if self.winfo_exists() and self.winfo_ismapped():
            self.canvas.yview_scroll(units, "units")

    def _fit(self, event) -> None:
        self.canvas.itemconfigure(self._win, width=event.width)
        self.layout(event.width)

    def layout(self, width: int) -> None:
        """Lays the sections out for a page `width` pixels wide: the text column
        takes what the diagram leaves; too narrow, and it goes under it."""
        self.page_width = width
        for row in self.rows:
            inner = width - 2 * 24
            diagram = row["diagram"]
            if diagram is None:
                row["text"].set_width(inner)
                continue
            dw = int(diagram.cget("width"))
            beside = inner - dw - 18 >= NARROW_TEXT
            if beside != row.get("beside"):
                row["beside"] = beside
                diagram.grid_forget()
                row["block"].grid_forget()
                if beside:
                    diagram.grid(row=0, column=0, sticky="nw", padx=(0, 18))
                    row["block"].grid(row=0, column=1, sticky="nwe")
                else:
                    diagram.grid(row=0, column=0, sticky="nw", pady=(0, 8))
                    row["block"].grid(row=1, column=0, sticky="nwe")
            row["text"].set_width(inner - dw - 18 if beside else inner)

    def add_section(self, heading: str, text: str, diagram: Optional[Diagram] = None) -> None:
        row = tk.Frame(self.body, bg=PAPER, pady=10)
        row.pack(fill="x", padx=24)
        cv = None
        if diagram is not None:
            cv = tk.Canvas(row, bg=PAPER, highlightthickness=0)
            draw_diagram(cv, diagram)
        block = tk.Frame(row, bg=PAPER)
        tk.Label(block, text=heading, bg=PAPER, fg=ACCENT, font=(self.family, 16, "bold"),
                 anchor="w").pack(fill="x")
        body = WrapLabel(block, text, 600, bg=PAPER, fg=TEXT_INK, font=(self.family, 13))
        body.pack(fill="x", pady=(4, 0))
        if cv is None:
            block.grid(row=0, column=0, sticky="nwe")
        row.columnconfigure(1 if cv is not None else 0, weight=1)
        self.rows.append({"frame": row, "diagram": cv, "block": block, "text": body})
        self.texts.append(body)
        self.sections += 1
        if self.page_width:
            self.layout(self.page_width)


def rules_page(master: tk.Misc, lang: str, title: str, back: str, on_back,
               family: Optional[str] = None) -> ScrollPage:
    page = ScrollPage(master, title, back, on_back, lang, family)
    i = 1 if lang == "en" else 0
    for heading, text, diagram in RULES:
        page.add_section(heading[i], text[i], diagram)
    return page


def history_page(master: tk.Misc, lang: str, title: str, back: str, on_back,
                 family: Optional[str] = None) -> ScrollPage:
    page = ScrollPage(master, title, back, on_back, lang, family)
    i = 1 if lang == "en" else 0
    for heading, text in HISTORY:
        page.add_section(heading[i], text[i])
    return page
