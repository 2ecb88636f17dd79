"""Times that the tests deliberately do not assert (a test asserts behaviour;
machines differ), measured here:

- how long the engine command takes to end after ``quit`` or the end of its
  input while it searches (target: 100 ms), in UCI, UCCI and UCCI batch mode;
- how long after ``stop`` the best move comes;
- how far ``go movetime 200`` overshoots;
- how long rejecting a huge FEN takes (target: well under 0.1 s);
- how well the gomoku search keeps a time limit.

    python benchmarks/robustness_times.py [--runs 5]

Each figure is the median and the worst of the runs.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from typing import Callable, List

ENGINE = [sys.executable, "-m", "cxiangqi.protocol"]


class _Engine:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.lines: List[str] = []
        self.event = threading.Event()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.append(raw.decode("utf-8", "replace").strip())
            self.event.set()

    def send(self, *lines: str) -> None:
        self.proc.stdin.write(("\n".join(lines) + "\n").encode())  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]

    def wait_for(self, word: str, timeout: float = 30.0) -> float:
        """Seconds until a line starting with `word` arrives."""
        start = time.perf_counter()
        seen = len(self.lines)
        while time.perf_counter() - start < timeout:
            if any(line.startswith(word) for line in self.lines[seen:]):
                return time.perf_counter() - start
            self.event.wait(0.001)
            self.event.clear()
        raise TimeoutError(word)


def _searching(protocol: str, batch: bool = False) -> _Engine:
    e = _Engine()
    e.send(protocol)
    e.wait_for("uciok" if protocol == "uci" else "ucciok")
    if batch:
        e.send("setoption batch true")
    e.send("position startpos", "go infinite")
    time.sleep(0.3)
    return e


def quit_latency(protocol: str, batch: bool, how: str) -> float:
    e = _searching(protocol, batch)
    start = time.perf_counter()
    if how == "quit":
        e.send("quit")
    else:
        e.proc.stdin.close()  # type: ignore[union-attr]
    e.proc.wait(timeout=30)
    return time.perf_counter() - start


def stop_latency(protocol: str) -> float:
    e = _searching(protocol)
    e.send("stop")
    seconds = e.wait_for("bestmove")
    e.send("quit")
    e.proc.wait(timeout=30)
    return seconds


def movetime_overshoot() -> float:
    e = _Engine()
    e.send("uci")
    e.wait_for("uciok")
    e.send("position startpos", "go movetime 200")
    seconds = e.wait_for("bestmove") - 0.2
    e.send("quit")
    e.proc.wait(timeout=30)
    return seconds


def huge_fen() -> float:
    from cxiangqi import Board, InvalidFenError
    fen = "r" * 1_000_000 + " w - - 0 1"
    start = time.perf_counter()
    try:
        Board(fen)
    except InvalidFenError:
        pass
    return time.perf_counter() - start


def gomoku_time_limit() -> float:
    from cxiangqi import gomoku
    board = gomoku.Board()
    for point in ((7, 7), (7, 8), (8, 8)):
        board.push(point)
    start = time.perf_counter()
    gomoku.best_move(board, "hard", time_limit=0.3)
    return time.perf_counter() - start - 0.3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cases: List[tuple] = [
        ("engine ends on quit, UCI searching", lambda: quit_latency("uci", False, "quit")),
        ("engine ends on EOF, UCI searching", lambda: quit_latency("uci", False, "eof")),
        ("engine ends on quit, UCCI searching", lambda: quit_latency("ucci", False, "quit")),
        ("engine ends on quit, UCCI batch", lambda: quit_latency("ucci", True, "quit")),
        ("engine ends on EOF, UCCI batch", lambda: quit_latency("ucci", True, "eof")),
        ("bestmove after stop, UCI", lambda: stop_latency("uci")),
        ("bestmove after stop, UCCI", lambda: stop_latency("ucci")),
        ("go movetime 200: overshoot", movetime_overshoot),
        ("reject a 1 MB FEN", huge_fen),
        ("gomoku hard, 0.3 s limit: overshoot", gomoku_time_limit),
    ]
    print(f"{'what':42} {'median ms':>10} {'worst ms':>10}")
    for name, run in cases:
        f: Callable[[], float] = run
        times = [f() * 1000 for _ in range(args.runs)]
        print(f"{name:42} {statistics.median(times):10.1f} {max(times):10.1f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
