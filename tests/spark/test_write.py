"""Writing: a directory read and written back holds the same records."""

from __future__ import annotations

import json

import pytest
from support.spark import runtime_rows, source_rows

from kafkaspec import logdir
from kafkaspec.cli import main


def run(*argv):
    import io
    from contextlib import redirect_stderr, redirect_stdout

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


pytestmark = pytest.mark.spark


def test_write_read_round_trip(spark, synth_dir, tmp_path):
    out = tmp_path / "copy"
    df = (
        spark.read.format("kafkalog")
        .option("splitSize", "256k")
        .option("includeControl", "true")
        .load(str(synth_dir))
    )
    df.write.format("kafkalog").option("compression", "zstd").mode("overwrite").save(str(out))
    assert not (out / "_kafkalog_staging").exists()
    assert runtime_rows(out) == runtime_rows(synth_dir)
    assert source_rows(spark, out, {"subscribe": "users"}) == runtime_rows(synth_dir, {"subscribe": "users"})
    assert logdir.verify(out) == []
    assert any(out.glob("*/*.index"))


def _dump(path, *flags):
    code, out, err = run("dump", path, "--json", *flags)
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    for r in rows:
        r.pop("file", None)
    return rows


def test_spark_copy_keeps_every_batch(spark, synth_dir, tmp_path):
    """Issue 15's bar: a Spark job reads a synth directory and writes it back; verify passes on the copy,
    and dump --batches-only and dump --read-committed agree on every batch and every record."""
    out = tmp_path / "copy"
    df = (
        spark.read.format("kafkalog")
        .option("isolationLevel", "read_uncommitted")
        .option("includeControl", "true")
        .load(str(synth_dir))
    )
    df.write.format("kafkalog").mode("overwrite").save(str(out))
    code, text, _ = run("verify", out)
    assert code == 0 and " 0 errors, 0 warnings" in text
    assert _dump(out, "--batches-only") == _dump(synth_dir, "--batches-only")
    assert _dump(out, "--read-committed", "--print-data") == _dump(
        synth_dir, "--read-committed", "--print-data"
    )


def test_spark_write_without_control_rows_keeps_every_transaction(spark, synth_dir, tmp_path):
    """The default read hides the markers; the batch-preserving write puts them back from the source."""
    df = spark.read.format("kafkalog").option("subscribe", "payments").load(str(synth_dir))
    df.write.format("kafkalog").mode("overwrite").save(str(tmp_path / "out"))
    code, text, _ = run("verify", tmp_path / "out")
    assert code == 0 and " 0 errors, 0 warnings" in text
    assert runtime_rows(tmp_path / "out") == runtime_rows(synth_dir, {"subscribe": "payments"})
    with logdir.open_log(synth_dir) as a, logdir.open_log(tmp_path / "out") as b:
        want = {p.name: p.transactions() for p in a.partitions() if p.topic == "payments"}
        assert want and {p.name: p.transactions() for p in b.partitions()} == want


def test_write_without_offsets_numbers_from_zero(spark, tmp_path):
    rows = [("t", 0, b"k%d" % i, b"v%d" % i) for i in range(5)] + [("t", 1, None, b"x")]
    df = spark.createDataFrame(rows, "topic string, partition int, key binary, value binary").repartition(2)
    df.write.format("kafkalog").mode("overwrite").save(str(tmp_path / "new"))
    got = runtime_rows(tmp_path / "new")
    assert sorted(r[5] for r in got if r[1] == 0) == [b"v%d" % i for i in range(5)]
    assert sorted(r[2] for r in got if r[1] == 0) == [0, 1, 2, 3, 4]
    assert [(r[1], r[2], r[4], r[5]) for r in got if r[1] == 1] == [(1, 0, None, b"x")]


def test_write_sorts_rows_that_arrive_out_of_offset_order(spark, tmp_path):
    from pyspark.sql import functions as F

    rows = [("t", 0, o, b"k%d" % o, b"v%d" % o) for o in range(0, 600, 3)]
    df = (
        spark.createDataFrame(rows, "topic string, partition int, offset long, key binary, value binary")
        .repartition(1)
        .sortWithinPartitions(F.rand(seed=5))
    )  # one task, shuffled order
    df.write.format("kafkalog").option("recordsPerBatch", "7").mode("overwrite").save(str(tmp_path / "out"))
    got = [(r[0], r[1], r[2], r[4], r[5]) for r in runtime_rows(tmp_path / "out")]
    assert got == rows
