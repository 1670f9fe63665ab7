"""synth's Protobuf topic (issue 26 item 4): the hand-written bytes of
:mod:`kafkaspec.values.protobuf_synth` are read by classes protoc generated from the same ``.proto``
(an independent reader), and the topic read through ``_schemas`` gives one typed column: v1 values
read into v2 (note dropped, region its default)."""

from __future__ import annotations

import random

import pytest
from support.values import protoc_module

from kafkaspec.values import Schemas, SchemaStore, ValueDecoder, message_indexes
from kafkaspec.values.protobuf_synth import SHIPMENT_V1, SHIPMENT_V2, schema_records, shipment_value

pa = pytest.importorskip("pyarrow")


def test_synth_protobuf_values_read_by_generated_classes(tmp_path):
    v1 = protoc_module(tmp_path, "shipment_v1", SHIPMENT_V1)
    v2 = protoc_module(tmp_path, "shipment_v2", SHIPMENT_V2.replace("package demo;", "package demo2;"))
    rng = random.Random(3)
    notes = regions = 0
    for i in range(200):
        raw = shipment_value(rng, i)
        sid = int.from_bytes(raw[1:5], "big")
        assert raw[0] == 0 and sid == 100 + i % 2
        path, start = message_indexes(raw, 5)
        assert path == [0]
        cls = v1.Shipment if sid == 100 else v2.Shipment
        msg = cls.FromString(raw[start:])
        assert msg.id == i and msg.carrier and 50 <= msg.weight_grams < 30_000
        assert msg.SerializeToString() == raw[start:]  # what protobuf writes, byte for byte
        notes += sid == 100 and msg.HasField("note")
        regions += sid == 101 and msg.region != ""
    assert notes > 20 and regions == 100


def test_synth_protobuf_topic_one_typed_column():
    store = SchemaStore()
    for k, v in schema_records("shipments", 100):
        store.apply(k, v)
    assert store.problems == []
    dec = ValueDecoder(Schemas(store))
    from kafkaspec.arrow.value_columns import decode_column

    rng = random.Random(5)
    col, err = decode_column(dec, "shipments", pa.array([shipment_value(rng, i) for i in range(10)]))
    assert str(col.type) == (
        "struct<id: int64, carrier: string, weight_grams: int64, items: list<item: string>, region: string>"
    )
    assert err.null_count == 10
    rows = col.to_pylist()
    assert [r["id"] for r in rows] == list(range(10))
    assert all(r["region"] == "" for r in rows[::2]) and all(r["region"] for r in rows[1::2])
