"""``pipeline --table iceberg|delta <store>://... --engine spark``: Spark's executors write the data files
into S3 (moto), GCS (gcp-storage-emulator) or Azure Blob (Azurite), the driver commits each table once. A
backfill, then a run after more data (an open transaction closed meanwhile) that appends only the new,
equal a read_committed read row for row; a driver SIGKILLed after its executors wrote their files leaves
the table at its last commit, and the next run commits everything once and deletes the dead run's files;
one SIGKILLed after its commit (Iceberg on Azure) leaves that commit, its files kept by the next run.

The shared test session's workers started before the store's server existed, and they are told only
what a cluster's executors may have of their own (S3's keys and region, through Spark's executor
environment, ``spark.executorEnv.*``), never where the store is: the endpoint, the emulator's host and
the Azure connection string reach the tasks from the driver, in what the tasks are shipped.

Delta on GCS is not here: delta-rs speaks GCS's XML API, which no emulator we run serves whole
(gcp-storage-emulator: 501 to the listing ``GET /BUCKET?list-type=2``; fake-gcs-server: 400 "invalid
uploadType" to delta-rs's plain ``PUT /BUCKET/OBJECT``; docs/tables.md's limits)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from support.tables import close_open, consumer_rows, write_orders, write_transactions
from test_store_delta_leftovers import _clock_past, _data_files, _referenced
from test_store_tables import _store_rows
from test_store_tables_kill import _Table

from kafkaspec.spark.run.tables import write_table

pytestmark = pytest.mark.spark

#: what executors are not told: where the store is (and Azure's account, in its connection string)
WHERE = ("AWS_ENDPOINT_URL", "STORAGE_EMULATOR_HOST", "AZURE_STORAGE_CONNECTION_STRING")


def _tell_executors(spark, monkeypatch, env):
    """New Python workers with ``env`` less where the store is (the old ones again after the test)."""
    for key, value in env.items():
        if not key.startswith(WHERE):
            monkeypatch.setitem(spark.sparkContext.environment, key, value)


def _tables(fmt, dest, catalog):
    return sorted(_store_rows(fmt, dest, catalog, "orders") + _store_rows(fmt, dest, catalog, "pay"))


@pytest.mark.parametrize(
    ("store_server", "fmt"),
    [("s3", "iceberg"), ("s3", "delta"), ("gcs", "iceberg"), ("azure", "iceberg"), ("azure", "delta")],
    indirect=["store_server"],
)
def test_spark_executors_write_the_table_into_the_store_then_append_only_the_new(
    spark, store_env, monkeypatch, tmp_path, fmt
):
    _tell_executors(spark, monkeypatch, store_env.env())
    src = tmp_path / "logs"
    write_orders(src, 40)
    write_orders(src, 7, topic="pay", partition=1)
    write_transactions(src, topic="pay", partition=0, open_pid=9)
    dest = store_env.uri(store_env.new_bucket(), "lake")
    catalog = f"sqlite:///{tmp_path}/catalog.db" if fmt == "iceberg" else None
    assert write_table(spark, src, dest, format=fmt, catalog_uri=catalog).rows == 40 + 7 + 1
    held = [r for r in consumer_rows(src) if r[3] != b"after-open"]  # behind the open transaction
    assert _tables(fmt, dest, catalog) == held
    close_open(src, 9, topic="pay")
    write_orders(src, 9, tag=b"b")
    assert write_table(spark, src, dest, format=fmt, catalog_uri=catalog).rows == 9 + 2
    assert _tables(fmt, dest, catalog) == consumer_rows(src)


def _kill_driver(cmd, point):
    """Run ``cmd`` (``pipeline --engine spark``) to the kill point ``point``, then SIGKILL its driver."""
    env = {**os.environ, "KAFKASPEC_TABLES_PAUSE": point}
    # a session of its own: the test ends the JVM and workers too if the driver's death leaves them
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
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
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.stderr.close()


@pytest.mark.hostile
def test_a_spark_driver_killed_after_its_executors_wrote_into_s3_leaves_the_last_commit(
    spark, s3_env, monkeypatch, tmp_path
):
    """Delta on S3 (moto): ``pipeline --engine spark`` SIGKILLed (the driver, as a lost driver machine)
    once its executors wrote their data files, before its commit."""
    src, canary = tmp_path / "logs", tmp_path / "canary"
    canary.write_text("keep")
    write_orders(src, 30)
    dest = f"s3://{s3_env.new_bucket()}/lake"
    _tell_executors(spark, monkeypatch, s3_env.env())
    assert write_table(spark, src, dest, format="delta").rows == 30
    before = consumer_rows(src)
    write_orders(src, 20, tag=b"more")
    cmd = [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", "delta", dest, "--quiet"]
    cmd += ["--engine", "spark", "--master", "local[1]"]
    _kill_driver(cmd, "written")
    assert _store_rows("delta", dest, None) == before
    dead = _data_files(s3_env, dest) - _referenced(dest)
    assert dead  # the executors' files, committed by no one
    _clock_past(s3_env, dest, dead)
    assert write_table(spark, src, dest, format="delta").rows == 20
    assert _store_rows("delta", dest, None) == consumer_rows(src)
    assert _data_files(s3_env, dest) == _referenced(dest)  # the dead run's files deleted, no other
    assert canary.read_text() == "keep"


@pytest.mark.hostile
@pytest.mark.parametrize("store_server", ["azure"], indirect=True)
def test_a_spark_driver_killed_after_its_iceberg_commit_on_azure_leaves_the_committed_files(
    spark, store_env, monkeypatch, tmp_path
):
    """Iceberg on Azure (Azurite): ``pipeline --engine spark`` SIGKILLed after its commit, before its
    run's mark went. The next run took the committed files for the dead run's and deleted them (the
    table names them ``abfs://container@account/key``, the store lists ``container/key``)."""
    src = tmp_path / "logs"
    write_orders(src, 30)
    bucket = store_env.new_bucket()
    dest, catalog = store_env.uri(bucket, "lake"), f"sqlite:///{tmp_path}/catalog.db"
    _tell_executors(spark, monkeypatch, store_env.env())
    assert write_table(spark, src, dest, format="iceberg", catalog_uri=catalog).rows == 30
    with store_env.filesystem().open_output_stream(f"{bucket}/canary") as f:
        f.write(b"keep")
    write_orders(src, 20, tag=b"more")
    cmd = [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", "iceberg", dest]
    cmd += ["--quiet", "--catalog-uri", catalog, "--engine", "spark", "--master", "local[1]"]
    _kill_driver(cmd, "committed")
    table = _Table(store_env, "iceberg", dest, catalog)
    assert table.rows() == consumer_rows(src) and len(table.markers()) == 1
    write_orders(src, 5, tag=b"last")
    assert write_table(spark, src, dest, format="iceberg", catalog_uri=catalog).rows == 5
    assert table.rows() == consumer_rows(src)
    assert table.files() == table.referenced() and table.markers() == []
    with store_env.filesystem().open_input_stream(f"{bucket}/canary") as f:
        assert f.read() == b"keep"
