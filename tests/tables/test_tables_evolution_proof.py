"""Schema evolution into tables, each clause of issue 43's item 4 proven on its own: a field the registry
adds is a new optional column with every Iceberg field id kept; a compatible promotion (int to long,
float to double) is applied; an incompatible change stops in one line naming the subject, the versions
and the field, before anything is committed (the table's files unchanged)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from support.tables import FORMATS, TS, table_arrow
from support.values import avro_bytes, framed, skey, sval

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table

SUBJECT = "orders-value"


def _schema(*fields):
    return {"type": "record", "name": "Order", "fields": [{"name": n, "type": t} for n, t in fields]}


V1 = _schema(("id", "int"), ("price", "float"), ("note", "string"))


def _version(src, version, schema):
    with logdir.PartitionWriter(src, "_schemas", 0) as w:
        value = sval(SUBJECT, version, version, json.dumps(schema))
        w.append([Record(key=skey(SUBJECT, version), value=value, timestamp=TS)])


def _record(src, version, schema, datum, i):
    with logdir.PartitionWriter(src, "orders", 0) as w:
        w.append([Record(key=b"k%d" % i, value=framed(version, avro_bytes(schema, datum)), timestamp=TS + i)])


def _first(src, dest, fmt):
    _version(src, 1, V1)
    _record(src, 1, V1, {"id": 1, "price": 1.5, "note": "a"}, 0)
    assert write_table(str(src), str(dest), format=fmt, decode_values=True).rows == 1


def _ids(field, path=""):
    """Every field id of an Iceberg schema (nested too), by its dotted name."""
    out = {}
    for f in field.fields:
        name = f"{path}{f.name}"
        out[name] = f.field_id
        inner = f.field_type
        if hasattr(inner, "fields"):
            out.update(_ids(inner, name + "."))
    return out


def _tree(root):
    out = {}
    for folder, _, files in os.walk(root):
        for f in files:
            st = os.stat(os.path.join(folder, f))
            out[os.path.join(folder, f)] = (st.st_size, st.st_mtime_ns)
    return out


def test_an_added_field_keeps_every_iceberg_field_id(tmp_path):
    from support.tables import iceberg_table

    src, dest = tmp_path / "logs", tmp_path / "lake"
    _first(src, dest, "iceberg")
    before = _ids(iceberg_table(dest, "orders").schema())
    v2 = _schema(("id", "int"), ("price", "float"), ("note", "string"), ("extra", ["null", "string"]))
    v2["fields"][-1]["default"] = None
    _version(src, 2, v2)
    _record(src, 2, v2, {"id": 2, "price": 2.5, "note": "b", "extra": "x"}, 1)
    write_table(str(src), str(dest), format="iceberg", decode_values=True)
    schema = iceberg_table(dest, "orders").schema()
    after = _ids(schema)
    assert {k: after[k] for k in before} == before  # no id renumbered
    added = set(after) - set(before)
    assert added == {"value_decoded.extra"}, added
    assert after["value_decoded.extra"] > max(before.values())
    assert not schema.find_field("value_decoded.extra").required  # a new optional column
    rows = table_arrow("iceberg", dest, "orders").column("value_decoded").to_pylist()
    assert sorted((r["id"], r["extra"]) for r in rows) == [(1, None), (2, "x")]


PROMOTED = _schema(("id", "long"), ("price", "double"), ("note", "string"))


def test_a_compatible_promotion_is_applied(tmp_path):
    import pyarrow as pa

    src, dest = tmp_path / "logs", tmp_path / "lake"
    _first(src, dest, "iceberg")
    _version(src, 2, PROMOTED)
    _record(src, 2, PROMOTED, {"id": 2**40, "price": 0.1, "note": "b"}, 1)
    write_table(str(src), str(dest), format="iceberg", decode_values=True)
    t = table_arrow("iceberg", dest, "orders")
    decoded = t.schema.field("value_decoded").type
    assert decoded.field("id").type == pa.int64() and decoded.field("price").type == pa.float64()
    rows = sorted((r["id"], r["price"]) for r in t.column("value_decoded").to_pylist())
    assert rows == [(1, 1.5), (2**40, 0.1)]


def test_a_promotion_into_delta_is_refused_before_any_commit_naming_it(tmp_path):
    """delta-rs has no type widening (delta-io/delta-rs#2464): it cast a promoted value back to the
    table's type, silently when it fitted, failing part-way when not. Refused up front instead."""
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _first(src, dest, "delta")
    _version(src, 2, PROMOTED)
    _record(src, 2, PROMOTED, {"id": 2, "price": 0.5, "note": "b"}, 1)  # values that fit: cast silently
    before = _tree(dest)
    line = _refused(src, dest, "delta")
    assert "'id'" in line and "int64" in line and "no type widening" in line, line
    assert _tree(dest) == before


def _refused(src, dest, fmt):
    """The one line of a CLI run refused with exit 2, naming the subject and both versions."""
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", fmt, str(dest)]
        + ["--decode-values", "--quiet"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert SUBJECT in lines[0] and "version 1" in lines[0] and "version 2" in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_incompatible_change_names_subject_versions_and_field_and_commits_nothing(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _first(src, dest, fmt)
    v2 = _schema(("id", "string"), ("price", "float"), ("note", "string"))
    _version(src, 2, v2)
    _record(src, 2, v2, {"id": "one", "price": 2.5, "note": "b"}, 1)
    _record(src, 2, v2, {"id": "1", "price": 3.5, "note": "c"}, 2)  # text a cast would take for a number
    with logdir.PartitionWriter(src, "orders", 0) as w:  # a value that fits no schema: the errors table's
        w.append([Record(key=b"bad", value=b"\x00\x00\x00\x00\x07garbage", timestamp=TS)])
    before = _tree(dest)
    line = _refused(src, dest, fmt)
    assert "'id'" in line and "string" in line, line
    assert _tree(dest) == before  # not the errors table either, whose commit comes first


def test_only_a_sure_change_is_refused():
    """The check compares the table's Arrow types with the new reader schema's: a kind changed or a
    number narrowed (widened too, for Delta) is refused; what the formats hold otherwise passes (an
    unsigned field is held signed and wider, a timestamp in another unit, a string as large_string)."""
    import pyarrow as pa

    from kafkaspec.tables.decoded import _unfollowed

    def row(**fields):
        return pa.struct(list(fields.items()))

    sure = [
        (row(a=pa.int32()), row(a=pa.string()), True, "a"),
        (row(a=pa.int64()), row(a=pa.int32()), True, "a"),
        (row(a=pa.int32()), row(a=pa.int64()), False, "a"),
        (row(a=pa.list_(row(b=pa.int32()))), row(a=pa.list_(row(b=pa.binary()))), True, "a[].b"),
    ]
    for old, new, widens, path in sure:
        assert _unfollowed(old, new, "", widens)[0] == path
    for old, new in [
        (row(a=pa.int64()), row(a=pa.uint32())),
        (row(a=pa.large_string()), row(a=pa.string())),
        (row(a=pa.timestamp("us", "UTC")), row(a=pa.timestamp("ms", "UTC"))),
        (row(a=pa.int32()), row(a=pa.int32(), b=pa.string())),
        (row(a=pa.float32()), row(a=pa.float64())),
    ]:
        assert _unfollowed(old, new, "", True) is None, (old, new)
