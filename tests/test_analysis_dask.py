"""cxiangqi.analysis on a real Dask LocalCluster with 2 worker processes:
the same results as threads, the command's --scheduler, and a worker
killed mid-run without losing or repeating a game."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from conftest import games

from cxiangqi import Move, pgn
from cxiangqi.analysis import AnalysisError, analyse_games
from cxiangqi.engine import Limit

import distributed  # a test dependency ([test] extra): missing is a failure, not a skip

COMMAND = os.path.join(os.path.dirname(sys.executable), "cxiangqi-analyse")


def game_from(moves):
    game = pgn.Game()
    node = game
    for m in moves:
        node = node.add_variation(Move.from_iccs(m))
    return game


def strip(d):
    d = d.to_dict()
    d.pop("seconds")
    return d


@pytest.fixture(scope="module")
def cluster():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    client = distributed.Client(cluster)
    try:
        yield cluster, client
    finally:
        client.close()
        cluster.close()


def _limit():
    return Limit(nodes=1500)


def test_dask_matches_threads(cluster):
    _, client = cluster
    sample = [game_from(g["moves"][:16]) for g in games()[20:28]]
    local = {job.key: strip(r) for job, r in analyse_games(sample, _limit(), workers=1)}
    remote = {job.key: strip(r) for job, r in analyse_games(sample, _limit(), client=client)}
    assert len(remote) == 8 and remote == local


def test_dask_reports_bad_games(cluster):
    _, client = cluster
    good = game_from(["h2e2"])
    bad = pgn.Game()
    bad.headers["FEN"] = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"  # facing kings
    done = {job.index: r for job, r in analyse_games([good, bad], _limit(), client=client)}
    assert isinstance(done[1], AnalysisError) and not isinstance(done[0], AnalysisError)


def test_worker_killed_mid_run_every_game_exactly_once(cluster):
    _, client = cluster
    sample = [game_from(g["moves"][:40]) for g in games()[200:224]]
    limit = Limit(nodes=8000)
    expected = {job.key: strip(r) for job, r in analyse_games(sample, limit, workers=2)}
    seen = []
    killed = None
    for job, result in analyse_games(sample, limit, client=client, in_flight=len(sample)):
        assert not isinstance(result, AnalysisError), result
        seen.append((job.key, strip(result)))
        if killed is None and len(seen) == 3:
            # kill the process of a worker that still has games to do
            processing = client.processing()
            busy = [addr for addr, keys in processing.items() if keys]
            pids = client.run(os.getpid, workers=busy[:1] or None)
            addr, pid = next(iter(pids.items()))
            os.kill(pid, signal.SIGKILL)
            killed = addr
    assert killed is not None
    assert killed not in client.scheduler_info()["workers"]  # it really died
    keys = [k for k, _ in seen]
    assert len(keys) == len(set(keys)) == len(sample)  # every game once
    assert dict(seen) == expected  # and the same analysis as on this machine


def test_command_with_scheduler(cluster, tmp_path):
    cluster_, _ = cluster
    path = tmp_path / "in.pgn"
    with open(path, "w") as fh:
        for g in games()[40:44]:
            fh.write("[Event \"x\"]\n\n" + " ".join(g["moves"][:10]) + " *\n\n")
    r = subprocess.run([COMMAND, str(path), "-o", str(tmp_path / "o.pgn"), "--jsonl",
                        str(tmp_path / "o.jsonl"), "--nodes", "1000", "--scheduler",
                        cluster_.scheduler_address, "--no-progress"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "4 games analysed" in r.stderr
    local = subprocess.run([COMMAND, str(path), "--jsonl", str(tmp_path / "l.jsonl"),
                            "--nodes", "1000", "--no-progress"],
                           capture_output=True, text=True, timeout=300)
    assert local.returncode == 0, local.stderr

    def rows(p):
        out = {}
        for line in open(p):
            d = json.loads(line)
            d.pop("seconds")
            out[d["key"]] = d
        return out
    # the analysis of each game is the same wherever it ran
    assert rows(tmp_path / "o.jsonl") == rows(tmp_path / "l.jsonl")
