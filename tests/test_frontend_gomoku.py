"""Gomoku (五子棋) in the desktop game: the controller without a display
(human vs human to a win, the computer's answers, undo, restart, save files,
the autosaved game) and the real window under Xvfb (opened from the main
menu, stones placed by clicks, the computer answering, a screenshot).

Like test_frontend_window.py, a missing Xvfb/xdotool/imagemagick is a
failure, not a skip."""

import os
import threading
import time
from pathlib import Path

import pytest

import tkinter as tk  # noqa: F401  (required: a missing Tk is a failure)

from cxiangqi.gomoku import BLACK, WHITE, Board

from pyfrontend.gomoku.controller import HVC, HVH, GomokuController, result_text
from pyfrontend.i18n import tr
from pyfrontend.settings import Settings, config_dir

from test_frontend_window import (Recorder, answer_next_dialog, app, collect_tk_garbage, display,  # noqa: F401
                                  pump, pump_until, screenshot, shots_dir)


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def first_empty(board, level):
    """A fake computer: the first empty point, row by row."""
    return next(iter(board.legal_moves))


def make(mode=HVH, search=first_empty, **kw):
    return GomokuController(Settings(), mode=mode, search=search, move_delay=0, **kw)


# --- the controller -------------------------------------------------------------------

def test_human_vs_human_to_a_win_and_restart():
    c = make(HVH)
    events = []
    c.subscribe(lambda kind, data: events.append((kind, data)))
    for i in range(4):
        assert c.play((7, 3 + i))              # black along row 7
        assert c.play((8, 3 + i))              # white below
    assert not c.play((8, 3))                  # occupied: nothing changes
    assert not c.play((15, 0)) and not c.play((-1, 2))
    assert c.board.turn == BLACK and not c.over
    assert c.play((7, 7))
    assert c.over and c.board.winner() == BLACK
    assert c.board.winning_line() == [(7, 3), (7, 4), (7, 5), (7, 6), (7, 7)]
    assert ("over", {"winner": BLACK}) in events
    assert result_text(c.board) == "黑方胜 — 五子连珠"
    assert result_text(c.board, "en") == "Black wins — five in a row"
    assert not c.play((0, 0))                  # the game is over
    assert c.undo() and not c.over and len(c.board.move_stack) == 8   # one stone in HvH
    c.new_game()
    assert c.board.move_stack == [] and c.mode == HVH and c.board.turn == BLACK
    c.poll()
    assert not c.busy                          # nobody's computer


def test_vertical_and_diagonal_wins_and_draw_text():
    c = make(HVH)
    for r in range(4):
        c.play((r, r))
        c.play((r, 14))
    c.play((4, 4))
    assert c.board.winner() == BLACK and len(c.board.winning_line()) == 5
    c.new_game()
    for r in range(4):
        c.play((r + 5, 0))
        c.play((r, 10))
    c.play((0, 0))
    c.play((4, 10))
    assert c.board.winner() == WHITE and result_text(c.board) == "白方胜 — 五子连珠"


def test_human_vs_computer_answers_and_undo_takes_back_a_pair():
    c = make(HVC)
    assert c.human_to_move() and c.human_color == BLACK
    assert c.play((7, 7))
    assert not c.human_to_move()
    assert not c.play((7, 8))                  # the computer's turn
    assert c.wait_idle(5)
    assert len(c.board.move_stack) == 2 and c.board.move_stack[1] == (0, 0)
    assert c.human_to_move()
    assert c.undo()
    assert c.board.move_stack == [] and c.human_to_move()
    assert not c.undo()


def test_computer_plays_black_first_and_real_search_at_each_level():
    c = GomokuController(Settings(), mode=HVC, move_delay=0)
    c.new_game(mode=HVC, human_color=WHITE, level="easy")
    assert not c.human_to_move()
    assert c.wait_idle(10)
    assert c.board.move_stack == [(7, 7)]      # the real engine opens in the centre
    assert not c.undo()                        # only the computer has played
    # the real engine never misses a win in one
    for lv in ("easy", "normal"):
        d = GomokuController(Settings(), mode=HVH, move_delay=0)
        for p in [(7, 7), (0, 0), (7, 8), (0, 2), (7, 9), (0, 4), (7, 10)]:
            d.play(p)
        text = d.to_text().replace("# mode hvh", "# mode hvc").replace("# level normal", f"# level {lv}")
        d.load_text(text)                      # now against the computer, who plays white (to move)
        assert d.mode == HVC and d.is_computer(WHITE)
        assert d.wait_idle(10)
        assert d.board.move_stack[-1] in [(7, 6), (7, 11)]


def test_the_gomoku_search_releases_the_gil():
    """While 'hard' thinks in a worker thread, this thread keeps running."""
    c = GomokuController(Settings(), mode=HVC, move_delay=0)
    c.set_level("hard")
    c.play((7, 7))
    c.poll()
    assert c.thinking == WHITE
    late, last = [], time.monotonic()
    while c.thinking is not None:
        time.sleep(0.005)
        now = time.monotonic()
        late.append(now - last - 0.005)
        last = now
        c.poll()
    # This thread went round its loop many times while the search ran: with
    # the GIL held by the search it would have gone round once.  (How late
    # the loop was is measured by pyfrontend/tools/measure_stall.py, not
    # asserted here.)
    assert len(late) > 50


def test_undo_and_restart_while_the_computer_thinks_drop_its_answer():
    gate = threading.Event()

    def slow(board, level):
        gate.wait(5)
        return first_empty(board, level)

    c = make(HVC, search=slow)
    c.play((7, 7))
    c.poll()
    assert c.thinking == WHITE
    assert c.undo() and c.thinking is None
    gate.set()
    time.sleep(0.05)
    c.poll()                                   # the stale answer is dropped
    assert c.board.move_stack == [] and c.human_to_move()
    gate.clear()
    c.play((7, 7))
    c.poll()
    c.new_game()
    gate.set()
    time.sleep(0.05)
    c.poll()
    assert c.board.move_stack == []


def test_search_error_is_reported_not_raised():
    def broken(board, level):
        raise RuntimeError("boom")

    c = make(HVC, search=broken)
    errors = []
    c.subscribe(lambda kind, data: errors.append(data["message"]) if kind == "error" else None)
    c.play((7, 7))
    assert c.wait_idle(5)
    assert errors == ["boom"] and len(c.board.move_stack) == 1


def test_level_and_mode_are_remembered_in_the_settings():
    c = make(HVC)
    c.set_level("hard")
    c.new_game(mode=HVC, human_color=WHITE)
    assert c.settings.gomoku_level == "hard" and c.settings.gomoku_human == "white"
    with pytest.raises(ValueError):
        c.set_level("impossible")
    with pytest.raises(ValueError):
        c.new_game(mode="cvc")


def test_save_load_round_trip(tmp_path):
    c = make(HVC)
    c.set_level("easy")
    for p in [(7, 7), (6, 6)]:
        c.play(p)
        c.wait_idle(5)
    path = tmp_path / "game.gomoku.txt"
    c.save(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("gomoku 1\nsize 15\nmoves 7,7 0,0 6,6 0,1")
    assert Board.from_text(text) == c.board      # plain to_text format, readable by the module
    d = make(HVH)
    d.load(path)
    assert d.board == c.board and d.mode == HVC and d.level == "easy" and d.human_color == BLACK
    assert d.human_to_move()


@pytest.mark.parametrize("content", [
    b"", b"gomoku 2\nsize 15\n", b"gomoku 1\nsize 15\nmoves 7,7 7,7\n", b"gomoku 1\nsize 99\n",
    b"gomoku 1\nsize 15\nmoves 7;7\n", b"\xff\xfe\x00garbage", b"gomoku 1\nsize 9\nmoves 4,4\n",
])
def test_corrupt_save_is_an_error_and_changes_nothing(tmp_path, content):
    c = make(HVH)
    c.play((7, 7))
    path = tmp_path / "bad.gomoku.txt"
    path.write_bytes(content)
    with pytest.raises(ValueError):
        c.load(path)
    assert c.board.move_stack == [(7, 7)]
    with pytest.raises(OSError):
        c.load(tmp_path / "missing.gomoku.txt")


def test_autosave_and_restore_round_trip(config_home):
    c = make(HVH)
    for p in [(7, 7), (7, 8), (8, 8)]:
        c.play(p)
    assert c.autosave()
    path = GomokuController.autosave_path()
    assert path == config_dir() / "gomoku_autosave.txt" and path.parent == config_home / "cxiangqi"
    d = make(HVC)
    assert d.restore()
    assert d.board == c.board and d.mode == HVH and d.board.turn == WHITE
    # a finished game is not kept
    for p in [(0, 0), (9, 9), (0, 1), (10, 10), (0, 2), (11, 11)]:
        d.play(p)
    assert d.over and not d.autosave() and not path.exists()
    assert not make().restore()


def test_corrupt_autosave_is_ignored_with_a_warning(config_home):
    path = GomokuController.autosave_path()
    path.parent.mkdir(parents=True)
    path.write_text("gomoku 1\nsize 15\nmoves 7,7 banana\n", encoding="utf-8")
    c = make(HVH)
    with pytest.warns(UserWarning):
        assert not c.restore()
    assert c.board.move_stack == []


def test_labels_in_both_languages():
    for key in ("g_title", "g_black_wins", "g_white_wins", "g_five", "g_full", "g_turn", "g_rules"):
        assert tr(key, "zh") != key and tr(key, "en") != key and tr(key, "zh") != tr(key, "en")


# --- the real window ------------------------------------------------------------------

def click(app, point):
    cv = app.screens["gomoku"].canvas
    x, y = (int(v) for v in cv.point_xy(point))
    cv.event_generate("<Motion>", x=x, y=y)
    cv.event_generate("<ButtonPress-1>", x=x, y=y)
    cv.event_generate("<ButtonRelease-1>", x=x, y=y)
    pump(app.root, 0.03)


def click_empty(app, candidates):
    board = app.screens["gomoku"].controller.board
    click(app, next(p for p in candidates if board.color_at(p) is None))


def test_window_gomoku_from_the_menu_human_vs_human_win(app, tmp_path):
    assert str(app.welcome_buttons["gomoku"].cget("state")) == "normal"
    app.welcome_buttons["gomoku"].invoke()
    pump(app.root, 0.2)
    assert app.screen == "gomoku"
    g = app.screens["gomoku"]
    g.start(HVH)
    pump(app.root, 0.1)
    for i in range(4):
        click(app, (7, 5 + i))
        click(app, (8, 5 + i))
    assert len(g.controller.board.move_stack) == 8
    click(app, (8, 5))                             # occupied: illegal sound, nothing changes
    assert app.sounds.names[-1] == "illegal" and len(g.controller.board.move_stack) == 8
    click(app, (7, 9))
    assert g.controller.board.winner() == BLACK
    assert g.canvas.find_withtag("winline") and g.canvas.find_withtag("last")
    assert g.status.cget("text") == "黑方胜 — 五子连珠" and "win" in app.sounds.names
    assert pump_until(app.root, lambda: g.over_dialog is not None, 3)
    pump(app.root, 0.3)
    screenshot(shots_dir(tmp_path) / "gomoku_win.png")
    g.close_over_dialog()
    app._key("undo")                               # Ctrl+Z is routed to gomoku
    assert len(g.controller.board.move_stack) == 8 and not g.controller.over
    asked = answer_next_dialog(app, "no")          # 再来一局 asks first: no, keep playing
    g.again()
    assert asked and len(g.controller.board.move_stack) == 8
    asked = answer_next_dialog(app, "yes")
    g.again()
    assert asked and g.controller.board.move_stack == []
    # back to the main menu and the xiangqi menus
    g.buttons["main_menu"].invoke()
    assert app.screen == "welcome" and app.root.cget("menu") == str(app.xiangqi.menubar)


def test_window_gomoku_against_the_computer_resize_language_and_autosave(app, tmp_path):
    app.welcome_buttons["gomoku"].invoke()
    pump(app.root, 0.2)
    g = app.screens["gomoku"]
    g.start(HVC, BLACK, "easy")
    pump(app.root, 0.1)
    click(app, (7, 7))
    assert pump_until(app.root, lambda: len(g.controller.board.move_stack) == 2, 10)
    assert g.controller.human_to_move() and app.sounds.names.count("move") >= 2
    click_empty(app, [(6, 6), (8, 8), (6, 8), (8, 6)])
    assert pump_until(app.root, lambda: len(g.controller.board.move_stack) == 4, 10)
    app.root.geometry("760x560")
    pump(app.root, 0.4)
    small = g.canvas.geo.cell
    app.root.geometry("1200x880")
    pump(app.root, 0.4)
    assert g.canvas.geo.cell > small
    app.set_language("en")
    pump(app.root, 0.3)
    g = app.screens["gomoku"]
    assert app.screen == "gomoku" and g.status.cget("text") == "Black to play"
    app.set_language("zh")
    pump(app.root, 0.3)
    app.root.geometry("1040x760")
    pump(app.root, 0.4)
    screenshot(shots_dir(tmp_path) / "gomoku_vs_computer.png")
    app._key("undo")                               # a pair
    assert len(g.controller.board.move_stack) == 2
    # explicit save, corrupt load (an error dialog, nothing changes), load
    path = tmp_path / "g.gomoku.txt"
    assert g.save_to(str(path))
    bad = tmp_path / "bad.gomoku.txt"
    bad.write_text("not a gomoku game", encoding="utf-8")
    shown = []
    import pyfrontend.dialogs as dialogs
    orig = dialogs.show_error
    dialogs.show_error = lambda app, title, msg: shown.append(title + "\n" + msg)
    try:
        assert not g.load_from(str(bad))
    finally:
        dialogs.show_error = orig
    assert shown and "bad.gomoku.txt" in shown[0] and "无法读取" in shown[0]
    assert len(g.controller.board.move_stack) == 2
    click_empty(app, [(5, 5), (9, 9), (5, 9), (9, 5)])
    assert pump_until(app.root, lambda: len(g.controller.board.move_stack) == 4, 10)
    app.quit()                                     # autosaves the gomoku game next to auto.pgn
    saved = tmp_path / "gomoku_autosave.txt"
    assert saved.exists() and len(Board.from_text(saved.read_text()).move_stack) == 4
    # the next start restores it when gomoku is opened
    from pyfrontend.app import App
    root = tk.Tk()
    a = App(root, Settings(), settings_path=tmp_path / "settings.json",
            autosave_path=tmp_path / "auto.pgn", sounds=Recorder())
    try:
        a.welcome_buttons["gomoku"].invoke()
        pump(root, 0.2)
        g2 = a.screens["gomoku"]
        assert g2.controller.board == Board.from_text(saved.read_text())
        assert g2.controller.mode == HVC and g2.controller.level == "easy"
        assert "恢复" in g2.substatus.text
    finally:
        a.quit()
        collect_tk_garbage()
