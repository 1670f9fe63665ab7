"""Registry-framed JSON Schema values typed by their schema (issue 26): properties as struct fields,
``$ref`` within the schema and to a referenced subject, required and nullable; the bytes written by
Confluent's own ``JSONSerializer`` (its offline ``mock://`` registry). A value that does not fit its
schema's column type keeps its bytes and gets an error naming where (never dropped, never bent).
"""

from __future__ import annotations

import json

import pytest
from support.values import framed, skey, sval

from kafkaspec.values import Schemas, SchemaStore, ValueDecoder

pa = pytest.importorskip("pyarrow")

ADDRESS = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "zip": {"type": ["string", "null"]}},
    "required": ["city"],
}
PERSON = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Person",
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer"},
        "score": {"type": "number"},
        "vip": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "home": {"$ref": "#/definitions/Address"},
        "work": {"$ref": "address.json"},
        "kind": {"enum": ["a", "b"]},
        "extra": {"type": "object"},
        "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "tree": {"$ref": "#/definitions/Tree"},
    },
    "required": ["name", "age"],
    "definitions": {
        "Address": ADDRESS,
        "Tree": {
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/Tree"}}},
        },
    },
}
REF = [{"name": "address.json", "subject": "address", "version": 1}]


def store() -> SchemaStore:
    s = SchemaStore()
    s.apply(skey("address", 1), sval("address", 1, 20, json.dumps(ADDRESS), schema_type="JSON"))
    s.apply(
        skey("people-value", 1),
        sval("people-value", 1, 21, json.dumps(PERSON), schema_type="JSON", references=REF),
    )
    assert s.problems == []
    return s


GOOD = {
    "name": "Ada",
    "age": 36,
    "score": 1,
    "vip": True,
    "tags": ["x"],
    "home": {"city": "Paris"},
    "work": {"city": "Lyon", "zip": "69000"},
    "kind": "a",
    "extra": {"any": [1, 2]},
    "either": 5,
    "tree": {"kids": [{"kids": []}]},
}


def test_json_schema_typed_column():
    dec = ValueDecoder(Schemas(store()))
    from kafkaspec.arrow.value_columns import decode_column

    bad = framed(21, json.dumps({"name": "Bo", "age": "old"}).encode())
    col, err = decode_column(dec, "people", pa.array([framed(21, json.dumps(GOOD).encode()), bad, None]))
    assert str(col.type) == (
        "struct<name: string, age: int64, score: double, vip: bool, tags: list<item: string>, "
        "home: struct<city: string, zip: string>, work: struct<city: string, zip: string>, "
        "kind: string, extra: string, either: string, tree: struct<kids: list<item: string>>>"
    )
    row = col.to_pylist()[0]
    assert (
        row["score"] == 1.0
        and row["home"] == {"city": "Paris", "zip": None}
        and row["work"]["zip"] == "69000"
    )
    assert (
        row["extra"] == '{"any": [1, 2]}'
        and row["either"] == "5"
        and row["tree"] == {"kids": ['{"kids": []}']}
    )
    assert col.to_pylist()[1:] == [None, None]
    assert err.to_pylist() == [None, "$.age is a string, not an integer", None]
    # the Python API gives the value as parsed, checked
    assert dec.decode("people", framed(21, json.dumps(GOOD).encode())).value == GOOD


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ({"name": "A"}, "$ lacks the required property 'age'"),
        (
            {"name": "A", "age": 1, "shoe": 42},
            "$ has property 'shoe', which the schema's properties do not name",
        ),
        ({"name": "A", "age": 1.5}, "$.age is a number, not an integer"),
        ({"name": "A", "age": True}, "$.age is a boolean, not an integer"),
        ({"name": "A", "age": 1 << 64}, "$.age is 18446744073709551616, beyond a 64-bit integer"),
        ({"name": "A", "age": 1, "home": {"zip": "1"}}, "$.home lacks the required property 'city'"),
        ({"name": "A", "age": 1, "tags": ["x", 2]}, "$.tags[1] is an integer, not a string"),
        ({"name": "A", "age": 1, "work": []}, "$.work is an array, not an object"),
        ([1], "$ is an array, not an object"),
    ],
)
def test_json_schema_values_that_do_not_fit(value, reason):
    dec = ValueDecoder(Schemas(store()))
    raw = framed(21, json.dumps(value).encode())
    d = dec.decode("people", raw)
    assert d.value is None and d.raw == raw and d.error.startswith(reason), d.error
    assert sum(dec.errors.values()) == 1


def test_json_schema_bad_refs_named():
    s = SchemaStore()
    s.apply(
        skey("a-value", 1),
        sval("a-value", 1, 1, json.dumps({"properties": {"x": {"$ref": "#/nope"}}}), schema_type="JSON"),
    )
    s.apply(
        skey("b-value", 1),
        sval("b-value", 1, 2, json.dumps({"properties": {"x": {"$ref": "other.json"}}}), schema_type="JSON"),
    )
    dec = ValueDecoder(Schemas(s))
    assert dec.decode("a", framed(1, b"{}")).error == "schema id 1: $ref '#/nope' points to nothing"
    assert dec.decode("b", framed(2, b"{}")).error == (
        "schema id 2 has a $ref to 'other.json', which none of its references names"
    )


def test_confluent_json_serializer_offline():
    sr = pytest.importorskip("confluent_kafka.schema_registry")
    from confluent_kafka.schema_registry import Schema
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    client = sr.SchemaRegistryClient.new_client({"url": "mock://kafkaspec-json"})
    schema = {k: v for k, v in PERSON.items()}
    schema["properties"] = {k: v for k, v in PERSON["properties"].items() if k != "work"}
    ser = JSONSerializer(
        Schema(json.dumps(schema), "JSON"), client, lambda v, ctx: v, {"auto.register.schemas": True}
    )
    value = {k: v for k, v in GOOD.items() if k != "work"}
    raw = ser(value, SerializationContext("people", MessageField.VALUE))
    s = SchemaStore()
    for subject in client.get_subjects():
        for v in client.get_versions(subject):
            reg = client.get_version(subject, v)
            s.apply(
                skey(subject, v), sval(subject, v, reg.schema_id, reg.schema.schema_str, schema_type="JSON")
            )
    d = ValueDecoder(Schemas(s)).decode("people", raw)
    assert d.error is None and d.value == value and d.format == "json-schema"


def test_confluent_avro_serializer_offline():
    sr = pytest.importorskip("confluent_kafka.schema_registry")
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    from support.values import V1, V2

    client = sr.SchemaRegistryClient.new_client({"url": "mock://kafkaspec-avro"})
    ctx = SerializationContext("orders", MessageField.VALUE)
    old = AvroSerializer(client, json.dumps(V1), conf={"auto.register.schemas": True})(
        {"id": 1, "coupon": "C"}, ctx
    )
    new = AvroSerializer(client, json.dumps(V2), conf={"auto.register.schemas": True})(
        {"id": 2, "currency": "USD"}, ctx
    )
    s = SchemaStore()
    for v in client.get_versions("orders-value"):
        reg = client.get_version("orders-value", v)
        s.apply(skey("orders-value", v), sval("orders-value", v, reg.schema_id, reg.schema.schema_str))
    dec = ValueDecoder(Schemas(s))
    assert [dec.decode("orders", b).value for b in (old, new)] == [
        {"id": 1, "currency": "EUR"},
        {"id": 2, "currency": "USD"},
    ]
