"""A streaming kafkalog query in local Spark while another process writes the log: plain, compressed and
transactional batches (commits, aborts, one left open for a while), segment rolls, a retention delete
of the oldest segment, and the query stopped and restarted from its checkpoint half way. The union of
the micro-batches (a Parquet file sink, exactly once by its checkpoint) equals what was written, record
for record, read_committed and not; and the trigger latency is measured."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from kafkaspec import Record, logdir

WRITER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from kafkaspec import Record, logdir

    root, shadow, step = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    kw = dict(segment_bytes=2500, index_interval_bytes=256)
    writers = [logdir.PartitionWriter(root, "orders", 0, **kw), logdir.PartitionWriter(shadow, "orders", 0, **kw)]
    n = 0

    def both(method, *args, **kwargs):
        for w in writers:
            getattr(w, method)(*args, **kwargs)
            if w.segment is not None:
                w.segment.fh.flush()

    def records(k, tag):
        global n
        out = [Record(key=b"k%d" % (n + i), value=b"%s-%d" % (tag, n + i), timestamp=1_700_000_000_000 + n + i,
                      headers=[("i", b"%d" % (n + i))]) for i in range(k)]
        n += k
        return out

    def wait_for(name):
        while not (step / name).exists():
            time.sleep(0.05)

    seq = {7: 0, 8: 0}
    def txn(pid, k, outcome):
        both("append", records(k, b"txn%d" % pid), producer_id=pid, producer_epoch=0, base_sequence=seq[pid],
             is_transactional=True, compression="lz4")
        seq[pid] += k
        if outcome:
            both("append_control", outcome, producer_id=pid, producer_epoch=0)

    for round_ in range(2):
        if round_ == 1:
            (step / "half").touch()
            wait_for("restarted")
        for i in range(6):
            both("append", records(5, b"plain"))
            both("append", records(4, b"zstd"), compression="zstd")
            txn(7, 3, "commit")
            txn(8, 2, "abort")
            time.sleep(0.1)
        txn(7, 2, None)  # left open across a trigger or two: read_committed holds back what follows
        both("append", records(3, b"behind"), compression="gzip")
        time.sleep(1.0)
        both("append_control", "commit", producer_id=7, producer_epoch=0)
        both("roll")
    (step / "read-oldest").touch()
    wait_for("delete-oldest")
    oldest = logdir.Partition(root / "orders-0").segments()[0]
    for suffix in (".log", ".index", ".timeindex", ".txnindex"):
        oldest.path.with_suffix(suffix).unlink(missing_ok=True)
    both("append", records(5, b"after-retention"), compression="snappy")
    for w in writers:
        w.close()
    (step / "done").touch()
""")


def _rows(df):
    return sorted(
        (r.partition, r.offset, bytes(r.value), [(h.key, bytes(h.value)) for h in r.headers])
        for r in df.select("partition", "offset", "value", "headers").collect()
    )


def _wait(path: Path, proc: subprocess.Popen, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None or path.exists(), (
            f"the writer died: {proc.stderr.read() if proc.stderr else ''}"
        )
        assert time.monotonic() < deadline, f"no {path.name} after {timeout}s"
        time.sleep(0.1)


def _start(spark, src, out, checkpoint, **options):
    reader = spark.readStream.format("kafkalog").option("splitSize", "1k")
    for k, v in options.items():
        reader = reader.option(k, v)
    return (
        reader.load(str(src))
        .writeStream.format("parquet")
        .option("checkpointLocation", str(checkpoint))
        .trigger(processingTime="300 milliseconds")
        .start(str(out))
    )


def _caught_up(query, offset: int, timeout: float = 240) -> None:
    """Wait until the query has processed offsets up to ``offset`` (its last progress' end offset)."""
    deadline = time.monotonic() + timeout
    while True:
        assert query.exception() is None, query.exception()
        progress = query.lastProgress
        if progress and progress["sources"]:
            end = json.loads(progress["sources"][0]["endOffset"] or "{}")
            if end.get("orders", {}).get("0", -1) >= offset:
                return
        assert time.monotonic() < deadline, f"the query did not reach offset {offset}: {progress}"
        time.sleep(0.2)


def test_a_growing_log_streamed_with_a_restart_is_every_record_once(spark, tmp_path):
    src, shadow, step = tmp_path / "logs", tmp_path / "shadow", tmp_path / "steps"
    step.mkdir()
    canary = tmp_path / "canary"
    canary.write_text("keep")
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(src), str(shadow), str(step)], stderr=subprocess.PIPE, text=True
    )
    try:
        while not (src / "orders-0").is_dir():
            time.sleep(0.05)
        sinks = {
            level: (tmp_path / f"out-{level}", tmp_path / f"ck-{level}")
            for level in ("read_uncommitted", "read_committed")
        }

        def start_all():
            return {
                level: _start(spark, src, out, ck, isolationLevel=level, failOnDataLoss="true")
                for level, (out, ck) in sinks.items()
            }

        queries = start_all()
        _wait(step / "half", proc)
        time.sleep(0.5)
        for q in queries.values():  # stopped mid-stream, batches in flight or not
            q.stop()
        queries = start_all()
        (step / "restarted").touch()
        _wait(step / "read-oldest", proc)
        oldest_end = logdir.Partition(src / "orders-0").segments()[1].base_offset
        for q in queries.values():  # the oldest segment is read before retention deletes it
            _caught_up(q, oldest_end)
        (step / "delete-oldest").touch()
        _wait(step / "done", proc)
        assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""
        for q in queries.values():
            q.processAllAvailable()
            assert q.exception() is None
            q.stop()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert canary.read_text() == "keep"

    for level, (out, _) in sinks.items():
        got = _rows(spark.read.parquet(str(out)))
        keys = [(p, o) for p, o, _, _ in got]
        assert len(keys) == len(set(keys)), f"{level}: repeated offsets"
        expected = _rows(spark.read.format("kafkalog").option("isolationLevel", level).load(str(shadow)))
        assert got == expected, level  # the writer's own copy, which retention never touched
        with logdir.open_log(src) as log:
            start = log.partitions()[0].segments()[0].base_offset
        final = _rows(spark.read.format("kafkalog").option("isolationLevel", level).load(str(src)))
        assert [r for r in got if r[1] >= start] == final, level
        assert start > 0 and any(r[1] < start for r in got)
    committed = {r[2] for r in _rows(spark.read.parquet(str(sinks["read_committed"][0])))}
    assert not any(v.startswith(b"txn8") for v in committed) and any(v.startswith(b"txn7") for v in committed)


def test_trigger_latency(spark, tmp_path, record_property):
    """Seconds from an append (flushed) to its row in a memory sink, on the tests' local[2] session."""
    w = logdir.PartitionWriter(tmp_path, "lat", 0)
    w.append([Record(key=None, value=b"first", timestamp=0)])
    w.segment.fh.flush()
    query = (
        spark.readStream.format("kafkalog")
        .load(str(tmp_path))
        .writeStream.format("memory")
        .queryName("kafkalog_latency")
        .trigger(processingTime="100 milliseconds")
        .start()
    )
    try:
        seen = 0
        latencies = []
        deadline = time.monotonic() + 300  # a query that dies or stalls fails the test, never hangs it

        def count() -> int:
            assert query.exception() is None, query.exception()
            assert time.monotonic() < deadline, f"the stream showed {seen} rows after 300 s"
            return spark.sql("select count(*) as n from kafkalog_latency").collect()[0].n

        for i in range(6):
            while seen < i + 1:
                seen = count()
                time.sleep(0.02)
            w.append([Record(key=None, value=b"v%d" % i, timestamp=i)])
            w.segment.fh.flush()
            appended = time.monotonic()
            while seen < i + 2:
                seen = count()
            latencies.append(time.monotonic() - appended)
    finally:
        query.stop()
        w.close()
    median = statistics.median(latencies)
    record_property("trigger_latency_median_s", round(median, 3))
    print(
        f"kafkalog trigger latency (local[2], processingTime 100ms): median {median:.2f}s, "
        f"max {max(latencies):.2f}s over {len(latencies)} appends",
        file=sys.__stderr__,
    )
    assert len(latencies) == 6
