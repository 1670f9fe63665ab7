"""Iceberg from Spark's executors into an S3 that checks signatures (moto with IAM authentication on):
the executors write with the driver's keys, shipped in their tasks, whatever keys their own
environment holds or lacks. On a cluster the executors do not share the driver's environment; a moto
that checks nothing (the other tests' server) would take unsigned requests or any keys."""

from __future__ import annotations

import pytest
from support.s3_auth import start_checking_server
from support.tables import close_open, consumer_rows, write_orders, write_transactions
from test_store_tables import _store_rows

from kafkaspec.spark.run.tables import write_table

pytestmark = pytest.mark.spark

#: where the store is and whose keys: the executors are told none of it
DRIVER_ONLY = ("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")


@pytest.fixture
def checking_s3(monkeypatch):
    """A signature-checking S3 server, the driver's environment pointing at it with its user's keys."""
    server = start_checking_server()
    try:
        for key in ("AWS_ENDPOINT_URL_S3", "AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_REGION"):
            monkeypatch.delenv(key, raising=False)
        for key, value in server.env().items():
            monkeypatch.setenv(key, value)
        yield server
    finally:
        server.stop()


def _executors(spark, monkeypatch, env, **keys):
    """New Python workers with the driver's ``env`` less its endpoint and keys, and ``keys`` instead."""
    environment = spark.sparkContext.environment
    for key, value in env.items():
        if not key.startswith(DRIVER_ONLY):
            monkeypatch.setitem(environment, key, value)
    for key in DRIVER_ONLY:  # "": unset for the AWS SDK (a worker's own environment cannot be emptied)
        monkeypatch.setitem(environment, key, keys.get(key, ""))
    monkeypatch.setitem(environment, "AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/kafkaspec/credentials")
    monkeypatch.setitem(environment, "AWS_CONFIG_FILE", "/nonexistent/kafkaspec/config")


def test_the_server_refuses_a_wrong_secret(checking_s3):
    bucket = checking_s3.new_bucket()  # the user's keys: accepted
    with checking_s3.filesystem().open_output_stream(f"{bucket}/k") as out:
        out.write(b"x")
    with pytest.raises(OSError, match="ACCESS_DENIED"):
        checking_s3.filesystem(secret="not-the-secret").open_input_file(f"{bucket}/k").read()


def test_spark_executors_without_the_drivers_keys_write_iceberg_with_them(
    spark, checking_s3, monkeypatch, tmp_path
):
    """A backfill whose executors have no AWS keys, then an incremental run whose executors have other
    keys (refused by the server): both write with the driver's, and the table is a consumer's read."""
    src = tmp_path / "logs"
    write_orders(src, 30)
    write_orders(src, 5, topic="pay", partition=1)
    write_transactions(src, topic="pay", partition=0, open_pid=9)
    dest = checking_s3.uri(checking_s3.new_bucket(), "lake")
    catalog = f"sqlite:///{tmp_path}/catalog.db"
    _executors(spark, monkeypatch, checking_s3.env())
    assert write_table(spark, src, dest, format="iceberg", catalog_uri=catalog).rows == 30 + 5 + 1
    close_open(src, 9, topic="pay")
    write_orders(src, 4, tag=b"b")
    other = {"AWS_ACCESS_KEY_ID": "AKIAKAFKASPECOTHER01", "AWS_SECRET_ACCESS_KEY": "another-secret"}
    _executors(spark, monkeypatch, checking_s3.env(), **other)
    assert write_table(spark, src, dest, format="iceberg", catalog_uri=catalog).rows == 4 + 2
    rows = sorted(_store_rows("iceberg", dest, catalog) + _store_rows("iceberg", dest, catalog, "pay"))
    assert rows == consumer_rows(src)
