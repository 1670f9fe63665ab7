"""Registry-framed JSON Schema values typed by their schema: the schema read once per id into a column
type (object properties -> struct fields, arrays -> lists, integer/number/boolean/string), and each
value checked against it, so a value that does not fit keeps its bytes and gets an error instead of
being dropped or bent into the column.

What has a column type here: ``type`` (one type, or one type and ``"null"``), ``properties``,
``items``, ``enum`` of strings, ``$ref`` within the schema (``#/definitions/...``, ``#/$defs/...``) and
to a referenced schema by its reference name (``other.json`` or ``other.json#/...``), ``anyOf``/``oneOf``
of one type and null. Anything else (no ``type``, an object without ``properties``, several types, a
recursive ``$ref``) is JSON text in its column. The check is the column's, not a full validation:
keywords such as ``pattern``, ``minimum`` or ``format`` are not checked.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from .schemas_topic import Schema

__all__ = ["JsonSchemaReader", "JType"]

INT64 = (-(1 << 63), (1 << 63) - 1)

#: a column type: (kind, detail); kind is struct, list, integer, number, boolean, string or json;
#: a struct's detail is [(name, type, required)], a list's its items' type
JType = tuple[str, Any]


class _Recursive(Exception):
    pass


class JsonSchemaReader:
    """Column types of JSON Schemas by id; ``resolve(subject, version)`` finds a referenced schema."""

    def __init__(self, resolve: Callable[[str, int], Schema | None]) -> None:
        self._resolve = resolve
        self._types: dict[int, JType | str] = {}

    def column(self, schema: Schema) -> JType:
        """The column type of ``schema``'s values; ValueError naming the id when it is not a JSON Schema."""
        got = self._types.get(schema.id)
        if isinstance(got, str):
            raise ValueError(got)
        if got is None:
            try:
                doc = json.loads(schema.schema)
            except ValueError as exc:
                self._types[schema.id] = f"schema id {schema.id} is not JSON: {exc}"
                raise ValueError(self._types[schema.id]) from None
            try:
                got = _Builder(self, schema).type_of(doc, doc, ())
            except ValueError as exc:
                self._types[schema.id] = str(exc)
                raise
            self._types[schema.id] = got
        return got

    def target(self, schema: Schema, name: str) -> tuple[Schema, Any]:
        """The schema a reference name points to, parsed."""
        for ref in schema.references:
            if ref.name == name:
                got = self._resolve(ref.subject, ref.version)
                if got is None:
                    raise ValueError(f"schema id {schema.id} references {ref.subject!r} version {ref.version}, "
                                     "which no source holds")
                try:
                    return got, json.loads(got.schema)
                except ValueError:
                    raise ValueError(f"referenced schema id {got.id} is not JSON") from None
        raise ValueError(f"schema id {schema.id} has a $ref to {name[:80]!r}, which none of its references names")


class _Builder:
    def __init__(self, reader: JsonSchemaReader, schema: Schema) -> None:
        self.reader = reader
        self.schema = schema

    def type_of(self, node: Any, root: Any, refs: tuple[str, ...], owner: Schema | None = None) -> JType:
        owner = owner or self.schema
        if not isinstance(node, dict):
            return ("json", None)  # true/false schemas
        ref = node.get("$ref")
        if isinstance(ref, str):
            key = f"{owner.id}:{ref}"
            if key in refs:
                return ("json", None)  # a recursive type has no column type: its values are JSON text
            doc_name, _, pointer = ref.partition("#")
            target_root, target_owner = root, owner
            if doc_name:
                target_owner, target_root = self.reader.target(owner, doc_name)
            return self.type_of(_pointer(target_root, pointer, owner.id, ref), target_root, (*refs, key), target_owner)
        for union in ("anyOf", "oneOf"):
            branches = node.get(union)
            if isinstance(branches, list):
                real = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
                if len(real) == 1:
                    return self.type_of(real[0], root, refs, owner)
                return ("json", None)
        t = node.get("type")
        if isinstance(t, list):
            real = [x for x in t if x != "null"]
            t = real[0] if len(real) == 1 else None
            if t is None:
                return ("json", None)
        if t is None and isinstance(node.get("properties"), dict):
            t = "object"
        if t is None and isinstance(node.get("enum"), list) and all(isinstance(x, str) for x in node["enum"]):
            t = "string"
        if t == "object":
            props = node.get("properties")
            if not isinstance(props, dict) or not props:
                return ("json", None)
            required: list[Any] = node["required"] if isinstance(node.get("required"), list) else []
            return ("struct", [(name, self.type_of(sub, root, refs, owner), name in required)
                               for name, sub in props.items()])
        if t == "array":
            items = node.get("items")
            return ("list", self.type_of(items, root, refs, owner)) if isinstance(items, dict) else ("json", None)
        if t in ("integer", "number", "boolean", "string"):
            return (t, None)
        return ("json", None)


def _pointer(doc: Any, pointer: str, schema_id: int, ref: str) -> Any:
    node = doc
    for part in [p for p in pointer.split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise ValueError(f"schema id {schema_id}: $ref {ref[:80]!r} points to nothing")
    return node


def arrow_type(t: JType) -> Any:
    """The Arrow type of a column type (JSON text nodes are strings)."""
    from .arrow_types import _pa

    p = _pa()
    kind, detail = t
    if kind == "struct":
        return p.struct([p.field(name, arrow_type(sub)) for name, sub, _ in detail])
    if kind == "list":
        return p.list_(arrow_type(detail))
    return {"integer": p.int64(), "number": p.float64(), "boolean": p.bool_(), "string": p.string(),
            "json": p.string()}[kind]


def conform(value: Any, t: JType, column: bool = False, path: str = "$") -> Any:
    """``value`` (parsed JSON) checked against the column type ``t``: a ValueError naming the path where it
    does not fit. With ``column``, the value as its Arrow column holds it (JSON text nodes as text)."""
    kind, detail = t
    if value is None or kind == "json":
        return None if value is None else (json.dumps(value, ensure_ascii=False) if column else value)
    if kind == "struct":
        if not isinstance(value, dict):
            raise ValueError(f"{path} is {_what(value)}, not an object")
        names = {name for name, _, _ in detail}
        extra = [k for k in value if k not in names]
        if extra:
            raise ValueError(f"{path} has property {extra[0][:80]!r}, which the schema's properties do not name "
                             "(it has no column)")
        out: dict[str, Any] = {}
        for name, sub, required in detail:
            if name not in value:
                if required:
                    raise ValueError(f"{path} lacks the required property {name!r}")
                out[name] = None
            else:
                out[name] = conform(value[name], sub, column, f"{path}.{name}")
        return out
    if kind == "list":
        if not isinstance(value, list):
            raise ValueError(f"{path} is {_what(value)}, not an array")
        return [conform(x, detail, column, f"{path}[{i}]") for i, x in enumerate(value)]
    if kind == "integer":
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{path} is {_what(value)}, not an integer")
        if not INT64[0] <= value <= INT64[1]:
            raise ValueError(f"{path} is {value}, beyond a 64-bit integer")
        return value
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{path} is {_what(value)}, not a number")
        if not column:
            return value
        try:
            return float(value)
        except OverflowError:
            raise ValueError(f"{path} is a number beyond a 64-bit float") from None
    if kind == "boolean":
        if not isinstance(value, bool):
            raise ValueError(f"{path} is {_what(value)}, not a boolean")
        return value
    if not isinstance(value, str):
        raise ValueError(f"{path} is {_what(value)}, not a string")
    return value


def _what(v: Any) -> str:
    if isinstance(v, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "an integer", float: "a number"}.get(
        type(v), type(v).__name__)
