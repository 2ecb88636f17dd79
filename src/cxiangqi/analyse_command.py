"""``cxiangqi-analyse``: annotate whole game collections with an engine.

::

    cxiangqi-analyse INPUT... -o annotated.pgn [--jsonl results.jsonl]
                     [--time 0.2 | --depth N | --nodes N] [--workers N]
                     [--engine built-in|PATH] [--scheduler tcp://host:8786]
                     [--export-positions positions.jsonl|positions.parquet]

INPUT is any mix of record files and folders (PGN, XQF, DhtmlXQ, CBF, CBR,
CBL, told apart by content; see :mod:`cxiangqi.records`).  Unreadable
records are reported with their file and index and the rest go on.

Outputs are append-only and resumable (:mod:`cxiangqi.journal`): a game is
written to every output and then to the journal (``OUTPUT.journal``) as
soon as it is finished; a rerun of the same command skips the games in the
journal, after cutting off anything a killed run left half written.  So an
interrupted run loses at most the games that were in flight, and none is
written twice.  Ctrl-C (or SIGTERM) stops after the games in flight; a
second Ctrl-C abandons them at once (they are redone next time).

Exit status: 0 when every game was analysed (unreadable records are
reported, not counted as failures), 1 when some games failed (a rerun
retries them), 2 for bad arguments or outputs that cannot be resumed, 130
when interrupted.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import signal
import sys
import threading
import time
from typing import Any, Dict, Iterator, List, Optional, Set

from . import pgn, records
from .analysis import (AnalysisError, GameAnalysis, Job, KeyMaker, Thresholds, annotate, drive,
                       limit_to_dict, make_pool)
from .engine import Limit
from .files import atomic_write
from .journal import JournalError, Outputs
from .move import Move

__all__ = ["main", "position_rows"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cxiangqi-analyse",
        description="Annotate xiangqi game collections with an engine: evaluation, best "
                    "move, inaccuracies, mistakes and blunders, accuracy.  Resumable: rerun "
                    "the same command after an interruption.")
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="record files or folders (PGN, XQF, DhtmlXQ, CBF, CBR, CBL)")
    p.add_argument("-o", "--output", metavar="PGN", help="annotated games, as PGN")
    p.add_argument("--jsonl", metavar="FILE", help="per-game analysis, one JSON object a line")
    p.add_argument("--export-positions", metavar="FILE",
                   help="quiet positions with score and result, deduplicated: FILE.jsonl, or "
                        "FILE.parquet (needs pyarrow)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--time", type=float, metavar="S",
                       help="seconds per position (default 0.2)")
    limit.add_argument("--depth", type=int, metavar="N", help="depth per position")
    limit.add_argument("--nodes", type=int, metavar="N",
                       help="nodes per position (reproducible, like --depth)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="games analysed at once, in threads (default: the number of cores)")
    p.add_argument("--engine", default="built-in", metavar="built-in|PATH",
                   help="the built-in engine, or the command of a UCI/UCCI engine "
                        "(one process per worker)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help='run on a Dask cluster (e.g. tcp://host:8786); needs '
                        'pip install "cxiangqi[dask]"')
    p.add_argument("--hash", type=int, default=32, metavar="MB",
                   help="hash table per engine (default 32)")
    p.add_argument("--notation", choices=pgn.NOTATIONS, default="iccs",
                   help="move notation of the PGN output (default iccs)")
    p.add_argument("--journal", metavar="FILE",
                   help="the journal that makes a rerun resume (default: first output + "
                        "'.journal')")
    p.add_argument("--overwrite", action="store_true",
                   help="start again: empty the outputs and the journal")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def position_rows(game: pgn.Game, analysis: GameAnalysis, seen: Set[int]) -> List[str]:
    """JSONL lines of the game's quiet positions not in ``seen`` (which is
    updated): side to move not in check, the engine's best move not a
    capture, no mate score.  Each: fen, score (centipawns, Red's side),
    result (the game's), ply (half-moves played), zobrist (hex)."""
    rows = []
    board = game.board()
    result = game.headers.get("Result", "*")
    score_before = analysis.start_score
    mate_before = analysis.start_mate
    for ply in analysis.plies:
        quiet = (score_before is not None and mate_before is None and ply.best is not None
                 and not board.is_check() and not board.is_capture(Move.from_iccs(ply.best)))
        if quiet:
            key = board.zobrist_hash()
            if key not in seen:
                seen.add(key)
                rows.append(json.dumps({"fen": board.fen(), "score": score_before,
                                        "result": result, "ply": ply.ply - 1,
                                        "zobrist": f"{key:016x}"}))
        board.push(Move.from_iccs(ply.move))
        score_before, mate_before = ply.score, ply.mate
    return rows


def _load_seen(path: str) -> Set[int]:
    seen: Set[int] = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    seen.add(int(json.loads(line)["zobrist"], 16))
    return seen


def _to_parquet(staging: str, target: str) -> None:
    """The staged JSONL positions as a Parquet file at `target`: encoded in
    memory (the table is in memory already), then written with
    :func:`cxiangqi.files.atomic_write`, so a failure leaves the previous
    file, a symbolic link is written through and the file keeps its
    permissions."""
    import pyarrow.json as pj
    import pyarrow.parquet as pq
    table = pj.read_json(staging) if os.path.getsize(staging) else None
    if table is None:
        import pyarrow as pa
        table = pa.table({"fen": [], "score": [], "result": [], "ply": [], "zobrist": []})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    atomic_write(target, buffer.getvalue())


class _Counter:
    """Counts the readable games of the inputs in a background thread, for
    the progress bar's total."""

    def __init__(self, inputs: List[str]) -> None:
        self.total: Optional[int] = None
        self._thread = threading.Thread(target=self._run, args=(inputs,), daemon=True)
        self._thread.start()

    def _run(self, inputs: List[str]) -> None:
        n = 0
        for record in records.iter_records(inputs):
            if record.error is None:
                n += 1
        self.total = n


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    err = sys.stderr

    def fail(message: str) -> int:
        print(f"cxiangqi-analyse: {message}", file=err)
        return 2

    outputs = {"pgn": args.output, "jsonl": args.jsonl}
    files = {k: v for k, v in outputs.items() if v}
    parquet = None
    if args.export_positions:
        if args.export_positions.lower().endswith(".parquet"):
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                return fail('Parquet export needs pyarrow: pip install "cxiangqi[parquet]"')
            parquet = args.export_positions
            files["positions"] = parquet + ".staging.jsonl"
        else:
            files["positions"] = args.export_positions
    if not files:
        return fail("nothing to write: give -o FILE.pgn, --jsonl FILE or --export-positions FILE")
    for path in args.inputs:
        if not os.path.exists(path):
            return fail(f"no such file or folder: {path}")
    if args.workers is not None and args.workers < 1:
        return fail("--workers must be at least 1")
    if args.nodes is not None and args.nodes < 1:
        return fail("--nodes must be at least 1")
    if args.hash < 1:
        return fail("--hash must be at least 1 (MB)")
    try:
        if args.depth is not None:
            limit = Limit(depth=args.depth)
        elif args.nodes is not None:
            limit = Limit(nodes=args.nodes)
        else:
            limit = Limit(movetime=args.time if args.time is not None else 0.2)
    except ValueError as e:
        return fail(str(e))
    program = args.engine.split()[0] if args.engine.split() else ""
    if args.engine != "built-in" and not (os.path.exists(program) or shutil.which(program)):
        return fail(f"engine not found: {args.engine} (give built-in or the path of a "
                    f"UCI/UCCI engine)")

    thresholds = Thresholds()
    settings = {"limit": limit_to_dict(limit), "engine": args.engine,
                "notation": args.notation, "thresholds": thresholds.__dict__}
    primary = args.output or args.jsonl or files["positions"]
    journal = args.journal or primary + ".journal"
    out = Outputs(files, journal, settings, overwrite=args.overwrite)
    try:
        done = out.open()
    except (JournalError, OSError) as e:
        return fail(str(e))
    try:
        seen = _load_seen(out.files["positions"]) if "positions" in files else set()
    except (ValueError, KeyError, TypeError) as e:
        out.close()
        return fail(f"{out.files['positions']} is damaged ({e}): remove it and its journal, "
                    f"or pass --overwrite, to start again")

    client = None
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError:
            out.close()
            return fail('--scheduler needs Dask: pip install "cxiangqi[dask]"')
        try:
            client = Client(args.scheduler, timeout="30s")
        except Exception as e:  # noqa: BLE001 - any connection failure is reported
            out.close()
            return fail(f"cannot connect to the Dask scheduler {args.scheduler}: {e}")
    workers = args.workers or _cores()
    pool = make_pool(workers, limit, args.engine, client=client, hash_mb=args.hash,
                     thresholds=thresholds)

    from tqdm import tqdm
    bar = tqdm(total=None, unit=" games", dynamic_ncols=True, file=err,
               disable=True if args.no_progress else None, smoothing=0.1,
               bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, "
                          "{rate_noinv_fmt}{postfix}]")
    counter = _Counter(args.inputs) if not bar.disable else None
    stats = {"analysed": 0, "skipped": 0, "unreadable": 0, "failed": 0}

    def report(message: str) -> None:
        if bar.disable:
            print(message, file=err)
        else:
            bar.write(message, file=err)

    def jobs() -> Iterator[Job]:
        keys = KeyMaker()
        for record in records.iter_records(args.inputs):
            if record.error is not None:
                stats["unreadable"] += 1
                report(f"unreadable: {record.error}")
                continue
            try:
                text = str(record.game)
            except ValueError as e:
                stats["unreadable"] += 1
                report(f"unreadable: {record.path}: game {record.index + 1}: {e}")
                continue
            key = keys(text)
            if key in done:
                stats["skipped"] += 1
                continue
            yield Job(key, text, record.path, record.index)

    stop = threading.Event()
    abort = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        if stop.is_set():
            abort.set()
            pool.abort()
            return
        stop.set()
        report("cxiangqi-analyse: stopping after the games in flight "
               "(press Ctrl-C again to abandon them; a rerun resumes)")

    write_error: Optional[OSError] = None
    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    started = time.perf_counter()
    try:
        for job, result in drive(jobs(), pool, 2 * pool.capacity, stop, abort=abort):
            if abort.is_set():
                break
            if isinstance(result, AnalysisError):
                stats["failed"] += 1
                report(f"failed: {result}")
                continue
            chunks = _render(job, result, args.notation, "positions" in files, seen)
            try:
                out.append(job.key, {k: v for k, v in chunks.items() if k in files},
                           {"source": job.source, "index": job.index})
            except OSError as e:  # a full disk, a removed folder: keep what is journaled
                write_error = e
                stop.set()
                break
            stats["analysed"] += 1
            if counter is not None and counter.total is not None and bar.total is None:
                bar.total = max(counter.total - len(done), stats["analysed"])
            bar.update(1)
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        bar.close()
        out.close()
        if abort.is_set():
            print("cxiangqi-analyse: abandoned the games in flight; rerun to resume",
                  file=err)
            err.flush()
            os._exit(130)  # worker threads may be mid-search: do not wait for them
        pool.close()
        if client is not None:
            client.close()

    seconds = time.perf_counter() - started
    if write_error is not None:
        print(f"cxiangqi-analyse: cannot write the outputs: {write_error}; the "
              f"{stats['analysed']} games written before are kept, and a rerun resumes "
              f"after them", file=err)
        return 2
    interrupted = stop.is_set()
    if parquet and not interrupted:  # (a rerun that retries failed games writes it again)
        _to_parquet(files["positions"], parquet)
    rate = stats["analysed"] / seconds if seconds > 0 else 0.0
    print(f"cxiangqi-analyse: {stats['analysed']} games analysed in {seconds:.1f} s "
          f"({rate:.2f} games/s), {stats['skipped']} already done, "
          f"{stats['unreadable']} unreadable, {stats['failed']} failed"
          + ("; interrupted: rerun the same command to resume" if interrupted else ""),
          file=err)
    if interrupted:
        return 130
    return 1 if stats["failed"] else 0


def _render(job: Job, analysis: GameAnalysis, notation: str, positions: bool,
            seen: Set[int]) -> Dict[str, bytes]:
    """The bytes of one game for each output."""
    game = job.game()
    chunks: Dict[str, bytes] = {}
    if positions:
        rows = position_rows(game, analysis, seen)
        chunks["positions"] = "".join(r + "\n" for r in rows).encode("utf-8")
    record = {"key": job.key, "source": job.source, "index": job.index,
              "headers": dict(game.headers)}
    record.update(analysis.to_dict())
    chunks["jsonl"] = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    annotate(game, analysis)
    text = io.StringIO()
    pgn.write_game(game, text, notation)
    chunks["pgn"] = text.getvalue().encode("utf-8")
    return chunks


if __name__ == "__main__":
    sys.exit(main())
