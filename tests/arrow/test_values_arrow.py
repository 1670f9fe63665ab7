"""Decoded values as Arrow columns (issue 26 item 3): ``to_arrow(decode_values=True)`` adds
``value_decoded`` typed from the topic's schema (Avro logical types mapped) and ``value_error``; a
value that does not fit keeps its bytes in ``value``, is null in ``value_decoded`` and named in
``value_error``. The Avro bytes are written by Apache Avro's own library.
"""

from __future__ import annotations

import datetime
import decimal
import json

import pyarrow as pa
from support.values import V1, V2, avro_bytes, framed, skey, sval

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log

LOGICAL = {
    "type": "record",
    "name": "Pay",
    "fields": [
        {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
        {"name": "at_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "at_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "ref", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "long"}},
        {"name": "note", "type": ["null", "string"], "default": None},
    ],
}
EITHER = {"type": "record", "name": "E", "fields": [{"name": "x", "type": ["long", "string"]}]}
TS = datetime.datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.UTC)


def write(root):
    with PartitionWriter(root, "_schemas", 0) as w:
        for subject, version, sid, schema in [
            ("orders-value", 1, 1, V1),
            ("orders-value", 2, 2, V2),
            ("pay-value", 1, 3, LOGICAL),
            ("either-value", 1, 4, EITHER),
        ]:
            w.append(
                [Record(key=skey(subject, version), value=sval(subject, version, sid, json.dumps(schema)))]
            )
    orders = [
        framed(1, avro_bytes(V1, {"id": 1, "coupon": None})),
        framed(2, avro_bytes(V2, {"id": 2, "currency": "USD"})),
        b"plain text",
        framed(2, b"\x04"),
        None,
    ]
    with PartitionWriter(root, "orders", 0) as w:
        w.append([Record(value=v) for v in orders[:3]], compression="lz4")
        w.append([Record(value=v) for v in orders[3:]])
    pay = {
        "amount": decimal.Decimal("12.34"),
        "at_ms": TS,
        "at_us": TS,
        "day": datetime.date(2026, 1, 2),
        "ref": "123e4567-e89b-12d3-a456-426614174000",
        "tags": ["a", "b"],
        "attrs": {"k": 5},
        "note": None,
    }
    with PartitionWriter(root, "pay", 0) as w:
        w.append([Record(value=framed(3, avro_bytes(LOGICAL, pay)))])
    with PartitionWriter(root, "either", 0) as w:
        w.append([Record(value=framed(4, avro_bytes(EITHER, {"x": "s"})))])
    return orders


def _part(log, topic):
    return next(p for p in log.partitions() if p.topic == topic)


def test_to_arrow_adds_a_typed_column_and_the_errors(tmp_path):
    orders = write(tmp_path)
    t = _part(open_log(tmp_path), "orders").to_arrow(decode_values=True)
    assert t.schema.field("value_decoded").type == pa.struct([("id", pa.int64()), ("currency", pa.string())])
    assert t.column("value_decoded").to_pylist() == [
        {"id": 1, "currency": "EUR"},
        {"id": 2, "currency": "USD"},
        None,
        None,
        None,
    ]
    errors = t.column("value_error").to_pylist()
    assert errors[:2] == [None, None] and errors[4] is None
    assert errors[2] == "read as bytes, not avro like the topic's values"
    assert errors[3] == "the Avro body ends before the datum"
    assert t.column("value").to_pylist() == orders  # every record kept, with its bytes


def test_avro_logical_types_as_arrow_types(tmp_path):
    write(tmp_path)
    t = _part(open_log(tmp_path), "pay").to_arrow(decode_values=True)
    assert t.schema.field("value_decoded").type == pa.struct(
        [
            ("amount", pa.decimal128(9, 2)),
            ("at_ms", pa.timestamp("ms", tz="UTC")),
            ("at_us", pa.timestamp("us", tz="UTC")),
            ("day", pa.date32()),
            ("ref", pa.string()),
            ("tags", pa.list_(pa.string())),
            ("attrs", pa.map_(pa.string(), pa.int64())),
            ("note", pa.string()),
        ]
    )
    row = t.column("value_decoded").to_pylist()[0]
    assert row["amount"] == decimal.Decimal("12.34") and row["at_ms"] == TS and row["at_us"] == TS
    assert row["day"] == datetime.date(2026, 1, 2) and row["ref"] == "123e4567-e89b-12d3-a456-426614174000"
    assert row["attrs"] == [("k", 5)] and row["tags"] == ["a", "b"]


def test_a_union_of_two_types_is_json_text(tmp_path):
    write(tmp_path)
    t = _part(open_log(tmp_path), "either").to_arrow(decode_values=True)
    assert t.column("value_decoded").to_pylist() == ['{"x":"s"}']


def test_logdir_batches_a_struct_per_topic(tmp_path):
    write(tmp_path)
    types = {
        rb.column(2)[0].as_py(): rb.schema.field("value_decoded").type
        for rb in open_log(tmp_path).to_arrow_batches(decode_values=True)
        if rb.num_rows
    }
    assert (
        types["orders"].num_fields == 2 and types["pay"].num_fields == 8 and types["_schemas"] == pa.string()
    )


def test_a_value_wider_than_the_column_is_its_records_error(tmp_path):
    """The writer's decimal(12, 2) value read into the reader's decimal(4, 2) column: that record's error."""
    wide = {
        "type": "record",
        "name": "P",
        "fields": [
            {"name": "x", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}}
        ],
    }
    narrow = {
        "type": "record",
        "name": "P",
        "fields": [
            {"name": "x", "type": {"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 2}}
        ],
    }
    with PartitionWriter(tmp_path, "_schemas", 0) as w:
        w.append([Record(key=skey("p-value", 1), value=sval("p-value", 1, 1, json.dumps(wide)))])
        w.append([Record(key=skey("p-value", 2), value=sval("p-value", 2, 2, json.dumps(narrow)))])
    values = [
        framed(1, avro_bytes(wide, {"x": decimal.Decimal("12345678.90")})),
        framed(2, avro_bytes(narrow, {"x": decimal.Decimal("12.34")})),
    ]
    with PartitionWriter(tmp_path, "p", 0) as w:
        w.append([Record(value=v) for v in values])
    t = _part(open_log(tmp_path), "p").to_arrow(decode_values=True)
    assert t.column("value_decoded").to_pylist() == [None, {"x": decimal.Decimal("12.34")}]
    assert t.column("value_error").to_pylist()[0].startswith("the decoded value does not fit the column type")
    assert t.column("value").to_pylist() == values
