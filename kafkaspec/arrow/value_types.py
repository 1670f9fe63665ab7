"""Arrow types for decoded values: an Avro schema (fastavro's parsed form) as the Arrow type of its
values, and decoded values as an Arrow array of that type, so a topic has one column type.

Avro to Arrow: records are structs, arrays lists, maps ``map<string, T>``, enums strings, fixed
``fixed_size_binary``; ``[null, T]`` is a nullable T. A schema with a union of two or more non-null
branches, or with a recursive type (a record that holds itself), has no one Arrow type here: its
values are a string column of JSON text.
Logical types: decimal -> ``decimal128(precision, scale)``, timestamp-millis/micros ->
``timestamp(ms/us, UTC)``, local-timestamp-* -> ``timestamp`` without a zone, date -> ``date32``,
time-millis/micros -> ``time32(ms)``/``time64(us)``, uuid -> string.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from ..codec.extras import missing

try:
    import pyarrow as pa
except ModuleNotFoundError as exc:
    raise missing(exc, "spark", "decoded values as Arrow columns") from None

from ..values.bounds import MAX_DEPTH, MAX_TYPE_NODES
from ..values.primitives import json_text
from ..values.protobuf_values import repeated

if TYPE_CHECKING:
    from ..values.decoder import ValueDecoder
    from ..values.json_schema import JType

__all__ = [
    "MAX_DEPTH",
    "MAX_TYPE_NODES",
    "PRIMITIVE_TYPES",
    "avro_to_arrow",
    "column_type",
    "json_schema_type",
    "message_type",
    "to_arrow_array",
    "value_type",
]


class _Untyped(ValueError):
    """The schema has no Arrow type here (the values go as JSON text)."""


def value_type(dec: ValueDecoder, topic: str, part: str = "value") -> tuple[Any, bool]:
    """(the Arrow type of ``topic``'s decoded values (or keys, ``part="key"``) or None for JSON text,
    UUIDs to turn into text): the reader schema's for Avro, JSON Schema and Protobuf (its first
    message), the format's for Kafka's primitives."""
    fmt = dec.format_of(topic, part)
    if fmt in PRIMITIVE_TYPES():
        return PRIMITIVE_TYPES()[fmt], False
    reader = dec.reader_schema(topic, part)
    if fmt in ("auto", "avro") and reader is not None and reader.schema_type == "AVRO":
        try:
            return column_type(dec.avro_reader().parsed(reader))
        except ValueError:
            return None, False
    if fmt in ("auto", "json-schema") and reader is not None and reader.schema_type == "JSON":
        try:
            return json_schema_type(dec.json_column(topic, part)), False
        except ValueError:
            return None, False
    if fmt in ("auto", "protobuf") and reader is not None and reader.schema_type == "PROTOBUF":
        try:
            return message_type(dec.protobuf_reader().message(reader, [0])), False
        except ValueError:
            return None, False
    return None, False


def avro_to_arrow(schema: Any, named: dict[str, Any] | None = None, within: tuple[str, ...] = ()) -> Any:
    """The Arrow type of the values of the (fastavro-parsed) Avro ``schema``; ``within``: the named types
    being expanded (one met again is a recursive type, which no Arrow type has: JSON text)."""
    named = (
        named
        if named is not None
        else (schema.get("__named_schemas", {}) if isinstance(schema, dict) else {})
    )
    if isinstance(schema, str):
        simple = {
            "null": pa.null(),
            "boolean": pa.bool_(),
            "int": pa.int32(),
            "long": pa.int64(),
            "float": pa.float32(),
            "double": pa.float64(),
            "bytes": pa.binary(),
            "string": pa.string(),
        }
        if schema in simple:
            return simple[schema]
        if schema in within:
            raise _Untyped(f"the recursive type {schema}")
        if schema in named:
            return avro_to_arrow(named[schema], named, within)
        raise ValueError(f"unknown Avro type {schema!r}")
    if isinstance(schema, list):
        branches = [b for b in schema if b != "null"]
        if len(branches) == 1:
            return avro_to_arrow(branches[0], named, within)
        raise _Untyped("a union of more than one non-null branch")
    if schema.get("type") in ("record", "error") and "name" in schema:
        within = (*within, schema["name"])
    logical = schema.get("logicalType")
    kind = schema["type"]
    if logical == "decimal" and kind in ("bytes", "fixed"):
        precision = int(schema["precision"])
        return (pa.decimal128 if precision <= 38 else pa.decimal256)(precision, int(schema.get("scale", 0)))
    logical_types = {
        ("timestamp-millis", "long"): pa.timestamp("ms", tz="UTC"),
        ("timestamp-micros", "long"): pa.timestamp("us", tz="UTC"),
        ("local-timestamp-millis", "long"): pa.timestamp("ms"),
        ("local-timestamp-micros", "long"): pa.timestamp("us"),
        ("date", "int"): pa.date32(),
        ("time-millis", "int"): pa.time32("ms"),
        ("time-micros", "long"): pa.time64("us"),
        ("uuid", "string"): pa.string(),
    }
    if (logical, kind) in logical_types:
        return logical_types[(logical, kind)]
    if kind in ("record", "error"):
        return pa.struct(
            [pa.field(f["name"], avro_to_arrow(f["type"], named, within)) for f in schema["fields"]]
        )
    if kind == "array":
        return pa.list_(avro_to_arrow(schema["items"], named, within))
    if kind == "map":
        return pa.map_(pa.string(), avro_to_arrow(schema["values"], named, within))
    if kind == "enum":
        return pa.string()
    if kind == "fixed":
        return pa.binary(int(schema["size"]))
    return avro_to_arrow(kind, named, within)


def avro_type_nodes(schema: Any, limit: int) -> int:
    """How many nodes the Arrow type of the parsed Avro ``schema`` has, its named types expanded where
    they are used (at most ``limit`` + 1: counting stops there). Each named type is counted once; one
    met again inside itself (a recursive type, which has no Arrow type) counts one."""
    named = schema.get("__named_schemas", {}) if isinstance(schema, dict) else {}
    counted: dict[str, int] = {}

    def count(t: Any) -> int:
        if isinstance(t, str):
            return count(named[t]) if t in named else 1
        if isinstance(t, list):
            return min(limit + 1, 1 + sum(count(b) for b in t))
        if not isinstance(t, dict):
            return 1
        kind = t.get("type")
        if kind in ("record", "error"):
            name = t.get("name")
            if isinstance(name, str):
                if name in counted:
                    return counted[name]
                counted[name] = 1
            n = min(
                limit + 1, 1 + sum(count(f.get("type")) for f in t.get("fields", []) if isinstance(f, dict))
            )
            if isinstance(name, str):
                counted[name] = n
            return n
        if kind == "array":
            return min(limit + 1, 1 + count(t.get("items")))
        if kind == "map":
            return min(limit + 1, 2 + count(t.get("values")))
        if isinstance(kind, (dict, list)) or (isinstance(kind, str) and kind in named):
            return count(kind)
        return 1

    return count(schema)


#: the Arrow type of each of Kafka's primitive formats' values
def PRIMITIVE_TYPES() -> dict[str, Any]:
    return {
        "string": pa.string(),
        "int": pa.int32(),
        "long": pa.int64(),
        "double": pa.float64(),
        "uuid": pa.string(),
        "bytes": pa.binary(),
    }


def _plain(v: Any) -> Any:
    """What pyarrow takes: UUIDs (fastavro's uuid logical type) as text, inside dicts and lists too."""
    if isinstance(v, uuid.UUID):
        return str(v)
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def to_arrow_array(values: list[Any], arrow_type: Any, has_uuid: bool = False) -> Any:
    """``values`` (None for a null value or one that did not decode) as one Arrow array; with no
    ``arrow_type``, a string array of each value's JSON text."""
    if arrow_type is None:
        return pa.array([None if v is None else json_text(v) for v in values], type=pa.string())
    if has_uuid:
        values = [_plain(v) for v in values]
    return pa.array(values, type=arrow_type)


def column_type(schema: Any) -> tuple[Any, bool]:
    """(Arrow type or None for JSON text, whether UUIDs need turning into text) of a parsed Avro schema.
    A schema whose Arrow type would have more than :data:`MAX_TYPE_NODES` nodes has none:
    named types that share each other double with each level (30 levels of records, each with two
    fields of the two records below, made 2^30 nodes out of 6 KB of schema)."""
    if avro_type_nodes(schema, MAX_TYPE_NODES) > MAX_TYPE_NODES:
        return None, False
    try:
        t = avro_to_arrow(schema)
    except _Untyped:
        return None, False
    return t, '"uuid"' in repr(schema).replace("'", '"')


def json_schema_type(t: JType) -> Any:
    """The Arrow type of a JSON Schema column type (:meth:`~kafkaspec.values.json_schema.JsonSchemaReader.column`; JSON text nodes are
    strings)."""
    kind, detail = t
    if kind == "struct":
        return pa.struct([pa.field(name, json_schema_type(sub)) for name, sub, _ in detail])
    if kind == "list":
        return pa.list_(json_schema_type(detail))
    return {
        "integer": pa.int64(),
        "number": pa.float64(),
        "boolean": pa.bool_(),
        "string": pa.string(),
        "json": pa.string(),
    }[kind]


def message_type(desc: Any, seen: tuple[str, ...] = ()) -> Any:
    """The Arrow type of a message's values (a struct of its fields); ValueError for a recursive message
    (``google.protobuf.Struct`` among them), which has no Arrow type: its values go as JSON text."""
    if not seen and _type_nodes(desc, MAX_TYPE_NODES) > MAX_TYPE_NODES:
        raise _Untyped(
            f"the message {desc.full_name}, whose Arrow type would have more than {MAX_TYPE_NODES:,} "
            "nodes (its messages share each other) or nest too deep"
        )
    if desc.full_name in seen:
        raise _Untyped(f"the recursive message {desc.full_name}")
    seen = (*seen, desc.full_name)
    fields = []
    for f in desc.fields:
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            kf, vf = f.message_type.fields_by_name["key"], f.message_type.fields_by_name["value"]
            t = pa.map_(_field_type(kf, seen), _field_type(vf, seen))
        elif repeated(f):
            t = pa.list_(_field_type(f, seen))
        else:
            t = _field_type(f, seen)
        fields.append(pa.field(f.name, t))
    return pa.struct(fields)


def _type_nodes(desc: Any, limit: int) -> int:
    """How many nodes the Arrow type of message ``desc`` has, its message fields expanded where they are
    used (at most ``limit`` + 1): each message counted once, however many fields hold it, so 30 levels of
    messages with two fields of the message below cost 30 counts, not the 2^30 nodes they make. A message
    met again inside itself (recursive: no Arrow type) counts one."""
    counted: dict[str, int] = {}

    def message(d: Any, depth: int) -> int:
        if depth > MAX_DEPTH:  # deeper than the Arrow type is built (and Python recurses): none
            return limit + 1
        got = counted.get(d.full_name)
        if got is None:
            counted[d.full_name] = 1
            got = counted[d.full_name] = min(limit + 1, 1 + sum(field(f, depth) for f in d.fields))
        return got

    def field(f: Any, depth: int) -> int:
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            entry = f.message_type.fields_by_name
            return 1 + field(entry["key"], depth) + field(entry["value"], depth)
        own = message(f.message_type, depth + 1) if f.message_type is not None else 1
        return 1 + own if repeated(f) else own

    return message(desc, 0)


def _field_type(f: Any, seen: tuple[str, ...]) -> Any:
    if f.message_type is not None:
        return message_type(f.message_type, seen)
    if f.enum_type is not None:
        return pa.string()
    t = f.type
    by_type = {
        f.TYPE_DOUBLE: pa.float64(),
        f.TYPE_FLOAT: pa.float32(),
        f.TYPE_INT64: pa.int64(),
        f.TYPE_SINT64: pa.int64(),
        f.TYPE_SFIXED64: pa.int64(),
        f.TYPE_UINT64: pa.uint64(),
        f.TYPE_FIXED64: pa.uint64(),
        f.TYPE_INT32: pa.int32(),
        f.TYPE_SINT32: pa.int32(),
        f.TYPE_SFIXED32: pa.int32(),
        f.TYPE_UINT32: pa.uint32(),
        f.TYPE_FIXED32: pa.uint32(),
        f.TYPE_BOOL: pa.bool_(),
        f.TYPE_STRING: pa.string(),
        f.TYPE_BYTES: pa.binary(),
    }
    return by_type[t]
