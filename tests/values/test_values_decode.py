"""Keys and values decoded per topic (issue 26 item 2), against bytes an independent writer made:
Apache Avro's own Python library (``avro``) writes the Avro bodies, framed as Confluent's serializers
frame them (magic 0, the schema id as 4 big-endian bytes); Kafka's own serializers' layouts for the
primitives. A value that does not fit its decoder keeps its bytes, gets an error naming the reason and
is counted: never dropped, never guessed.
"""

from __future__ import annotations

import datetime
import decimal
import json
import struct
import uuid

import avro.io
import avro.schema
import pytest
from support.values import V1, V2, avro_bytes, framed, skey, sval

from kafkaspec.values import Schemas, SchemaStore, ValueDecoder, message_indexes
from kafkaspec.values.framing import FramingError

LOGICAL = {
    "type": "record",
    "name": "Pay",
    "fields": [
        {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
        {"name": "at_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "at_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "ref", "type": {"type": "string", "logicalType": "uuid"}},
    ],
}
MONEY = {
    "type": "record",
    "name": "Money",
    "namespace": "shop",
    "fields": [{"name": "cents", "type": "long"}],
}
WITH_REF = {
    "type": "record",
    "name": "Invoice",
    "namespace": "shop",
    "fields": [{"name": "total", "type": "shop.Money"}],
}


@pytest.fixture
def dec() -> ValueDecoder:
    store = SchemaStore()
    store.apply(skey("orders-value", 1), sval("orders-value", 1, 1, json.dumps(V1)))
    store.apply(skey("orders-value", 2), sval("orders-value", 2, 2, json.dumps(V2)))
    store.apply(skey("pay-value", 1), sval("pay-value", 1, 3, json.dumps(LOGICAL)))
    store.apply(skey("people-value", 1), sval("people-value", 1, 4, '{"type":"object"}', schema_type="JSON"))
    store.apply(skey("money", 1), sval("money", 1, 5, json.dumps(MONEY)))
    store.apply(
        skey("invoices-value", 1),
        sval(
            "invoices-value",
            1,
            6,
            json.dumps(WITH_REF),
            references=[{"name": "shop.Money", "subject": "money", "version": 1}],
        ),
    )
    store.apply(
        skey("nulls-value", 1),
        sval(
            "nulls-value",
            1,
            7,
            json.dumps(
                {
                    "type": "record",
                    "name": "N",
                    "fields": [{"name": "xs", "type": {"type": "array", "items": "null"}}],
                }
            ),
        ),
    )
    store.apply(skey("ev-value", 1), sval("ev-value", 1, 8, '{"type":"array","items":"null"}'))
    assert store.problems == []
    return ValueDecoder(Schemas(store))


def test_avro_writer_schema_resolved_to_the_topics_latest(dec):
    old = framed(1, avro_bytes(V1, {"id": 7, "coupon": "X1"}))
    new = framed(2, avro_bytes(V2, {"id": 8, "currency": "USD"}))
    a, b = dec.decode("orders", old), dec.decode("orders", new)
    assert a.value == {"id": 7, "currency": "EUR"} and a.schema_id == 1 and a.error is None and a.raw == old
    assert b.value == {"id": 8, "currency": "USD"} and b.format == "avro"
    assert dec.decode("orders", None) == (None, "auto", None, None, None)  # a tombstone


def test_avro_logical_types(dec):
    ts = datetime.datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.UTC)
    u = uuid.UUID(int=0x1234)
    value = framed(
        3,
        avro_bytes(
            LOGICAL,
            {
                "amount": decimal.Decimal("123.45"),
                "at_ms": ts,
                "at_us": ts,
                "day": datetime.date(2026, 1, 2),
                "ref": str(u),
            },
        ),
    )
    got = dec.decode("pay", value).value
    assert got["amount"] == decimal.Decimal("123.45") and got["at_ms"] == ts and got["at_us"] == ts
    assert got["day"] == datetime.date(2026, 1, 2) and str(got["ref"]) == str(u)


def test_avro_references_resolved(dec):
    names = avro.schema.Names()
    avro.schema.make_avsc_object(MONEY, names)
    value = framed(6, avro_bytes(WITH_REF, {"total": {"cents": 1999}}, names))
    assert dec.decode("invoices", value).value == {"total": {"cents": 1999}}


def test_json_schema_framed(dec):
    d = dec.decode("people", framed(4, b'{"name": "Ada", "age": 36}'))
    assert (d.value, d.format, d.schema_id, d.error) == ({"name": "Ada", "age": 36}, "json-schema", 4, None)


def test_auto_looks_at_the_magic_byte_and_the_id(dec):
    assert dec.decode("anything", b"hello world").format == "bytes"
    assert dec.decode("anything", b"hello world").value == b"hello world"
    assert dec.decode("people", framed(4, b"[1]")).format == "json-schema"


BODY = avro_bytes(V1, {"id": 7, "coupon": None})


@pytest.mark.parametrize(
    ("fmt", "value", "reason"),
    [
        ("auto", framed(99, BODY), "unknown schema id 99 (not in _schemas)"),
        ("avro", b"\x01" + struct.pack(">i", 1) + BODY, "magic byte 1, not the registry's 0"),
        ("avro", b"\x00\x00\x00", "3 bytes is shorter than the registry header"),
        ("avro", framed(1, BODY + b"\x00\x00"), "2 bytes left over after the Avro datum of schema id 1"),
        ("avro", framed(1, b"\x0e\x04"), "not an Avro datum of schema id 1"),  # union branch 2 of 2
        (
            "avro",
            framed(1, b"\x0e\x02\x20ab"),
            "the Avro body ends before the datum",
        ),  # string of 16, 2 there
        ("avro", framed(4, b"{}"), "schema id 4 is JSON, not avro"),
        ("json-schema", framed(4, b"{nope"), "not JSON"),
        ("json-schema", framed(4, b"NaN"), "NaN is not a JSON number"),
        (
            "avro",
            framed(7, b"\xfe\xff\xff\xff\x0f\x00"),
            "schema id 7 has an array of items written in 0 bytes",
        ),
        ("auto", framed(8, b"\x02\x00"), "schema id 8 has an array of items written in 0 bytes"),
    ],
)
def test_a_value_that_does_not_fit_keeps_its_bytes_and_names_why(dec, fmt, value, reason):
    dec.value_format = fmt
    d = dec.decode("orders", value)
    assert d.value is None and d.raw == value and reason in d.error
    assert sum(dec.errors.values()) == 1


@pytest.mark.parametrize("topic", ["orders", "v1-only"])
def test_union_branch_out_of_range_is_named(dec, topic):
    d = dec.decode(topic, framed(1, b"\x0e\x04"))  # branch 2 of 2
    assert d.error == "not an Avro datum of schema id 1: a union branch index out of range"
    # branch -1: Python's list[-1] would read the last branch, as fastavro alone does
    d = dec.decode(topic, framed(1, b"\x0e\x01\x04ab"))
    assert d.value is None and "not what Avro writes" in d.error
    d = dec.decode(topic, framed(1, b"\x0e\x02\x04ab"))
    assert d.error is None and d.value["id"] == 7


def test_errors_are_counted_by_topic_and_kind(dec):
    for i in range(5):
        dec.decode("orders", framed(100 + i, BODY))
    dec.decode("people", framed(200, b"{}"))
    assert dec.errors == {
        ("orders", "value", "unknown schema id # (not in _schemas)"): 5,
        ("people", "value", "unknown schema id # (not in _schemas)"): 1,
    }


@pytest.mark.parametrize(
    ("fmt", "raw", "expected"),
    [
        # Kafka's serializers: LongSerializer/IntegerSerializer big-endian, DoubleSerializer IEEE 754 big-endian,
        # UUIDSerializer the UUID's text in UTF-8, StringSerializer UTF-8
        ("long", (-2).to_bytes(8, "big", signed=True), -2),
        ("int", (2**31 - 1).to_bytes(4, "big"), 2**31 - 1),
        ("double", struct.pack(">d", 1.5), 1.5),
        ("uuid", b"123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000"),
        ("string", "zoë".encode(), "zoë"),
        ("json", b'{"a": [1, 2.5, null]}', {"a": [1, 2.5, None]}),
        ("bytes", b"\x00\xff", b"\x00\xff"),
    ],
)
def test_kafkas_primitive_serializers(fmt, raw, expected):
    d = ValueDecoder(Schemas(), value_format=fmt).decode("t", raw)
    assert (d.value, d.error, d.format) == (expected, None, fmt)


@pytest.mark.parametrize(
    ("fmt", "raw", "reason"),
    [
        ("long", b"\x00" * 7, "7 bytes, not the 8 of a long"),
        ("int", b"\x00" * 8, "8 bytes, not the 4 of a int"),
        ("double", b"", "0 bytes, not the 8 of a double"),
        ("uuid", b"123e4567e89b12d3a456426614174000", "not a UUID as Kafka's UUIDSerializer writes it"),
        ("uuid", b"not a uuid", "is not a UUID's text"),
        ("string", b"ab\xffcd", "not UTF-8: invalid start byte at byte 2"),
        ("json", b'{"a": 1} x', "not JSON: Extra data"),
    ],
)
def test_primitive_that_does_not_fit(fmt, raw, reason):
    dec = ValueDecoder(Schemas(), value_format=fmt)
    d = dec.decode("t", raw)
    assert d.value is None and d.raw == raw and reason in d.error and sum(dec.errors.values()) == 1


def test_formats_per_topic_and_for_keys():
    dec = ValueDecoder(Schemas(), formats={"t": ("long", "string")})
    assert dec.decode_key("t", (5).to_bytes(8, "big")).value == 5
    assert dec.decode("t", b"v").value == "v"
    assert dec.decode("other", b"v").format == "bytes"
    with pytest.raises(ValueError, match="unknown format 'avr'"):
        ValueDecoder(Schemas(), value_format="avr")


@pytest.mark.parametrize(
    ("raw", "indexes", "end"),
    [
        (b"\x00", [0], 1),  # Confluent's shortcut for [0]
        (b"\x02\x02", [1], 2),
        (b"\x04\x02\x04", [1, 2], 3),
    ],
)
def test_protobuf_message_indexes(raw, indexes, end):
    assert message_indexes(raw + b"rest", 0) == (indexes, end)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"\x04\x02", "the message indexes end inside a varint"),
        (b"\x01", "-1 message indexes"),
        (b"\xff\xff\xff\xff\xff\x01", "longer than 5 bytes"),
        (b"\x02\x01", "message index -1 is negative"),
        (b"\xa0\x1f", "2000 message indexes"),
    ],
)
def test_protobuf_message_indexes_that_lie(raw, reason):
    with pytest.raises(FramingError, match=reason):
        message_indexes(raw, 0)
