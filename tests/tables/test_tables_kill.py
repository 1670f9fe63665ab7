"""Exactly once under kills and races: a table run SIGKILLed at any point leaves the table at its last
commit (no duplicate, no missing row, no referenced file half-written), the next run completes it; of
two runs at once on one table one commits and the other fails in one line, the table unchanged by it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from support.tables import FORMATS, TS, consumer_rows, referenced_files, table_rows, write_orders

from kafkaspec import Record, logdir

pytestmark = pytest.mark.hostile
ONE_MB = ("--target-file-mb", "1")


def _run(src, dest, fmt, *args, **env):
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "pipeline",
            str(src),
            "--table",
            fmt,
            str(dest),
            "--quiet",
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )


def _wait_paused(proc, point):
    line = proc.stderr.readline()
    assert line.strip() == f"paused at {point}", line + proc.stderr.read()


def _check(fmt, dest, expected):
    """The table holds ``expected`` rows, each once, and every file it references reads whole."""
    assert table_rows(fmt, dest, "orders") == expected
    for path in referenced_files(fmt, dest, "orders"):
        assert pq.read_metadata(path).num_rows > 0


def _setup(tmp_path, fmt):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 50)
    assert _run(src, dest, fmt).wait(timeout=120) == 0
    before = consumer_rows(src)
    canary = tmp_path / "canary"
    canary.write_text("keep")
    for i in range(20):
        write_orders(src, 500, tag=b"more%d" % i)
    return src, dest, before, canary


@pytest.mark.parametrize("point", ["planned", "written", "committed"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_sigkill_at_each_point_leaves_the_last_commit(fmt, point, tmp_path):
    src, dest, before, canary = _setup(tmp_path, fmt)
    proc = _run(src, dest, fmt, KAFKASPEC_TABLES_PAUSE=point)
    _wait_paused(proc, point)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    _check(fmt, dest, consumer_rows(src) if point == "committed" else before)
    assert _run(src, dest, fmt).wait(timeout=120) == 0  # the next run appends what is still new, once
    _check(fmt, dest, consumer_rows(src))
    assert canary.read_text() == "keep"


def _more_than_a_file(src):
    """Records of random values, several MB: with ``--target-file-mb 1`` a run writes data files before
    it has read them all (so a kill at ``written`` leaves files)."""
    rng = random.Random(7)
    with logdir.PartitionWriter(src, "orders", 0) as w:
        for i in range(0, 20_000, 500):
            w.append(
                [Record(key=b"k%d" % j, value=rng.randbytes(200), timestamp=TS) for j in range(i, i + 500)]
            )


def _data_files(dest):
    return sorted(
        os.path.join(root, f) for root, _, files in os.walk(dest) for f in files if f.endswith(".parquet")
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_next_run_deletes_the_files_a_killed_run_wrote(fmt, tmp_path):
    src, dest, before, canary = _setup(tmp_path, fmt)
    stray = dest / "orders-notes.parquet"  # not a table's data file: never touched
    stray.write_bytes(b"mine")
    _more_than_a_file(src)
    proc = _run(src, dest, fmt, *ONE_MB, KAFKASPEC_TABLES_PAUSE="written")
    _wait_paused(proc, "written")
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert len(_data_files(dest)) > len(referenced_files(fmt, dest, "orders")) + 1  # written, not committed
    assert _run(src, dest, fmt, *ONE_MB).wait(timeout=120) == 0
    _check(fmt, dest, consumer_rows(src))
    assert _data_files(dest) == sorted([*referenced_files(fmt, dest, "orders"), str(stray)])
    assert canary.read_text() == "keep" and stray.read_bytes() == b"mine"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_run_keeps_the_files_of_a_live_one_and_the_next_cleans_them(fmt, tmp_path):
    src, dest, before, canary = _setup(tmp_path, fmt)
    gate = tmp_path / "gate"
    _more_than_a_file(src)
    first = _run(src, dest, fmt, *ONE_MB, KAFKASPEC_TABLES_PAUSE="written", KAFKASPEC_TABLES_GATE=str(gate))
    _wait_paused(first, "written")
    written = set(_data_files(dest)) - set(referenced_files(fmt, dest, "orders"))
    assert written
    assert _run(src, dest, fmt, *ONE_MB).wait(timeout=120) == 0  # commits while the first still lives
    assert written <= set(_data_files(dest))
    gate.write_text("go")
    assert first.wait(timeout=120) == 2  # it lost: its files are a dead run's now
    assert written <= set(_data_files(dest))
    write_orders(src, 5, tag=b"last")
    assert _run(src, dest, fmt).wait(timeout=120) == 0
    _check(fmt, dest, consumer_rows(src))
    assert _data_files(dest) == sorted(referenced_files(fmt, dest, "orders"))
    assert canary.read_text() == "keep"


@pytest.mark.parametrize("fmt", FORMATS)
def test_sigkill_at_random_moments_then_a_run_to_the_end(fmt, tmp_path):
    src, dest, before, canary = _setup(tmp_path, fmt)
    rng = random.Random(43)
    for _ in range(3):
        proc = _run(src, dest, fmt)
        time.sleep(rng.uniform(0.3, 3.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert table_rows(fmt, dest, "orders") in (before, consumer_rows(src))
    assert _run(src, dest, fmt).wait(timeout=120) == 0
    _check(fmt, dest, consumer_rows(src))
    assert canary.read_text() == "keep"


@pytest.mark.parametrize("fmt", FORMATS)
def test_two_runs_at_once_one_wins_the_other_fails_in_one_line(fmt, tmp_path):
    src, dest, before, canary = _setup(tmp_path, fmt)
    gate = tmp_path / "gate"
    env = {"KAFKASPEC_TABLES_PAUSE": "written", "KAFKASPEC_TABLES_GATE": str(gate)}
    runs = [_run(src, dest, fmt, **env) for _ in range(2)]
    for proc in runs:
        _wait_paused(proc, "written")  # both planned from the same commit and wrote their files
    gate.write_text("go")
    results = sorted((proc.wait(timeout=120), proc.stderr.read()) for proc in runs)
    assert [code for code, _ in results] == [0, 2], results
    lines = results[1][1].strip().splitlines()
    assert len(lines) == 1 and "another run committed to it first" in lines[0], lines
    _check(fmt, dest, consumer_rows(src))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_killed_first_run_of_a_new_table_does_not_block_the_next(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    _more_than_a_file(src)
    proc = _run(src, dest, fmt, *ONE_MB, KAFKASPEC_TABLES_PAUSE="written")
    _wait_paused(proc, "written")
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    leftover = dest / "orders" if fmt == "delta" else dest / "kafka" / "orders" / "data"
    leftover.mkdir(parents=True, exist_ok=True)  # a run killed before its first commit leaves its folder
    pq.write_table(pa.table({"x": [1]}), leftover / "part-00000-killed.parquet")  # and files, as it would
    done = _run(src, dest, fmt, *ONE_MB)
    assert done.wait(timeout=120) == 0, done.stderr.read()
    _check(fmt, dest, consumer_rows(src))
    assert _data_files(dest) == sorted(referenced_files(fmt, dest, "orders"))
    assert canary.read_text() == "keep"


def test_a_folder_with_files_older_than_the_runs_that_marked_it_is_not_theirs(tmp_path):
    from kafkaspec.tables.leftovers import RunMarker, made_by_runs

    dest = tmp_path / "lake"
    theirs = dest / "audit" / "notes.parquet"
    theirs.parent.mkdir(parents=True)
    theirs.write_bytes(b"mine")
    os.utime(theirs, (time.time() - 60, time.time() - 60))
    RunMarker(str(dest), "audit").close()  # a run of the table that died
    assert not made_by_runs(str(dest), "audit", str(dest / "audit"))
    assert not made_by_runs(str(dest), "orders", str(dest / "audit"))  # no run marked that table
    theirs.unlink()
    assert made_by_runs(str(dest), "audit", str(dest / "audit"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_run_that_read_the_table_before_another_committed_keeps_that_ones_files(fmt, tmp_path):
    """A dead run's mark is older than the files of a run that committed after this one read the table:
    the files this one deletes are those unreferenced when it cleans, not when it read."""
    src, dest, before, canary = _setup(tmp_path, fmt)
    _more_than_a_file(src)
    dead = _run(src, dest, fmt, *ONE_MB, KAFKASPEC_TABLES_PAUSE="written")
    _wait_paused(dead, "written")
    gate_a, gate_b = tmp_path / "gate-a", tmp_path / "gate-b"
    winner = _run(
        src, dest, fmt, *ONE_MB, KAFKASPEC_TABLES_PAUSE="written", KAFKASPEC_TABLES_GATE=str(gate_a)
    )
    _wait_paused(winner, "written")  # marked and wrote while the first lived: it cleaned nothing
    dead.send_signal(signal.SIGKILL)
    dead.wait(timeout=30)
    late = _run(src, dest, fmt, *ONE_MB, KAFKASPEC_TABLES_PAUSE="planned", KAFKASPEC_TABLES_GATE=str(gate_b))
    _wait_paused(late, "planned")  # it has read the table
    gate_a.write_text("go")
    assert winner.wait(timeout=120) == 0
    gate_b.write_text("go")
    assert late.wait(timeout=120) == 2  # it lost the race to commit, after its cleaning
    _check(fmt, dest, consumer_rows(src))
    assert _run(src, dest, fmt).wait(timeout=120) == 0
    _check(fmt, dest, consumer_rows(src))
    assert canary.read_text() == "keep"
