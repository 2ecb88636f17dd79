"""The desktop game's controller, without a display: modes, undo/redo, game
end, levels, records, autosave and settings."""

import json
import threading
import time
import warnings

import pytest

from cxiangqi import BLACK, RED, Board, Move, Outcome, Termination

from pyfrontend.xiangqi.controller import CVC, HVC, HVH, GameController, result_text
from pyfrontend.settings import Settings, config_dir


class FakeEngine:
    """Plays the first legal move (in a fixed order); records the levels it
    was asked for; with `block` set, thinks until stop() is called."""

    def __init__(self, block=False):
        self.block = block
        self.levels = []
        self.stops = 0
        self._stop = threading.Event()

    def search(self, board, limit=None, *, on_info=None, level=None, clear_stop=True):
        self.levels.append(level)
        if self.block:
            self._stop.wait(10)
        moves = sorted(board.legal_moves, key=lambda m: m.iccs())
        from cxiangqi.engine import SearchInfo, SearchResult
        if on_info is not None and moves:
            on_info(SearchInfo(1, 1, 25, None, 10, 1000, 0.01, moves[:1]))
        return SearchResult(moves[0] if moves else None, 25, None, 1, 1, moves[:1], 10, 0.01)

    def analyse(self, board, limit=None, multipv=1, *, on_info=None, level=None, clear_stop=True):
        return [self.search(board, limit, on_info=on_info, level=level)]

    def stop(self):
        self.stops += 1
        self._stop.set()

    def clear_stop(self):
        self._stop.clear()

    def new_game(self):
        pass


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def make(mode, engine=None, **kw):
    engine = engine or FakeEngine()
    # no opening book: these tests follow what the (fake) engine is asked and answers
    c = GameController(Settings(book=False), mode=mode, engine_factory=lambda: engine,
                       move_delay=0, **kw)
    c.cvc_delay = 0
    return c, engine


def run(c, moves):
    for text in moves:
        assert c.play(Move.from_iccs(text)), text


def test_human_vs_human_moves_undo_redo():
    c, _ = make(HVH)
    events = []
    c.subscribe(lambda kind, data: events.append(kind))
    assert not c.play(Move.from_iccs("a0a5"))          # illegal: nothing changes
    run(c, ["h2e2", "h9g7"])
    assert c.move_texts() == ["炮二平五", "马８进７"]
    assert c.move_texts("wxf") == ["C2=5", "H8+7"]
    assert c.undo() and len(c.board.move_stack) == 1   # one ply
    assert c.redo() and c.move_texts("iccs") == ["h2e2", "h9g7"]
    assert not c.redo()
    assert c.undo() and c.undo() and not c.undo()
    assert c.board.fen() == Board().fen()
    assert "move" in events and "reset" in events
    c.poll()
    assert not c.busy                                  # nobody's computer


def test_human_vs_computer_red_undo_is_a_pair_and_redo_replays_it():
    c, engine = make(HVC)
    assert c.human_to_move()
    run(c, ["h2e2"])
    assert not c.human_to_move()
    assert c.wait_idle(5)
    assert len(c.board.move_stack) == 2 and c.human_to_move()
    reply = c.board.move_stack[1]
    assert c.undo()
    assert c.board.move_stack == [] and c.human_to_move()
    assert c.redo()
    assert c.board.move_stack == [Move.from_iccs("h2e2"), reply]
    assert c.human_to_move() and not c.busy


def test_human_vs_computer_black_computer_opens():
    c, _ = make(HVC)
    c.new_game(mode=HVC, human_color=BLACK)
    assert not c.human_to_move()
    assert c.wait_idle(5)
    assert len(c.board.move_stack) == 1 and c.board.turn == BLACK
    assert not c.undo()           # only the computer has moved: nothing of yours to take back
    assert len(c.board.move_stack) == 1


def test_undo_while_the_computer_thinks_stops_it_and_drops_its_answer():
    engine = FakeEngine(block=True)
    c, _ = make(HVC, engine)
    run(c, ["h2e2"])
    deadline = time.monotonic() + 5
    while c.thinking is None and time.monotonic() < deadline:
        c.poll()
        time.sleep(0.005)
    assert c.thinking == BLACK
    assert c.undo()                                   # takes back the human move, stops the search
    assert engine.stops >= 1 and c.thinking is None
    time.sleep(0.1)
    c.poll()                                          # the stale answer arrives and is dropped
    assert c.board.move_stack == [] and c.human_to_move()
    engine.block = False
    run(c, ["b2e2"])
    assert c.wait_idle(5) and len(c.board.move_stack) == 2


def test_new_game_during_a_search_is_clean():
    engine = FakeEngine(block=True)
    c, _ = make(CVC, engine)
    deadline = time.monotonic() + 5
    while not c.busy and time.monotonic() < deadline:
        c.poll()
        time.sleep(0.005)
    c.new_game(mode=HVH)
    time.sleep(0.05)
    c.poll()
    assert c.board.move_stack == [] and not c.busy and c.mode == HVH


def test_computer_vs_computer_pause_step_and_real_engine():
    c, _ = make(CVC)
    c.new_game(mode=CVC, levels={RED: "1", BLACK: "1"})
    for _ in range(400):
        c.poll()
        time.sleep(0.002)
        if len(c.board.move_stack) >= 4:
            break
    c.pause()
    c.wait_idle(5)
    n = len(c.board.move_stack)
    assert n >= 4
    for _ in range(20):
        c.poll()
    assert len(c.board.move_stack) == n               # paused: no more moves
    c.step()
    c.wait_idle(5)
    assert len(c.board.move_stack) == n + 1
    assert c.undo() and c.paused and len(c.board.move_stack) == n
    # the real engine answers as well, at a low level
    real = GameController(Settings(), mode=HVC, move_delay=0)
    real.set_level(BLACK, "1")
    real.play(Move.from_iccs("h2e2"))
    assert real.wait_idle(10)
    assert len(real.board.move_stack) == 2 and real.report is not None and real.report.pv


def test_level_change_mid_game_applies_to_the_next_search():
    c, engine = make(HVC)
    c.set_level(BLACK, "3")
    run(c, ["h2e2"])
    c.wait_idle(5)
    c.set_level(BLACK, "hard")
    run(c, ["h0g2"])
    c.wait_idle(5)
    assert engine.levels == ["3", "hard"]
    assert c.settings.level == "hard"
    with pytest.raises(ValueError):
        c.set_level(BLACK, "eleven")


def test_checkmate_ends_the_game_with_the_reason():
    c, _ = make(HVH)
    over = []
    c.subscribe(lambda kind, data: over.append(data["outcome"]) if kind == "over" else None)
    c.set_fen("3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1")
    assert c.outcome is None
    assert c.play(Move.from_iccs("b7b9"))
    assert c.outcome == Outcome(Termination.CHECKMATE, RED)
    assert over and result_text(c.outcome) == "红方胜 — 将死"
    assert result_text(c.outcome, "en") == "Red wins — checkmate"
    assert not c.play(Move.from_iccs("d9e9"))           # the game is over
    assert c.undo() and c.outcome is None               # undo reopens it


def test_stalemate_and_other_reason_texts():
    c, _ = make(HVH)
    c.set_fen("3k5/9/8R/9/9/9/9/9/9/4K4 w - - 0 1")
    assert c.play(Move.from_iccs("i7i8"))
    assert c.outcome == Outcome(Termination.STALEMATE, RED)
    assert result_text(c.outcome) == "红方胜 — 困毙"
    assert result_text(Outcome(Termination.PERPETUAL_CHECK, BLACK)) == "黑方胜 — 长将作负"
    assert result_text(Outcome(Termination.REPETITION, None)) == "和棋 — 重复局面"


def test_repetition_is_a_draw_and_resign_and_agreement():
    c, _ = make(HVH)
    run(c, ["h0g2", "h9g7", "g2h0", "g7h9"] * 2)
    assert c.outcome is not None and c.outcome.termination == Termination.REPETITION
    assert result_text(c.outcome) == "和棋 — 重复局面"
    c.new_game()
    assert c.resign() and c.outcome == Outcome(Termination.RESIGNATION, BLACK)
    c.new_game()
    assert c.agree_draw() and c.outcome.winner is None
    h, _ = make(HVC)
    h.new_game(mode=HVC, human_color=BLACK)
    assert h.resign() and h.outcome.winner == RED


def test_review_mode():
    c, _ = make(HVH)
    run(c, ["h2e2", "h9g7", "h0g2"])
    c.review(1)
    assert c.shown_board().fen() == Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1").fen()
    assert c.last_move() == Move.from_iccs("h2e2")
    assert not c.human_to_move() and not c.play(Move.from_iccs("h9g7"))
    c.review(None)
    assert c.human_to_move() and len(c.shown_board().move_stack) == 3


def test_hint():
    c, engine = make(HVC)
    hints = []
    c.subscribe(lambda kind, data: hints.append(data["move"]) if kind == "hint" else None)
    assert c.hint()
    c.wait_idle(5)
    assert hints and hints[0] in Board().legal_moves and c.hint_move == hints[0]
    assert c.board.move_stack == []                     # a hint does not move


def test_save_load_round_trip(tmp_path):
    c, _ = make(HVC)
    c.set_level(BLACK, "4")
    run(c, ["h2e2"])
    c.wait_idle(5)
    run(c, ["h0g2"])
    c.wait_idle(5)
    path = tmp_path / "game.pgn"
    c.save_pgn(path)
    text = path.read_text(encoding="utf-8")
    assert "炮二平五" in text and '[Mode "hvc"]' in text
    d, _ = make(HVH)
    d.load_pgn(path)
    assert d.board.fen() == c.board.fen() and d.board.move_stack == c.board.move_stack
    assert d.mode == HVC and d.levels[BLACK] == "4" and d.human_to_move()
    # a finished game keeps its result
    c.resign()
    c.save_pgn(path)
    d.load_pgn(path)
    assert d.outcome == Outcome(Termination.RESIGNATION, BLACK)
    with pytest.raises(ValueError):
        bad = tmp_path / "bad.pgn"
        bad.write_text("1. h2e2 h2e2 *", encoding="utf-8")
        d.load_pgn(bad)
    assert d.outcome is not None                        # unchanged by the failed load


def test_fen_copy_paste():
    c, _ = make(HVH)
    run(c, ["h2e2"])
    fen = c.fen()
    c.set_fen(fen)
    assert c.board.fen() == fen and c.board.move_stack == []
    with pytest.raises(ValueError):
        c.set_fen("not a fen")
    assert c.board.fen() == fen


def test_autosave_and_resume(config_home):
    c, _ = make(HVH)
    run(c, ["h2e2", "h9g7"])
    assert c.autosave()
    path = GameController.autosave_path()
    assert path == config_dir() / "autosave.pgn" and path.parent == config_home / "cxiangqi"
    game = GameController.read_autosave()
    assert game is not None
    d, _ = make(HVC)
    d.load_game(game)
    assert d.board.fen() == c.board.fen() and d.mode == HVH
    # a finished game is not offered again
    c.resign()
    assert not c.autosave() and not path.exists()
    assert GameController.read_autosave() is None


def test_corrupt_autosave_is_ignored_with_a_warning(config_home):
    path = GameController.autosave_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"[Event \"x\"]\n1. h2e2 zz99 \xff\xfe garbage")
    with pytest.warns(UserWarning):
        assert GameController.read_autosave() is None


def test_settings_corrupt_file_and_bad_values(config_home):
    path = config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text("{ not json", encoding="utf-8")
    with pytest.warns(UserWarning):
        s = Settings.load()
    assert s == Settings()
    path.write_text(json.dumps({"sound": "loud", "language": "en", "level": "7", "mode": "xx"}))
    with pytest.warns(UserWarning):
        s = Settings.load()
    assert s.sound is True and s.language == "en" and s.level == "7" and s.mode == "hvc"
    s.sound = False
    assert s.save()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Settings.load().sound is False


# --- clocks ------------------------------------------------------------------------

class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_time_control_parsing_and_clock_text():
    from pyfrontend.xiangqi.controller import clock_text, format_time_control, parse_time_control
    assert parse_time_control("") is None and parse_time_control("none") is None
    assert parse_time_control("10") == (600, 0)
    assert parse_time_control("5+3") == (300, 3)
    assert parse_time_control("90s+2") == (90, 2)
    for tc in [(600, 0), (300, 3), (90, 2)]:
        assert parse_time_control(format_time_control(tc)) == tc
    for bad in ("abc", "0+3", "5+-1", "-2"):
        with pytest.raises(ValueError):
            parse_time_control(bad)
    assert clock_text(598.2) == "9:58" and clock_text(7.34) == "0:07.3" and clock_text(-1) == "0:00.0"
    assert clock_text(3723) == "1:02:03"


def test_clocks_run_for_the_side_to_move_with_increment_and_flag_fall():
    clock = FakeClock()
    c = GameController(Settings(), mode=HVH, time_fn=clock, move_delay=0)
    over = []
    c.subscribe(lambda kind, data: over.append(data["outcome"]) if kind == "over" else None)
    c.new_game(time_control=(60, 2))
    assert c.remaining(RED) == 60 and c.remaining(BLACK) == 60
    clock.now += 10
    assert c.remaining(RED) == 50 and c.remaining(BLACK) == 60
    run(c, ["h2e2"])                                   # Red: -10 +2
    assert c.remaining(RED) == 52
    clock.now += 5
    assert c.remaining(BLACK) == 55 and c.remaining(RED) == 52
    run(c, ["h9g7"])
    assert c.remaining(BLACK) == 57
    clock.now += 51.9
    c.poll()
    assert c.outcome is None
    clock.now += 0.2                                    # Red's flag falls
    c.poll()
    assert c.outcome == Outcome(Termination.TIME_FORFEIT, BLACK)
    assert over == [c.outcome]
    assert result_text(c.outcome) == "黑方胜 — 超时"
    assert result_text(c.outcome, "en") == "Black wins — time forfeit"
    assert c.remaining(RED) == 0
    clock.now += 100                                    # the clocks stopped
    assert c.remaining(BLACK) == 57 and not c.play(Move.from_iccs("h0g2"))
    assert c.settings.time_control == "1+2"


def test_a_move_after_the_flag_fell_is_refused():
    clock = FakeClock()
    c = GameController(Settings(), mode=HVH, time_fn=clock, move_delay=0)
    c.new_game(time_control=(30, 0))
    clock.now += 31                                     # no poll in between
    assert not c.play(Move.from_iccs("h2e2"))
    assert c.outcome == Outcome(Termination.TIME_FORFEIT, BLACK) and c.board.move_stack == []


def test_undo_and_redo_put_the_clocks_back_as_they_were_at_that_ply():
    clock = FakeClock()
    c = GameController(Settings(), mode=HVH, time_fn=clock, move_delay=0)
    c.new_game(time_control=(100, 2))
    clock.now += 10
    run(c, ["h2e2"])                                    # Red 100 - 10 + 2 = 92
    clock.now += 20
    run(c, ["h9g7"])                                    # Black 100 - 20 + 2 = 82
    clock.now += 5
    assert c.remaining(RED) == 87
    assert c.undo()                                     # back to ply 1: Red 92, Black 100
    assert c.board.turn == BLACK and c.remaining(RED) == 92 and c.remaining(BLACK) == 100
    clock.now += 3
    assert c.remaining(BLACK) == 97                     # Black's clock runs again
    assert c.redo()                                     # ply 2 as it was: Black 82
    assert c.remaining(BLACK) == 82 and c.remaining(RED) == 92 and c.board.turn == RED
    c.new_game(time_control=None)
    assert c.remaining(RED) is None and c.settings.time_control == ""


def test_undo_after_losing_on_time_reopens_the_game_with_the_clock_of_that_ply():
    clock = FakeClock()
    engine = FakeEngine()
    c = GameController(Settings(), mode=HVC, engine_factory=lambda: engine, time_fn=clock,
                       move_delay=0)
    events = []
    c.subscribe(lambda kind, data: events.append(kind))
    c.new_game(mode=HVC, human_color=RED, time_control=(180, 2))
    clock.now += 30
    run(c, ["h2e2"])                                    # Red 180 - 30 + 2 = 152
    assert c.wait_idle(5) and len(c.board.move_stack) == 2
    red_then = c.remaining(RED)
    clock.now += 500                                    # Red's flag falls
    c.poll()
    assert c.outcome == Outcome(Termination.TIME_FORFEIT, BLACK) and c.remaining(RED) == 0
    events.clear()
    assert c.undo()                                     # back to before Red's move
    assert c.outcome is None and c.board.move_stack == [] and c.human_to_move()
    assert c.remaining(RED) == 180 and c.remaining(BLACK) == 180
    assert "over" not in events and c.redo_stack
    c.poll()
    assert c.outcome is None                            # the flag does not fall again
    assert c.redo() and c.remaining(RED) == red_then and c.outcome is None
    clock.now += 1
    assert c.remaining(RED) == red_then - 1             # the game goes on


def test_clocks_stand_still_while_the_game_is_held():
    clock = FakeClock()
    engine = FakeEngine()
    c = GameController(Settings(), mode=HVC, engine_factory=lambda: engine, time_fn=clock,
                       move_delay=0)
    c.new_game(mode=HVC, human_color=RED, time_control=(60, 0))
    clock.now += 5
    c.hold()                                            # a dialog opens
    clock.now += 100
    assert c.remaining(RED) == 55 and not c.clock_running
    c.poll()
    assert c.outcome is None                            # no flag falls under a dialog
    assert not c.play(Move.from_iccs("h2e2"))           # and nothing moves
    c.hold()                                            # holds nest
    c.release()
    clock.now += 100
    assert c.remaining(RED) == 55
    c.release()
    clock.now += 2
    assert c.remaining(RED) == 53 and c.clock_running
    run(c, ["h2e2"])
    c.hold()                                            # the computer's answer waits too
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and len(c.board.move_stack) == 1:
        c.poll()
        time.sleep(0.01)
    assert len(c.board.move_stack) == 1
    c.release()
    assert c.wait_idle(5) and len(c.board.move_stack) == 2


def test_computer_gets_its_remaining_time_and_flags_while_thinking():
    clock = FakeClock()
    limits = []

    class TimedEngine(FakeEngine):
        def search(self, board, limit=None, **kw):
            limits.append(limit)
            return super().search(board, limit, **kw)

    engine = TimedEngine()
    c = GameController(Settings(book=False), mode=HVC, engine_factory=lambda: engine, time_fn=clock,
                       move_delay=0)
    c.new_game(mode=HVC, human_color=RED, time_control=(300, 3))
    clock.now += 12
    run(c, ["h2e2"])
    assert c.wait_idle(5)
    assert len(c.board.move_stack) == 2
    # both clocks: Black's (the computer's) untouched, Red's 12 s down plus its increment
    assert limits[0].black_clock == 300 and limits[0].black_inc == 3
    assert limits[0].red_clock == 291 and limits[0].red_inc == 3
    # a computer that never answers loses on time
    engine.block = True
    clock.now += 1
    run(c, ["h0g2"])
    deadline = time.monotonic() + 5
    while c.thinking is None and time.monotonic() < deadline:
        c.poll()
        time.sleep(0.005)
    assert c.thinking == BLACK
    clock.now += 400
    c.poll()
    assert c.outcome == Outcome(Termination.TIME_FORFEIT, RED) and not c.busy
    assert engine.stops >= 1


def test_time_control_is_saved_in_the_pgn(tmp_path):
    c = GameController(Settings(), mode=HVH, move_delay=0)
    c.new_game(time_control=(300, 3))
    run(c, ["h2e2"])
    path = tmp_path / "t.pgn"
    c.save_pgn(path)
    assert '[TimeControl "300+3"]' in path.read_text(encoding="utf-8")
    d = GameController(Settings(), mode=HVH, move_delay=0)
    d.load_pgn(path)
    assert d.time_control == (300, 3) and 299 < d.remaining(BLACK) <= 300 and d.remaining(RED) == 300


# --- the external engine ---------------------------------------------------------------

def our_engine_command():
    """Our own engine as an 'external' one: the installed console script if
    it is next to this Python, else python -m cxiangqi.protocol."""
    import shlex
    import sys
    from pathlib import Path
    script = Path(sys.executable).parent / "cxiangqi-engine"
    if script.exists():
        return str(script)
    return f"{shlex.quote(sys.executable)} -m cxiangqi.protocol"


def test_probe_external_engine_works_and_reports_errors(tmp_path):
    import sys
    from pyfrontend.xiangqi.controller import probe_external_engine
    assert "UCI" in probe_external_engine(our_engine_command())
    assert probe_external_engine(f"{sys.executable} -m cxiangqi.protocol", "ucci").endswith("(UCCI)")
    for bad in ("", str(tmp_path / "missing-engine"), "/bin/true"):
        with pytest.raises(Exception) as info:
            probe_external_engine(bad, timeout=2)
        assert str(info.value)


def test_external_engine_as_the_opponent_with_and_without_a_clock():
    from pyfrontend.xiangqi.controller import EXTERNAL
    c = GameController(Settings(), mode=HVC, move_delay=0)
    with pytest.raises(ValueError):
        c.set_level(BLACK, EXTERNAL)                   # none set yet
    c.set_external_engine(our_engine_command(), "uci")
    c.set_level(BLACK, EXTERNAL)
    assert c.settings.level == EXTERNAL and c.settings.external_protocol == "uci"
    try:
        run(c, ["h2e2"])
        assert c.wait_idle(20)
        assert len(c.board.move_stack) == 2 and c.human_to_move()
        c.new_game(time_control=(30, 0))
        run(c, ["h2e2"])
        assert c.wait_idle(20)
        assert len(c.board.move_stack) == 2 and c.outcome is None and c.remaining(BLACK) < 30
    finally:
        c.shutdown()
    bad = GameController(Settings(external_engine="/nonexistent/engine"), mode=HVC, move_delay=0)
    errors = []
    bad.subscribe(lambda kind, data: errors.append(data["message"]) if kind == "error" else None)
    bad.set_level(BLACK, EXTERNAL)
    run(bad, ["h2e2"])
    assert bad.wait_idle(10) and errors and "not found" in errors[0]
    assert len(bad.board.move_stack) == 1


# --- the engine panel, draw offers, resigning, analysis -----------------------------------

class RandomisingEngine(FakeEngine):
    """Reports a best line (multipv 1) and a second line, then plays the
    second move, as a level with randomness may."""

    def __init__(self, score=25):
        super().__init__()
        self.score = score

    def search(self, board, limit=None, *, on_info=None, level=None, clear_stop=True):
        from cxiangqi.engine import SearchInfo, SearchResult
        self.levels.append(level)
        moves = sorted(board.legal_moves, key=lambda m: m.iccs())
        best, other = moves[0], moves[1]
        if on_info is not None:
            on_info(SearchInfo(3, 3, self.score, None, 500, 10000, 0.05, [best], 1))
            on_info(SearchInfo(3, 3, self.score - 40, None, 900, 10000, 0.09, [other], 2))
        return SearchResult(other, self.score - 40, None, 3, 3, [other], 900, 0.09)


def test_the_panel_shows_the_move_played_and_marks_a_weaker_choice():
    engine = RandomisingEngine()
    c, _ = make(HVC, engine)
    infos = []
    c.subscribe(lambda kind, data: infos.append(data["report"]) if kind == "info" else None)
    run(c, ["h2e2"])
    assert c.wait_idle(5) and len(c.board.move_stack) == 2
    played = c.board.move_stack[1]
    board = c.position_at(1)
    live = [r for r in infos if r is not None and r.played is None]
    best = sorted(board.legal_moves, key=lambda m: m.iccs())[0]
    # while thinking only the best line shows, never the second one
    assert live and all(r.pv[0] == board.chinese(best) for r in live)
    final = c.report
    assert final.played == board.chinese(played) and final.pv[0] == final.played
    assert final.best == board.chinese(best) and final.weaker
    assert final.score == -(25 - 40)                  # Black's view -> Red's
    assert c.evals[1] == final.score
    assert c.undo() and c.report is None and infos[-1] is None     # undo clears the panel
    run(c, ["h2e2"])
    c.wait_idle(5)
    c.new_game()
    assert c.report is None


def test_the_real_engine_panel_agrees_with_the_board():
    c = GameController(Settings(), mode=HVC, move_delay=0)
    c.set_level(BLACK, "easy")                          # a level that picks at random
    for move in ("h2e2", "h0g2", "i0h0"):
        if not c.play(Move.from_iccs(move)):
            break
        assert c.wait_idle(10)
        played = c.board.move_stack[-1]
        assert c.report.played == c.position_at(len(c.board.move_stack) - 1).chinese(played)
        assert c.report.pv[0] == c.report.played


def test_an_external_xboard_engine_fills_the_panel():
    import shutil
    maxqi = shutil.which("maxqi") or "/usr/games/maxqi"
    c = GameController(Settings(), mode=HVC, move_delay=0)
    c.set_external_engine(maxqi, "auto")
    c.set_level(BLACK, "external")
    try:
        run(c, ["h2e2"])
        assert c.wait_idle(30) and len(c.board.move_stack) == 2
        r = c.report
        assert r is not None and r.depth > 0 and r.pv and r.played == r.pv[0]
        assert r.played == c.position_at(1).chinese(c.board.move_stack[1])
    finally:
        c.shutdown()


def load_long_game(c, plies=44):
    """A real game's first `plies` moves, loaded as this program's own game
    (so it goes on live, human vs the computer)."""
    from conftest import games
    from cxiangqi import pgn
    record = next(g for g in games() if g["plies"] > plies + 4)
    game = pgn.Game()
    game.headers["Mode"] = "hvc"
    game.headers["HumanColor"] = "red"
    node = game
    for text in record["moves"][:plies]:
        node = node.add_variation(Move.from_iccs(text))
    c.load_game(game)


def test_the_computer_accepts_a_draw_only_when_level_and_the_game_is_long():
    c, engine = make(HVC, RandomisingEngine(score=20))
    run(c, ["h2e2"])
    c.wait_idle(5)
    assert c.offer_draw() is False and c.outcome is None          # too early
    load_long_game(c)
    first = sorted(c.board.legal_moves, key=lambda m: m.iccs())[0]
    assert c.play(first) and c.wait_idle(5)
    assert c.evals and c.offer_draw() is True
    assert c.outcome == Outcome(Termination.AGREEMENT, None)
    # a computer that thinks it is winning declines
    d, _ = make(HVC, RandomisingEngine(score=400))
    load_long_game(d)
    first = sorted(d.board.legal_moves, key=lambda m: m.iccs())[0]
    assert d.play(first) and d.wait_idle(5)
    assert d.offer_draw() is False and d.outcome is None
    h, _ = make(HVH)
    assert h.offer_draw() is None                                  # two humans ask each other


def test_resigning_works_in_every_mode():
    for mode in (HVH, HVC, CVC):
        c, _ = make(mode)
        if mode == CVC:
            c.pause()
        assert c.resign()
        assert c.outcome.termination == Termination.RESIGNATION and c.outcome.winner == BLACK


class AnalysingEngine(FakeEngine):
    """Thinks until stopped, reporting one line per 'iteration'."""

    def __init__(self):
        super().__init__(block=True)
        self.boards = []

    def analyse(self, board, limit=None, multipv=1, *, on_info=None, level=None, clear_stop=True):
        from cxiangqi.engine import SearchInfo, SearchResult
        self.boards.append(board.fen())
        moves = sorted(board.legal_moves, key=lambda m: m.iccs())
        assert limit is not None and limit.infinite
        on_info(SearchInfo(5, 5, 30, None, 100, 1000, 0.1, moves[:2], 1))
        self._stop.wait(10)
        self._stop.clear()
        return [SearchResult(moves[0], 30, None, 5, 5, moves[:2], 100, 0.1)]


def wait_for(c, predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        c.poll()
        if predicate():
            return True
        time.sleep(0.005)
    return False


def test_analysis_mode_thinks_on_the_shown_position_and_restarts_on_every_change():
    engine = AnalysingEngine()
    c, _ = make(HVC, engine)
    c.set_analysis(True)
    assert wait_for(c, lambda: c.report is not None and c.report.analysing)
    assert engine.boards == [Board().fen()] and c.evals[0] == 30
    assert not c.busy and not c.is_computer(BLACK)          # nobody's computer moves now
    run(c, ["h2e2"])                                        # black's move is the human's too
    assert c.report is None                                 # the old line is gone at once
    assert wait_for(c, lambda: len(engine.boards) == 2 and 1 in c.evals)
    assert engine.stops >= 1 and c.evals[1] == -30          # Black's view -> Red's
    run(c, ["h9g7"])
    assert wait_for(c, lambda: len(engine.boards) == 3)
    c.review(1)                                             # the reviewed position is analysed
    assert wait_for(c, lambda: len(engine.boards) == 4)
    assert engine.boards[-1] == c.position_at(1).fen()
    c.set_analysis(False)
    assert c.is_computer(BLACK) and engine.stops >= 4
