"""``--decode-values`` into tables: typed values as ``value_decoded``, the values that do not fit their
schema in ``<table>_errors`` with their bytes and the reason, each record in exactly one of the two."""

from __future__ import annotations

import json

import pytest
from support.tables import FORMATS, TS, table_arrow, write_orders
from support.values import avro_bytes, framed, skey, sval

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table

SCHEMA = {
    "type": "record",
    "name": "Order",
    "fields": [{"name": "id", "type": "long"}, {"name": "note", "type": "string"}],
}


def _source(root, values):
    with logdir.PartitionWriter(root, "_schemas", 0) as w:
        w.append(
            [
                Record(
                    key=skey("orders-value", 1),
                    value=sval("orders-value", 1, 1, json.dumps(SCHEMA)),
                    timestamp=TS,
                )
            ]
        )
    with logdir.PartitionWriter(root, "orders", 0) as w:
        for i, v in enumerate(values):
            w.append([Record(key=b"k%d" % i, value=v, timestamp=TS + i)])


def _good(i):
    return framed(1, avro_bytes(SCHEMA, {"id": i, "note": f"n{i}"}))


@pytest.mark.parametrize("fmt", FORMATS)
def test_decoded_values_and_the_errors_table(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _source(src, [_good(0), b"\x00\x00\x00\x00\x07garbage", _good(2)])
    write_orders(src, 2, topic="plain")  # no schema: written as it is
    run = write_table(str(src), str(dest), format=fmt, decode_values=True)
    assert {c.name: c.rows for c in run.commits}["orders_errors"] == 1
    t = table_arrow(fmt, dest, "orders")
    assert sorted(t.column("offset").to_pylist()) == [0, 2]
    assert sorted(d["id"] for d in t.column("value_decoded").to_pylist()) == [0, 2]
    errors = table_arrow(fmt, dest, "orders_errors")
    assert errors.column("offset").to_pylist() == [1]
    assert errors.column("value").to_pylist() == [b"\x00\x00\x00\x00\x07garbage"]
    assert errors.column("value_error").to_pylist()[0]  # the reason, never empty
    assert len(table_arrow(fmt, dest, "plain")) == 2

    with logdir.PartitionWriter(src, "orders", 0) as w:
        w.append([Record(key=b"x", value=b"not framed", timestamp=TS)])
        w.append([Record(key=b"y", value=_good(4), timestamp=TS)])
    write_table(str(src), str(dest), format=fmt, decode_values=True)
    assert sorted(table_arrow(fmt, dest, "orders").column("offset").to_pylist()) == [0, 2, 4]
    assert sorted(table_arrow(fmt, dest, "orders_errors").column("offset").to_pylist()) == [1, 3]
    assert write_table(str(src), str(dest), format=fmt, decode_values=True).rows == 0


@pytest.mark.hostile
@pytest.mark.parametrize("fmt", FORMATS)
def test_killed_between_the_errors_commit_and_the_records_commit(fmt, tmp_path):
    import os
    import signal
    import subprocess
    import sys

    src, dest = tmp_path / "logs", tmp_path / "lake"
    _source(src, [_good(0), b"unframed", _good(2)])
    cmd = [
        sys.executable,
        "-m",
        "kafkaspec.cli",
        "pipeline",
        str(src),
        "--table",
        fmt,
        str(dest),
        "--decode-values",
    ]
    proc = subprocess.Popen(
        [*cmd, "--quiet"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "KAFKASPEC_TABLES_PAUSE": "errors-committed"},
    )
    assert proc.stderr.readline().strip() == "paused at errors-committed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert table_arrow(fmt, dest, "orders_errors").column("offset").to_pylist() == [1]
    assert subprocess.run(cmd, capture_output=True, timeout=120).returncode == 0
    assert table_arrow(fmt, dest, "orders_errors").column("offset").to_pylist() == [1]  # not twice
    assert sorted(table_arrow(fmt, dest, "orders").column("offset").to_pylist()) == [0, 2]


V2 = {
    "type": "record",
    "name": "Order",
    "fields": [*SCHEMA["fields"], {"name": "extra", "type": ["null", "string"], "default": None}],
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_field_added_by_the_registry_is_a_new_column(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _source(src, [_good(0)])
    write_table(str(src), str(dest), format=fmt, decode_values=True)
    with logdir.PartitionWriter(src, "_schemas", 0) as w:
        w.append(
            [
                Record(
                    key=skey("orders-value", 2),
                    value=sval("orders-value", 2, 2, json.dumps(V2)),
                    timestamp=TS,
                )
            ]
        )
    with logdir.PartitionWriter(src, "orders", 0) as w:
        w.append(
            [
                Record(
                    key=b"v2",
                    value=framed(2, avro_bytes(V2, {"id": 1, "note": "n", "extra": "x"})),
                    timestamp=TS,
                )
            ]
        )
    write_table(str(src), str(dest), format=fmt, decode_values=True)
    rows = sorted(
        (r["id"], r.get("extra"))
        for r in table_arrow(fmt, dest, "orders").column("value_decoded").to_pylist()
    )
    assert rows == [(0, None), (1, "x")]
    if fmt == "iceberg":
        from support.tables import iceberg_table

        schema = iceberg_table(dest, "orders").schema()
        before = {f.name: f.field_id for f in schema.fields}
        assert before["offset"] == 5 and "extra" in str(schema.find_field("value_decoded"))  # ids kept


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_incompatible_change_is_refused_before_any_commit(fmt, tmp_path):
    from kafkaspec.tables import TableError

    src, dest = tmp_path / "logs", tmp_path / "lake"
    _source(src, [_good(0)])
    write_table(str(src), str(dest), format=fmt, decode_values=True)
    before = table_arrow(fmt, dest, "orders")
    v2 = {
        "type": "record",
        "name": "Order",
        "fields": [{"name": "id", "type": "string"}, SCHEMA["fields"][1]],
    }
    with logdir.PartitionWriter(src, "_schemas", 0) as w:
        w.append(
            [
                Record(
                    key=skey("orders-value", 2),
                    value=sval("orders-value", 2, 2, json.dumps(v2)),
                    timestamp=TS,
                )
            ]
        )
    with logdir.PartitionWriter(src, "orders", 0) as w:
        w.append(
            [Record(key=b"v2", value=framed(2, avro_bytes(v2, {"id": "one", "note": "n"})), timestamp=TS)]
        )
    with pytest.raises(TableError, match="changed in a way the table cannot follow"):
        write_table(str(src), str(dest), format=fmt, decode_values=True)
    assert table_arrow(fmt, dest, "orders").equals(before)
