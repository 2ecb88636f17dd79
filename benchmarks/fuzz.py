"""The long fuzz run: every target of tests/fuzz_targets.py, batch after
batch with new seeds, each batch in its own process (a crash is seen and
reported with the seed that reproduces it), for a given time.

    python benchmarks/fuzz.py --minutes 20 [--jobs 2] [--targets fen,pgn]

Prints, per target, how many inputs were tried and what was found; the
findings (and the batches that crashed) go to --out as JSON lines.
Reproduce one with ``python tests/fuzz_targets.py TARGET SEED COUNT``.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
TARGETS_SCRIPT = HERE.parent / "tests" / "fuzz_targets.py"

# inputs per batch: a batch takes some seconds
BATCH = {"fen": 2000, "notation": 1500, "pgn": 600, "xqf": 1500, "dhtmlxq": 800,
         "board": 600, "engine": 300, "console": 25}


def run_batch(target: str, seed: int) -> dict:
    count = BATCH[target]
    try:
        proc = subprocess.run(["nice", "-n", "19", sys.executable, str(TARGETS_SCRIPT), target,
                               str(seed), str(count)], capture_output=True, text=True,
                              timeout=1800)
    except subprocess.TimeoutExpired:
        return {"target": target, "seed": seed, "tried": 0,
                "findings": [{"input": f"batch {target} {seed} {count}", "problem": "hung"}]}
    if proc.returncode != 0:
        return {"target": target, "seed": seed, "tried": 0, "crashed": proc.returncode,
                "findings": [{"input": f"batch {target} {seed} {count}",
                              "problem": f"process died ({proc.returncode}): "
                                         f"{proc.stderr[-500:]}"}]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--targets", default=",".join(BATCH))
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--out", default="fuzz-findings.jsonl")
    args = parser.parse_args()
    targets = args.targets.split(",")
    end = time.monotonic() + args.minutes * 60
    tried: Dict[str, int] = {t: 0 for t in targets}
    found: Dict[str, int] = {t: 0 for t in targets}
    crashes = 0
    seed = args.first_seed
    out = open(args.out, "a", encoding="utf-8")
    with ThreadPoolExecutor(args.jobs) as pool:
        while time.monotonic() < end:
            batch = [(t, seed) for t in targets]
            seed += 1
            for result in pool.map(lambda ts: run_batch(*ts), batch):
                tried[result["target"]] += result["tried"]
                found[result["target"]] += len(result["findings"])
                crashes += bool(result.get("crashed"))
                for finding in result["findings"]:
                    out.write(json.dumps({"target": result["target"], "seed": result["seed"],
                                          **finding}, ensure_ascii=False) + "\n")
                out.flush()
            print(f"  seed {seed - 1}: " + ", ".join(f"{t} {tried[t]}" for t in targets),
                  flush=True)
    print(f"{'target':10} {'inputs':>9} {'findings':>9}")
    for t in targets:
        print(f"{t:10} {tried[t]:9d} {found[t]:9d}")
    print(f"{'total':10} {sum(tried.values()):9d} {sum(found.values()):9d}   "
          f"crashed batches: {crashes}; findings in {args.out}")


if __name__ == "__main__":
    main()
