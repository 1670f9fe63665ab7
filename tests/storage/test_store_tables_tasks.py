"""Tables in S3 (moto) written the Spark way (:mod:`kafkaspec.tables.files`: tasks write the data files,
one commit per table), the tasks run here through pickle as Spark ships them: a backfill, then an
incremental run, each record once, and a Spark-free run continuing the table."""

from __future__ import annotations

import pickle

import pytest
from support.tables import consumer_rows
from test_store_tables import _rows

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table
from kafkaspec.tables.files import write_table_tasks


def _shipped(fn, tasks):
    return [pickle.loads(pickle.dumps(fn(pickle.loads(pickle.dumps(t))))) for t in tasks]


def _append(local, values, start):
    with logdir.PartitionWriter(local, "orders", 0) as w:
        for i, value in enumerate(values):
            w.append([Record(key=b"k", value=value, timestamp=start + i)])


@pytest.mark.parametrize("fmt", ["delta", "iceberg"])
def test_task_written_tables_in_s3_backfill_then_incremental(s3_env, tmp_path, fmt):
    local = tmp_path / "logs"
    _append(local, [b"v%d" % i for i in range(20)], 0)
    dest = f"s3://{s3_env.new_bucket()}/lake"
    catalog = f"sqlite:///{tmp_path}/catalog.db" if fmt == "iceberg" else None
    assert write_table_tasks(local, dest, _shipped, format=fmt, catalog_uri=catalog).rows == 20
    assert write_table_tasks(local, dest, _shipped, format=fmt, catalog_uri=catalog).rows == 0
    _append(local, [b"late"], 99)
    assert write_table_tasks(local, dest, _shipped, format=fmt, catalog_uri=catalog).rows == 1
    _append(local, [b"later"], 100)
    assert write_table(str(local), dest, format=fmt, catalog_uri=catalog).rows == 1
    assert _rows(fmt, dest, catalog) == consumer_rows(local)
