"""The demo's own data dir (``kafkaspec synth``: idempotent and transactional producers, aborted
transactions, every codec) into tables on Spark, as ``tests/tables/test_tables_demo_dir.py`` does
without it: a backfill by Spark's executors, then an incremental run after more data, equal to a
read_committed read row for row, in Iceberg and in Delta."""

from __future__ import annotations

import shutil

import pytest
from support.tables import FORMATS, TS, consumer_rows, table_rows, write_orders

from kafkaspec import logdir
from kafkaspec.spark.run.tables import write_table

pytestmark = pytest.mark.spark


def _check(fmt, dest, src, modes):
    """Each table (every topic appends: synth writes no ``__cluster_metadata``) holds its topic's
    read_committed records, in offset order."""
    expected = consumer_rows(src)
    assert all(mode == "append" for mode, _ in modes.values()), modes
    for table in modes:
        assert table_rows(fmt, dest, table) == [r for r in expected if r[0] == table], table


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    src = tmp_path_factory.mktemp("demo") / "logs"
    logdir.synth(str(src), size_mb=1, seed=7)
    return src


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_demo_dir_on_spark_backfilled_then_incremental_equals_a_committed_read(
    spark, fmt, demo_dir, tmp_path
):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    shutil.copytree(demo_dir, src)
    (tmp_path / "canary").write_text("keep")
    first = write_table(spark, str(src), str(dest), format=fmt)
    rows = [r for r in consumer_rows(src) if not r[0].startswith("_")]  # _schemas: no table
    assert first.rows == len(rows) and first.aborted > 0, (first.rows, first.aborted)
    _check(fmt, dest, src, first.modes)  # synth writes no __cluster_metadata: every topic appends
    write_orders(src, 7, tag=b"later", topic="clicks", start_ts=TS + 10**9)
    again = write_table(spark, str(src), str(dest), format=fmt)
    assert {c.name: c.rows for c in again.commits} == {"clicks": 7}
    _check(fmt, dest, src, first.modes)
    assert len(table_rows(fmt, dest, "clicks")) == len([r for r in consumer_rows(src) if r[0] == "clicks"])
    assert (tmp_path / "canary").read_text() == "keep"
