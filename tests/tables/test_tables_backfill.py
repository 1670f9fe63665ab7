"""Tables as the pipeline's destination: a backfill, then runs that append only what is new, equal to a
read_committed consumer's read row for row, in Iceberg and Delta, read back by pyiceberg, deltalake,
Polars and DuckDB."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.tables import (
    FORMATS,
    close_open,
    consumer_rows,
    table_arrow,
    table_rows,
    write_orders,
    write_transactions,
)

from kafkaspec.tables import TableError, write_table


@pytest.mark.parametrize("fmt", FORMATS)
def test_backfill_then_incremental_equals_a_committed_read(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 5)
    write_transactions(src, open_pid=9)  # aborted, committed, then one still open and a record after it
    write_orders(src, 3, topic="payments", partition=1)

    first = write_table(str(src), str(dest), format=fmt)
    assert {c.name: c.rows for c in first.commits} == {"orders": 6, "payments": 3}
    rows = table_rows(fmt, dest, "orders")
    values = [r[3] for r in rows]
    assert b"aborted" not in values and b"committed" in values
    assert b"open" not in values and b"after-open" not in values  # beyond the last stable offset: later
    assert table_rows(fmt, dest, "orders") + table_rows(fmt, dest, "payments") == [
        r for r in consumer_rows(src) if r[3] not in (b"open", b"after-open")
    ]

    again = write_table(str(src), str(dest), format=fmt)  # nothing new: nothing appended
    assert again.commits == [] and sorted(again.unchanged) == ["orders", "payments"]

    close_open(src, 9)
    write_orders(src, 4, tag=b"b")
    write_orders(src, 2, topic="payments", partition=0)  # a partition that appeared since
    third = write_table(str(src), str(dest), format=fmt)
    assert {c.name: c.rows for c in third.commits} == {"orders": 2 + 4, "payments": 2}
    assert sorted(table_rows(fmt, dest, "orders") + table_rows(fmt, dest, "payments")) == consumer_rows(src)


@pytest.mark.parametrize("fmt", FORMATS)
def test_control_records_are_never_rows_and_columns_are_kafkalog(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_transactions(src)
    write_table(str(src), str(dest), format=fmt, read_committed=False)
    t = table_arrow(fmt, dest, "orders")
    assert sorted(t.column("value").to_pylist()) == [b"aborted", b"committed"]  # read_uncommitted: both
    assert not any(t.column("isControl").to_pylist())
    from kafkaspec.arrow.schema import SCHEMA

    assert t.schema.names[: len(SCHEMA.names)] == SCHEMA.names


@pytest.mark.parametrize("fmt", FORMATS)
def test_single_layout_partitions_by_topic_and_day(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    write_orders(src, 2, topic="payments", start_ts=1_700_100_000_000)  # the next day
    run = write_table(str(src), str(dest), format=fmt, layout="single")
    assert [(c.name, c.rows) for c in run.commits] == [("records", 4)]
    assert sorted(r[0] for r in table_rows(fmt, dest, "records")) == ["orders"] * 2 + ["payments"] * 2
    if fmt == "iceberg":
        from support.tables import iceberg_table

        spec = iceberg_table(dest, "records").spec()
        assert [(f.name, str(f.transform)) for f in spec.fields] == [
            ("topic", "identity"),
            ("timestamp_day", "day"),
        ]
    else:
        folders = sorted(p.name for p in (dest / "records").iterdir() if p.name != "_delta_log")
        assert folders == ["topic=orders", "topic=payments"]
        days = sorted(p.name for p in (dest / "records" / "topic=payments").iterdir())
        assert days == ["timestamp_day=2023-11-16"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_read_back_by_polars_and_duckdb(fmt, tmp_path, monkeypatch):
    import polars as pl

    monkeypatch.setenv("POLARS_ICEBERG_PLANNER", "pyiceberg")  # the polars_iceberg plugin is not installed
    import duckdb

    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 5)
    write_table(str(src), str(dest), format=fmt)
    if fmt == "iceberg":
        from support.tables import iceberg_table

        frame = pl.scan_iceberg(iceberg_table(dest, "orders")).collect()
        arrow = iceberg_table(dest, "orders").scan().to_arrow()
    else:
        frame = pl.read_delta(str(dest / "orders"))
        arrow = table_arrow(fmt, dest, "orders")
    assert sorted(frame["offset"].to_list()) == [0, 1, 2, 3, 4]
    con = duckdb.connect()
    con.register("orders", arrow)
    got = con.sql('select count(*), max("offset") from orders').fetchall()[0]
    assert got == (5, 4)


def test_partition_by_is_checked(tmp_path):
    src = tmp_path / "logs"
    write_orders(src, 1)
    with pytest.raises(ValueError, match="not a column"):
        write_table(str(src), str(tmp_path / "lake"), partition_by="nope")
    with pytest.raises(ValueError, match="applies to the timestamp"):
        write_table(str(src), str(tmp_path / "lake"), partition_by="day(offset)")
    assert not (tmp_path / "lake").exists()


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_partitioning_with_an_empty_partition_by(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    write_table(str(src), str(dest), format=fmt, partition_by="")
    assert len(table_rows(fmt, dest, "orders")) == 3
    if fmt == "delta":
        assert not [p for p in (dest / "orders").iterdir() if "=" in p.name]


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_pipeline_table(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    cmd = [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", fmt, str(dest)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "orders: 3 rows; next offsets orders-0: 3" in done.stdout
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "nothing new: orders" in again.stdout
    assert len(table_rows(fmt, dest, "orders")) == 3


def test_offsets_are_in_the_table_metadata(tmp_path):
    from deltalake import DeltaTable
    from support.tables import iceberg_table

    src = tmp_path / "logs"
    write_orders(src, 4)
    write_orders(src, 2, partition=3)
    write_table(str(src), str(tmp_path / "ice"), format="iceberg")
    summary = iceberg_table(tmp_path / "ice", "orders").current_snapshot().summary
    assert json.loads(summary["kafkaspec.offsets"]) == {"orders": {"0": 4, "3": 2}}
    write_table(str(src), str(tmp_path / "delta"), format="delta")
    dt = DeltaTable(str(tmp_path / "delta" / "orders"))
    assert (
        dt.transaction_version("kafkaspec:orders:0") == 4
        and dt.transaction_version("kafkaspec:orders:3") == 2
    )


def test_table_error_is_indexed():
    from kafkaspec import errors

    assert errors.TableError is TableError


@pytest.mark.parametrize("fmt", FORMATS)
def test_topic_names_with_dots_and_dashes_are_tables(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3, topic="shop.orders")
    write_orders(src, 2, topic="shop-orders_x")
    assert write_table(str(src), str(dest), format=fmt).rows == 5
    assert write_table(str(src), str(dest), format=fmt).rows == 0
    assert len(table_rows(fmt, dest, "shop.orders")) == 3 and len(table_rows(fmt, dest, "shop-orders_x")) == 2


def test_follow_appends_what_arrives_until_interrupted(tmp_path):
    import signal
    import time

    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    cmd = [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", "delta", str(dest)]
    proc = subprocess.Popen(
        [*cmd, "--follow", "--interval", "0.2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert "orders: 3 rows" in proc.stdout.readline() + proc.stdout.readline()
        write_orders(src, 2, tag=b"later")
        deadline = time.monotonic() + 60
        while len(table_rows("delta", dest, "orders")) < 5 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert table_rows("delta", dest, "orders") == consumer_rows(src)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.strip().splitlines()[-1].endswith("interrupted"), err


@pytest.mark.parametrize("fmt", FORMATS)
def test_paths_as_path_objects(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    run = write_table(src, dest, format=fmt)  # pathlib.Path, as open_log takes them
    assert {c.name: c.rows for c in run.commits} == {"orders": 3}
    assert table_rows(fmt, dest, "orders") == consumer_rows(src)
