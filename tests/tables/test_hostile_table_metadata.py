"""A table's own metadata as hostile input: the offsets a commit stored (Iceberg's ``kafkaspec.offsets``
property), edited or written by another tool, are what the next run plans from. A fraction, ``true``
or a string was read as a whole number (``1.5`` as 1: a record appended twice), ``1e400`` raised
OverflowError with a traceback's hint, a negative offset re-read the partition from its start, and a
partition number that is none was planned: each is one TableError naming the table and the property,
nothing written. So is a version of a Delta table's log that is none of ours."""

from __future__ import annotations

import pytest
from support.tables import table_rows, write_orders

from kafkaspec.tables import write_table
from kafkaspec.tables.errors import TableError
from kafkaspec.tables.iceberg import IcebergSink
from kafkaspec.tables.layout import OFFSETS_PROPERTY

pytestmark = pytest.mark.hostile


@pytest.mark.parametrize(
    "stored",
    [
        '{"orders": {"0": 1.5}}',
        '{"orders": {"0": true}}',
        '{"orders": {"0": "2"}}',
        '{"orders": {"0": 1e400}}',
        '{"orders": {"0": -5}}',
        '{"orders": {"0": 9223372036854775808}}',
        '{"orders": {"x": 2}}',
        '{"orders": {"-1": 2}}',
        '{"orders": {" 0": 2}}',
        '{"orders": {"0_0": 2}}',
        '{"orders": {"2147483648": 2}}',
        '{"orders": [2]}',
        '{"orders": null}',
        '["orders"]',
        '{"orders": {"0": 2}',
    ],
)
def test_offsets_in_a_tables_metadata_that_are_none_of_ours_are_refused(stored, tmp_path):
    src, lake = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    write_table(src, lake)
    write_orders(src, 2, tag=b"b")
    table = IcebergSink(str(lake)).catalog.load_table(("kafka", "orders"))
    with table.transaction() as tx:
        tx.set_properties({OFFSETS_PROPERTY: stored})
    before = table_rows("iceberg", lake, "orders")
    with pytest.raises(TableError, match=rf"orders.*{OFFSETS_PROPERTY}"):
        write_table(src, lake)
    assert table_rows("iceberg", lake, "orders") == before


@pytest.mark.parametrize(
    "commit",
    [
        '{"txn": {"appId": "%s", "version": -5}}',
        '{"txn": {"appId": "%s", "version": "x"}}',
        '{"txn": {"appId": "%s", "version": 1000000000000000000000000000000}}',
        "{not json at all",
    ],
)
def test_a_delta_commit_that_is_none_of_ours_is_refused_naming_the_table(commit, tmp_path):
    """A version of a Delta table's log written by hand or by another tool: a negative ``txn`` version
    re-appended every record the table held (as duplicates), and what delta-rs cannot parse was its
    DeltaError with a Rust backtrace in its text."""
    import json

    from kafkaspec.tables.delta import APP_ID

    src, lake = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    write_table(src, lake, format="delta")
    write_orders(src, 2, tag=b"b")
    before = table_rows("delta", lake, "orders")
    text = commit % APP_ID.format(topic="orders", partition=0) if "%s" in commit else commit
    info = json.dumps({"commitInfo": {"timestamp": 1}})
    (lake / "orders" / "_delta_log" / f"{1:020d}.json").write_text(f"{text}\n{info}\n")
    with pytest.raises(TableError, match=r"lake/orders") as caught:
        write_table(src, lake, format="delta")
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 400, str(caught.value)
    if "-5" in commit:
        (lake / "orders" / "_delta_log" / f"{1:020d}.json").unlink()
        assert table_rows("delta", lake, "orders") == before


@pytest.mark.parametrize("content", [b"not sqlite at all\n" * 10, b"SQLite format 3\x00" + b"\xff" * 100])
def test_a_catalog_db_that_is_no_sqlite_database_is_one_table_error(content, tmp_path):
    """SQLAlchemy's DatabaseError, its SQL and its link on three lines, with the debug hint."""
    src, lake = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    lake.mkdir()
    (lake / "catalog.db").write_bytes(content)
    with pytest.raises(TableError, match=r"lake/catalog\.db: not an SQLite catalog") as caught:
        write_table(src, lake)
    assert "\n" not in str(caught.value)
    assert (lake / "catalog.db").read_bytes() == content and sorted(p.name for p in lake.iterdir()) == [
        "catalog.db"
    ]


@pytest.mark.parametrize("action", ["pipeline", "compact", "expire"])
def test_a_delta_table_folder_linked_out_of_the_warehouse_is_refused(action, tmp_path):
    """``lake/orders`` a symbolic link to a Delta table elsewhere (another warehouse's): the run appended
    to it, and ``table compact`` rewrote its files, outside the folder it was given."""
    from kafkaspec.tables.housekeeping import compact, expire_snapshots

    src, lake, other = tmp_path / "logs", tmp_path / "lake", tmp_path / "other"
    write_orders(src, 3)
    write_orders(src, 2, tag=b"b")  # two data files when compacted
    write_table(src, other, format="delta")
    write_orders(src, 1, tag=b"c", partition=1)
    lake.mkdir()
    (lake / "orders").symlink_to(other / "orders")
    victim = sorted(p.name for p in (other / "orders").rglob("*"))
    rows = table_rows("delta", other, "orders")
    with pytest.raises(TableError, match=r"lake/orders: a symbolic link out of"):
        if action == "pipeline":
            write_table(src, lake, format="delta")
        elif action == "compact":
            compact("delta", str(lake))
        else:
            expire_snapshots("delta", str(lake), older_than_hours=0)
    assert sorted(p.name for p in (other / "orders").rglob("*")) == victim
    assert table_rows("delta", other, "orders") == rows


@pytest.mark.parametrize("fmt", ["iceberg", "delta"])
def test_a_committed_offset_past_the_logs_end_is_refused_not_skipped_for_ever(fmt, tmp_path):
    """A table written from a longer log (a newer copy of the data dir, or a topic deleted and created
    again) stores a next offset the log has not reached: planned as "nothing new", every record the
    log gets up to that offset would never be appended. Refused, naming the partition, the stored
    offset and the log's end; the table unchanged."""
    src, lake = tmp_path / "logs", tmp_path / "lake"
    (tmp_path / "canary").write_text("stays")
    write_orders(src, 40)
    write_table(src, lake, format=fmt)
    before = table_rows(fmt, lake, "orders")
    shorter = tmp_path / "recreated"
    write_orders(shorter, 5, tag=b"new")
    with pytest.raises(TableError, match=r"orders-0.* 40\b.* 5\b"):
        write_table(shorter, lake, format=fmt)
    assert table_rows(fmt, lake, "orders") == before
    assert (tmp_path / "canary").read_text() == "stays"


def test_the_offset_past_the_logs_end_is_one_line_from_the_cli(tmp_path):
    import subprocess
    import sys

    src, lake, shorter = tmp_path / "logs", tmp_path / "lake", tmp_path / "recreated"
    write_orders(src, 40)
    write_table(src, lake, format="delta")
    before = table_rows("delta", lake, "orders")
    write_orders(shorter, 5, tag=b"new")
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(shorter), "--table", "delta", str(lake)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("kafkaspec")]
    assert done.returncode == 2 and "Traceback" not in done.stderr, (done.returncode, done.stderr)
    assert len(lines) == 1 and "orders-0" in lines[0] and "40" in lines[0], done.stderr
    assert len(before) == 40 and table_rows("delta", lake, "orders") == before
