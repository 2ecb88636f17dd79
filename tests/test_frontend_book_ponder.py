"""The desktop game's opening book and pondering: the controller without a
display, and the engine panel's ponder row in the real window."""
import random
import threading
import warnings

import pytest

from cxiangqi import BLACK, RED, Board, Move
from cxiangqi import book as _book
from cxiangqi.book import Book
from cxiangqi.engine import Engine

from pyfrontend.xiangqi.controller import HVC, HVH, GameController, default_book
from pyfrontend.settings import Settings

from test_frontend_window import app, collect_tk_garbage, display, pump  # noqa: F401

WAIT = 30.0
M = Move.from_iccs


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


class CountingEngine(Engine):
    """The real engine, counting the searches it is asked for."""

    def __init__(self):
        super().__init__(hash_mb=16, seed=1)
        self.calls = []
        self._calls_lock = threading.Lock()

    def search(self, board, limit=None, **kw):
        with self._calls_lock:
            self.calls.append(("ponder" if kw.get("ponder") else "search", board.fen()))
        return super().search(board, limit, **kw)

    def count(self, kind):
        with self._calls_lock:
            return sum(1 for k, _ in self.calls if k == kind)


def make(engine, **settings):
    c = GameController(Settings(**settings), mode=HVC, engine_factory=lambda: engine,
                       move_delay=0)
    c.book_rng = random.Random(1)
    return c


# --- opening book ------------------------------------------------------------------------

def test_the_computer_answers_from_the_book_without_searching():
    engine = CountingEngine()
    c = make(engine, level="hard")
    book = Book.default()
    for ply in range(3):
        human = book.moves(c.board)[0][0]            # the main line, by the heaviest move
        before = c.board.copy()
        before.push(human)
        assert c.play(human)
        assert c.wait_idle(WAIT)
        reply = c.board.move_stack[-1]
        assert reply in dict(book.moves(before))
        assert c.report.book and len(c.report.pv) == 1
    assert engine.calls == []                         # hard level, yet no search at all


def test_book_choices_vary_by_weight_and_the_book_can_be_turned_off():
    engine = CountingEngine()
    c = make(engine, human_color="black")
    c.new_game(mode=HVC, human_color=BLACK)
    firsts = []
    for _ in range(12):
        assert c.wait_idle(WAIT)
        firsts.append(c.board.move_stack[0])
        c.new_game()
    weights = dict(Book.default().moves(Board()))
    assert set(firsts) <= set(weights) and len(set(firsts)) > 1
    assert engine.calls == []
    c.set_book(False)
    assert c.settings.book is False and c.book_moves() == []
    c.new_game()
    assert c.wait_idle(WAIT) and engine.count("search") == 1


def test_an_unreadable_book_means_no_book_not_a_crash(tmp_path, monkeypatch):
    bad = tmp_path / "book.bin"
    bad.write_bytes(b"CXQBOOK\x01garbage")
    monkeypatch.setattr(_book, "DEFAULT_BOOK_PATH", bad)
    monkeypatch.setattr(Book, "_default", None)
    with pytest.warns(UserWarning, match="no opening book"):
        assert default_book() is None
    engine = CountingEngine()
    c = GameController(Settings(level="1"), mode=HVC, engine_factory=lambda: engine,
                       move_delay=0, book_factory=lambda: None)
    assert c.play(M("h2e2")) and c.wait_idle(WAIT)
    assert len(c.board.move_stack) == 2 and engine.count("search") == 1


# --- pondering ---------------------------------------------------------------------------

def test_ponder_settings_off_at_the_easy_levels_by_default():
    c = GameController(Settings(), mode=HVC, engine_factory=CountingEngine)
    assert c.settings.ponder == "auto"
    for level, expected in (("easy", False), ("1", False), ("3", False), ("4", True),
                            ("normal", True), ("hard", True)):
        c.set_level(BLACK, level)
        assert c.ponders() is expected, level
    c.set_level(BLACK, "easy")
    c.set_ponder("on")
    assert c.ponders()
    c.set_level(BLACK, "hard")
    c.set_ponder("off")
    assert not c.ponders()
    with pytest.raises(ValueError):
        c.set_ponder("sometimes")
    c.new_game(mode=HVH)
    c.set_ponder("on")
    assert not c.ponders()                    # nobody to ponder against
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert Settings.from_dict({"ponder": "always", "book": "yes"}) == Settings()
    assert len(caught) == 2


def test_the_controller_ponders_and_a_hit_answers_without_a_new_search():
    engine = CountingEngine()
    c = make(engine, level="4", book=False)            # level 4: ponders (auto)
    assert c.play(M("h2e2")) and c.wait_idle(WAIT)
    expected = c.ponder_move
    assert expected is not None and c.board.is_legal(expected)
    assert engine.count("search") == 1 and engine.count("ponder") == 1
    assert c.ponder_rate is None
    # the human plays the expected move: the ponder search is the answer
    assert c.play(expected) and c.wait_idle(WAIT)
    assert len(c.board.move_stack) == 4
    assert c.board.is_legal(c.ponder_move) if c.ponder_move else True
    assert engine.count("search") == 1                 # no new search: answered at once
    assert c.ponder_hits == 1 and c.ponder_rate == (1, 1)
    # the answer is the ponder search's: its report, nothing searched since
    assert c.report is not None and c.report.depth >= 1 and c.report.nodes > 0


def test_a_miss_stops_pondering_and_searches_the_real_position():
    engine = CountingEngine()
    c = make(engine, level="4", book=False)
    assert c.play(M("h2e2")) and c.wait_idle(WAIT)
    expected = c.ponder_move
    other = next(m for m in sorted(c.board.legal_moves, key=Move.iccs) if m != expected)
    assert c.play(other) and c.wait_idle(WAIT)
    assert len(c.board.move_stack) == 4
    assert engine.count("search") == 2                 # the real position was searched
    assert engine.calls[-2][1] == c.position_at(3).fen()
    assert c.ponder_misses == 1 and c.ponder_rate == (0, 1)
    # a hit after that: 1 of 2
    if c.ponder_move is not None:
        assert c.play(c.ponder_move) and c.wait_idle(WAIT)
        assert c.ponder_rate == (1, 2)


def test_undo_hint_and_new_game_cancel_pondering_cleanly(monkeypatch):
    # "normal" (level 5) as it plays, without its random second-best picks
    # and overlooked replies, so that every answer has a reply in mind: this
    # test is about cancelling the pondering, not about which move the
    # level's dice choose (they follow the evaluation's weights)
    from dataclasses import replace
    from cxiangqi import engine as _engine
    for name in ("5", "normal"):
        monkeypatch.setitem(_engine.LEVELS, name,
                            replace(_engine.LEVELS[name], randomness=0, oversight=0.0))
    engine = CountingEngine()
    c = make(engine, level="normal", book=False)
    assert c.play(M("h2e2")) and c.wait_idle(WAIT)
    assert c.ponder_move is not None
    assert c.hint()                                     # the hint goes first
    assert c.ponder_move is None and c.wait_idle(WAIT)
    assert c.hint_move is not None and c.board.is_legal(c.hint_move)
    assert c.play(c.hint_move) and c.wait_idle(WAIT)
    assert c.ponder_move is not None
    assert c.undo() and c.ponder_move is None and c.human_to_move()
    assert c.ponder_rate is None                        # a cancel is neither a hit nor a miss
    assert c.play(M("c3c4")) and c.wait_idle(WAIT)
    c.new_game()
    assert c.ponder_move is None and c.board.move_stack == []
    assert c.play(M("h2e2")) and c.wait_idle(WAIT) and len(c.board.move_stack) == 2
    c.shutdown()


def test_no_pondering_at_the_easy_levels_and_when_off():
    engine = CountingEngine()
    c = make(engine, level="easy", book=False)
    assert c.play(M("h2e2")) and c.wait_idle(WAIT)
    assert c.ponder_move is None and engine.count("ponder") == 0
    c.set_ponder("on")
    # an easy level often has no reply in mind (a move chosen blind, a short
    # line): it ponders from its first answer that expects one
    for text in ("h0g2", "i0h0", "b0c2", "a0a1", "c3c4", "g3g4", "i3i4", "a3a4"):
        if c.board.is_legal(M(text)):
            assert c.play(M(text)) and c.wait_idle(WAIT)
            if c.ponder_move is not None:
                break
    assert c.ponder_move is not None and engine.count("ponder") >= 1
    c.set_ponder("off")
    assert c.ponder_move is None
    c.shutdown()


def test_a_move_that_ends_the_game_stops_pondering():
    engine = CountingEngine()
    c = make(engine, level="4", book=False)
    c.new_game(fen="4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1")      # Red mates with a0a9
    c._start_ponder(BLACK, "4", M("b8b7"))           # the computer expects another move
    task = c._ponder
    assert c.ponder_move == M("b8b7") and task.thread.is_alive()
    assert c.play(M("a0a9")) and c.outcome is not None and c.outcome.winner == RED
    assert c.ponder_move is None                        # no search left thinking forever
    task.thread.join(WAIT)
    assert not task.thread.is_alive()
    assert c.ponder_rate is None and engine.count("search") == 0
    c.shutdown()


# --- the window --------------------------------------------------------------------------

def test_engine_panel_shows_the_ponder_hit_rate_and_the_menu_sets_it(app):
    x = app.xiangqi
    x.start_game("hvc", RED, {BLACK: "normal"})
    pump(app.root, 0.1)
    labels = x.engine_labels
    assert labels["ponder"].cget("text") == "–"
    x.controller.ponder_hits, x.controller.ponder_misses = 3, 1
    x.controller._emit("status")
    assert labels["ponder"].cget("text") == app.t("ponder_rate", hits=3, total=4, pct=75)
    x.set_ponder("off")
    assert labels["ponder"].cget("text") == app.t("ponder_off")
    assert app.settings.ponder == "off" and x.ponder_var.get() == "off"
    x.set_book(False)
    assert app.settings.book is False and x.book_var.get() is False
    saved = Settings.load(app.settings_path)
    assert saved.ponder == "off" and saved.book is False


# --- threads and the levels' measured strength -------------------------------------------

def test_the_thread_setting_reaches_the_engine_before_its_next_search():
    engine = CountingEngine()
    c = make(engine, level="3", book=False, ponder="off")
    assert engine.threads == 1
    c.set_threads(2)
    assert c.settings.threads == 2 and engine.threads == 1     # not in the middle of a search
    assert c.play(M("h2e2")) and c.wait_idle(WAIT)
    assert engine.threads == 2 and engine.count("search") == 1
    assert len(c.board.move_stack) == 2                        # the reply was played
    for bad in (0, -1, True, 2.0, 10 ** 6):
        with pytest.raises(ValueError):
            c.set_threads(bad)
    assert c.settings.threads == 2
    c.shutdown()


def test_threads_in_the_settings_file_are_checked():
    assert Settings.from_dict({"threads": 2}).threads == 2
    for bad in (0, True, "2", 10 ** 6):
        with pytest.warns(UserWarning, match="threads"):
            assert Settings.from_dict({"threads": bad}).threads == 1


def test_the_level_names_show_their_measured_strength():
    from cxiangqi.engine import LEVEL_ELO
    from pyfrontend.xiangqi.controller import level_label
    assert set(LEVEL_ELO) == {str(n) for n in range(1, 11)} and LEVEL_ELO["1"] == 0
    elos = [LEVEL_ELO[str(n)] for n in range(1, 11)]
    assert elos == sorted(elos)                 # a ladder
    assert level_label("5", "en", strength=True) == f"level 5 (≈ {LEVEL_ELO['5']:+d} Elo)"
    assert level_label("normal", "zh", strength=True) == f"普通（约 {LEVEL_ELO['5']:+d} 分）"
    assert level_label("5", "en") == "level 5"


def test_the_menu_sets_the_threads_and_remembers_them(app):
    x = app.xiangqi
    x.set_threads(2)
    assert app.settings.threads == 2 and x.threads_var.get() == 2
    assert Settings.load(app.settings_path).threads == 2
    x.set_threads(1)
