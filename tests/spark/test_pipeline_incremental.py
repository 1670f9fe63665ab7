"""``kafkaspec pipeline --incremental``: each run appends what is new since the last one, recorded in OUT."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from kafkaspec import Record, logdir
from kafkaspec.spark.run.incremental import last_offsets, run_incremental


def _append(root, n, tag, partition=0):
    w = logdir.PartitionWriter(root, "orders", partition)
    return w, [w.append([Record(key=None, value=b"%s-%d" % (tag, i), timestamp=i)]) for i in range(n)]


def _values(spark, path):
    return sorted((r.partition, r.offset, bytes(r.value)) for r in spark.read.parquet(str(path)).collect())


def test_each_run_appends_only_what_is_new(spark, tmp_path):
    src, out = tmp_path / "backup", tmp_path / "out"
    w = logdir.PartitionWriter(src, "orders", 0)
    for i in range(5):
        w.append([Record(key=None, value=b"a-%d" % i, timestamp=i)])
    w.segment.fh.flush()
    first = run_incremental(spark, str(src), str(out))
    assert (first.records, first.offsets) == (5, {"orders": {"0": 5}})
    assert json.loads((out / "summary.json").read_text())["offsets"] == {"orders": {"0": 5}}

    again = run_incremental(spark, str(src), str(out))  # nothing new: nothing appended
    assert again.records == 0 and again.offsets == {"orders": {"0": 5}}

    for i in range(3):
        w.append([Record(key=None, value=b"b-%d" % i, timestamp=i)], compression="zstd")
    w.close()
    with logdir.PartitionWriter(src, "orders", 1) as w1:  # a partition that appeared since
        w1.append([Record(key=None, value=b"c-0", timestamp=0)])
    third = run_incremental(spark, str(src), str(out))
    assert third.records == 4 and third.offsets == {"orders": {"0": 8, "1": 1}}
    expected = sorted(
        (r.partition, r.offset, bytes(r.value))
        for r in spark.read.format("kafkalog").load(str(src)).collect()
    )
    assert _values(spark, out / "records") == expected  # every record once over the three runs


def test_incremental_refuses_the_output_of_a_full_run_before_spark_starts(tmp_path):
    src, out = tmp_path / "logs", tmp_path / "out"
    with logdir.PartitionWriter(src, "orders", 0) as w:
        w.append([Record(key=None, value=b"v", timestamp=0)])
    (out / "records").mkdir(parents=True)
    canary = out / "records" / "canary"
    canary.write_text("keep")
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), str(out), "--incremental"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "full pipeline run" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "starting Spark" not in done.stderr
    assert canary.read_text() == "keep"


def _committed(out):
    commits = out / "_checkpoint" / "commits"
    return len([p for p in commits.glob("[0-9]*")]) if commits.is_dir() else 0


def _follow(src, out):
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "pipeline",
            str(src),
            str(out),
            "--follow",
            "--interval",
            "0.3",
            "--isolation-level",
            "read_uncommitted",
            "--master",
            "local[1]",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _grow_until(proc, out, w, commits, tag):
    """Append while ``--follow`` runs until it has committed ``commits`` micro-batches in all."""
    deadline = time.monotonic() + 240
    n = 0
    while _committed(out) < commits:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "--follow committed no micro-batch"
        w.append(
            [Record(key=None, value=b"%s-%d" % (tag, n), timestamp=n) for _ in range(3)], compression="gzip"
        )
        w.segment.fh.flush()
        n += 1
        time.sleep(0.2)


def test_follow_stopped_killed_then_continued_from_its_checkpoint_loses_and_repeats_nothing(spark, tmp_path):
    """--follow in its own process while the log grows: SIGTERM stops it cleanly (exit 0, summary written);
    a second --follow is SIGKILLed mid-way; --incremental finishes from the checkpoint."""
    src, out = tmp_path / "logs", tmp_path / "out"
    w = logdir.PartitionWriter(src, "orders", 0, segment_bytes=1500)
    w.append([Record(key=None, value=b"first", timestamp=0)])
    w.segment.fh.flush()
    proc = _follow(src, out)
    try:
        _grow_until(proc, out, w, 2, b"a")
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=120)
        assert proc.returncode == 0, stderr
        assert "Traceback" not in stderr and "kafkaspec pipeline --follow" in stdout
        summary = json.loads((out / "summary.json").read_text())
        assert summary["mode"] == "follow" and summary["records"] > 0
        assert summary["offsets"] == last_offsets(out / "_checkpoint")

        proc = _follow(src, out)
        _grow_until(proc, out, w, _committed(out) + 3, b"b")
        for _ in range(5):  # more, some of which the killed run was reading
            w.append([Record(key=None, value=b"late", timestamp=1)])
            w.segment.fh.flush()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    w.close()
    summary = run_incremental(spark, str(src), str(out), isolation_level="read_uncommitted")
    with logdir.open_log(src) as log:
        end = log.partitions()[0].segments()[-1].base_offset
    assert summary.offsets["orders"]["0"] >= end
    expected = sorted(
        (r.partition, r.offset, bytes(r.value))
        for r in spark.read.format("kafkalog").load(str(src)).collect()
    )
    got = _values(spark, out / "records")
    assert len({(p, o) for p, o, _ in got}) == len(got), "an offset was written twice"
    assert got == expected
