"""synth's registry-framed typed topics (issue 26 item 4): every value of its Avro, JSON Schema and
Protobuf topics is read by an independent library (Apache ``avro``, ``jsonschema``, protoc-generated
classes) with the writer schema its id names in the ``_schemas`` topic synth wrote, and by
:mod:`kafkaspec.values` with nothing but that topic: no value errs, and both readings agree."""

from __future__ import annotations

import io
import json
import struct

import avro.io as avro_io
import avro.schema as avro_schema
import jsonschema
import pytest
from support.values import protoc_module

from kafkaspec.logdir import open_log, synth
from kafkaspec.values import decoder, message_indexes, read_schemas

TYPED = {"invoices": "AVRO", "profiles": "JSON", "shipments": "PROTOBUF"}


@pytest.fixture(scope="module")
def synth_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("typed") / "logs"
    synth(root, size_mb=1, seed=5)
    return root


def _values(root, topic):
    log = open_log(root)
    parts = [p for p in log.partitions() if p.topic == topic]
    assert parts, f"synth wrote no {topic} topic"
    return [rec.value for p in parts for _, rec in p.records()]


def _protobuf_classes(tmp_path, sid, text):
    return protoc_module(tmp_path, f"writer_{sid}", text.replace("package demo;", f"package demo{sid};"))


def test_schemas_topic_holds_evolving_versions(synth_dir):
    store = read_schemas(open_log(synth_dir))
    assert store.problems == []
    assert sorted(store.subjects()) == sorted(f"{t}-value" for t in TYPED)
    for topic, kind in TYPED.items():
        latest = store.latest(f"{topic}-value")
        assert latest is not None and latest.schema.schema_type == kind and latest.version == 2


def test_typed_values_read_by_independent_libraries(synth_dir, tmp_path):
    store = read_schemas(open_log(synth_dir))
    protobuf_classes: dict[int, object] = {}
    for topic, kind in TYPED.items():
        values = _values(synth_dir, topic)
        assert len(values) >= 100
        ids = set()
        for raw in values:
            assert raw[0] == 0
            sid = struct.unpack(">i", raw[1:5])[0]
            ids.add(sid)
            schema = store.by_id(sid)
            assert schema is not None and schema.schema_type == kind
            if kind == "AVRO":
                reader = avro_io.DatumReader(avro_schema.parse(schema.schema))
                buf = io.BytesIO(raw[5:])
                got = reader.read(avro_io.BinaryDecoder(buf))
                assert buf.tell() == len(raw) - 5, "bytes left over"
                assert isinstance(got["id"], int) and got["customer"]
            elif kind == "JSON":
                got = json.loads(raw[5:])
                jsonschema.validate(got, json.loads(schema.schema))
            else:
                if sid not in protobuf_classes:
                    protobuf_classes[sid] = _protobuf_classes(tmp_path, sid, schema.schema)
                path, start = message_indexes(raw, 5)
                msg = protobuf_classes[sid].Shipment.FromString(raw[start:])
                assert msg.SerializeToString() == raw[start:]
        assert len(ids) == 2, f"{topic}: values of both versions"


def test_typed_values_read_by_kafkaspec_values(synth_dir):
    log = open_log(synth_dir)
    dec = decoder(log)
    for topic, kind in TYPED.items():
        values = _values(synth_dir, topic)
        decoded = [dec.decode(topic, v) for v in values]
        assert [d.error for d in decoded if d.error] == []
        assert all(isinstance(d.value, dict) for d in decoded)
        # read into the latest version: the added field is present on every value, the removed one on none
        added, removed = {
            "invoices": ("currency", "note"),
            "profiles": ("country", "nickname"),
            "shipments": ("region", "note"),
        }[topic]
        assert all(removed not in d.value for d in decoded), topic
        if kind == "JSON":  # JSON text carries what it carries: the added field on the v2 values that set it
            assert any(added in d.value for d in decoded) and all(
                set(d.value) <= {"id", "name", "age", added} for d in decoded
            )
        else:  # Avro and Protobuf read every value into v2: the added field everywhere (its default on v1's)
            assert all(added in d.value for d in decoded), topic
