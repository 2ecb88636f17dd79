"""Gomoku (五子棋) game flow, with no display: whose turn it is, human vs
human or vs the computer, undo, restart, the end of the game, save files and
the autosaved game in progress.

Like xiangqi.controller.GameController: the view (view.py) draws what
this reports and forwards clicks; the computer thinks in a worker thread
(the gomoku search releases the GIL) and its answer comes back through a
queue that ``poll()`` empties from the Tk event loop, so every state change
happens in one thread.  An answer computed for an earlier position (after an
undo or a restart) carries an old generation number and is dropped.  The
gomoku search cannot be interrupted, but it is short (at most the level's
time per move, 1.6 s at "hard"), so a dropped search simply runs out.

>>> c = GomokuController(mode=HVH)
>>> c.play((7, 7)), c.play((7, 7))
(True, False)
>>> c.board.turn is WHITE
True
"""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from cxiangqi import gomoku
from cxiangqi.gomoku import BLACK, WHITE, Board, Color

from ..i18n import tr
from ..settings import Autosave, Settings, atomic_write_text, config_dir
from ..xiangqi.controller import PollingController

HVH, HVC = "hvh", "hvc"
MODES = (HVH, HVC)
LEVELS = ("easy", "normal", "hard")
FILE_SUFFIX = ".gomoku.txt"

Point = Tuple[int, int]
Listener = Callable[[str, Dict[str, Any]], None]
SearchFn = Callable[[Board, str], Point]


def color_name(color: Color) -> str:
    return "black" if color == BLACK else "white"


def color_of(name: str) -> Color:
    return WHITE if name == "white" else BLACK


def result_text(board: Board, lang: str = "zh") -> str:
    """'黑方胜 — 五子连珠', 'White wins — five in a row', '和棋 — 棋盘已满'."""
    winner = board.winner()
    if winner is not None:
        head = tr("g_black_wins" if winner == BLACK else "g_white_wins", lang)
        return f"{head} — {tr('g_five', lang)}"
    if board.is_draw():
        return f"{tr('draw', lang)} — {tr('g_full', lang)}"
    return ""


def _default_search(board: Board, level: str) -> Point:
    return gomoku.best_move(board, level)


class GomokuController(PollingController):
    """One game of gomoku and the players around it."""

    def __init__(self, settings: Optional[Settings] = None, *, mode: Optional[str] = None,
                 search: Optional[SearchFn] = None, move_delay: Optional[float] = None) -> None:
        self.settings = settings or Settings()
        s = self.settings
        self.board = Board()
        self.mode = mode or s.gomoku_mode
        self.human_color: Color = color_of(s.gomoku_human)
        self.level = s.gomoku_level if s.gomoku_level in LEVELS else "normal"
        # pause before the computer answers (lets the stone land on screen)
        self.move_delay = 0.15 if move_delay is None else move_delay
        self._search = search or _default_search
        self._listeners: List[Listener] = []
        self._gen = 0
        self._task: Optional[Tuple[int, Color, threading.Thread]] = None
        self._queue: "queue.Queue[tuple]" = queue.Queue()
        self._due: Optional[float] = None
        self._schedule()

    # --- listeners ---------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """listener(kind, data) is called on: "reset" (redraw everything),
        "move" (point, color, by_computer), "over" (winner: a Color or None
        for a draw), "thinking" (color or None), "error" (message),
        "status" (anything else changed)."""
        self._listeners.append(listener)

    def _emit(self, kind: str, **data: Any) -> None:
        for listener in list(self._listeners):
            listener(kind, data)

    # --- who plays ---------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.board.is_game_over()

    def is_computer(self, color: Color) -> bool:
        return self.mode == HVC and color != self.human_color

    def human_to_move(self) -> bool:
        return not self.over and not self.is_computer(self.board.turn)

    @property
    def thinking(self) -> Optional[Color]:
        """The colour the computer is thinking for, or None."""
        return self._task[1] if self._task is not None else None

    @property
    def busy(self) -> bool:
        return self._task is not None or self._due is not None

    def last_point(self) -> Optional[Point]:
        return self.board.peek()

    # --- new game, level ---------------------------------------------------

    def new_game(self, mode: Optional[str] = None, human_color: Optional[Color] = None,
                 level: Optional[str] = None) -> None:
        """Starts again (再来一局), keeping the mode, colour and level unless given."""
        if mode is not None and mode not in MODES:
            raise ValueError(f"unknown gomoku mode {mode!r}")
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown gomoku level {level!r}")
        self._cancel()
        if mode is not None:
            self.mode = self.settings.gomoku_mode = mode
        if human_color is not None:
            self.human_color = human_color
            self.settings.gomoku_human = color_name(human_color)
        if level is not None:
            self.level = self.settings.gomoku_level = level
        self.board = Board()
        self._emit("reset")
        self._schedule()

    def set_level(self, level: str) -> None:
        """Changes the computer's level, also mid-game (the next search uses it)."""
        if level not in LEVELS:
            raise ValueError(f"unknown gomoku level {level!r}")
        self.level = self.settings.gomoku_level = level
        self._emit("status")

    # --- moves -------------------------------------------------------------

    def play(self, point: Point) -> bool:
        """A human's stone: False (nothing changes) when it is not a human's
        turn, the game is over, or the point is occupied or off the board."""
        if not self.human_to_move() or not self.board.is_legal(point):
            return False
        self._apply(tuple(point), by_computer=False)   # type: ignore[arg-type]
        return True

    def _apply(self, point: Point, by_computer: bool) -> None:
        color = self.board.turn
        self.board.push(point)
        self._emit("move", point=point, color=color, by_computer=by_computer)
        if self.over:
            self._emit("over", winner=self.board.winner())
        self._schedule()

    def undo(self) -> bool:
        """Takes back stones: against the computer your last stone and its
        reply (a running search is dropped); otherwise one stone.  False
        when there is nothing (of yours) to take back."""
        stack = self.board.move_stack
        if not stack:
            return False
        n = 1
        if self.mode == HVC:
            n, color = 0, self.board.turn
            for _ in stack:
                n += 1
                color = color.other          # the colour of the popped stone
                if color == self.human_color:
                    break
            else:
                return False                  # only the computer has played
        self._cancel()
        for _ in range(n):
            self.board.pop()
        self._emit("reset")
        self._schedule()
        return True

    # --- the worker thread ---------------------------------------------------

    def _schedule(self) -> None:
        if self._task is None and not self.over and self.is_computer(self.board.turn):
            self._due = time.monotonic() + self.move_delay
        else:
            self._due = None

    def _start(self) -> None:
        self._due = None
        self._gen += 1
        gen, color, board, level = self._gen, self.board.turn, self.board.copy(), self.level
        thread = threading.Thread(target=self._run, args=(gen, board, level), daemon=True,
                                  name="gomoku-search")
        self._task = (gen, color, thread)
        thread.start()
        self._emit("thinking", color=color)

    def _run(self, gen: int, board: Board, level: str) -> None:
        try:
            self._queue.put(("done", gen, self._search(board, level)))
        except Exception as exc:              # reported in the UI, never kills the app
            self._queue.put(("error", gen, exc))

    def _cancel(self) -> None:
        self._due = None
        if self._task is not None:
            self._gen += 1
            self._task = None
            self._emit("thinking", color=None)

    def poll(self) -> None:
        """Handles the computer's answer and starts a due search (the view
        calls this every few tens of milliseconds); nothing while held."""
        if self._holds:
            return
        while True:
            try:
                kind, gen, value = self._queue.get_nowait()
            except queue.Empty:
                break
            if self._task is None or gen != self._task[0]:
                continue                      # a stale answer
            color = self._task[1]
            self._task = None
            self._emit("thinking", color=None)
            if kind == "error":
                self._emit("error", message=str(value) or type(value).__name__)
            elif self.board.turn == color and self.board.is_legal(value):
                self._apply(tuple(value), by_computer=True)
        if self._due is not None and self._task is None and time.monotonic() >= self._due:
            self._start()

    def shutdown(self) -> None:
        task = self._task
        self._cancel()
        if task is not None:
            task[2].join(timeout=2.0)

    # --- save files ------------------------------------------------------------

    def to_text(self) -> str:
        """The save file: the board's to_text() and, as comment lines that
        Board.from_text ignores, the mode, the human's colour and the level."""
        return (self.board.to_text()
                + f"# mode {self.mode}\n# human {color_name(self.human_color)}\n# level {self.level}\n")

    def save(self, path: Union[str, Path]) -> None:
        """Writes the game (atomically); OSError on failure."""
        atomic_write_text(Path(path), self.to_text())

    @staticmethod
    def parse(text: str) -> Tuple[Board, Dict[str, str]]:
        """The board and the settings (mode/human/level) stored in a save
        file's text; ValueError when it is not a valid gomoku save."""
        board = Board.from_text(text)
        if board.size != gomoku.DEFAULT_SIZE:
            raise ValueError(f"only {gomoku.DEFAULT_SIZE}x{gomoku.DEFAULT_SIZE} boards are played here "
                             f"(the file has {board.size}x{board.size})")
        meta: Dict[str, str] = {}
        for line in text.splitlines():
            parts = line.strip().split()
            if len(parts) == 3 and parts[0] == "#" and parts[1] in ("mode", "human", "level"):
                meta[parts[1]] = parts[2]
        return board, meta

    def load_text(self, text: str) -> None:
        """Replaces the game by the one in `text`; ValueError (nothing changes) if bad."""
        board, meta = self.parse(text)
        self._cancel()
        if meta.get("mode") in MODES:
            self.mode = self.settings.gomoku_mode = meta["mode"]
        if meta.get("human") in ("black", "white"):
            self.human_color = color_of(meta["human"])
            self.settings.gomoku_human = meta["human"]
        if meta.get("level") in LEVELS:
            self.level = self.settings.gomoku_level = meta["level"]
        self.board = board
        self._emit("reset")
        if self.over:
            self._emit("over", winner=board.winner())
        self._schedule()

    def load(self, path: Union[str, Path]) -> None:
        """Loads a save file; ValueError/OSError (nothing changes) if it
        cannot be read or is not a gomoku game."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"not a text file ({exc.reason})") from None
        self.load_text(text)

    # --- autosave ----------------------------------------------------------------

    @staticmethod
    def autosave_path() -> Path:
        return config_dir() / "gomoku_autosave.txt"

    def autosave(self, path: Optional[Path] = None) -> bool:
        """On exit: saves a game in progress, removes the file otherwise."""
        store = Autosave(Path(path or self.autosave_path()))
        return store.save(not self.over and bool(self.board.move_stack), self.save)

    def restore(self, path: Optional[Path] = None) -> bool:
        """On start: loads the autosaved game in progress, if any.  A corrupt
        file is reported with a warning and ignored (never a crash)."""
        return bool(Autosave(Path(path or self.autosave_path())).load(
            lambda p: self.load(p) or True))
