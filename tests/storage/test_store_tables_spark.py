"""``pipeline --table iceberg|delta <store>://... --engine spark``: Spark's executors write the data files
into S3 (moto), GCS (gcp-storage-emulator) or Azure Blob (Azurite), the driver commits each table once. A
backfill, then a run after more data (an open transaction closed meanwhile) that appends only the new,
equal a read_committed read row for row.

The shared test session's workers started before the store's server existed, and they are told only
what a cluster's executors may have of their own (S3's keys and region, through Spark's executor
environment, ``spark.executorEnv.*``), never where the store is: the endpoint, the emulator's host and
the Azure connection string reach the tasks from the driver, in what the tasks are shipped.

Delta on GCS is not here: delta-rs speaks GCS's XML API, which no emulator we run serves whole
(gcp-storage-emulator: 501 to the listing ``GET /BUCKET?list-type=2``; fake-gcs-server: 400 "invalid
uploadType" to delta-rs's plain ``PUT /BUCKET/OBJECT``; docs/tables.md's limits)."""

from __future__ import annotations

import pytest
from support.tables import close_open, consumer_rows, write_orders, write_transactions
from test_store_tables import _store_rows

from kafkaspec.spark.run.tables import write_table

pytestmark = pytest.mark.spark

#: what executors are not told: where the store is (and Azure's account, in its connection string)
WHERE = ("AWS_ENDPOINT_URL", "STORAGE_EMULATOR_HOST", "AZURE_STORAGE_CONNECTION_STRING")


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
    for key, value in store_env.env().items():  # new Python workers for this environment, then the old
        if not key.startswith(WHERE):
            monkeypatch.setitem(spark.sparkContext.environment, key, value)
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
