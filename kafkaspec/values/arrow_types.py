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
from typing import Any

from kafkaspec.codec.extras import require

from .primitives import json_text

#: the most nodes a column type may have (each struct, list and leaf one), counted expanded: a JSON
#: Schema's ``$ref`` is resolved once, but two properties that ``$ref`` one definition hold two copies
#: of its type in the Arrow type, and 40 levels of definitions that each ``$ref`` the one below twice
#: would be 2^40 nodes (Avro's and Protobuf's named types that share each other alike). A JSON Schema
#: past it has no column type (its records get an error naming it); an Avro or Protobuf one, JSON text.
MAX_TYPE_NODES = 100_000
#: the deepest a schema is followed: each nested ``properties``/``items``/``anyOf`` level and each ``$ref``
#: (within the schema or to a referenced one) counts one. Deeper is an error of its records (a chain of
#: 3,000 referenced schemas ran the stack out); the value check and the Arrow type recurse as deep.
#: Both bounds are the JSON Schema reader's, the Avro and Protobuf Arrow types' too.
MAX_DEPTH = 200

__all__ = ["PRIMITIVE_TYPES", "avro_to_arrow", "to_arrow_array"]

pa: Any = None


def _pa() -> Any:
    global pa
    if pa is None:
        pa = require("pyarrow", "spark", "decoded values as Arrow columns")
    return pa


class _Untyped(ValueError):
    """The schema has no Arrow type here (the values go as JSON text)."""


def avro_to_arrow(schema: Any, named: dict[str, Any] | None = None, within: tuple[str, ...] = ()) -> Any:
    """The Arrow type of the values of the (fastavro-parsed) Avro ``schema``; ``within``: the named types
    being expanded (one met again is a recursive type, which no Arrow type has: JSON text)."""
    p = _pa()
    named = (
        named
        if named is not None
        else (schema.get("__named_schemas", {}) if isinstance(schema, dict) else {})
    )
    if isinstance(schema, str):
        simple = {
            "null": p.null(),
            "boolean": p.bool_(),
            "int": p.int32(),
            "long": p.int64(),
            "float": p.float32(),
            "double": p.float64(),
            "bytes": p.binary(),
            "string": p.string(),
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
        return (p.decimal128 if precision <= 38 else p.decimal256)(precision, int(schema.get("scale", 0)))
    logical_types = {
        ("timestamp-millis", "long"): p.timestamp("ms", tz="UTC"),
        ("timestamp-micros", "long"): p.timestamp("us", tz="UTC"),
        ("local-timestamp-millis", "long"): p.timestamp("ms"),
        ("local-timestamp-micros", "long"): p.timestamp("us"),
        ("date", "int"): p.date32(),
        ("time-millis", "int"): p.time32("ms"),
        ("time-micros", "long"): p.time64("us"),
        ("uuid", "string"): p.string(),
    }
    if (logical, kind) in logical_types:
        return logical_types[(logical, kind)]
    if kind in ("record", "error"):
        return p.struct(
            [p.field(f["name"], avro_to_arrow(f["type"], named, within)) for f in schema["fields"]]
        )
    if kind == "array":
        return p.list_(avro_to_arrow(schema["items"], named, within))
    if kind == "map":
        return p.map_(p.string(), avro_to_arrow(schema["values"], named, within))
    if kind == "enum":
        return p.string()
    if kind == "fixed":
        return p.binary(int(schema["size"]))
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
    p = _pa()
    return {
        "string": p.string(),
        "int": p.int32(),
        "long": p.int64(),
        "double": p.float64(),
        "uuid": p.string(),
        "bytes": p.binary(),
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
    p = _pa()
    if arrow_type is None:
        return p.array([None if v is None else json_text(v) for v in values], type=p.string())
    if has_uuid:
        values = [_plain(v) for v in values]
    return p.array(values, type=arrow_type)


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


def _cell(
    dec: Any, topic: str, part: str, want: str | None, names: list[str], b: bytes | None, d: Any
) -> tuple[Any, str | None]:
    """(value, error) of one decoded record in a column of format ``want``, errors counted."""
    if d.error is not None:
        return None, d.error
    if want is not None and b is not None and d.format != want:
        dec.errors[(topic, part, f"read as {d.format}, not {want}")] += 1
        return None, f"read as {d.format}, not {want} like the topic's {part}s"
    if want == "protobuf" and d.value is not None and list(d.value) != names:
        # another message of the schema (a topic may carry several): the column holds its first one
        dec.errors[(topic, part, "a message of another type than the column's")] += 1
        return None, (
            f"a message with fields {list(d.value)[:8]}, not the column's (the first message of "
            f"the topic's schema): {names[:8]}"
        )
    if want == "json-schema" and d.value is not None:
        return dec.json_column_value(topic, d.value, part), None  # decode() checked the fit
    return d.value, None


def decode_column(dec: Any, topic: str, raw: Any, part: str = "value") -> tuple[Any, Any]:
    """A ``binary`` Arrow array of a topic's values (or keys) decoded by ``dec`` (a ValueDecoder):
    (the decoded column, typed as :meth:`~kafkaspec.values.decoder.ValueDecoder.arrow_type` says, and a string column with each
    record's error or null). A value that decodes to another shape than the column's (``auto`` finding
    an unframed value in a topic of Avro values) is an error there too: it stays in the raw column."""
    arrow_type, has_uuid = dec.arrow_type(topic, part)
    want = None if arrow_type is None else dec.column_format(topic, part)
    values: list[Any] = []
    errors: list[str | None] = []
    names = [f.name for f in arrow_type] if want == "protobuf" else []
    raws = raw.to_pylist()
    if want == "avro" and dec.format_of(topic, part) in ("auto", "avro"):
        from .avro import FAILED

        values = dec.decode_avro_batch(topic, raws, part)
        errors = [None] * len(values)
        for i, v in enumerate(values):
            if v is FAILED:  # not framed Avro of a known id, or does not decode: decode() says why and counts
                values[i], errors[i] = _cell(
                    dec, topic, part, want, names, raws[i], dec.decode(topic, raws[i], part)
                )
    else:
        for b, d in zip(raws, dec.decode_many(topic, raws, part)):
            v, e = _cell(dec, topic, part, want, names, b, d)
            values.append(v)
            errors.append(e)
    p = _pa()
    try:
        column = to_arrow_array(values, arrow_type, has_uuid)
    except (p.ArrowInvalid, p.ArrowTypeError, TypeError, ValueError, OverflowError):
        # a value the column type cannot hold (a decimal wider than the reader's precision): found one
        # by one, it is an error of its record; the others keep their values
        for i, v in enumerate(values):
            if v is None:
                continue
            try:
                to_arrow_array([v], arrow_type, has_uuid)
            except (p.ArrowInvalid, p.ArrowTypeError, TypeError, ValueError, OverflowError) as exc:
                values[i] = None
                errors[i] = f"the decoded value does not fit the column type {arrow_type}: {exc}"
                dec.errors[(topic, part, "the decoded value does not fit the column type")] += 1
        column = to_arrow_array(values, arrow_type, has_uuid)
    return column, p.array(errors, type=p.string())
