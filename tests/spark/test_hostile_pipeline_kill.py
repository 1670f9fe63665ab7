"""``kafkaspec pipeline --incremental`` killed at any point, or run twice at once: what a reader other
than Spark sees in ``OUT/records/`` (pyarrow.dataset, DuckDB, pandas) holds each offset once.

Real SIGKILLs of the command's process (its Spark JVM then exits by itself, as it does when its
driver dies), at the points the directory shows: when the first Parquet file appears anywhere under
OUT (the tasks are writing), and when the first one appears in ``records/`` (the commit). After
each kill ``records/`` holds no offset twice and nothing the source does not; after a run that
finishes, every offset of the source exactly once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kafkaspec import Record, logdir
from kafkaspec.spark.run.incremental import run_incremental

pytestmark = [pytest.mark.spark, pytest.mark.hostile]


def _source(root: Path, partitions: int = 2, batches: int = 60) -> None:
    """Small segments and many batches, so that a micro-batch has several tasks and files per partition."""
    for p in range(partitions):
        with logdir.PartitionWriter(root, "orders", p, segment_bytes=4000) as w:
            for b in range(batches):
                w.append(
                    [Record(key=b"k%d" % i, value=b"p%d-b%d-r%d" % (p, b, i), timestamp=b) for i in range(5)],
                    compression="gzip" if b % 3 else "none",
                )


def _expected(root: Path) -> list[tuple[int, int, bytes]]:
    with logdir.open_log(root) as log:
        return sorted(
            (part.partition, r.offset, r.value) for part in log.partitions() for _, r in part.records()
        )


def _rows(records: Path) -> list[tuple[int, int, bytes]]:
    """``records/`` as pyarrow.dataset reads it (hive partitioning, as Spark wrote it)."""
    import pyarrow.dataset as ds

    if not records.exists():
        return []
    table = ds.dataset(str(records), format="parquet", partitioning="hive").to_table(
        columns=["partition", "offset", "value"]
    )
    return sorted(
        zip(
            table.column("partition").to_pylist(),
            table.column("offset").to_pylist(),
            table.column("value").to_pylist(),
            strict=True,
        )
    )


def _other_readers(records: Path) -> list[int]:
    """The row counts DuckDB and pandas read from ``records/`` (those installed)."""
    counts = []
    pattern = str(records / "**" / "*.parquet")
    try:
        import duckdb
    except ImportError:
        pass
    else:
        counts.append(
            duckdb.sql(f"select count(*) from read_parquet('{pattern}', hive_partitioning=true)").fetchall()[
                0
            ][0]
        )
    import pandas

    counts.append(len(pandas.read_parquet(str(records))))
    return counts


def _at_most_once(records: Path, expected: list) -> None:
    rows = _rows(records)
    keys = [(p, o) for p, o, _ in rows]
    assert len(set(keys)) == len(keys), f"{len(keys) - len(set(keys))} offsets in records/ more than once"
    assert set(rows) <= set(expected), "records/ holds rows the source does not"
    if rows:
        assert _other_readers(records) == [len(rows)] * len(_other_readers(records))


def _start(src: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "pipeline",
            str(src),
            str(out),
            *extra,
            "--master",
            "local[1]",
            "--split-size",
            "8k",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _kill_when(proc: subprocess.Popen, ready, what: str) -> None:
    """SIGKILL the command's process once ``ready()``, then wait for its process group (the JVM and
    its Python workers) to be gone: they exit when the driver dies; killed if they have not in 60 s."""
    deadline = time.monotonic() + 240
    try:
        while not ready():
            assert proc.poll() is None, (
                f"the run ended before {what}: {proc.stderr.read() if proc.stderr else ''}"
            )
            assert time.monotonic() < deadline, f"no {what} in 240 s"
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        gone = time.monotonic() + 60
        while time.monotonic() < gone:
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.2)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate(timeout=60)


def _parquet_under(path: Path):
    return lambda: path.exists() and any(path.rglob("*.parquet"))


def test_killed_while_writing_and_while_committing_then_rerun_each_offset_once(spark, tmp_path):
    src, out = tmp_path / "logs", tmp_path / "out"
    _source(src)
    expected = _expected(src)
    canary = tmp_path / "canary"
    canary.write_text("keep")

    _kill_when(_start(src, out, "--incremental"), _parquet_under(out), "Parquet file under OUT")
    _at_most_once(out / "records", expected)

    _kill_when(_start(src, out, "--incremental"), _parquet_under(out / "records"), "Parquet file in records/")
    _at_most_once(out / "records", expected)

    summary = run_incremental(spark, str(src), str(out), split_size="8k")
    assert summary.offsets == {"orders": {"0": 300, "1": 300}}
    assert _rows(out / "records") == expected
    assert _other_readers(out / "records") == [len(expected)] * len(_other_readers(out / "records"))
    assert (
        sorted(
            (r.partition, r.offset, bytes(r.value))
            for r in spark.read.parquet(str(out / "records")).collect()
        )
        == expected
    )
    assert json.loads((out / "summary.json").read_text())["offsets"] == summary.offsets
    assert canary.read_text() == "keep"


def test_a_second_run_at_once_refuses_in_one_line_and_writes_nothing(spark, tmp_path):
    src, out = tmp_path / "logs", tmp_path / "out"
    _source(src, partitions=1, batches=20)
    expected = _expected(src)
    canary = tmp_path / "canary"
    canary.write_text("keep")
    first = _start(src, out, "--follow", "--interval", "0.5")
    try:
        assert first.stderr is not None
        assert first.stderr.readline().startswith("starting Spark")  # OUT is locked before that line
        before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "kafkaspec.cli",
                "pipeline",
                str(src),
                str(out),
                "--incremental",
                "--master",
                "local[1]",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert second.returncode == 2, second.stderr
        assert len(second.stderr.strip().splitlines()) == 1, second.stderr
        assert "another" in second.stderr and str(out) in second.stderr and "Traceback" not in second.stderr
        assert "starting Spark" not in second.stderr and second.stdout == ""
        after = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
        assert set(after) >= set(before)
        deadline = time.monotonic() + 240
        while not (out / "_checkpoint" / "commits" / "0").exists():
            assert first.poll() is None and time.monotonic() < deadline, first.stderr.read()
            time.sleep(0.1)
        first.send_signal(signal.SIGTERM)
        stdout, stderr = first.communicate(timeout=120)
        assert first.returncode == 0, stderr
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert _rows(out / "records") == expected
    assert canary.read_text() == "keep"


def test_a_full_run_killed_while_writing_leaves_its_staging_to_the_next(tmp_path):
    """A full run's tasks write under ``OUT/_temporary-<run>/``; killed there, that folder stays until
    the next run into OUT, which (holding OUT's lock, so no other run is alive) removes it."""
    src, out = tmp_path / "logs", tmp_path / "out"
    _source(src, batches=30)
    canary = tmp_path / "canary"
    canary.write_text("keep")
    _kill_when(_start(src, out), _parquet_under(out), "Parquet file under OUT")
    assert [p.name for p in out.glob("_temporary-*")], "the kill came after the run's staging was gone"
    mine = out / "_temporary-mine"  # not a run's name: not ours to remove
    mine.mkdir()
    proc = _start(src, out)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert sorted(p.name for p in out.glob("_temporary*")) == ["_temporary-mine"]
    assert _rows(out / "records") == _expected(src)
    assert canary.read_text() == "keep"
