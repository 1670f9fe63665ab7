"""One transactional topic, one answer, through the tables door (issue 43): a table run of the topic of
:mod:`support.txn_topic` (committed, aborted and open transactions) holds the rows ``Partition.records``
and ``to_arrow`` give under read_committed, the rows the construction says and which
tests/spark/test_isolation_every_reader.py pins for the Spark source, the pipeline and DuckDB over its
Parquet; read back by pyiceberg, deltalake, Polars (``scan_iceberg``, ``scan_delta``) and DuckDB.

Every reader stops a partition at an open transaction's first offset (the last stable offset), a table
run too, and the next run after the transaction ends appends the rest, so the table then equals the
read_committed answer again."""

from __future__ import annotations

import os

import pytest
from support.tables import FORMATS, close_open, iceberg_table, table_arrow
from support.txn_topic import write_txn_topic

from kafkaspec import logdir
from kafkaspec.tables import write_table


def _pairs(table):
    return sorted(zip(table.column("offset").to_pylist(), table.column("value").to_pylist(), strict=True))


def _read_back(fmt, dest, name):
    """The table's (offset, value) rows as each reader of the table gives them."""
    import duckdb
    import polars as pl

    arrow = table_arrow(fmt, dest, name)
    yield "pyiceberg" if fmt == "iceberg" else "deltalake", _pairs(arrow)
    con = duckdb.connect()
    con.register("t", arrow)
    yield "duckdb", [(o, bytes(v)) for o, v in con.sql('SELECT "offset", value FROM t ORDER BY 1').fetchall()]
    if fmt == "iceberg":
        frame = pl.scan_iceberg(iceberg_table(dest, name))
    else:
        frame = pl.scan_delta(os.path.join(str(dest), name))
    yield "polars", _pairs(frame.select("offset", "value").collect().to_arrow())


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_table_holds_what_every_reader_gives_read_committed(fmt, tmp_path, monkeypatch):
    monkeypatch.setenv("POLARS_ICEBERG_PLANNER", "pyiceberg")  # the polars_iceberg plugin is not installed
    src, dest = tmp_path / "logs", tmp_path / "lake"
    topic = write_txn_topic(src)
    committed = topic.rows[("read_committed", False)]
    part = logdir.open_log(str(src)).partition(topic.topic, topic.partition)
    assert [(r.offset, r.value) for b, r in part.records()] == committed
    assert _pairs(part.to_arrow()) == committed
    uncommitted = topic.rows[("read_uncommitted", False)]
    opened = [(o, v) for o, v in uncommitted if v.startswith(b"open-")]
    stable = opened[0][0]  # the last stable offset: the open transaction's first

    run = write_table(str(src), str(dest), format=fmt, mode="append")
    assert run.commits[0].offsets == {topic.topic: {topic.partition: stable}}
    for reader, rows in _read_back(fmt, dest, topic.topic):
        assert rows == [r for r in committed if r[0] < stable], reader

    close_open(src, 9, topic=topic.topic, partition=topic.partition)
    write_table(str(src), str(dest), format=fmt, mode="append")
    part = logdir.open_log(str(src)).partition(topic.topic, topic.partition)
    now = _pairs(part.to_arrow())  # the transaction ended: past the old stable offset, to the end
    assert set(committed + opened) < set(now)
    for reader, rows in _read_back(fmt, dest, topic.topic):
        assert rows == now, reader
