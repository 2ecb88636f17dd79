"""Inputs at the edges of what the readers and the API take, each answered
with the library's own error (or read as far as it makes sense), never an
internal exception, a thread's traceback, or time that grows with the
square of the input.  Found by a fuzz run (December 2026)."""
from __future__ import annotations

import io
import random
import re
import threading

import pytest

from cxiangqi import Board, Move, cbf, cbr, dhtmlxq, pgn, records
from cxiangqi.engine import Engine, Level, Limit

# the start position with its halfmove clock one short of the limit
AT_LIMIT = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 999999 1"


def test_board_says_when_a_counter_stops_a_legal_move():
    board = Board(AT_LIMIT)
    move = Move.from_iccs("b0c2")
    assert board.counter_limit(move) is None
    board.push(move)                                    # clock 1,000,000
    reply = Move.from_iccs("b9c7")
    assert board.is_legal(reply)
    assert board.counter_limit(reply) == "the halfmove clock would pass 1000000"
    with pytest.raises(ValueError, match="halfmove clock would pass"):
        board.push(reply)
    assert board.halfmove_clock == 1_000_000 and len(board.move_stack) == 1   # unchanged
    # a capture resets the clock, so it is not refused
    quiet = Board("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 1000000 1")
    assert quiet.counter_limit(Move.from_iccs("a0a1")) is not None
    board = Board("3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 1000000 1")
    assert board.counter_limit(Move.from_iccs("a0a1")) is None
    board.push(Move.from_iccs("a0a1"))
    assert board.halfmove_clock == 0
    # the fullmove number, after Black's move
    board = Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1000000")
    assert "fullmove number would pass" in board.counter_limit(Move.from_iccs("b9c7"))


def test_cbf_and_dhtmlxq_report_a_move_the_clock_refuses():
    page = (f"[DhtmlXQ][DhtmlXQ_fen]{AT_LIMIT}[/DhtmlXQ_fen]"
            "[DhtmlXQ_movelist]1927102227192210[/DhtmlXQ_movelist][/DhtmlXQ]")
    game = dhtmlxq.read_game(page, errors="keep")
    assert [m.iccs() for m in game.mainline_moves()] == ["b0c2"]
    assert len(game.errors) == 1 and isinstance(game.errors[0], dhtmlxq.DhtmlXQError)
    assert "cannot play move b9c7" in str(game.errors[0])
    assert "halfmove clock would pass" in str(game.errors[0])
    with pytest.raises(dhtmlxq.DhtmlXQError, match="halfmove clock"):
        dhtmlxq.read_game(page)
    record = (f"<ChineseChessRecord><Head><FEN>{AT_LIMIT}</FEN></Head><MoveList>"
              '<Move value="00-00"/><Move value="19-27"/><Move value="10-22"/>'
              '<Move value="27-19"/></MoveList></ChineseChessRecord>')
    game = cbf.read_game(record, errors="keep")
    assert [m.iccs() for m in game.mainline_moves()] == ["b0c2"]
    assert len(game.errors) == 1 and isinstance(game.errors[0], cbf.CbfError)
    assert "cannot play move b9c7" in str(game.errors[0])


# the regular expression the tag scanner replaced: the reference for its results
OLD_TAG = re.compile(r"\[DhtmlXQ_(\w+)\](.*?)\[/DhtmlXQ_\1\]", re.S)


def test_dhtmlxq_tags_are_found_as_the_regular_expression_found_them():
    rng = random.Random(20261202)
    parts = ["[DhtmlXQ_a]", "[/DhtmlXQ_a]", "[DhtmlXQ_b]", "[/DhtmlXQ_b]", "x", "[DhtmlXQ_ab]",
             "[/DhtmlXQ_ab]", "]", "[", "_a]", "[DhtmlXQ_", "[/DhtmlXQ_a"]
    for _ in range(5000):
        block = "".join(rng.choice(parts) for _ in range(rng.randint(0, 16)))
        assert dhtmlxq._tags(block) == OLD_TAG.findall(block), block


def test_dhtmlxq_unclosed_tags_and_huge_numbers():
    # 20,000 opening tags without their closing ones: the regular expression
    # rescanned the rest of the page for each (about 20 s); now one pass
    page = ("[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]"
            + "[DhtmlXQ_a]" * 20_000 + "[/DhtmlXQ]")
    game = dhtmlxq.read_game(page)
    assert [m.iccs() for m in game.mainline_moves()] == ["h2e2", "h9g7"]
    # a variation tag with numbers no record can have is passed over, not
    # turned into a 5000-digit int (Python refuses those with a ValueError)
    big = "9" * 5000
    page = (f"[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]"
            f"[DhtmlXQ_move_0_{big}_1]1927[/DhtmlXQ_move_0_{big}_1][/DhtmlXQ]")
    game = dhtmlxq.read_game(page)
    assert [m.iccs() for m in game.mainline_moves()] == ["h2e2", "h9g7"]
    assert len(game.variations) == 1


def test_pgn_nags_outside_0_to_255_are_skipped_and_the_next_game_is_read():
    text = ('[Game "Chinese Chess"]\n\n1. h2e2 $' + "9" * 5000 + " $256 $0255 h9g7 $14 *\n\n"
            '[Game "Chinese Chess"]\n\n1. b0c2 *\n')
    games = list(pgn.read_games(io.StringIO(text)))
    assert len(games) == 2
    first = games[0].variations[0]
    assert first.nags == {255}
    assert first.variations[0].nags == {14}
    assert [m.iccs() for m in games[1].mainline_moves()] == ["b0c2"]


@pytest.mark.parametrize("make", [
    lambda v: Limit(time=v), lambda v: Limit(black_inc=-v), lambda v: Limit(red_clock=v),
    lambda v: Level("x", None, v, None, 0)], ids=["time", "black_inc", "red_clock", "level"])
def test_a_number_of_seconds_too_big_for_a_float_is_a_value_error(make):
    for value in (10 ** 400, 10 ** 5000):
        with pytest.raises(ValueError, match="number of seconds, got an integer of"):
            make(value)


def test_ponderhit_with_a_budget_beyond_any_timer_raises_nothing_in_a_thread(monkeypatch):
    errors = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    board = Board()
    pondering = Engine(hash_mb=4, seed=1).ponder(board, Limit(time=1e10, depth=4))
    pondering.ponderhit()
    result = pondering.result(timeout=60)
    assert result.move in board.legal_moves
    assert errors == []


def test_a_library_whose_header_is_cut_short_is_one_error_for_the_file(tmp_path):
    path = tmp_path / "short.cbl"
    path.write_bytes(cbr.LIBRARY_MAGIC + bytes(100))
    got = list(records.iter_records(path))
    assert len(got) == 1
    error = got[0].error
    assert error is not None and error.index is None and error.format == "cbl"
    assert "truncated CBL library" in str(error) and "rest of the file" not in str(error)
    assert isinstance(error.cause, cbr.CbrError)


# --- a hash table larger than the memory left ----------------------------------------

def test_a_hash_table_beyond_the_memory_available_is_refused_and_the_old_one_kept(monkeypatch):
    from cxiangqi import _checks
    engine = Engine(hash_mb=4, seed=1)
    monkeypatch.setattr(_checks, "memory_available", lambda root="/": 20 << 20)
    with pytest.raises(MemoryError, match=r"a 64 MB hash table does not fit the 20 MB of memory"):
        engine.set_hash(64)
    # the refused size changed nothing: the 4 MB table searches on
    assert engine.search(Board(), Limit(depth=3)).move in Board().legal_moves
    with pytest.raises(MemoryError, match="does not fit"):
        Engine(hash_mb=32)
    engine.set_hash(16)                 # fits
    assert engine.search(Board(), Limit(depth=3)).move in Board().legal_moves


def test_the_protocol_refuses_such_a_hash_and_keeps_the_old_size(monkeypatch):
    from cxiangqi import _checks
    from cxiangqi.protocol import EngineServer
    monkeypatch.setattr(_checks, "memory_available", lambda root="/": 100 << 20)
    out: list = []
    server = EngineServer(out.append)
    for line in ("uci", "setoption name Hash value 2000", "isready"):
        server.handle(line)
    assert any(line.startswith("info string error: cannot resize the hash table to 2000 MB: "
                               "a 2000 MB hash table does not fit the 100 MB") for line in out), out
    assert out[-1] == "readyok" and server.hash_mb == 64
    server.handle("setoption name Hash value 32")
    assert server.hash_mb == 32


def test_memory_available_reads_meminfo_and_the_control_groups_limit(tmp_path):
    from cxiangqi._checks import memory_available
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/meminfo").write_text("MemTotal: 8000000 kB\nMemAvailable: 4000000 kB\n")
    assert memory_available(str(tmp_path)) == 4000000 * 1024
    (tmp_path / "proc/self").mkdir()
    (tmp_path / "proc/self/cgroup").write_text("0::/slice/box\n")
    v2 = tmp_path / "sys/fs/cgroup/slice/box"
    v2.mkdir(parents=True)
    (v2 / "memory.max").write_text("max\n")
    (v2 / "memory.current").write_text("1000\n")
    assert memory_available(str(tmp_path)) == 4000000 * 1024       # no limit
    (v2 / "memory.max").write_text(str(1 << 30) + "\n")
    (v2 / "memory.current").write_text(str(1 << 28) + "\n")
    assert memory_available(str(tmp_path)) == 3 << 28                # the group's is smaller
    # file cache the kernel can drop is not counted as used
    (v2 / "memory.stat").write_text("anon 100\ninactive_file %d\nactive_file 7\n" % (1 << 27))
    assert memory_available(str(tmp_path)) == (3 << 28) + (1 << 27)
    # a parent's limit binds a group without one
    (v2 / "memory.max").write_text("max\n")
    (tmp_path / "sys/fs/cgroup/slice/memory.max").write_text(str(1 << 29))
    (tmp_path / "sys/fs/cgroup/slice/memory.current").write_text(str(1 << 28))
    assert memory_available(str(tmp_path)) == 1 << 28
    # without MemAvailable (kernels before 3.14): free memory and the page cache
    (tmp_path / "proc/meminfo").write_text("MemFree: 100 kB\nCached: 50 kB\n")
    (tmp_path / "sys/fs/cgroup/slice/memory.max").write_text("max")
    assert memory_available(str(tmp_path)) == 150 * 1024
    (tmp_path / "proc/meminfo").write_text("garbage\n")
    assert memory_available(str(tmp_path)) is None
    empty = tmp_path / "nothing"
    empty.mkdir()
    assert memory_available(str(empty)) is None
    # cgroup v1 (a hybrid host: the memory controller's own hierarchy), with
    # the v1 root (no limit) and the v2 root present too
    v1 = tmp_path / "v1"
    (v1 / "proc/self").mkdir(parents=True)
    (v1 / "proc/self/cgroup").write_text("4:memory:/job\n1:name=systemd:/job\n0::/\n")
    (v1 / "sys/fs/cgroup/memory/job").mkdir(parents=True)
    (v1 / "sys/fs/cgroup/memory/memory.limit_in_bytes").write_text("9223372036854771712")
    (v1 / "sys/fs/cgroup/memory/memory.usage_in_bytes").write_text(str(1 << 33))
    (v1 / "sys/fs/cgroup/memory/job/memory.limit_in_bytes").write_text(str(1 << 30))
    (v1 / "sys/fs/cgroup/memory/job/memory.usage_in_bytes").write_text(str(1 << 29))
    (v1 / "sys/fs/cgroup/memory/job/memory.stat").write_text("total_inactive_file 1024\n")
    assert memory_available(str(v1)) == (1 << 29) + 1024


def test_memory_available_on_this_machine_is_a_number_of_bytes_or_unknown():
    from cxiangqi._checks import memory_available
    free = memory_available()
    assert free is None or (isinstance(free, int) and free >= 0)


def test_the_handshake_ends_even_when_the_default_table_does_not_fit(monkeypatch):
    from cxiangqi import _checks
    from cxiangqi.protocol import EngineServer
    monkeypatch.setattr(_checks, "memory_available", lambda root="/": 40 << 20)
    for protocol, ok, kind in (("uci", "uciok", "info string"),
                               ("ucci", "ucciok", "info message")):
        out: list = []
        server = EngineServer(out.append)
        server.handle(protocol)
        assert out[-1] == ok
        assert any(line.startswith(f"{kind} error: cannot allocate the hash table of 64 MB: "
                                   "a 64 MB hash table does not fit the 40 MB") for line in out), out
        server.handle("setoption name Hash value 16" if protocol == "uci" else "setoption hashsize 16")
        server.handle("isready")
        assert out[-1] == "readyok" and server.hash_mb == 16
        assert not any("error" in line for line in out[-2:]), out
