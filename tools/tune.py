#!/usr/bin/env python3
"""Texel tuning of the evaluation weights (src/cxiangqi/eval_weights.py).

Texel's method: take many positions from games with known results, make
each one quiet (play out the quiescence search's principal variation, so no
capture is pending), and fit the evaluation weights so that
sigmoid(K * eval / 400) predicts the game result, minimising the mean
squared error.  The evaluation is linear in its weights (each term is a
feature count times an opening/endgame weight pair, blended by the phase and
scaled for drawish material), and _search.eval_features() returns exactly
those counts for a position, so the fit is a smooth problem solved here by
full-batch gradient descent (Adam) over a sparse matrix.

Two steps, each rerunnable:

    # 1. quiet positions and their feature counts from game files (JSONL as
    #    ../shared/data/games.jsonl, or tools/selfplay.py output)
    python tools/tune.py positions ../shared/data/games.jsonl selfplay.jsonl -o positions.npz

    # 2. fit; writes the weights module (review the diff, then rebuild)
    python tools/tune.py fit positions.npz -o src/cxiangqi/eval_weights.py

    # a new term against the rest: fit only its blocks, the others kept
    python tools/tune.py fit positions.npz --only attackers tempo -o weights.py

The data is not kept in git (positions.npz is tens of MB); the weights it
produced are.  Requires numpy and scipy.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
import zlib
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import scipy.sparse as sp

from cxiangqi import Board
from cxiangqi import _eval
from cxiangqi._search import Searcher, eval_features
from cxiangqi.move import MOVES

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


# --- step 1: positions ----------------------------------------------------------------

def quiet_positions(path: str, searcher: Searcher, skip_plies: int, every: int,
                    rng: random.Random):
    """(board, result for Red) for the quiet positions of each finished game
    in a JSONL file: every `every`-th position after `skip_plies`, not in
    check, with the quiescence line played out."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            game = json.loads(line)
            result = RESULTS.get(game.get("result"))
            if result is None:
                continue
            board = Board()
            offset = rng.randrange(every)
            try:
                for ply, move in enumerate(game["moves"]):
                    board.push_iccs(move)
                    if ply < skip_plies or (ply + offset) % every:
                        continue
                    if board.is_check() or board.legal_moves.count() == 0:
                        continue
                    quiet = board.copy(stack=False)
                    for code in searcher.quiet_line(quiet._core):
                        quiet.push(MOVES[code])
                    if quiet.is_check():
                        continue
                    yield quiet, result
            except ValueError:
                continue                # an illegal record: skip the rest of it


def build_positions(paths: Sequence[str], out: str, skip_plies: int, every: int,
                    seed: int) -> None:
    searcher = Searcher(16)
    rng = random.Random(seed)
    rows: List[np.ndarray] = []
    cols: List[np.ndarray] = []
    vals: List[np.ndarray] = []
    phase: List[int] = []
    scale: List[int] = []
    results: List[float] = []
    n = 0
    start = time.monotonic()
    for path in paths:
        for board, result in quiet_positions(path, searcher, skip_plies, every, rng):
            _, counts, ph, sc = eval_features(board._core)
            c = np.asarray(counts, dtype=np.int32)
            nz = np.nonzero(c)[0]
            rows.append(np.full(len(nz), n, dtype=np.int32))
            cols.append(nz.astype(np.int32))
            vals.append(c[nz].astype(np.float32))
            phase.append(ph)
            scale.append(sc)
            results.append(result)
            n += 1
            if n % 20000 == 0:
                print(f"{n} positions, {n / (time.monotonic() - start):.0f}/s", file=sys.stderr,
                      flush=True)
    np.savez_compressed(out, rows=np.concatenate(rows), cols=np.concatenate(cols),
                        vals=np.concatenate(vals), phase=np.asarray(phase, np.float32),
                        scale=np.asarray(scale, np.float32),
                        result=np.asarray(results, np.float32),
                        n_features=np.int32(_eval.N_FEATURE_COUNT))
    print(f"{n} positions written to {out}", file=sys.stderr)


# --- step 2: the fit ----------------------------------------------------------------------

class Model:
    """eval(w) = counts @ (w_mg * ph + w_eg * (PH - ph)) / PH * scale / SCALE,
    Red's point of view, in centipawns."""

    def __init__(self, data: Dict[str, np.ndarray], rows: Optional[np.ndarray] = None) -> None:
        n = len(data["result"])
        f = int(data["n_features"])
        counts = sp.csr_matrix((data["vals"], (data["rows"], data["cols"])), shape=(n, f))
        if rows is not None:                # a subset of the positions
            counts = counts[rows]
            data = {key: data[key][rows] for key in ("phase", "scale", "result")}
        self.counts = counts
        self.counts_t = self.counts.T.tocsr()
        ph = data["phase"] / _eval.PHASE_FULL
        sc = data["scale"] / _eval.SCALE_FULL
        self.a_mg = (ph * sc).astype(np.float64)
        self.a_eg = ((1.0 - ph) * sc).astype(np.float64)
        self.result = data["result"].astype(np.float64)
        # features that never occur keep their weights (no information)
        self.seen = np.asarray((self.counts != 0).sum(axis=0)).ravel() > 0

    def evaluate(self, w: np.ndarray) -> np.ndarray:
        return self.a_mg * (self.counts @ w[:, 0]) + self.a_eg * (self.counts @ w[:, 1])

    def loss(self, w: np.ndarray, k: float) -> float:
        s = 1.0 / (1.0 + np.exp(-k * self.evaluate(w) / 400.0))
        return float(np.mean((self.result - s) ** 2))

    def gradient(self, w: np.ndarray, k: float) -> Tuple[float, np.ndarray]:
        s = 1.0 / (1.0 + np.exp(-k * self.evaluate(w) / 400.0))
        err = self.result - s
        g = -2.0 * err * s * (1.0 - s) * k / 400.0 / len(err)
        grad = np.stack([self.counts_t @ (g * self.a_mg), self.counts_t @ (g * self.a_eg)], axis=1)
        return float(np.mean(err ** 2)), grad


def flatten(weights: Dict[str, List[Tuple[int, int]]]) -> np.ndarray:
    w = np.zeros((_eval.N_FEATURE_COUNT, 2))
    for name, first, length in _eval.FEATURE_BLOCKS:
        for i, (mg, eg) in enumerate(weights[name]):
            w[first + i] = (mg, eg)
    return w


def unflatten(w: np.ndarray) -> Dict[str, List[Tuple[int, int]]]:
    return {name: [(int(round(w[first + i, 0])), int(round(w[first + i, 1])))
                   for i in range(length)]
            for name, first, length in _eval.FEATURE_BLOCKS}


def fit_k(model: Model, w: np.ndarray) -> float:
    """The K that makes the current weights predict best (golden section)."""
    lo, hi = 0.1, 4.0
    for _ in range(40):
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if model.loss(w, a) < model.loss(w, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit(model: Model, w0: np.ndarray, k: float, iterations: int, lr: float,
        frozen: np.ndarray, l2: float = 0.0, prior: Optional[np.ndarray] = None,
        quiet: bool = False) -> np.ndarray:
    """Adam on MSE + l2 * sum((w - prior)^2) / 10^4 (centipawns): the
    penalty keeps weights that the data says little about (rare squares)
    near the prior instead of letting them chase noise."""
    prior = w0 if prior is None else prior
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2, eps = 0.9, 0.999, 1e-8
    mask = (model.seen[:, None] & ~frozen[:, None]).astype(np.float64) * np.ones((1, 2))
    for t in range(1, iterations + 1):
        loss, g = model.gradient(w, k)
        g += l2 * 2.0 * (w - prior) / 1e4
        g *= mask
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w -= lr * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps)
        if not quiet and (t % 100 == 0 or t == 1):
            print(f"iteration {t}: loss {loss:.6f}", file=sys.stderr, flush=True)
    return w


def write_weights(path: str, weights: Dict[str, List[Tuple[int, int]]], note: str) -> None:
    lines = ['"""Evaluation weights: (opening, endgame) centipawn pairs by feature block.',
             "",
             "Written by tools/tune.py (Texel's method: a logistic fit of quiet positions'",
             "evaluations against game results); _eval.pyx reads them at import.  Piece-",
             "square blocks list 50 squares, rank by rank from the piece's own back rank",
             "(rank 0) to the far end (rank 9), five files each, from the edge file (a/i)",
             "to the centre file (e): the tables are symmetric left to right.",
             "",
             note,
             '"""',
             "",
             "WEIGHTS = {"]
    for name, _, length in _eval.FEATURE_BLOCKS:
        pairs = [f"({mg}, {eg})" for mg, eg in weights[name]]
        if length == 50:
            lines.append(f'    "{name}": [')
            for r in range(10):
                lines.append("        " + ", ".join(pairs[r * 5:r * 5 + 5]) + ",")
            lines.append("    ],")
        else:
            lines.append(f'    "{name}": [{", ".join(pairs)}],')
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("positions", help="quiet positions and features from games")
    p.add_argument("games", nargs="+")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--skip-plies", type=int, default=8)
    p.add_argument("--every", type=int, default=2, help="keep every n-th position of a game")
    p.add_argument("--seed", type=int, default=1)
    f = sub.add_parser("fit", help="fit the weights")
    f.add_argument("data", nargs="+", help="positions .npz files")
    f.add_argument("-o", "--output", required=True)
    f.add_argument("--iterations", type=int, default=1500)
    f.add_argument("--lr", type=float, default=1.0)
    f.add_argument("--k", type=float, help="fix K instead of fitting it")
    f.add_argument("--l2", type=float, nargs="+", default=[0.0],
                   help="L2 pull towards the current weights; with several values, each "
                        "is fitted on 90%% of the positions and the one with the lowest "
                        "error on the other 10%% is used for the final fit")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--only", nargs="+", metavar="BLOCK",
                   help="fit only these blocks (names in _eval.FEATURE_BLOCKS; the "
                        "others keep their weights): a new term against the rest")
    args = ap.parse_args(argv)

    if args.cmd == "positions":
        build_positions(args.games, args.output, args.skip_plies, args.every, args.seed)
        return 0

    parts = [dict(np.load(path)) for path in args.data]
    offset = 0
    for part in parts:                    # concatenate, renumbering rows
        part["rows"] = part["rows"] + offset
        offset += len(part["result"])
    data = {key: np.concatenate([part[key] for part in parts])
            for key in ("rows", "cols", "vals", "phase", "scale", "result")}
    data["n_features"] = parts[0]["n_features"]
    w0 = flatten(_eval.weights())
    frozen = np.zeros(len(w0), dtype=bool)
    if args.only:
        blocks = {name: (first, length) for name, first, length in _eval.FEATURE_BLOCKS}
        unknown = [name for name in args.only if name not in blocks]
        if unknown:
            ap.error(f"--only: no block named {', '.join(unknown)} "
                     f"(blocks: {', '.join(blocks)})")
        frozen[:] = True
        for name in args.only:
            first, length = blocks[name]
            frozen[first:first + length] = False
    frozen[0] = True                      # the king's material stays 0
    n = len(data["result"])
    l2 = args.l2[0]
    if len(args.l2) > 1:
        # hold out 10% of the positions to choose the penalty
        rng = np.random.default_rng(args.seed)
        held = rng.random(n) < 0.1
        train, valid = Model(data, np.nonzero(~held)[0]), Model(data, np.nonzero(held)[0])
        k = args.k if args.k else fit_k(train, w0)
        best = None
        for lam in args.l2:
            w = fit(train, w0, k, args.iterations, args.lr, frozen, l2=lam, quiet=True)
            v = valid.loss(w, k)
            print(f"l2 {lam:g}: train {train.loss(w, k):.6f}, validation {v:.6f}",
                  file=sys.stderr, flush=True)
            if best is None or v < best[0]:
                best = (v, lam)
        l2 = best[1]
        print(f"chosen l2 = {l2:g}", file=sys.stderr)
    model = Model(data)
    k = args.k if args.k else fit_k(model, w0)
    print(f"{len(model.result)} positions, K = {k:.3f}, loss before {model.loss(w0, k):.6f}",
          file=sys.stderr)
    w = fit(model, w0, k, args.iterations, args.lr, frozen, l2=l2)
    loss = model.loss(w, k)
    print(f"loss after {loss:.6f}", file=sys.stderr)
    note = (f"Fitted on {len(model.result):,} quiet positions ({', '.join(map(os.path.basename, args.data))}), "
            f"K = {k:.3f}, L2 {l2:g}, {args.iterations} Adam iterations"
            f"{' (only ' + ', '.join(args.only) + ')' if args.only else ''}:\n"
            f"mean squared error {model.loss(w0, k):.6f} -> {loss:.6f}.")
    write_weights(args.output, unflatten(w), note)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
