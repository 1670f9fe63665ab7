"""The tables read back by the readers issue 43 names, each giving the rows a read_committed consumer
reads, after a backfill and an incremental commit: pyiceberg and deltalake, Polars through its lazy
scans (``scan_iceberg``, ``scan_delta``, with a filter on a partition column), DuckDB (on pyiceberg's
``to_duckdb`` and on deltalake's Arrow dataset, with the same filter) and pandas."""

from __future__ import annotations

import os

import pytest
from support.tables import FORMATS, TS, consumer_rows, iceberg_table, table_rows, write_orders

from kafkaspec.tables import write_table

DAY = 86_400_000


def _rows(frame):
    """(topic, partition, offset, value) rows of a pandas frame, sorted."""
    cols = [frame[c].tolist() for c in ("topic", "partition", "offset", "value")]
    return sorted(zip(*cols, strict=True))


@pytest.fixture
def lake(tmp_path, request):
    fmt = request.param
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 5)
    write_orders(src, 2, topic="orders", partition=1)
    assert write_table(str(src), str(dest), format=fmt).rows == 7
    write_orders(src, 3, tag=b"b", start_ts=TS + 2 * DAY)  # two days later: a partition of its own
    assert write_table(str(src), str(dest), format=fmt).rows == 3
    return fmt, src, dest


@pytest.mark.parametrize("lake", FORMATS, indirect=True)
def test_every_reader_reads_what_a_consumer_reads(lake, monkeypatch):
    import duckdb
    import polars as pl

    fmt, src, dest = lake
    expected = consumer_rows(src)
    assert table_rows(fmt, dest, "orders") == expected  # pyiceberg / deltalake
    later = [r for r in expected if r[3].startswith(b"b-")]
    cut = "2023-11-16"
    if fmt == "iceberg":
        monkeypatch.setenv("POLARS_ICEBERG_PLANNER", "pyiceberg")
        table = iceberg_table(dest, "orders")
        lazy = pl.scan_iceberg(table)
        con = table.scan().to_duckdb("orders")
        frame = table.scan().to_pandas()
    else:
        from deltalake import DeltaTable

        where = os.path.join(str(dest), "orders")
        lazy = pl.scan_delta(where)
        con = duckdb.connect()
        con.register("orders", DeltaTable(where).to_pyarrow_dataset())
        frame = DeltaTable(where).to_pandas()
    got = lazy.select("topic", "partition", "offset", "value").collect()
    assert sorted(got.iter_rows()) == expected
    day = pl.col("timestamp").dt.date() >= pl.date(2023, 11, 16)
    assert (
        sorted(lazy.filter(day).select("topic", "partition", "offset", "value").collect().iter_rows())
        == later
    )
    assert sorted(con.sql('select topic, "partition", "offset", value from orders').fetchall()) == expected
    filtered = con.sql(
        f'select topic, "partition", "offset", value from orders where timestamp >= timestamptz \'{cut} 00:00:00+00\''
    ).fetchall()
    assert sorted(filtered) == later
    assert _rows(frame) == expected
