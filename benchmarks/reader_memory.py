"""Peak memory and time of the record readers on big records (issue 11: the
readers copied the board with its whole move stack per move or variation,
so a 32 KB DhtmlXQ move list peaked at 1.27 GB).

    python benchmarks/reader_memory.py [--sizes 32000,65000,1000000]

For each kind of record and size: the Python heap's peak while reading
(tracemalloc), that peak as a multiple of the record's size, the process's
peak resident memory so far (ru_maxrss, which also counts C allocations
such as the boards' undo stacks) and the time.  Each case runs in its own
process, so one case's peak does not hide another's.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import record_builders as rb  # noqa: E402

KINDS = {
    "pgn-variations": lambda n: rb.pgn_with_variations(n).encode(),
    "pgn-nested": lambda n: rb.pgn_nested(n).encode(),
    "dhtmlxq-main-line": lambda n: rb.dhtmlxq_main_line(n).encode(),
    "dhtmlxq-variations": lambda n: rb.dhtmlxq_with_variations(n).encode(),
    "xqf-variations": rb.xqf_with_variations,
}


def _read(kind: str, data: bytes):
    from cxiangqi import dhtmlxq, pgn, xqf
    if kind.startswith("pgn"):
        return pgn.read_game(io.StringIO(data.decode()))
    if kind.startswith("dhtmlxq"):
        return dhtmlxq.read_game(data.decode())
    return xqf.read_game(data)


def one(kind: str, size: int) -> dict:
    data = KINDS[kind](size)
    import cxiangqi  # noqa: F401  (imported before measuring)
    tracemalloc.start()
    start = time.perf_counter()
    error = None
    try:
        game = _read(kind, data)
        moves = sum(1 for _ in _nodes(game))
    except Exception as e:  # refused or failed: reported, not hidden
        error, moves = f"{type(e).__name__}: {str(e)[:80]}", 0
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"kind": kind, "bytes": len(data), "moves": moves, "peak_mb": peak / 1e6,
            "x_size": peak / len(data), "maxrss_mb": resource.getrusage(
                resource.RUSAGE_SELF).ru_maxrss / 1e3, "seconds": seconds, "error": error}


def _nodes(game):
    stack = list(game.variations)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.variations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32000,65000,1000000")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--one", nargs=2, metavar=("KIND", "SIZE"), help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]))))
        return
    print(f"{'record':20} {'bytes':>9} {'moves':>8} {'peak MB':>9} {'x size':>7} "
          f"{'maxrss MB':>9} {'s':>7}  error")
    for kind in args.kinds.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            try:
                out = subprocess.run([sys.executable, __file__, "--one", kind, str(size)],
                                     capture_output=True, text=True, timeout=args.timeout)
                r = json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 \
                    else {"error": (out.stderr.strip().splitlines() or ["?"])[-1]}
            except subprocess.TimeoutExpired:
                r = {"error": f"killed after {args.timeout:.0f} s"}
            if "kind" in r:
                print(f"{kind:20} {r['bytes']:9d} {r['moves']:8d} {r['peak_mb']:9.1f} "
                      f"{r['x_size']:7.1f} {r['maxrss_mb']:9.1f} {r['seconds']:7.2f}  "
                      f"{r['error'] or ''}")
            else:
                print(f"{kind:20} {size:9d} {'':8} {'':9} {'':7} {'':9} {'':7}  {r['error']}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
