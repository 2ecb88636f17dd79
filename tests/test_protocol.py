"""The engine command (`python -m cxiangqi.protocol`, installed as
`cxiangqi-engine`) driven through pipes, in UCI and in UCCI."""
from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from typing import Callable, List, Optional

import pytest

from cxiangqi import Board, Move

ENGINE = [sys.executable, "-m", "cxiangqi.protocol"]
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# Black to move, in check from the rook on d0; d8 is on the rook's file and
# e9 would face the red king: checkmate.
MATED_FEN = "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"
# Black to move, not in check, no legal move (困毙): the rook on e8 covers
# d8 and the king on e9 would face the red king.
STALEMATE_FEN = "3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1"


class EngineProcess:
    """The engine command in a subprocess; its output collected by a thread
    so that every read has a timeout."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.seen: List[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        for line in lines:
            self.send_bytes(line.encode() + b"\n")

    def send_bytes(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read_until(self, done: Callable[[str], bool], timeout: float = 10.0) -> List[str]:
        """Lines up to and including the first for which done() is true."""
        got: List[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no matching line within {timeout} s; got {got}") from None
            if line is None:
                raise AssertionError(f"engine exited (code {self.proc.poll()}); got {got}; "
                                     f"stderr {self.proc.stderr.read().decode()[-2000:]}")
            got.append(line)
            self.seen.append(line)
            if done(line):
                return got

    def expect(self, word: str, timeout: float = 10.0) -> List[str]:
        """Lines up to the first whose first word is `word`."""
        return self.read_until(lambda line: line.split()[:1] == [word], timeout)

    def quiet_for(self, seconds: float) -> List[str]:
        """Whatever arrives within `seconds`."""
        got = []
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return got
            if line is None:
                return got
            got.append(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


@pytest.fixture
def engine():
    e = EngineProcess()
    yield e
    e.close()


def handshake(e: EngineProcess, protocol: str) -> List[str]:
    e.send(protocol)
    return e.expect("uciok" if protocol == "uci" else "ucciok")


def bestmove(lines: List[str]) -> List[str]:
    return lines[-1].split()


def complaint(protocol: str) -> str:
    """How each protocol reports a problem: UCCI's free-text info is
    'info message', UCI's 'info string'."""
    return "info message " if protocol == "ucci" else "info string "


# --- handshakes --------------------------------------------------------------------

def test_uci_handshake(engine):
    lines = handshake(engine, "uci")
    assert lines[0].startswith("id name cxiangqi")
    assert any(line.startswith("id author ") for line in lines)
    options = [line for line in lines if line.startswith("option name ")]
    for name in ("Hash", "Clear Hash", "MultiPV", "Skill Level"):
        assert any(line.startswith(f"option name {name} type ") for line in options), name
    assert "option name Hash type spin default 64 min 1 max 4096" in lines
    engine.send("isready")
    assert engine.expect("readyok") == ["readyok"]


def test_ucci_handshake(engine):
    lines = handshake(engine, "ucci")
    assert lines[0].startswith("id name cxiangqi")
    # UCCI options: one lower-case word, no 'name' keyword
    assert "option usemillisec type check default true" in lines
    assert any(line.startswith("option hashsize type spin ") for line in lines)
    assert "option newgame type button" in lines
    assert any(line.startswith("option level type combo ") for line in lines)
    assert not any(line.startswith("option name") for line in lines)
    engine.send("isready")
    assert engine.expect("readyok") == ["readyok"]


def test_commands_before_the_handshake_are_refused_not_fatal(engine):
    engine.send("go depth 3")
    line = engine.expect("info")[-1]
    assert "uci" in line and "ucci" in line
    handshake(engine, "uci")


# --- position and go ---------------------------------------------------------------

@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_position_and_go_depth_gives_a_legal_move(engine, protocol):
    handshake(engine, protocol)
    engine.send("position startpos moves h2e2 h7e7", "go depth 3")
    lines = engine.expect("bestmove")
    board = Board()
    board.push_iccs("h2e2")
    board.push_iccs("h7e7")
    words = bestmove(lines)
    move = Move.from_iccs(words[1])
    assert move in board.legal_moves
    if "ponder" in words:
        board.push(move)
        assert Move.from_iccs(words[words.index("ponder") + 1]) in board.legal_moves
    depths = [line for line in lines if line.startswith("info depth ")]
    assert depths, lines
    last = depths[-1].split()
    assert last[last.index("depth") + 1] == "3"
    assert "pv" in last
    if protocol == "uci":
        for key in ("seldepth", "score", "nodes", "nps", "time"):
            assert key in last, depths[-1]
        assert last[last.index("score") + 1] in ("cp", "mate")
    else:
        assert last[3] == "score" and int(last[4]) == int(last[4])
        assert any(line.startswith("info time ") and " nodes " in line for line in lines)


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_position_fen_with_moves(engine, protocol):
    handshake(engine, protocol)
    # the UCCI example: the position after the last capture, then the moves since
    fen = "rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2"
    engine.send(f"position fen {fen} moves d9e8", "go depth 2")
    board = Board(fen)
    board.push_iccs("d9e8")
    assert Move.from_iccs(bestmove(engine.expect("bestmove"))[1]) in board.legal_moves


# How long the engine takes is measured in benchmarks/, not asserted here:
# these tests check that a search on a clock or a move time ends by itself
# (no stop is sent) with a legal move.  The read timeouts only keep a broken
# engine from hanging the suite.

def test_uci_clock_limits(engine):
    handshake(engine, "uci")
    # Black to move: btime is its clock (as Pikafish reads it)
    engine.send("position startpos moves h2e2",
                "go wtime 3600000 btime 500 winc 0 binc 10")
    words = bestmove(engine.expect("bestmove", timeout=10))
    board = Board()
    board.push_iccs("h2e2")
    assert Move.from_iccs(words[1]) in board.legal_moves
    engine.send("position startpos", "go movetime 100")
    assert Move.from_iccs(bestmove(engine.expect("bestmove", timeout=10))[1]) \
        in Board().legal_moves


def test_ucci_times_are_milliseconds_until_usemillisec_false(engine):
    handshake(engine, "ucci")
    engine.send("position startpos", "go time 500 increment 0")
    engine.expect("bestmove", timeout=10)
    # the same numbers in seconds: 1 s on the clock, one move to go
    engine.send("setoption usemillisec false", "go time 1 movestogo 1")
    engine.expect("bestmove", timeout=10)


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_go_movetime_ends_by_itself(engine, protocol):
    # UCCI has no movetime of its own, but an interface may send it: it is
    # understood, not ignored (which used to leave an endless search)
    handshake(engine, protocol)
    engine.send("position startpos", "go movetime 50")
    lines = engine.expect("bestmove", timeout=10)
    assert Move.from_iccs(bestmove(lines)[1]) in Board().legal_moves
    assert not any("unknown parameter" in line for line in lines)


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_go_nodes_0_answers_at_once_with_a_legal_move(engine, protocol):
    handshake(engine, protocol)
    engine.send("position startpos moves h2e2", "go nodes 0")
    words = bestmove(engine.expect("bestmove", timeout=10))
    board = Board()
    board.push_iccs("h2e2")
    assert Move.from_iccs(words[1]) in board.legal_moves


def test_uci_go_mate_finds_the_mate_and_stops(engine):
    # mate in 2 (a1e1, then a rook to the back rank), none in 1
    fen = "4k4/9/9/9/9/9/9/9/R8/1R1K5 w - - 0 1"
    handshake(engine, "uci")
    engine.send(f"position fen {fen}", "go mate 2")
    lines = engine.expect("bestmove", timeout=30)
    scores = [line.split() for line in lines if " score mate " in line]
    assert scores and 0 < int(scores[-1][scores[-1].index("mate") + 1]) <= 2, lines
    board = Board(fen)
    move = Move.from_iccs(bestmove(lines)[1])
    assert move in board.legal_moves


def test_uci_multipv(engine):
    handshake(engine, "uci")
    engine.send("setoption name MultiPV value 3", "position startpos", "go depth 2")
    lines = engine.expect("bestmove")
    pvs = {line.split()[line.split().index("multipv") + 1]
           for line in lines if line.startswith("info depth 2 ")}
    assert pvs == {"1", "2", "3"}
    # every info line of the search carries its multipv
    infos = [line for line in lines if line.startswith("info depth ")]
    assert infos and all(" multipv " in line for line in infos), infos


def test_uci_level_with_randomness_reports_only_the_lines_asked_for(engine):
    # a weak level picks among several lines it searched; the interface
    # asked for one, and hears about one
    handshake(engine, "uci")
    engine.send("setoption name Skill Level value 3", "position startpos", "go depth 2")
    lines = engine.expect("bestmove")
    infos = [line.split() for line in lines if line.startswith("info depth ")]
    assert infos and all(w[w.index("multipv") + 1] == "1" for w in infos), lines


def test_uci_searchmoves_and_ucci_banmoves(engine):
    handshake(engine, "uci")
    engine.send("position startpos", "go depth 3 searchmoves a3a4")
    assert bestmove(engine.expect("bestmove"))[1] == "a3a4"
    handshake(engine, "ucci")
    allowed = "i3i4"
    banned = " ".join(m.iccs() for m in Board().legal_moves if m.iccs() != allowed)
    engine.send("position startpos", f"banmoves {banned}", "go depth 3")
    assert bestmove(engine.expect("bestmove"))[1] == allowed
    # a new position cancels the banned moves
    engine.send("position startpos", "go depth 1")
    assert Move.from_iccs(bestmove(engine.expect("bestmove"))[1]) in Board().legal_moves


def test_options_hash_level_newgame(engine):
    handshake(engine, "uci")
    engine.send("setoption name Hash value 8", "setoption name Skill Level value 3",
                "setoption name Clear Hash", "ucinewgame", "isready")
    lines = engine.expect("readyok")
    assert not any(line.startswith("info string") for line in lines), lines
    engine.send("position startpos", "go depth 2")
    assert Move.from_iccs(bestmove(engine.expect("bestmove"))[1]) in Board().legal_moves
    handshake(engine, "ucci")
    engine.send("setoption hashsize 8", "setoption level easy", "setoption randomness small",
                "setoption newgame", "setoption usebook false", "isready")
    lines = engine.expect("readyok")
    assert not any(line.startswith("info message") for line in lines), lines


# --- no legal move -----------------------------------------------------------------

@pytest.mark.parametrize("fen", [MATED_FEN, STALEMATE_FEN], ids=["checkmate", "stalemate"])
def test_no_legal_move(engine, fen):
    board = Board(fen)
    assert board.legal_moves.count() == 0
    handshake(engine, "uci")
    engine.send(f"position fen {fen}", "go depth 3")
    lines = engine.expect("bestmove")
    assert lines[-1] == "bestmove (none)"
    handshake(engine, "ucci")
    engine.send(f"position fen {fen}", "go depth 3")
    assert engine.read_until(lambda l: "bestmove" in l)[-1] == "nobestmove"


def test_ucci_go_depth_0_gives_nobestmove(engine):
    handshake(engine, "ucci")
    engine.send("position startpos", "go depth 0")
    assert engine.read_until(lambda l: "bestmove" in l)[-1] == "nobestmove"


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_stop_without_a_search_is_not_answered(engine, protocol):
    handshake(engine, protocol)
    engine.send("position startpos", "go depth 1")
    engine.expect("bestmove")
    engine.send("stop", "stop", "isready")
    lines = engine.expect("readyok")
    assert lines == ["readyok"], lines


# --- stop, ponder, queued commands ---------------------------------------------------

@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_stop_ends_an_infinite_search_quickly(engine, protocol):
    handshake(engine, protocol)
    engine.send("position startpos moves b0c2", "go infinite")
    assert not any("bestmove" in line for line in engine.quiet_for(0.5))
    engine.send("isready")
    engine.expect("readyok", timeout=2)  # answered during the search
    engine.send("stop")
    words = bestmove(engine.expect("bestmove", timeout=5))
    board = Board()
    board.push_iccs("b0c2")
    assert Move.from_iccs(words[1]) in board.legal_moves


def test_uci_go_infinite_waits_for_stop_even_when_the_search_ends(engine):
    # mate in one (b0b9 or b0d0): the search is over at once, but UCI says
    # no best move before stop in infinite mode
    fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
    handshake(engine, "uci")
    engine.send(f"position fen {fen}", "go infinite")
    lines = engine.quiet_for(0.8)
    assert any("score mate 1" in line for line in lines), lines
    assert not any("bestmove" in line for line in lines)
    engine.send("stop")
    board = Board(fen)
    board.push_iccs(bestmove(engine.expect("bestmove", timeout=2))[1])
    assert board.is_checkmate()


def test_stop_right_after_go_is_not_lost(engine):
    handshake(engine, "uci")
    for _ in range(5):
        engine.send("position startpos", "go infinite", "stop")
        assert Move.from_iccs(bestmove(engine.expect("bestmove", timeout=3))[1]) \
            in Board().legal_moves


@pytest.mark.parametrize("n", [2, 3, 5])
def test_as_many_stops_as_gos_answer_every_go(engine, n):
    # queued searches (a go while one runs waits for it): a stop stops
    # every search asked for before it, so n stops after n gos leave none
    # running, however the stops and the searches' ends interleave
    handshake(engine, "uci")
    engine.send("position startpos", *["go infinite"] * n, *["stop"] * n)
    for _ in range(n):
        assert Move.from_iccs(bestmove(engine.expect("bestmove", timeout=5))[1]) \
            in Board().legal_moves
    engine.send("isready")
    assert engine.expect("readyok", timeout=5) == ["readyok"]
    # and the next search is not stopped by any of them
    engine.send("go infinite")
    assert not any("bestmove" in line for line in engine.quiet_for(0.3))
    engine.send("stop")
    engine.expect("bestmove", timeout=5)


def test_uci_ponder_waits_for_ponderhit(engine):
    handshake(engine, "uci")
    engine.send("position startpos moves h2e2", "go ponder movetime 200")
    # pondering: no best move before ponderhit, however long it takes
    assert not any("bestmove" in line for line in engine.quiet_for(0.6))
    engine.send("ponderhit")
    words = bestmove(engine.expect("bestmove", timeout=3))
    board = Board()
    board.push_iccs("h2e2")
    assert Move.from_iccs(words[1]) in board.legal_moves
    # a ponder search ended by stop answers at once
    engine.send("position startpos", "go ponder depth 3")
    engine.quiet_for(0.3)
    engine.send("stop")
    assert Move.from_iccs(bestmove(engine.expect("bestmove", timeout=3))[1]) in Board().legal_moves


# Draw offers are judged on positions whose evaluation leaves no doubt: Black
# without its rooks and horses against Red's full army takes a draw; Red,
# who is that far ahead, declines it.
DOWN_A_LOT = "2bakab2/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
LOSING_SIDE = f"{DOWN_A_LOT} b - - 0 1"
WINNING_SIDE = f"{DOWN_A_LOT} w - - 0 1"


@pytest.mark.parametrize("fen, accepts", [(LOSING_SIDE, True), (WINNING_SIDE, False)],
                         ids=["losing-accepts", "winning-declines"])
def test_ucci_go_draw(engine, fen, accepts):
    handshake(engine, "ucci")
    engine.send(f"position fen {fen}", "go draw depth 3")
    words = bestmove(engine.expect("bestmove", timeout=10))
    assert Move.from_iccs(words[1]) in Board(fen).legal_moves
    assert ("draw" in words) == accepts, words


@pytest.mark.parametrize("fen, accepts", [(LOSING_SIDE, True), (WINNING_SIDE, False)],
                         ids=["losing-accepts", "winning-declines"])
def test_ucci_ponderhit_draw(engine, fen, accepts):
    handshake(engine, "ucci")
    engine.send(f"position fen {fen}", "go ponder time 200 increment 0")
    engine.quiet_for(0.3)
    engine.send("ponderhit draw")
    words = bestmove(engine.expect("bestmove", timeout=10))
    assert Move.from_iccs(words[1]) in Board(fen).legal_moves
    assert ("draw" in words) == accepts, words


def test_commands_during_a_search_keep_their_order(engine):
    handshake(engine, "uci")
    engine.send("position startpos", "go infinite")
    engine.quiet_for(0.2)
    # a new position and go while the search runs: they wait for it
    engine.send("position startpos moves h2e2", "go depth 2", "stop")
    first = bestmove(engine.expect("bestmove", timeout=3))
    second = bestmove(engine.expect("bestmove", timeout=5))
    assert Move.from_iccs(first[1]) in Board().legal_moves
    board = Board()
    board.push_iccs("h2e2")
    assert Move.from_iccs(second[1]) in board.legal_moves


# --- bad input -----------------------------------------------------------------------

@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_garbage_is_answered_and_ignored(engine, protocol):
    handshake(engine, protocol)
    info = complaint(protocol)
    bad = [
        b"hello engine\n",
        b"\x00\x01\xff\xfe\x80 binary junk \x1b[2J\n",
        b"x" * 200_000 + b"\n",                        # a huge line
        b"position fen this is not a fen\n",
        b"position startpos moves h2e2 h2e2\n",         # the second h2e2 is illegal
        b"position startpos moves h2e9\n",              # a cannon cannot go there
        b"position somewhere\n",
        b"go depth seven\n",
        ("setoption name NoSuchOption value 1\n" if protocol == "uci"
         else "setoption nosuchoption 1\n").encode(),
        "炮二平五\n".encode(),
    ]
    for data in bad:
        engine.send_bytes(data)
        lines = engine.read_until(lambda l: l.startswith(info) or "bestmove" in l, timeout=5)
        assert lines[-1].startswith(info + "error: "), (data[:40], lines)
        if data.startswith(b"go"):
            # a go that cannot be carried out answers with no move (the
            # interface waits for an answer), never with a wrong one
            lines = engine.read_until(lambda l: "bestmove" in l, timeout=5)
            assert lines[-1] in ("bestmove (none)", "nobestmove"), lines
    engine.send("isready")
    engine.expect("readyok")
    engine.send("position startpos moves h2e2", "go depth 2")
    board = Board()
    board.push_iccs("h2e2")
    lines = engine.expect("bestmove") if protocol == "uci" else \
        engine.read_until(lambda l: "bestmove" in l)
    assert Move.from_iccs(lines[-1].split()[1]) in board.legal_moves
    assert engine.proc.poll() is None


def test_ucci_probe_answers_what_the_table_holds(engine):
    handshake(engine, "ucci")
    engine.send("probe startpos")
    assert engine.expect("pophash")[-1] == "pophash"        # nothing searched yet
    engine.send("position startpos", "go depth 6")
    words = bestmove(engine.read_until(lambda l: "bestmove" in l))
    assert words[0] == "bestmove" and words[2] == "ponder"
    # the position after the best move was on the principal variation:
    # an exact score (both bounds, the same value) searched 5 plies deep,
    # and its best move is the expected reply
    engine.send(f"probe startpos moves {words[1]}")
    answer = engine.expect("pophash")[-1].split()
    assert answer[:3] == ["pophash", "bestmove", words[3]]
    assert answer[3] == "lowerbound" and answer[5:7] == ["depth", "5"]
    assert answer[7] == "upperbound" and answer[9:11] == ["depth", "5"]
    assert answer[4] == answer[8] and len(answer) == 11
    # a bad position is an error, and the engine goes on
    engine.send("probe startpos moves h2e9")
    assert engine.read_until(lambda l: l.startswith("info message "))[-1].startswith(
        "info message error: ")
    engine.send("probe fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")        # never searched
    assert engine.expect("pophash")[-1] == "pophash"


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_go_after_a_bad_position_answers_no_move(engine, protocol):
    handshake(engine, protocol)
    error = complaint(protocol) + "error: "
    engine.send("position startpos moves h2e2 e2e9 e9e8")
    assert engine.expect("info")[-1].startswith(error)
    engine.send("go depth 3")
    lines = engine.read_until(lambda l: "bestmove" in l)
    assert lines[-1] == ("bestmove (none)" if protocol == "uci" else "nobestmove")
    assert any(line.startswith(error) and "no valid position" in line for line in lines)
    # an invalid position is not a mate: no 'score mate 0'
    assert not any("score" in line for line in lines), lines


def test_crlf_and_blank_lines(engine):
    engine.send_bytes(b"\r\n  \r\nuci\r\n")
    engine.expect("uciok")
    engine.send_bytes(b"isready\r\n")
    engine.expect("readyok")


# --- the end ---------------------------------------------------------------------------

@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_quit_ends_the_process(engine, protocol):
    handshake(engine, protocol)
    engine.send("position startpos", "go infinite")
    engine.quiet_for(0.2)
    engine.send("quit")
    assert engine.proc.wait(timeout=5) == 0
    lines = []
    while True:
        line = engine.lines.get(timeout=2)
        if line is None:
            break
        lines.append(line)
    assert any(line.startswith("bestmove") for line in lines)
    if protocol == "ucci":
        assert lines[-1] == "bye"


def _run_engine(script: bytes, timeout: float = 20.0) -> List[str]:
    """Runs the engine command on a whole input at once (as a shell pipe
    does); returns its output lines.  A hang fails at `timeout`."""
    proc = subprocess.run(ENGINE, input=script, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    return proc.stdout.decode().splitlines()


@pytest.mark.parametrize("script", [
    # the input is read during the search in batch mode too: stop and quit work
    b"ucci\nsetoption batch true\nposition startpos\ngo infinite\nstop\nquit\n",
    b"ucci\nsetoption batch true\nposition startpos\ngo infinite\nquit\n",
    b"ucci\nsetoption batch true\nposition startpos\ngo infinite\n",          # EOF
    b"ucci\nposition startpos\ngo ponder time 100000 increment 0\n",          # EOF
    b"uci\nposition startpos\ngo infinite\n",                                 # EOF
    b"uci\nposition startpos\ngo ponder wtime 100000 btime 100000\nquit\n",
], ids=["batch-stop-quit", "batch-quit", "batch-eof", "ucci-ponder-eof", "uci-infinite-eof",
        "uci-ponder-quit"])
def test_quit_or_end_of_input_ends_a_search_in_every_mode(script):
    lines = _run_engine(script)
    answers = [line for line in lines if line.startswith("bestmove")]
    assert len(answers) == 1, lines
    assert Move.from_iccs(answers[0].split()[1]) in Board().legal_moves


def test_batch_mode_answers_every_go_in_order(engine):
    handshake(engine, "ucci")
    engine.send("setoption batch true", "position startpos", "go depth 3",
                "position startpos moves h2e2", "go depth 3")
    first = bestmove(engine.read_until(lambda l: "bestmove" in l))
    second = bestmove(engine.read_until(lambda l: "bestmove" in l))
    board = Board()
    assert Move.from_iccs(first[1]) in board.legal_moves
    board.push_iccs("h2e2")
    assert Move.from_iccs(second[1]) in board.legal_moves
    engine.send("quit")
    assert engine.expect("bye")
    assert engine.proc.wait(timeout=5) == 0


def test_end_of_input_ends_the_process(engine):
    handshake(engine, "uci")
    engine.send("position startpos", "go infinite")
    engine.quiet_for(0.2)
    engine.proc.stdin.close()
    assert engine.proc.wait(timeout=5) == 0


def test_end_of_input_before_anything(engine):
    engine.proc.stdin.close()
    assert engine.proc.wait(timeout=5) == 0


# --- cxiangqi-engine bench: the output engine testers parse -------------------

def test_engine_bench_prints_each_position_and_the_signature(capsys):
    from cxiangqi.engine import BENCH_FENS, bench
    from cxiangqi.protocol import main

    assert main(["bench", "5", "--hash", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    per_position = [line for line in lines if line.startswith("Position: ")]
    assert len(per_position) == len(BENCH_FENS)
    for i, (line, fen) in enumerate(zip(per_position, BENCH_FENS), 1):
        assert line.startswith(f"Position: {i}/{len(BENCH_FENS)} {fen}: ")
    counts = [int(line.rsplit(": ", 1)[1].split()[0]) for line in per_position]
    total = int(next(line for line in lines if line.startswith("Nodes searched")).split(":")[1])
    assert total == sum(counts) == bench(5, hash_mb=4)["nodes"]
    assert any(line.startswith("Nodes/second    : ") for line in lines)
    assert any(line.startswith("Total time (ms) : ") for line in lines)


def test_engine_bench_default_is_the_search_signature_at_depth_8(capsys):
    from cxiangqi.engine import bench
    from cxiangqi.protocol import main

    assert main(["bench"]) == 0
    out = capsys.readouterr().out
    assert f"Nodes searched  : {bench(8)['nodes']}\n" in out


@pytest.mark.parametrize("args, message", [
    (["bench", "0"], "depth must be 1..30, not 0"),
    (["bench", "31"], "depth must be 1..30, not 31"),
    (["bench", "deep"], "depth must be an integer, not 'deep'"),
    (["bench", "--hash", "0"], "hash size (MB) must be 1..4096, not 0"),
    (["bench", "--hash", "1e9"], "hash size (MB) must be an integer, not '1e9'"),
    (["bench", "3", "4"], "unrecognized arguments: 4"),
])
def test_engine_bench_refuses_bad_arguments(capsys, args, message):
    from cxiangqi.protocol import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_engine_bench_into_a_closed_pipe_exits_without_a_traceback():
    # 'cxiangqi-engine bench | true': the reader is gone before the first line
    proc = subprocess.Popen([sys.executable, "-m", "cxiangqi.protocol", "bench", "4"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 1
    assert err == b""


# --- go perft N (Stockfish's and Pikafish's; in neither protocol) ---------------

@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_go_perft_divides_and_totals_like_board_perft(engine, protocol):
    handshake(engine, protocol)
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    engine.send("position startpos moves h2e2", "go perft 3")
    lines = engine.expect("Nodes")
    assert lines[-1] == f"Nodes searched: {board.perft(3)}"
    assert lines[-2] == ""
    divided = dict(line.split(": ") for line in lines[:-2])
    assert {Move.from_iccs(m): int(n) for m, n in divided.items()} == board.perft_divide(3)
    # the next command after a count is answered as usual
    engine.send("isready")
    assert engine.expect("readyok") == ["", "readyok"]    # the blank line after the total


def test_go_perft_with_no_legal_move_counts_nothing(engine):
    handshake(engine, "uci")
    engine.send(f"position fen {MATED_FEN}", "go perft 2")
    assert engine.expect("Nodes") == ["", "Nodes searched: 0"]


def test_stop_ends_go_perft_and_says_there_is_no_total(engine):
    handshake(engine, "uci")
    engine.send("position startpos", "go perft 12")    # hours
    engine.send("isready")
    assert engine.expect("readyok") == ["readyok"]      # input is read during the count
    engine.send("go perft 1", "stop")                   # the queued one is stopped too
    lines = engine.expect("info", timeout=30)
    assert lines[-1].startswith("info string perft stopped: ")
    assert lines[-1].endswith(" of 44 moves counted, no total")
    assert engine.expect("info", timeout=30) == ["info string perft stopped before it began"]
    engine.send("go perft 1")
    assert engine.expect("Nodes")[-1] == "Nodes searched: 44"


def test_quit_ends_go_perft(engine):
    handshake(engine, "ucci")
    engine.send("position startpos", "go perft 12", "quit")
    assert engine.expect("bye", timeout=30) == ["bye"]
    assert engine.proc.wait(timeout=30) == 0


@pytest.mark.parametrize("args", ["", "0", "65", "1000", "9" * 5000, "x", "3 4", "-1", "1e2",
                                  "\u0663"])
def test_go_perft_refuses_a_bad_depth(engine, args):
    handshake(engine, "uci")
    engine.send("position startpos", f"go perft {args}".strip(), "isready")
    lines = engine.expect("readyok")
    assert lines == ["info string error: go perft: give one depth, 1..64", "readyok"]


def test_go_perft_after_an_invalid_position_says_so(engine):
    handshake(engine, "uci")
    engine.send("position fen bad", "go perft 2", "isready")
    lines = engine.expect("readyok")
    assert lines[-2].startswith("info string error: no valid position (invalid FEN 'bad'")
    assert lines[-2].endswith("; no perft")
