"""cxiangqi.external.ExternalEngine: driving engine programs over UCI, UCCI
and xboard; our own engine command, MaxQi, and fake engines that misbehave."""
from __future__ import annotations

import os
import sys
import textwrap
import time

import pytest

from cxiangqi import Board, Move
from cxiangqi.engine import Limit
from cxiangqi.external import (_budget, EngineError, EngineTerminatedError, EngineTimeoutError,
                               ExternalEngine, IllegalEngineMoveError)

ENGINE = [sys.executable, "-m", "cxiangqi.protocol"]
MAXQI = "/usr/games/maxqi"


@pytest.fixture(params=["uci", "ucci"])
def ours(request):
    with ExternalEngine.popen(ENGINE, request.param) as engine:
        yield engine


@pytest.fixture
def maxqi():
    if not os.access(MAXQI, os.X_OK):
        pytest.fail(f"MaxQi is not installed ({MAXQI}): apt-get install fairymax "
                    "(scripts/test.sh installs it)")
    with ExternalEngine.popen(MAXQI, "xboard") as engine:
        yield engine


def game(*moves: str) -> Board:
    board = Board()
    for m in moves:
        board.push_iccs(m)
    return board


# --- our own engine command ------------------------------------------------------------

def test_handshake_reads_name_and_options(ours):
    assert ours.name.startswith("cxiangqi")
    assert ours.alive
    if ours.protocol == "uci":
        assert {"hash", "multipv", "clear hash", "skill level"} <= set(ours.options)
        assert ours.options["hash"].type == "spin" and ours.options["hash"].max == 4096
    else:
        assert {"usemillisec", "hashsize", "newgame"} <= set(ours.options)


def test_play_gives_a_legal_move_with_info(ours):
    board = game("h2e2", "h7e7")
    result = ours.play(board, Limit(depth=3))
    assert result.move in board.legal_moves
    assert result.info["depth"] == 3
    assert isinstance(result.info["score"], int)
    assert result.pv and result.pv[0] == result.move
    if result.ponder is not None:
        after = board.copy()
        after.push(result.move)
        assert result.ponder in after.legal_moves
    # the board is not changed
    assert board.move_stack == [Move.from_iccs("h2e2"), Move.from_iccs("h7e7")]


def test_play_under_each_kind_of_limit(ours):
    board = game("b0c2")   # Black to move: black_clock is the one that counts
    for limit in (Limit(time=0.05), Limit(movetime=0.05), Limit(nodes=2000), Limit(nodes=0),
                  Limit(depth=2), Limit(mate=1, depth=2),
                  Limit(red_clock=3600, black_clock=1.0, red_inc=0.01, black_inc=0.01),
                  Limit(red_clock=3600, black_clock=2.0, remaining_moves=10)):
        # each answer comes within the time the client allows for the limit
        # (an engine that ignored the black clock would think for minutes)
        assert ours.play(board, limit, timeout=30).move in board.legal_moves, limit


@pytest.mark.parametrize("limit, uci, ucci", [
    (Limit(time=0.25), "go movetime 250", "go time 250 movestogo 1"),
    (Limit(depth=5), "go depth 5", "go depth 5"),
    (Limit(nodes=1000), "go nodes 1000", "go nodes 1000"),
    (Limit(mate=3), "go mate 3", "go depth 6"),
    (Limit(red_clock=60, black_clock=30, red_inc=1, black_inc=2),
     "go wtime 60000 btime 30000 winc 1000 binc 2000",
     "go time 30000 increment 2000 opptime 60000 oppincrement 1000"),
    (Limit(red_clock=60, black_clock=30, remaining_moves=7),
     "go wtime 60000 btime 30000 movestogo 7", "go time 30000 movestogo 7 opptime 60000"),
], ids=["time", "depth", "nodes", "mate", "clock", "movestogo"])
def test_go_commands_sent_for_each_limit(limit, uci, ucci):
    # Black to move: the UCCI clock is Black's, UCI names both
    from cxiangqi.external import _UcciEngine, _UciEngine
    board = game("b0c2")
    budget = _budget(limit, board)
    assert _UciEngine._go_command(object.__new__(_UciEngine), board, budget) == uci
    engine = object.__new__(_UcciEngine)
    engine._millisec = True
    assert _UcciEngine._go_command(engine, board, budget) == ucci


def test_infinite_limits_are_refused():
    for limit in (None, Limit(), Limit(red_inc=1)):
        with pytest.raises(ValueError):
            _budget(limit, Board())


def test_play_from_a_fen_with_a_capture_in_the_moves(ours):
    # UCCI sends the position after the last capture; UCI the whole game
    board = game("h2e2", "h7e7", "e2e6", "d9e8")
    assert board.halfmove_clock == 1
    result = ours.play(board, Limit(depth=2))
    assert result.move in board.legal_moves
    fen_board = Board("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1")
    fen_board.push_iccs("e1e8")
    assert ours.play(fen_board, Limit(depth=2)).move in fen_board.legal_moves


def test_play_reports_no_move_when_mated(ours):
    mated = Board("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")
    assert mated.is_checkmate()
    result = ours.play(mated, Limit(depth=2))
    assert result.move is None


def test_analyse_multipv_and_configure(ours):
    board = Board()
    if ours.protocol == "uci":
        ours.configure({"Hash": 16, "skill level": 10})
        lines = ours.analyse(board, Limit(depth=2), multipv=3)
        assert len(lines) == 3
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert len({line["pv"][0] for line in lines}) == 3
        # and back to one line for play
        assert ours.play(board, Limit(depth=2)).move in board.legal_moves
    else:
        ours.configure({"hashsize": 16, "newgame": None})
        with pytest.raises(EngineError):
            ours.analyse(board, Limit(depth=2), multipv=2)
        assert ours.analyse(board, Limit(depth=2))[0]["pv"][0] in board.legal_moves
    with pytest.raises(EngineError, match="no option"):
        ours.configure({"NoSuchOption": 1})
    ours.new_game()


def test_banmoves_need_ucci(ours):
    board = Board()
    banned = [m for m in board.legal_moves if m.iccs() != "a3a4"]
    if ours.protocol == "ucci":
        assert ours.play(board, Limit(depth=2), banmoves=banned).move == Move.from_iccs("a3a4")
    else:
        with pytest.raises(EngineError, match="banmoves"):
            ours.play(board, Limit(depth=2), banmoves=banned)


def test_auto_finds_uci_first():
    with ExternalEngine.popen(ENGINE, "auto") as engine:
        assert engine.protocol == "uci"


def test_quit_and_context_manager_end_the_process():
    engine = ExternalEngine.popen(ENGINE, "ucci")
    process = engine._p.proc
    engine.quit()
    engine.quit()  # twice is fine
    assert process.poll() is not None
    assert not engine.alive
    with pytest.raises(EngineTerminatedError):
        engine.play(Board(), Limit(depth=1))


def test_limit_must_be_finite(ours):
    with pytest.raises(ValueError):
        ours.play(Board(), Limit())
    with pytest.raises(ValueError):
        ours.play(Board(), None)


# --- MaxQi over xboard -------------------------------------------------------------------

def test_maxqi_handshake(maxqi):
    assert maxqi.protocol == "xboard"
    assert "MaxQi" in maxqi.name
    assert "xiangqi" in maxqi.features["variants"].split(",")


def test_maxqi_plays_legal_moves_in_a_game(maxqi):
    board = Board()
    for _ in range(6):
        result = maxqi.play(board, Limit(movetime=0.05))
        assert result.move in board.legal_moves
        board.push(result.move)
    # the other side's moves are sent incrementally; a different game starts afresh
    other = game("c3c4", "g6g5")
    assert maxqi.play(other, Limit(depth=2)).move in other.legal_moves


def test_maxqi_from_a_set_up_position(maxqi):
    # No setboard in MaxQi: the position is set up in edit mode.  MaxQi's
    # edit mode cannot clear the a-file, so these positions keep the a-file
    # pieces it leaves there; other positions are refused.
    # Black to move, in check from the rook on e1: e9f9 is the only move.
    board = Board("r3k4/9/9/p8/9/P8/9/9/4R4/R2K5 b - - 0 1")
    assert [m.iccs() for m in board.legal_moves] == ["e9f9"]
    assert maxqi.play(board, Limit(depth=3)).move == Move.from_iccs("e9f9")
    # Red to move
    board = Board("r3k4/9/9/p8/4c4/4p4/P8/4R4/9/R2K5 w - - 0 1")
    for _ in range(4):
        move = maxqi.play(board, Limit(depth=3)).move
        assert move in board.legal_moves
        board.push(move)
    with pytest.raises(EngineError, match="a-file"):
        maxqi.play(Board("4k4/9/9/9/4c4/4p4/9/4R4/9/3K5 b - - 0 1"), Limit(depth=3))


def test_auto_finds_xboard_for_maxqi():
    if not os.access(MAXQI, os.X_OK):
        pytest.fail(f"MaxQi is not installed ({MAXQI})")
    with ExternalEngine.popen(MAXQI, "auto", timeout=5) as engine:
        assert engine.protocol == "xboard"


# --- things that go wrong ----------------------------------------------------------------

def test_missing_program():
    with pytest.raises(EngineError, match="not found"):
        ExternalEngine.popen("/nonexistent/engine-program", "uci")
    with pytest.raises(EngineError, match="not found"):
        ExternalEngine.popen(["no-such-engine-anywhere-42"], "auto")


def test_program_that_cannot_be_run(tmp_path):
    script = tmp_path / "engine.txt"
    script.write_text("not a program\n")
    with pytest.raises(EngineError, match="cannot be run"):
        ExternalEngine.popen(str(script), "auto")


FAKE = textwrap.dedent('''\
    import sys, time
    mode = sys.argv[1]
    proto = None
    variant = position = None
    def say(text):
        sys.stdout.write(text + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        words = line.split()
        cmd = words[:1]
        if proto is None and cmd:
            proto = cmd[0]
        if cmd in (["uci"], ["ucci"]):
            if mode == "silent":
                continue
            say("id name fake-" + mode)
            if mode == "fairy":
                say("option name UCI_Variant type combo default chess var chess var xiangqi")
            say(cmd[0] + "ok")
        elif cmd == ["setoption"] and mode == "fairy":
            variant = words[-1]
        elif cmd == ["position"] and mode == "fairy":
            position = words[1:]
        elif cmd == ["protover"]:
            if mode == "silent":
                continue
            say('feature myname="fake-' + mode + '" variants="xiangqi" setboard=1 ping=1 done=1')
        elif cmd == ["ping"]:
            say("pong " + words[1])
        elif cmd == ["isready"]:
            say("readyok")
        elif cmd == ["go"]:
            xb = proto == "xboard"
            if mode == "nonsense":
                say("move z9z9" if xb else "bestmove z9z9")
            elif mode == "illegal":
                if not xb:
                    say("info depth 1 score cp 0 pv a0a5")
                say("move a0a5" if xb else "bestmove a0a5")
            elif mode == "fairy":
                # Fairy-Stockfish numbers ranks 1-10: it understands the
                # position only when told so, and answers the same way
                if variant == "xiangqi" and position == ["startpos", "moves", "h3e3"]:
                    say("info depth 1 score cp 10 pv h10g8 h1g3")
                    say("bestmove h10g8 ponder h1g3")
                else:
                    say("bestmove a1a2")
            elif mode == "nomove":
                say("nobestmove" if proto == "ucci" else "bestmove (none)")
            elif mode == "die":
                sys.exit(3)
            elif mode == "hang":
                time.sleep(60)
        elif cmd == ["quit"]:
            break
''')


@pytest.fixture
def fake(tmp_path):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE)
    return lambda mode: [sys.executable, str(script), mode]


PROTOCOLS = ["uci", "ucci", "xboard"]


def test_fairy_stockfish_ranks_are_translated(fake):
    # an engine with UCI_Variant (Fairy-Stockfish) is set to xiangqi and
    # spoken to with ranks 1-10, both ways
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    with ExternalEngine.popen(fake("fairy"), "uci") as engine:
        result = engine.play(board, Limit(depth=1))
    assert result.move == Move.from_iccs("h9g7") and result.ponder == Move.from_iccs("h0g2")
    assert result.info["pv"] == [Move.from_iccs("h9g7"), Move.from_iccs("h0g2")]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fake_engine_answering_nonsense(fake, protocol):
    with ExternalEngine.popen(fake("nonsense"), protocol) as engine:
        assert engine.name == "fake-nonsense" and engine.protocol == protocol
        with pytest.raises(IllegalEngineMoveError, match="nonsense"):
            engine.play(Board(), Limit(depth=1))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fake_engine_playing_an_illegal_move(fake, protocol):
    with ExternalEngine.popen(fake("illegal"), protocol) as engine:
        with pytest.raises(IllegalEngineMoveError, match="illegal move a0a5") as info:
            engine.play(Board(), Limit(depth=1))
        assert info.value.move == Move.from_iccs("a0a5")
        assert isinstance(info.value, RuntimeError)      # EngineError, as python-chess


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_fake_engine_without_a_move_in_a_live_position(fake, protocol):
    with ExternalEngine.popen(fake("nomove"), protocol) as engine:
        with pytest.raises(EngineError, match="no move"):
            engine.play(Board(), Limit(depth=1))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fake_engine_that_dies(fake, protocol):
    with ExternalEngine.popen(fake("die"), protocol) as engine:
        with pytest.raises(EngineTerminatedError, match="exited with code 3"):
            engine.play(Board(), Limit(depth=1))
        assert not engine.alive
        with pytest.raises(EngineTerminatedError):
            engine.play(Board(), Limit(depth=1))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fake_engine_that_hangs_times_out(fake, protocol):
    with ExternalEngine.popen(fake("hang"), protocol) as engine:
        with pytest.raises(EngineTimeoutError):
            engine.play(Board(), Limit(depth=1), timeout=0.3)
        # it ignored stop too, so it was killed
        assert not engine.alive
        assert engine.returncode is not None


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fake_engine_that_never_finishes_its_protocols_handshake(fake, protocol):
    with pytest.raises(EngineTimeoutError):
        ExternalEngine.popen(fake("silent"), protocol, timeout=0.3)


def test_fake_engine_that_never_finishes_the_handshake(fake):
    with pytest.raises(EngineTimeoutError):
        ExternalEngine.popen(fake("silent"), "uci", timeout=0.3)
    with pytest.raises(EngineError, match="none of UCI, UCCI, xboard") as info:
        ExternalEngine.popen(fake("silent"), "auto", timeout=0.3)
    # each protocol was tried in turn, and each failed
    assert all(p in str(info.value) for p in ("uci:", "ucci:", "xboard:")), info.value
