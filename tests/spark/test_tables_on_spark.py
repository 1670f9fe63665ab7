"""``kafkaspec pipeline SRC --table iceberg|delta DEST`` on Spark: the executors write the data files,
the driver commits each table once. Backfill then an incremental run equal a read_committed read row
for row; a driver SIGKILLed before or after its commit leaves the table at its last commit (the files
it wrote are deleted by the next run); an upsert table is merged by the driver; typed values are
refused in one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pyarrow.parquet as pq
import pytest
from support.tables import (
    FORMATS,
    TS,
    close_open,
    consumer_rows,
    referenced_files,
    table_arrow,
    table_rows,
    write_orders,
    write_transactions,
)

from kafkaspec import Record, logdir
from kafkaspec.spark.run.tables import write_table
from kafkaspec.tables import write_table as write_table_here

pytestmark = pytest.mark.spark


def _rows(fmt, dest, names):
    return sorted(row for name in names for row in table_rows(fmt, dest, name))


@pytest.mark.parametrize("fmt", FORMATS)
def test_backfill_then_incremental_on_spark_equals_a_read_committed_read(spark, fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 40)
    write_orders(src, 7, topic="pay", partition=1)
    write_transactions(src, topic="pay", partition=0, open_pid=9)
    first = write_table(spark, src, str(dest), format=fmt)
    assert first.rows == 40 + 7 + 1
    assert (first.aborted, first.held) == (1, 2)  # counted by the executors, and from the plan
    assert _rows(fmt, dest, ("orders", "pay")) == [r for r in consumer_rows(src) if r[3] != b"after-open"]
    close_open(src, 9, topic="pay")
    write_orders(src, 9, tag=b"b")
    second = write_table(spark, src, str(dest), format=fmt)
    assert (second.rows, second.aborted, second.held) == (9 + 2, 0, 0)
    assert _rows(fmt, dest, ("orders", "pay")) == consumer_rows(src)
    assert write_table(spark, src, str(dest), format=fmt).rows == 0


def _cli(src, dest, fmt, *args, **env):
    return subprocess.Popen(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", fmt, str(dest), "--quiet"]
        + ["--engine", "spark", "--master", "local[1]", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
        start_new_session=True,  # the test ends the JVM and workers too if the driver's death leaves them
    )


def _data_files(dest):
    return sorted(
        os.path.join(root, f) for root, _, files in os.walk(dest) for f in files if f.endswith(".parquet")
    )


def _check(fmt, dest, expected):
    assert table_rows(fmt, dest, "orders") == expected
    for path in referenced_files(fmt, dest, "orders"):
        assert pq.read_metadata(path).num_rows > 0


def _killed_at(src, dest, fmt, point):
    """A Spark run of the table SIGKILLed (the driver alone, as a lost driver machine) where it pauses."""
    proc = _cli(src, dest, fmt, KAFKASPEC_TABLES_PAUSE=point)
    try:
        line = ""
        while not line.startswith("paused at"):
            line = proc.stderr.readline()
            assert line, proc.stderr.read()
        assert line.strip() == f"paused at {point}"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the JVM and Python workers the dead driver leaves
        except ProcessLookupError:
            pass


@pytest.mark.hostile
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_driver_killed_before_then_after_its_commit(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 30)
    canary = tmp_path / "canary"
    canary.write_text("keep")
    write_table_here(str(src), str(dest), format=fmt)  # the table's last commit before the kills
    before = consumer_rows(src)
    write_orders(src, 20, tag=b"more")
    _killed_at(src, dest, fmt, "written")  # the executors wrote their files; no commit
    _check(fmt, dest, before)
    assert len(_data_files(dest)) > len(referenced_files(fmt, dest, "orders"))
    _killed_at(src, dest, fmt, "committed")  # deleted the dead run's files, committed, then died
    _check(fmt, dest, consumer_rows(src))
    assert _data_files(dest) == sorted(referenced_files(fmt, dest, "orders"))
    write_orders(src, 5, tag=b"last")
    assert write_table_here(str(src), str(dest), format=fmt).rows == 5  # from the killed run's offsets
    _check(fmt, dest, consumer_rows(src))
    assert _data_files(dest) == sorted(referenced_files(fmt, dest, "orders"))
    assert canary.read_text() == "keep"


def _profiles(root):
    """A compacted topic's history: key a set twice, key b set then deleted."""
    with logdir.PartitionWriter(root, "profiles", 0) as w:
        for i, (key, value) in enumerate([(b"a", b"1"), (b"b", b"1"), (b"a", b"2"), (b"b", None)]):
            w.append([Record(key=key, value=value, timestamp=TS + i)])


def test_upsert_on_spark_is_the_drivers_and_typed_values_are_refused_in_one_line(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _profiles(src)
    done = _cli(src, dest, "delta", "--decode-values")  # refused before Spark starts
    out, err = done.communicate(timeout=120)
    lines = err.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "--decode-values" in lines[0], (out, err)
    assert not dest.exists()
    done = _cli(src, dest, "delta", "--table-mode", "upsert")
    out, err = done.communicate(timeout=300)
    assert done.returncode == 0, err
    profiles = table_arrow("delta", dest, "profiles")
    assert list(zip(profiles.column("key").to_pylist(), profiles.column("value").to_pylist())) == [
        (b"a", b"2")
    ]
