"""Typed values in the ``kafkalog`` source (issue 26 item 3): ``valueFormat``/``keyFormat`` add
``value_decoded`` (Spark type from the topic's schema, through the Arrow type ``to_arrow`` gives it)
and ``value_error``; a record that does not fit is kept with its bytes and its reason, and the audit
view counts such records per batch. The Avro bytes are written by Apache Avro's own library."""

from __future__ import annotations

import datetime
import decimal
import json

import pytest
from support.values import V1, V2, avro_bytes, framed, skey, sval

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter
from kafkaspec.spark.read.options import OptionError, ReadOptions

PAY = {
    "type": "record",
    "name": "Pay",
    "fields": [
        {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
        {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    ],
}
AT = datetime.datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.UTC)


@pytest.fixture(scope="module")
def typed_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("typed")
    with PartitionWriter(root, "_schemas", 0) as w:
        for subject, version, sid, schema in [
            ("orders-value", 1, 1, V1),
            ("orders-value", 2, 2, V2),
            ("pay-value", 1, 3, PAY),
        ]:
            w.append(
                [Record(key=skey(subject, version), value=sval(subject, version, sid, json.dumps(schema)))]
            )
    with PartitionWriter(root, "orders", 0) as w:
        w.append(
            [
                Record(key=b"1", value=framed(1, avro_bytes(V1, {"id": 1, "coupon": None}))),
                Record(key=b"2", value=framed(2, avro_bytes(V2, {"id": 2, "currency": "USD"}))),
                Record(key=b"x", value=b"plain text"),
            ],
            compression="lz4",
        )
        w.append([Record(key=b"3", value=framed(2, b"\x04")), Record(key=b"4", value=None)])
    with PartitionWriter(root, "pay", 0) as w:
        w.append([Record(value=framed(3, avro_bytes(PAY, {"amount": decimal.Decimal("12.34"), "at": AT})))])
    return root


def test_one_topic_gets_its_schema_as_the_column_type(spark, typed_dir):
    df = (
        spark.read.format("kafkalog")
        .option("subscribe", "orders")
        .option("valueFormat", "avro")
        .option("keyFormat", "string")
        .load(str(typed_dir))
    )
    assert df.schema["value_decoded"].dataType.simpleString() == "struct<id:bigint,currency:string>"
    rows = (
        df.orderBy("offset")
        .select("value", "value_decoded", "value_error", "key_decoded", "key_error")
        .collect()
    )
    assert [r.value_decoded.asDict() if r.value_decoded else None for r in rows] == [
        {"id": 1, "currency": "EUR"},
        {"id": 2, "currency": "USD"},
        None,
        None,
        None,
    ]
    errors = [r.value_error for r in rows]
    assert errors[0] is None and errors[1] is None and errors[4] is None  # a null value is no error
    assert "bad magic" in errors[2] or "magic" in errors[2], errors[2]
    assert errors[3] is not None
    assert bytes(rows[2].value) == b"plain text"  # the bytes stay
    assert [r.key_decoded for r in rows] == ["1", "2", "x", "3", "4"]
    assert df.filter("value_decoded.currency = 'USD'").count() == 1


def test_each_topic_its_own_type_and_the_audit_counts(spark, typed_dir):
    df = (
        spark.read.format("kafkalog")
        .option("subscribe", "orders,pay")
        .option("valueFormat", "auto")
        .load(str(typed_dir))
    )
    t = df.schema["value_decoded"].dataType
    assert [f.name for f in t.fields] == ["orders", "pay"]
    assert t["pay"].dataType.simpleString() == "struct<amount:decimal(9,2),at:timestamp>"
    pay = df.filter("topic = 'pay'").select("value_decoded.pay.amount", "value_decoded.orders").collect()
    assert pay[0].amount == decimal.Decimal("12.34") and pay[0].orders is None
    assert (
        df.filter("topic = 'orders'").select("value_decoded.orders.id").orderBy("offset").collect()[0].id == 1
    )
    audit = (
        spark.read.format("kafkalog")
        .option("view", "batches")
        .option("subscribe", "orders")
        .option("valueFormat", "avro")
        .load(str(typed_dir))
        .orderBy("position")
        .collect()
    )
    assert [(r.recordCount, r.valueErrors, r.keyErrors) for r in audit] == [(3, 1, None), (2, 1, None)]


def test_formats_are_checked_when_the_options_are_read():
    with pytest.raises(OptionError, match="valueFormat must be one of"):
        ReadOptions.parse({"valueFormat": "xml"})
    with pytest.raises(OptionError, match="schemaRegistryUrl needs"):
        ReadOptions.parse({"schemaRegistryUrl": "http://localhost:8081"})
    with pytest.raises(OptionError, match="not offsets"):
        ReadOptions.parse({"valueFormat": "avro", "view": "offsets"})
