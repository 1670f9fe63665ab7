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

import pyarrow.parquet as pq
import pytest
from support.tables import FORMATS, consumer_rows, referenced_files, table_rows, write_orders

pytestmark = pytest.mark.hostile


def _run(src, dest, fmt, **env):
    return subprocess.Popen(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", fmt, str(dest), "--quiet"],
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
