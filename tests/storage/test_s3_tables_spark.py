"""``pipeline --table iceberg|delta s3://... --engine spark``: Spark's executors write the data files
into the bucket and the driver commits each table once. A backfill, then a run after more data (an open
transaction closed meanwhile) that appends only the new, equal a read_committed read row for row.

The shared test session's workers started before the S3 server existed: the store's standard
environment reaches them as a cluster's executors get it, through Spark's executor environment
(``spark.executorEnv.*``)."""

from __future__ import annotations

import pytest
from support.tables import FORMATS, close_open, consumer_rows, write_orders, write_transactions
from test_store_tables import _rows

from kafkaspec.spark.run.tables import write_table

pytestmark = pytest.mark.spark


def _tables(fmt, dest, catalog):
    return sorted(_rows(fmt, dest, catalog, "orders") + _rows(fmt, dest, catalog, "pay"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_spark_executors_write_the_table_into_s3_then_append_only_the_new(
    spark, s3_env, monkeypatch, tmp_path, fmt
):
    for key, value in s3_env.env().items():  # new Python workers for this environment, then the old again
        monkeypatch.setitem(spark.sparkContext.environment, key, value)
    src = tmp_path / "logs"
    write_orders(src, 40)
    write_orders(src, 7, topic="pay", partition=1)
    write_transactions(src, topic="pay", partition=0, open_pid=9)
    dest = f"s3://{s3_env.new_bucket()}/lake"
    catalog = f"sqlite:///{tmp_path}/catalog.db" if fmt == "iceberg" else None
    assert write_table(spark, src, dest, format=fmt, catalog_uri=catalog).rows == 40 + 7 + 1
    held = [r for r in consumer_rows(src) if r[3] != b"after-open"]  # behind the open transaction
    assert _tables(fmt, dest, catalog) == held
    close_open(src, 9, topic="pay")
    write_orders(src, 9, tag=b"b")
    assert write_table(spark, src, dest, format=fmt, catalog_uri=catalog).rows == 9 + 2
    assert _tables(fmt, dest, catalog) == consumer_rows(src)
    assert write_table(spark, src, dest, format=fmt, catalog_uri=catalog).rows == 0


def test_delta_tasks_take_the_store_the_driver_was_given(spark, s3_env, monkeypatch, tmp_path):
    """Executors with credentials of their own but no endpoint (a cluster where only the driver was told
    where the store is, as for MinIO): Delta's tasks write where the driver commits, as Iceberg's do."""
    for key, value in s3_env.env().items():
        if not key.startswith("AWS_ENDPOINT_URL"):
            monkeypatch.setitem(spark.sparkContext.environment, key, value)
    src = tmp_path / "logs"
    write_orders(src, 12)
    dest = f"s3://{s3_env.new_bucket()}/lake"
    assert write_table(spark, src, dest, format="delta").rows == 12
    assert _rows("delta", dest, None, "orders") == consumer_rows(src)
