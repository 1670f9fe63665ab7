"""The tables we write, read by Spark itself with Apache Iceberg's Spark runtime (its JdbcCatalog on our
SQLite catalog) and Delta Lake's Spark package (``make lake-jars``, from Maven Central): the row count,
the schema, a filter on the partition column and the partitions Spark sees. The tables hold a commit of
the Spark-free path and one of the Spark path.

No release of either reader is built for the Spark of the pyspark kafkaspec runs on (4.3.0), and the
newest do not load in it, so they read in a Spark 4.1.4 of their own (``make lake-jars``): Iceberg 1.12.0
and Delta 4.3.1, both built for Spark 4.1 (tests/support/lake/pom.xml). A fetch that fails
fails this test in one line; it is never skipped."""

from __future__ import annotations

import os

import pytest
from support.lake_jars import read_back
from support.tables import TS, consumer_rows, write_orders

from kafkaspec.spark.run.tables import write_table as write_on_spark
from kafkaspec.tables import write_table

pytestmark = pytest.mark.spark
DAY = 86_400_000
COLUMNS = [
    ["key", "binary"],
    ["value", "binary"],
    ["topic", "string"],
    ["partition", "int"],
    ["offset", "bigint"],
    ["timestamp", "timestamp"],
]


def _tables(spark, src, dest, fmt):
    write_orders(src, 5)
    write_table(str(src), str(dest), format=fmt)  # without Spark
    write_orders(src, 3, tag=b"b", start_ts=TS + 3 * DAY)
    assert write_on_spark(spark, src, str(dest), format=fmt).rows == 3  # on Spark


def _check(found, src):
    rows = consumer_rows(src)
    assert found["table"]["schema"][: len(COLUMNS)] == COLUMNS
    assert found["count"]["rows"] == [[len(rows)]]
    assert found["offsets"]["rows"] == [[0, len(rows) - 1]]
    assert found["later"]["rows"] == [[3]]  # the records of 2023-11-17, by the partition column


def test_iceberg_runtime_reads_our_table(spark, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _tables(spark, src, dest, "iceberg")
    where = os.path.abspath(dest)
    table = "kafkaspec.kafka.orders"  # the Spark catalog has our SQL catalog's name: its rows are keyed by it
    found = read_back(
        {
            "spark.sql.session.timeZone": "UTC",
            "spark.sql.catalog.kafkaspec": "org.apache.iceberg.spark.SparkCatalog",
            "spark.sql.catalog.kafkaspec.catalog-impl": "org.apache.iceberg.jdbc.JdbcCatalog",
            "spark.sql.catalog.kafkaspec.uri": f"jdbc:sqlite:{where}/catalog.db",
            "spark.sql.catalog.kafkaspec.warehouse": f"file://{where}",
        },
        {
            "table": f"SELECT * FROM {table}",
            "count": f"SELECT count(*) FROM {table}",
            "offsets": f"SELECT min(offset), max(offset) FROM {table}",
            "later": f"SELECT count(*) FROM {table} WHERE timestamp >= TIMESTAMP '2023-11-16 00:00:00'",
            "partitions": f"SELECT partition.timestamp_day, record_count FROM {table}.partitions ORDER BY 1",
            "snapshots": f"SELECT count(*) FROM {table}.snapshots",
        },
    )
    _check(found, src)
    assert found["partitions"]["rows"] == [["2023-11-14", 5], ["2023-11-17", 3]]
    assert found["snapshots"]["rows"] == [[2]]


def test_delta_spark_reads_our_table(spark, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _tables(spark, src, dest, "delta")
    table = f"delta.`{os.path.abspath(dest / 'orders')}`"
    found = read_back(
        {
            "spark.sql.session.timeZone": "UTC",
            "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
            "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        },
        {
            "table": f"SELECT * FROM {table}",
            "count": f"SELECT count(*) FROM {table}",
            "offsets": f"SELECT min(offset), max(offset) FROM {table}",
            "later": f"SELECT count(*) FROM {table} WHERE timestamp_day = DATE '2023-11-17'",
            "detail": f"DESCRIBE DETAIL {table}",
        },
    )
    _check(found, src)
    detail = dict(zip((n for n, _ in found["detail"]["schema"]), found["detail"]["rows"][0], strict=True))
    assert detail["partitionColumns"] == ["timestamp_day"] and detail["format"] == "delta"
