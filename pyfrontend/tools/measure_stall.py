"""Measures how long the Tk event loop stalls while the engine thinks.

    python -m pyfrontend.tools.measure_stall [SECONDS] [LEVEL]

Starts the game window (a display is needed; under Xvfb is fine), lets two
computers play at LEVEL (default "hard": full strength, searches of up to
5 s), schedules a callback every 10 ms and records how late each one runs.
Prints the median, p99 and worst lateness in milliseconds; the target for
p99 is 20 ms or less.
"""

from __future__ import annotations

import sys
import tempfile
import time
import tkinter as tk
from pathlib import Path
from typing import Dict, List


def percentile(values: List[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return 0.0
    k = min(len(s) - 1, max(0, int(round(q / 100 * (len(s) - 1)))))
    return s[k]


def sample_lateness(root: tk.Misc, seconds: float, interval_ms: int = 10) -> List[float]:
    """Runs the event loop for `seconds`; returns each 10 ms tick's lateness in ms."""
    late: List[float] = []
    state = {"expected": time.perf_counter() + interval_ms / 1000, "done": False}
    end = time.perf_counter() + seconds

    def tick() -> None:
        now = time.perf_counter()
        late.append(max(0.0, (now - state["expected"]) * 1000))
        if now >= end:
            state["done"] = True
            return
        state["expected"] = now + interval_ms / 1000
        root.after(interval_ms, tick)

    root.after(interval_ms, tick)
    while not state["done"]:
        root.update()
        time.sleep(0.001)
    return late


def summary(late: List[float]) -> Dict[str, float]:
    return {"samples": len(late), "p50": percentile(late, 50), "p99": percentile(late, 99),
            "max": max(late) if late else 0.0}


def main(argv: List[str]) -> int:
    seconds = float(argv[0]) if argv else 10.0
    level = argv[1] if len(argv) > 1 else "hard"
    try:
        root = tk.Tk()
    except tk.TclError as exc:
        print(f"measure_stall: a display is needed ({exc})", file=sys.stderr)
        return 1
    from cxiangqi import BLACK, RED
    from ..settings import Settings
    from ..sounds import SoundPlayer
    from ..app import App
    tmp = Path(tempfile.mkdtemp(prefix="cxiangqi-stall-"))
    app = App(root, Settings(), settings_path=tmp / "settings.json", autosave_path=tmp / "auto.pgn",
              sounds=SoundPlayer(backend=lambda path: None))
    app.start_game("cvc", RED, {RED: level, BLACK: level})
    app.controller.set_delay(0.0)
    late = sample_lateness(root, seconds)
    busy = app.controller.board.move_stack
    s = summary(late)
    print(f"event-loop lateness over {seconds:.0f} s, level {level}, {len(busy)} plies played: "
          f"p50 {s['p50']:.1f} ms, p99 {s['p99']:.1f} ms, max {s['max']:.1f} ms "
          f"({s['samples']} ticks)")
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
