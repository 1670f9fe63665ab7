"""The pipeline job in local Spark: the records it writes (with pyarrow, in its tasks) read back in Spark
equal the kafkalog source's read, its summary (the tasks' counts) equals separate queries over the
audit, a corrupt batch under policy fail is the data's error naming file and byte and leaves no
partial output, the CLI's stderr holds no Spark log line or stage bar unless --verbose, and our
progress line draws from Spark's status tracker during a real job."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from kafkaspec import logdir
from kafkaspec.errors import KafkaFormatError
from kafkaspec.spark.read.schema import RECORD_COLUMNS
from kafkaspec.spark.run.pipeline import run_pipeline
from kafkaspec.spark.run.status import StageProgress

pytestmark = [pytest.mark.spark]


def _reference_summary(spark, batches: str, isolation_level: str) -> dict:
    """The summary's figures by one Spark query each, as the pipeline computed them before."""
    from pyspark.sql import functions as F

    audit = spark.read.parquet(batches)
    good = audit.where(F.col("crcStatus").isin("ok", "unchecked") & ~F.col("isControl"))
    if isolation_level == "read_committed":
        good = good.where(~F.col("transaction").isin("aborted", "open", "held"))
    rows = (
        good.groupBy("topic", "partition")
        .agg(F.sum("recordCount").alias("records"), F.count("*").alias("n"))
        .orderBy("topic", "partition")
        .collect()
    )
    totals = audit.agg(F.count("*").alias("n"), F.sum("size").alias("bytes")).collect()[0]
    data = audit.where(~F.col("isControl") & F.col("crcStatus").isin("ok", "unchecked"))
    return {
        "per_partition": [
            {"topic": r.topic, "partition": r.partition, "records": int(r.records or 0), "batches": int(r.n)}
            for r in rows
        ],
        "batches": int(totals.n),
        "bytes": int(totals.bytes or 0),
        "transactions": {
            r.transaction: int(r.records or 0)
            for r in data.groupBy("transaction").agg(F.sum("recordCount").alias("records")).collect()
        },
        "codecs": {
            r.compression: int(r["count"])
            for r in audit.where(F.col("compression").isNotNull()).groupBy("compression").count().collect()
        },
        "magics": {
            str(r.magic): int(r["count"])
            for r in audit.where(F.col("magic").isNotNull()).groupBy("magic").count().collect()
        },
    }


def test_summary_equals_one_query_per_figure(spark, synth_dir, txn_dir, tmp_path):
    for name, source, isolation_level in (
        ("synth", synth_dir, "read_uncommitted"),
        ("txn", txn_dir, "read_committed"),
    ):
        out = tmp_path / name
        summary = run_pipeline(
            spark, str(source), str(out), isolation_level=isolation_level, split_size="256k"
        )
        expected = _reference_summary(spark, str(out / "batches"), isolation_level)
        got = json.loads((out / "summary.json").read_text())
        for key, value in expected.items():
            assert got[key] == value, (name, key)
        assert summary.records == sum(r["records"] for r in expected["per_partition"])
    assert got["transactions"]["aborted"] == 2 and got["transactions"]["open"] == 1
    assert got["transactions"]["held"] == 1  # plain-2, past the last stable offset


def _sorted_arrow(df):
    names = [name for name, _ in RECORD_COLUMNS]
    return (
        df.select(*names)
        .toArrow()
        .sort_by([("topic", "ascending"), ("partition", "ascending"), ("offset", "ascending")])
    )


def test_records_read_back_equal_the_source_read(spark, synth_dir, txn_dir, tmp_path):
    for name, source, isolation_level in (
        ("synth", synth_dir, "read_uncommitted"),
        ("txn", txn_dir, "read_committed"),
    ):
        out = tmp_path / name
        run_pipeline(spark, str(source), str(out), isolation_level=isolation_level, split_size="256k")
        written = spark.read.parquet(str(out / "records"))
        read = spark.read.format("kafkalog").option("isolationLevel", isolation_level).load(str(source))
        assert sorted(written.dtypes) == sorted(read.dtypes), name
        got, expected = _sorted_arrow(written), _sorted_arrow(read)
        assert got.num_rows == expected.num_rows > 0, name
        assert got.equals(expected), name
        assert (out / "records" / "_SUCCESS").exists() and (out / "batches" / "_SUCCESS").exists()
        assert [p.name for p in out.iterdir() if p.name.startswith("_")] == []  # no staging folder left


def test_fail_policy_is_the_data_error_and_writes_nothing(spark, synth_dir, tmp_path):
    source = tmp_path / "logs" / "clicks-0"
    shutil.copytree(synth_dir / "clicks-0", source)
    seg = sorted(source.glob("*.log"))[0]
    with logdir.open_log(seg) as log:
        pos = [b.position for b in log.segments()[0].iter_batches()][4]
    data = bytearray(seg.read_bytes())
    data[pos + 70] ^= 0xFF
    seg.write_bytes(bytes(data))
    out = tmp_path / "out"
    with pytest.raises(KafkaFormatError) as info:
        run_pipeline(spark, str(source), str(out), on_corruption="fail", split_size="256k")
    assert (
        "crc" in str(info.value).lower() and seg.name in str(info.value) and f"byte {pos}" in str(info.value)
    )
    assert not out.exists() or list(out.iterdir()) == []
    summary = run_pipeline(spark, str(source), str(out), split_size="256k")  # skip (the default): reported
    assert [(c["position"], c["status"]) for c in summary.corrupt] == [(pos, "mismatch")]


def test_progress_line_draws_from_the_status_tracker(spark, synth_dir):
    stream = io.StringIO()
    with StageProgress(spark.sparkContext, "records", 3_000_000, stream=stream, enabled=True, interval=0.02):
        spark.read.format("kafkalog").option("splitSize", "64k").load(str(synth_dir)).count()
    text = stream.getvalue()
    assert "records: " in text and "/3.0 MB (" in text and "ETA" in text, text[-500:]
    assert text.endswith("\r\x1b[K")  # the line is cleared when the stage is done


def _cli(*args: str, cwd=None, env=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", *args, "--memory", "512m"],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
    )


#: modules the Python workers import (or may: a codec's) that a folder could hold as ``<name>.py``
PLANTED = ("lz4", "cramjam", "zstandard", "snappy", "numpy", "pyarrow", "pandas")


@pytest.mark.hostile
def test_cli_stderr_holds_no_spark_log_line_or_stage_bar(txn_dir, tmp_path):
    """(--verbose keeps Spark's own output: the session is built as before, which the other tests use.)
    Run from a folder holding ``lz4.py`` and the like: PySpark starts its workers as ``python -m
    pyspark.daemon`` in the driver's working directory, which Python puts first on their import path,
    so the workers imported (and ran) those files; they never do. Nor through an empty entry of
    ``PYTHONPATH`` (``PYTHONPATH=/x:$PYTHONPATH``, it unset), which Python reads as the working directory
    whatever ``PYTHONSAFEPATH`` says: the workers get the JVM's PYTHONPATH."""
    work = tmp_path / "work"
    work.mkdir()
    for name in PLANTED:
        (work / f"{name}.py").write_text(f"open({str(work / ('ran-' + name))!r}, 'w').close()\n")
    (tmp_path / "elsewhere").mkdir()
    env = {"PYTHONPATH": f"{tmp_path / 'elsewhere'}{os.pathsep}"}
    quiet = _cli(str(txn_dir), str(tmp_path / "quiet"), "--master", "local[1]", cwd=work, env=env)
    assert sorted(p.name for p in work.glob("ran-*")) == []
    assert quiet.returncode == 0, quiet.stderr[-3000:]
    assert "records written" in quiet.stdout
    assert "WARN" not in quiet.stderr and "[Stage" not in quiet.stderr and "log4j" not in quiet.stderr, (
        quiet.stderr
    )


def test_the_export_is_read_committed_by_default_and_says_so(txn_dir, tmp_path):
    """An analyst's Parquet holds no aborted or open-transaction records unless asked for; the summary
    says where the output went, how long it all took, what the isolation level left out, and its batch
    counts add up; summary.json names its fields."""
    done = _cli(str(txn_dir), str(tmp_path / "out"), "--master", "local[1]")
    assert done.returncode == 0, done.stderr[-3000:]
    values = {
        r["value"]
        for r in json.loads(
            json.dumps([{"value": v.decode()} for v in _parquet_values(tmp_path / "out" / "records")])
        )
    }
    assert values == {"plain-0", "plain-1", "commit-0", "commit-1", "commit-2"}  # plain-2: past the LSO
    text = done.stdout
    assert f"-> {tmp_path / 'out'}" in text and "records/" in text and "summary.json" in text
    assert (
        "isolation read_committed: 2 aborted and 1 open-transaction records left out, and 1 others held "
        "back after the last stable offset" in text
    )
    assert re.search(r"in all \d+\.\d s", text)
    assert done.stderr.startswith("starting Spark"), done.stderr[:300]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["isolation_level"] == "read_committed"
    assert summary["per_partition"] == [{"topic": "tx", "partition": 0, "records": 5, "batches": 3}]
    stages = summary["stage_seconds"]  # where the time went, step by step (bench/scale.py reads it)
    assert sorted(stages) == ["commit", "planning", "start", "stop", "summary", "tasks"]
    assert min(stages.values()) >= 0 and sum(stages.values()) <= summary["wall_seconds"]
    assert 0 < summary["planning_seconds"] < summary["wall_seconds"]  # made while Spark started
    header = re.search(r"([\d,]+) batches \(([\d,]+) data, ([\d,]+) control", text)
    assert header, text
    total, data, control = (int(g.replace(",", "")) for g in header.groups())
    assert total == data + control == summary["batches"] and control == summary["control_batches"] == 2
    assert data == sum(p["batches"] for p in summary["per_partition"]) + summary["left_out_batches"]
    uncommitted = _cli(
        str(txn_dir), str(tmp_path / "all"), "--master", "local[1]", "--isolation-level", "read_uncommitted"
    )
    assert uncommitted.returncode == 0, uncommitted.stderr[-3000:]
    assert len(_parquet_values(tmp_path / "all" / "records")) == 9


def _parquet_values(path) -> list[bytes]:
    import pyarrow.parquet as pq

    return pq.read_table(path).column("value").to_pylist()
