"""The kafkalog Spark source reading s3:// from the test's S3 server, configured by the environment
or by explicit reader options; credentials never in plans."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest
from support.s3 import ACCESS_KEY, SECRET_KEY
from support.spark import source_rows
from support.stores import AZURE_KEY

from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan

pytestmark = pytest.mark.spark


def _checksum(rows) -> str:
    h = hashlib.sha256()
    for topic, partition, offset, _ts, key, value, _headers in rows:
        h.update(repr((topic, partition, offset, key, value)).encode())
    return h.hexdigest()


_JOB = """
import hashlib, sys
from kafkaspec.spark.session import build_session
spark = build_session("local[2]", "kafkaspec-s3-env", memory="512m", shuffle_partitions=2)
df = spark.read.format("kafkalog").load(sys.argv[1])
h = hashlib.sha256()
rows = df.select("topic", "partition", "offset", "key", "value").toArrow().to_pylist()
for r in sorted(rows, key=lambda r: (r["topic"], r["partition"], r["offset"])):
    h.update(repr((r["topic"], r["partition"], r["offset"], r["key"], r["value"])).encode())
from kafkaspec.spark.run.pipeline import run_pipeline
summary = run_pipeline(spark, sys.argv[1], sys.argv[2], split_size="4k")
print(len(rows), h.hexdigest(), summary.records, spark.read.parquet(sys.argv[2] + "/records").count())
spark.stop()
"""


def test_spark_read_and_pipeline_of_the_store_equal_local_with_environment_only(
    spark, store_server, local_logs, store_logs, tmp_path
):
    """A fresh Spark application whose only store configuration is the standard environment, as a user
    starts one (the shared test session's JVM was started before the test server existed): the kafkalog
    reader and the pipeline with its input on the store (S3, GCS, Azure)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "AZURE_", "STORAGE_EMULATOR"))}
    env.update(store_server.env())
    done = subprocess.run(
        [sys.executable, "-c", _JOB, store_logs, str(tmp_path / "out")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    count, checksum, piped, parquet = done.stdout.split()[-4:]
    local = source_rows(spark, local_logs, {"splitSize": "2k"})
    assert int(count) == len(local) > 300
    assert checksum == _checksum(local)
    assert int(piped) == int(parquet) == len(local)
    for secret in (SECRET_KEY, AZURE_KEY):
        assert secret not in done.stdout + done.stderr


def test_explicit_reader_options_reach_the_executors_and_stay_out_of_plans(
    spark, s3_server, monkeypatch, local_logs, s3_logs
):
    for key in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.delenv(key, raising=False)
    options = {
        "s3.endpoint": s3_server.endpoint,
        "s3.accessKey": ACCESS_KEY,
        "s3.secretKey": SECRET_KEY,
        "s3.region": "us-east-1",
    }
    df = spark.read.format("kafkalog").options(**options).load(s3_logs)
    local = source_rows(spark, local_logs, {"splitSize": "2k"})
    remote = source_rows(spark, s3_logs, {**options, "splitSize": "2k"})
    assert remote == local and _checksum(remote) == _checksum(local)
    shown = df._jdf.queryExecution().toString() + df.select("offset")._jdf.queryExecution().toString()
    assert SECRET_KEY not in shown and ACCESS_KEY not in shown
    tasks = plan(s3_logs, ReadOptions.parse(options))
    assert tasks and all(t.storage is not None and t.storage.secret_key == SECRET_KEY for t in tasks)
    assert SECRET_KEY not in repr(tasks) and ACCESS_KEY not in repr(tasks)
    assert SECRET_KEY not in repr(ReadOptions.parse(options))


def test_half_a_key_pair_is_an_option_error():
    with pytest.raises(ValueError, match="s3.accessKey and s3.secretKey go together"):
        ReadOptions.parse({"s3.accessKey": ACCESS_KEY})


def test_spark_reads_the_tiered_layout_from_s3(spark, s3_server, local_logs):
    from kafkaspec import logdir

    bucket = s3_server.new_bucket()
    opts = {
        "s3.endpoint": s3_server.endpoint,
        "s3.accessKey": ACCESS_KEY,
        "s3.secretKey": SECRET_KEY,
        "s3.region": "us-east-1",
    }
    from kafkaspec.logdir.store.storage import StorageOptions

    logdir.write_tiered(
        local_logs,
        f"s3://{bucket}/tiered/",
        chunk_size=900,
        storage=StorageOptions(
            endpoint=s3_server.endpoint, access_key=ACCESS_KEY, secret_key=SECRET_KEY, region="us-east-1"
        ),
    )
    remote = source_rows(spark, f"s3://{bucket}/tiered", {**opts, "splitSize": "1k"})
    local = source_rows(spark, local_logs)
    assert remote == local and len(remote) > 300


def test_spark_kafkalog_writer_to_s3_commits_and_a_failed_job_leaves_nothing(
    spark, s3_server, s3_env, local_logs
):
    from pyspark.sql import functions as F

    from kafkaspec import logdir

    bucket = s3_server.new_bucket()
    opts = {
        "s3.endpoint": s3_server.endpoint,
        "s3.accessKey": ACCESS_KEY,
        "s3.secretKey": SECRET_KEY,
        "s3.region": "us-east-1",
    }
    df = spark.read.format("kafkalog").option("subscribe", "clicks").load(str(local_logs))
    # batch-preserving (the default for a kafkalog read): the segments come back byte for byte
    df.write.format("kafkalog").options(**opts).mode("overwrite").save(f"s3://{bucket}/preserved")
    fs = s3_server.filesystem()
    logs = sorted((local_logs / "clicks-0").glob("*.log"))
    assert len(logs) > 3
    for f in logs:
        assert fs.open_input_file(f"{bucket}/preserved/clicks-0/{f.name}").read() == f.read_bytes(), f.name
    assert logdir.verify(f"s3://{bucket}/preserved") == []
    opts["preserveBatches"] = "false"
    df.write.format("kafkalog").options(**opts).mode("overwrite").save(f"s3://{bucket}/copy")
    copy = [
        (p.name, r.offset, r.key, r.value)
        for p in logdir.open_log(f"s3://{bucket}/copy").partitions()
        for _, r in p.records()
    ]
    original = [
        (p.name, r.offset, r.key, r.value)
        for p in logdir.open_log(local_logs).partitions()
        for _, r in p.records()
        if p.topic == "clicks"
    ]
    assert copy == original
    names = [
        i.path
        for i in s3_server.filesystem().get_file_info(
            __import__("pyarrow.fs").fs.FileSelector(f"{bucket}/copy", recursive=True)
        )
    ]
    assert names and not any("_kafkalog_staging" in n for n in names)
    bad = df.withColumn("topic", F.when(F.col("offset") > 5, F.lit(None)).otherwise(F.col("topic")))
    with pytest.raises(Exception, match="topic and partition must not be null"):
        bad.write.format("kafkalog").options(**opts).mode("overwrite").save(f"s3://{bucket}/failed")
    left = s3_server.filesystem().get_file_info(
        __import__("pyarrow.fs").fs.FileSelector(f"{bucket}/failed", recursive=True, allow_not_found=True)
    )
    assert [i.path for i in left if i.type == __import__("pyarrow.fs").fs.FileType.File] == []
