"""The cxiangqi-analyse command: outputs, unreadable records, and resuming
after SIGINT, SIGKILL and torn writes with every game exactly once (and
the same analysis as an uninterrupted run: fixed nodes are reproducible)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import DATA, failing_writes, games

from cxiangqi import Board, records
from cxiangqi.analyse_command import main

COMMAND = os.path.join(os.path.dirname(sys.executable), "cxiangqi-analyse")
ENGINE = os.path.join(os.path.dirname(sys.executable), "cxiangqi-engine")
N_GAMES = 30
NODES = "6000"


def write_pgn(path, records_, plies=40):
    with open(path, "w", encoding="utf-8") as fh:
        for i, g in enumerate(records_):
            fh.write(f'[Event "game {i}"]\n[Red "{g["red"]}"]\n[Black "{g["black"]}"]\n'
                     f'[Result "{g["result"]}"]\n\n')
            moves = g["moves"][:plies]
            fh.write(" ".join(f"{k // 2 + 1}. {m}" if k % 2 == 0 else m
                              for k, m in enumerate(moves)) + f" {g['result']}\n\n")


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    path = tmp_path_factory.mktemp("input") / "games.pgn"
    write_pgn(path, games()[100:100 + N_GAMES])
    return path


def run(args, **kwargs):
    return subprocess.run([COMMAND, *map(str, args)], capture_output=True, text=True,
                          timeout=600, **kwargs)


def by_key(jsonl_path):
    out = {}
    with open(jsonl_path, encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            record.pop("seconds")
            assert record["key"] not in out, "a game written twice"
            out[record["key"]] = record
    return out


def journal_games(path):
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as fh:
        return max(0, fh.read().count(b"\n") - 1)


@pytest.fixture(scope="module")
def reference(collection, tmp_path_factory):
    """An uninterrupted run: the analysis every resumed run must reproduce."""
    out = tmp_path_factory.mktemp("reference")
    r = run([collection, "-o", out / "a.pgn", "--jsonl", out / "a.jsonl", "--nodes", NODES,
             "--workers", "2", "--no-progress"])
    assert r.returncode == 0, r.stderr
    return {"jsonl": by_key(out / "a.jsonl"), "pgn": (out / "a.pgn").read_text("utf-8")}


def pgn_games(path):
    return {str(g) for g in records.read_games(path, errors="raise")}


def test_reference_run(reference, collection, tmp_path):
    assert len(reference["jsonl"]) == N_GAMES
    lengths = sorted(min(40, len(g["moves"])) for g in games()[100:100 + N_GAMES])
    assert sorted(len(r["plies"]) for r in reference["jsonl"].values()) == lengths
    for record in reference["jsonl"].values():
        assert record["source"] == str(collection)
        assert {"accuracy", "counts", "start_score", "plies", "headers"} <= set(record)
    assert len(pgn_games_text(reference["pgn"], tmp_path)) == N_GAMES


def test_outputs_and_unreadable_records(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    write_pgn(folder / "a.pgn", games()[:3], plies=12)
    shutil.copy(DATA / "raw" / "xqf" / "test.cbr", folder / "b.cbr")
    (folder / "c.xqf").write_bytes(b"XQ\x0a" + bytes(100))  # truncated
    (folder / "d.pgn").write_text('[Event "x"]\n\n1. h2e2 h9g7 2. h2h8 *\n')
    r = run([folder, "-o", tmp_path / "out.pgn", "--jsonl", tmp_path / "out.jsonl",
             "--depth", "2", "--workers", "2", "--no-progress"])
    assert r.returncode == 0, r.stderr
    assert "unreadable: " + str(folder / "c.xqf") in r.stderr and "truncated XQF" in r.stderr
    assert "unreadable: " + str(folder / "d.pgn") in r.stderr and "h2h8" in r.stderr
    assert "4 games analysed" in r.stderr and "2 unreadable" in r.stderr
    out = list(records.read_games(tmp_path / "out.pgn", errors="raise"))
    assert len(out) == 4 and all("[%eval" in g.next().comment for g in out)
    assert len(by_key(tmp_path / "out.jsonl")) == 4
    # a rerun finds everything done and leaves the outputs as they were
    before = (tmp_path / "out.pgn").read_bytes(), (tmp_path / "out.jsonl").read_bytes()
    r = run([folder, "-o", tmp_path / "out.pgn", "--jsonl", tmp_path / "out.jsonl",
             "--depth", "2", "--no-progress"])
    assert r.returncode == 0 and "0 games analysed" in r.stderr and "4 already done" in r.stderr
    assert ((tmp_path / "out.pgn").read_bytes(), (tmp_path / "out.jsonl").read_bytes()) == before


def _interrupt(collection, tmp_path, sig):
    """Starts a run, sends sig once two games are done, returns (process, games done then)."""
    args = [COMMAND, str(collection), "-o", str(tmp_path / "a.pgn"), "--jsonl",
            str(tmp_path / "a.jsonl"), "--nodes", NODES, "--workers", "2", "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    journal = tmp_path / "a.pgn.journal"
    deadline = time.monotonic() + 300
    while journal_games(journal) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    done_then = journal_games(journal)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(sig)
    proc.wait(timeout=300)
    return proc, done_then


def _resume_and_compare(collection, tmp_path, reference):
    r = run([collection, "-o", tmp_path / "a.pgn", "--jsonl", tmp_path / "a.jsonl",
             "--nodes", NODES, "--workers", "2", "--no-progress"])
    assert r.returncode == 0, r.stderr
    assert by_key(tmp_path / "a.jsonl") == reference["jsonl"]
    assert pgn_games(tmp_path / "a.pgn") == pgn_games_text(reference["pgn"], tmp_path)
    assert journal_games(tmp_path / "a.pgn.journal") == N_GAMES


def pgn_games_text(text, tmp_path):
    path = tmp_path / "reference.pgn"
    path.write_text(text, encoding="utf-8")
    return pgn_games(path)


def test_resume_after_sigint(collection, tmp_path, reference):
    proc, done_then = _interrupt(collection, tmp_path, signal.SIGINT)
    stderr = proc.stderr.read()
    assert proc.returncode == 130, stderr
    assert "stopping after the games in flight" in stderr and "rerun" in stderr
    done = journal_games(tmp_path / "a.pgn.journal")
    # the games in flight (at most 2 x 2 workers) were finished, no new one started
    assert done_then <= done <= done_then + 4 < N_GAMES
    assert len(by_key(tmp_path / "a.jsonl")) == done  # everything written is journaled
    assert len(pgn_games(tmp_path / "a.pgn")) == done
    _resume_and_compare(collection, tmp_path, reference)


def test_resume_after_sigkill(collection, tmp_path, reference):
    proc, done_then = _interrupt(collection, tmp_path, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert journal_games(tmp_path / "a.pgn.journal") < N_GAMES
    _resume_and_compare(collection, tmp_path, reference)


def test_resume_repairs_torn_writes(collection, tmp_path, reference):
    # a run that finished some games, then was killed in the middle of writing
    # the next one: half a game in each output, half a journal line
    proc, _ = _interrupt(collection, tmp_path, signal.SIGKILL)
    with open(tmp_path / "a.pgn", "ab") as fh:
        fh.write(b'[Game "Chinese Chess"]\n[Event "half a ga')
    with open(tmp_path / "a.jsonl", "ab") as fh:
        fh.write(b'{"key": "torn", "plies": [')
    with open(tmp_path / "a.pgn.journal", "ab") as fh:
        fh.write(b'{"key": "torn", "ends": {"pg')
    _resume_and_compare(collection, tmp_path, reference)


def test_refuses_what_it_cannot_resume(collection, tmp_path):
    out = tmp_path / "a.pgn"
    out.write_text("someone's file\n")
    assert main([str(collection), "-o", str(out), "--nodes", "10", "--no-progress"]) == 2
    assert out.read_text() == "someone's file\n"
    r = run([collection, "-o", out, "--nodes", "10", "--workers", "1", "--overwrite",
             "--no-progress"])
    assert r.returncode == 0, r.stderr
    r = run([collection, "-o", out, "--nodes", "20", "--no-progress"])
    assert r.returncode == 2 and "other settings" in r.stderr
    r = run([collection, "-o", out, "--jsonl", tmp_path / "x.jsonl", "--nodes", "10",
             "--no-progress"])
    assert r.returncode == 2 and "other outputs" in r.stderr
    out.write_text("cut")  # shorter than the journal says
    r = run([collection, "-o", out, "--nodes", "10", "--no-progress"])
    assert r.returncode == 2 and "the output was changed or removed" in r.stderr


def test_bad_arguments(tmp_path, collection, capsys):
    assert main([str(collection), "--nodes", "10"]) == 2
    assert "nothing to write" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.pgn"), "-o", str(tmp_path / "o.pgn")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main([str(collection), "-o", str(tmp_path / "o.pgn"), "--engine",
                 str(tmp_path / "nope")]) == 2
    assert "engine not found" in capsys.readouterr().err
    assert main([str(collection), "-o", str(tmp_path / "o.pgn"), "--workers", "0"]) == 2
    assert main([str(collection), "-o", str(tmp_path / "o.pgn"), "--nodes", "0"]) == 2
    assert main([str(collection), "-o", str(tmp_path / "o.pgn"), "--depth", "0"]) == 2
    assert main([str(collection), "-o", str(tmp_path / "o.pgn"), "--time", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--nodes must be at least 1" in err and "Limit.depth" in err
    assert not (tmp_path / "o.pgn").exists()  # nothing was created for a refused run


def test_export_positions(tmp_path, collection):
    pos = tmp_path / "pos.jsonl"
    # one worker: games finish in input order, so the first of duplicate positions is
    # the same in both runs
    assert main([str(collection), "--export-positions", str(pos), "--nodes", "1000",
                 "--workers", "1", "--no-progress"]) == 0
    rows = [json.loads(line) for line in pos.read_text().splitlines()]
    assert rows and set(rows[0]) == {"fen", "score", "result", "ply", "zobrist"}
    keys = [r["zobrist"] for r in rows]
    assert len(keys) == len(set(keys))  # deduplicated (the games share their openings)
    assert sum(1 for r in rows if r["ply"] == 0) == 1
    for r in rows:
        board = Board(r["fen"])
        assert not board.is_check() and f"{board.zobrist_hash():016x}" == r["zobrist"]
        assert r["result"] in ("1-0", "0-1", "1/2-1/2") and isinstance(r["score"], int)
    # Parquet: the same rows
    import pyarrow.parquet as pq
    target = tmp_path / "pos.parquet"
    assert main([str(collection), "--export-positions", str(target), "--nodes", "1000",
                 "--workers", "1", "--no-progress"]) == 0
    table = pq.read_table(target).to_pylist()
    assert table == rows


# --- the Parquet export: written with cxiangqi.files.atomic_write ----------------------------

ROWS = [{"fen": Board().fen(), "score": 20, "result": "1-0", "ply": 0,
         "zobrist": f"{Board().zobrist_hash():016x}"},
        {"fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
         "score": 30, "result": "1-0", "ply": 1, "zobrist": "0123456789abcdef"}]


def staged(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_parquet_export_through_a_link_keeps_the_link_and_the_permissions(tmp_path):
    import pyarrow.parquet as pq
    from cxiangqi.analyse_command import _to_parquet
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "pos.parquet"
    _to_parquet(staged(tmp_path / "old.jsonl", ROWS[:1]), str(target))
    os.chmod(target, 0o640)
    link = tmp_path / "pos.parquet"
    link.symlink_to(target)
    _to_parquet(staged(tmp_path / "new.jsonl", ROWS), str(link))
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert pq.read_table(target).to_pylist() == ROWS
    assert oct(os.stat(target).st_mode & 0o7777) == oct(0o640)
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["pos.parquet"]  # no temp file


@pytest.mark.parametrize("where", ["encoding", "writing"])
def test_a_failed_parquet_export_leaves_the_previous_file(tmp_path, monkeypatch, where):
    import pyarrow.parquet as pq
    from cxiangqi.analyse_command import _to_parquet
    target = tmp_path / "pos.parquet"
    _to_parquet(staged(tmp_path / "old.jsonl", ROWS[:1]), str(target))
    before = target.read_bytes()
    if where == "encoding":
        def broken(table, where, **kwargs):
            where.write(b"PAR1 half a file")
            raise OSError("pyarrow failed")
        monkeypatch.setattr(pq, "write_table", broken)
    else:
        failing_writes(monkeypatch, 7, OSError(28, "No space left on device"))
    with pytest.raises(OSError):
        _to_parquet(staged(tmp_path / "new.jsonl", ROWS), str(target))
    monkeypatch.undo()
    assert target.read_bytes() == before
    assert pq.read_table(target).to_pylist() == ROWS[:1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.jsonl", "old.jsonl", "pos.parquet"]


def test_external_engine_command(tmp_path):
    write_pgn(tmp_path / "two.pgn", games()[:2], plies=6)
    r = run([tmp_path / "two.pgn", "-o", tmp_path / "o.pgn", "--depth", "2", "--engine",
             ENGINE, "--workers", "2", "--no-progress"])
    assert r.returncode == 0, r.stderr
    assert len(list(records.read_games(tmp_path / "o.pgn", errors="raise"))) == 2


def test_second_sigint_abandons_the_games_in_flight(collection, tmp_path, reference):
    args = [COMMAND, str(collection), "--jsonl", str(tmp_path / "a.jsonl"), "--nodes", "15000",
            "--workers", "2", "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    journal = tmp_path / "a.jsonl.journal"
    while journal_games(journal) < 1 and proc.poll() is None:
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=300)
    stderr = proc.stderr.read()
    assert proc.returncode == 130 and "abandoned the games in flight" in stderr, stderr
    done = journal_games(journal)
    assert 1 <= done < N_GAMES and len(by_key(tmp_path / "a.jsonl")) == done
    r = run(args[1:])
    assert r.returncode == 0, r.stderr
    assert set(by_key(tmp_path / "a.jsonl")) == set(reference["jsonl"])  # each game once


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_full_disk_is_a_clear_error(tmp_path, collection, capsys):
    # /dev/full accepts the open and fails every write with ENOSPC
    code = main([str(collection), "-o", "/dev/full", "--journal", str(tmp_path / "j"),
                 "--nodes", "10", "--workers", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write the outputs" in err and "No space left" in err
    assert journal_games(tmp_path / "j") == 0


def test_two_runs_on_the_same_outputs_are_refused(tmp_path, collection, capsys):
    from cxiangqi.journal import JournalError, Outputs
    files = {"jsonl": str(tmp_path / "a.jsonl")}
    first = Outputs(files, str(tmp_path / "a.jsonl.journal"), {"limit": {"nodes": 10}})
    first.open()
    try:
        second = Outputs(files, str(tmp_path / "a.jsonl.journal"), {"limit": {"nodes": 10}})
        with pytest.raises(JournalError, match="another run is writing"):
            second.open()
        assert main([str(collection), "--jsonl", files["jsonl"], "--nodes", "10",
                     "--no-progress"]) == 2
        assert "another run is writing" in capsys.readouterr().err
    finally:
        first.close()
    # once the first has finished, the outputs are free again
    assert main([str(collection), "--jsonl", files["jsonl"], "--nodes", "10", "--workers", "1",
                 "--overwrite", "--no-progress"]) == 0
