"""Ctrl-C (SIGINT) stops the compiled core's long work when it runs in the
main thread: a search, perft, perft_divide, a gomoku search.  Before, the C
code ran on without the GIL and Python's handler waited for it (a perft(9)
for hours, an iteration of a deep search for many seconds).

Each case runs in a child Python that says "ready", starts work that would
take hours, gets a SIGINT, and must finish by itself: the time-outs here
only catch a child that never stops, nothing is asserted on a time.  Where
the work is one C call, the child also says which function raised the
KeyboardInterrupt: "deliver" proves the C work caught it."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

PRELUDE = """
import signal, sys, traceback
signal.signal(signal.SIGINT, signal.default_int_handler)   # (a shell may ignore it)
from cxiangqi import Board
from cxiangqi.engine import Engine, Limit

def raised_by(exc):
    # the function that raised: "deliver" when the C work caught the signal
    # (Python's own handler would raise in whatever Python code ran next)
    return traceback.extract_tb(exc.__traceback__)[-1].name
"""


def run_child(body: str, wait_for: str = "ready") -> str:
    proc = subprocess.Popen([sys.executable, "-c", PRELUDE + textwrap.dedent(body)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.strip() == wait_for, (line, proc.stderr.read())
        # a moment for the child to get into the C work (what a SIGINT
        # before it would do is checked by the tests that accept either)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError("the child did not stop on SIGINT") from None
    assert proc.returncode == 0, err
    return line + out


def test_perft_stops_with_keyboard_interrupt():
    out = run_child("""
        board = Board()
        try:
            print("ready", flush=True)
            board.perft(9)
            print("finished")
        except KeyboardInterrupt as e:
            print("interrupted", raised_by(e))
        print(board.perft(3), board.fen() == Board().fen())    # the board is as it was
    """)
    assert out.split()[1:] == ["interrupted", "deliver", "79666", "True"]


def test_perft_divide_stops_with_keyboard_interrupt():
    out = run_child("""
        try:
            print("ready", flush=True)
            Board()._core.perft_divide(9)
            print("finished")
        except KeyboardInterrupt as e:
            print("interrupted", raised_by(e))
    """)
    assert out.split()[1:] == ["interrupted", "deliver"]


def test_one_iteration_in_c_stops_with_keyboard_interrupt():
    # one deep iteration, no Python between: without the catch it would run
    # far past the time-out
    out = run_child("""
        from cxiangqi._search import Searcher
        searcher = Searcher(16)
        board = Board()
        searcher.setup(board._core)
        try:
            print("ready", flush=True)
            searcher.search_depth(40)
            print("finished")
        except KeyboardInterrupt as e:
            print("interrupted", raised_by(e), searcher.stopped)
    """)
    assert out.split()[1:] == ["interrupted", "deliver", "True"]


def test_search_stops_with_keyboard_interrupt_and_the_engine_searches_again():
    # (the KeyboardInterrupt may come from the C catch or, between two
    # iterations, from Python's handler: the engine must be sound either way)
    out = run_child("""
        engine = Engine(hash_mb=16)
        board = Board()
        try:
            print("ready", flush=True)
            engine.search(board, Limit(depth=90))
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        result = engine.search(board, Limit(depth=4))
        print(result.depth, board.is_legal(result.move))
    """)
    assert out.split()[1:] == ["interrupted", "4", "True"]


def test_search_with_helper_threads_stops_too():
    out = run_child("""
        engine = Engine(hash_mb=16, threads=2)
        try:
            print("ready", flush=True)
            engine.search(Board(), Limit(depth=90))
        except KeyboardInterrupt:
            print("interrupted")
        import threading
        print(sum(t.name.startswith("cxiangqi-helper") for t in threading.enumerate()))
    """)
    assert out.split()[1:] == ["interrupted", "0"]


def test_only_the_default_handler_in_the_main_thread_is_taken_over():
    # a program's own SIGINT handler, or an ignored SIGINT, stays the
    # program's: the C work is not stopped for it (its handler runs after)
    import threading

    from cxiangqi import _interrupt
    old = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        assert _interrupt.catchable()
        seen = []
        worker = threading.Thread(target=lambda: seen.append(_interrupt.catchable()))
        worker.start()
        worker.join()
        assert seen == [False]
        signal.signal(signal.SIGINT, lambda signum, frame: None)
        assert not _interrupt.catchable()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        assert not _interrupt.catchable()
    finally:
        signal.signal(signal.SIGINT, old)


def test_gomoku_search_stops_with_keyboard_interrupt():
    out = run_child("""
        from cxiangqi import gomoku
        level = gomoku.Level("deep", depth=60, width=225, root_width=225, time=0, nodes=0,
                             vcf=0, leaf_vcf=0, vcf_nodes=0, leaf_vcf_nodes=0,
                             randomness=0, tt_bits=16)
        board = gomoku.Board()
        board.push((7, 7))
        try:
            print("ready", flush=True)
            gomoku.analyse(board, level)
            print("finished")
        except KeyboardInterrupt as e:
            print("interrupted", raised_by(e))
    """)
    assert out.split()[1:] == ["interrupted", "deliver"]


def test_deferred_holds_a_sigint_to_the_end_of_the_block():
    from cxiangqi import _interrupt
    old = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        steps = []
        with pytest.raises(KeyboardInterrupt):
            with _interrupt.deferred():
                signal.raise_signal(signal.SIGINT)
                steps.append("after the signal")       # not cut off here
        assert steps == ["after the signal"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with _interrupt.deferred():                    # no signal: nothing raised
            steps.append("quiet")
        assert steps[-1] == "quiet"
    finally:
        signal.signal(signal.SIGINT, old)


def test_engine_bench_stops_on_ctrl_c_with_status_130():
    out = run_child("""
        from cxiangqi.protocol import main
        print("ready", flush=True)
        code = main(["bench", "30"])
        print("status", code)
    """)
    assert out.split()[1:] == ["status", "130"]
