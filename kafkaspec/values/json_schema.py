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

from .bounds import MAX_DEPTH, MAX_TYPE_NODES
from .registry import referenced
from .schemas_topic import Reference, Schema

__all__ = ["JsonSchemaReader", "JType"]

INT64 = (-(1 << 63), (1 << 63) - 1)


#: a column type: (kind, detail); kind is struct, list, integer, number, boolean, string or json;
#: a struct's detail is [(name, type, required)], a list's its items' type
JType = tuple[str, Any]

_JSON: JType = ("json", None)
#: no level of the current ``$ref`` path was met again (see :meth:`_Builder.type_of`)
_NONE = 1 << 30


class _TooBig(ValueError):
    pass


class JsonSchemaReader:
    """Column types of JSON Schemas by id; ``resolve(subject, version)`` finds a referenced schema."""

    def __init__(self, resolve: Callable[[str, int], Schema | None]) -> None:
        self._resolve = resolve
        self._types: dict[int, JType | str] = {}
        #: schema id -> its references by name (the first of a name, as a walk of them would find)
        self._names: dict[int, dict[str, Reference]] = {}
        #: schema id -> its parsed text, or why it has none
        self._docs: dict[int, Any] = {}

    def column(self, schema: Schema) -> JType:
        """The column type of ``schema``'s values; ValueError naming the id when it is not a JSON Schema
        or has no column type within the bounds (:data:`MAX_TYPE_NODES`, :data:`MAX_DEPTH`)."""
        got = self._types.get(schema.id)
        if isinstance(got, str):
            raise ValueError(got)
        if got is None:
            try:
                doc = self.doc(schema, f"schema id {schema.id}")
                got = _Builder(self).type_of(doc, doc, schema, 0)[0]
            except _TooBig as exc:
                self._types[schema.id] = (
                    f"schema id {schema.id}: {exc}, so its values are not decoded (kept as bytes)"
                )
                raise ValueError(self._types[schema.id]) from None
            except ValueError as exc:
                self._types[schema.id] = str(exc)
                raise
            self._types[schema.id] = got
        return got

    def doc(self, schema: Schema, what: str) -> Any:
        """``schema``'s text parsed (once per id); ValueError ``what ... is not JSON``."""
        got = self._docs.get(schema.id)
        if got is None:
            try:
                got = (json.loads(schema.schema),)
            except ValueError as exc:
                got = f"is not JSON: {exc}"
            except RecursionError:
                got = "is not JSON: nested deeper than Python's reader goes"
            self._docs[schema.id] = got
        if isinstance(got, str):
            raise ValueError(f"{what} {got}")
        return got[0]

    def target(self, schema: Schema, name: str) -> tuple[Schema, Any]:
        """The schema a reference name points to, parsed."""
        names = self._names.get(schema.id)
        if names is None:
            names = self._names[schema.id] = {}
            for r in schema.references:
                names.setdefault(r.name, r)
        ref = names.get(name)
        if ref is None:
            raise ValueError(
                f"schema id {schema.id} has a $ref to {name[:80]!r}, which none of its references names"
            )
        got = referenced(self._resolve, schema.id, ref)
        return got, self.doc(got, f"referenced schema id {got.id}")


class _Builder:
    """One schema's column type. A ``$ref`` whose type does not depend on the way it was reached is
    built once; every type is counted in nodes as it would be expanded (:data:`MAX_TYPE_NODES`), so the
    work is bounded by the bound times the depth, whatever the schema."""

    def __init__(self, reader: JsonSchemaReader) -> None:
        self.reader = reader
        self.nodes = 0
        #: the deepest level reached so far (a type built once must fit below the level it is reached at)
        self.reached = 0
        #: (schema id, pointer parts) of each ``$ref`` being expanded -> its level on that path
        self.path: dict[tuple[int, tuple[str, ...]], int] = {}
        #: the same key -> (type, its expanded size, how many levels it spans) of a ``$ref`` whose
        #: expansion met no ``$ref`` of its path
        self.done: dict[tuple[int, tuple[str, ...]], tuple[JType, int, int]] = {}
        #: id() of a schema node -> (its :meth:`shape`, the node, kept alive while its id() is a key)
        self.shapes: dict[int, tuple[tuple[str, Any], Any]] = {}
        #: (schema id, ``$ref`` text) -> (key, target schema, its root, the node pointed to)
        self.refs: dict[tuple[int, str], tuple[tuple[int, tuple[str, ...]], Schema, Any, Any]] = {}

    def count(self, n: int) -> None:
        self.nodes += n
        if self.nodes > MAX_TYPE_NODES:
            raise _TooBig(
                f"its column type has more than {MAX_TYPE_NODES:,} nodes once its $refs are expanded"
            )

    def deeper(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _TooBig(f"$refs and nesting deeper than {MAX_DEPTH} levels")
        self.reached = max(self.reached, depth)

    def leaf(self, t: JType, low: int = _NONE) -> tuple[JType, int, int]:
        self.count(1)
        return t, 1, low

    def type_of(self, node: Any, root: Any, owner: Schema, depth: int) -> tuple[JType, int, int]:
        """(the column type of ``node``, its expanded size in nodes, the lowest level of the ``$ref`` path
        that its expansion met again, :data:`_NONE` if none). A ``$ref`` met again along the path is a
        recursive type: JSON text there. A ``$ref`` whose expansion met no ``$ref`` of the path is the same
        type wherever it is reached, and is built once."""
        self.deeper(depth)
        if not isinstance(node, dict):
            return self.leaf(_JSON)  # true/false schemas
        ref = node.get("$ref")
        if isinstance(ref, str):
            key, target_owner, target_root, target = self.resolve(ref, root, owner)
            level = self.path.get(key)
            if level is not None:
                return self.leaf(
                    _JSON, level
                )  # a recursive type has no column type: its values are JSON text
            memo = self.done.get(key)
            if memo is not None:
                self.deeper(depth + memo[2])
                self.count(memo[1])
                return memo[0], memo[1], _NONE
            level = self.path[key] = len(self.path)
            outer, self.reached = self.reached, depth
            try:
                t, size, low = self.type_of(target, target_root, target_owner, depth + 1)
            finally:
                del self.path[key]
            if low == _NONE:
                self.done[key] = (t, size, self.reached - depth)
            self.reached = max(outer, self.reached)
            return t, size, low if low < level else _NONE
        kind, detail = self.shape(node)
        if kind == "one":
            return self.type_of(detail, root, owner, depth + 1)
        if kind == "object":
            props, required = detail
            self.count(1)
            fields, size, low = [], 1, _NONE
            for name, sub in props.items():
                ft, fsize, flow = self.type_of(sub, root, owner, depth + 1)
                fields.append((name, ft, name in required))
                size, low = size + fsize, min(low, flow)
            return ("struct", fields), size, low
        if kind == "array":
            self.count(1)
            it, isize, low = self.type_of(detail, root, owner, depth + 1)
            return ("list", it), isize + 1, low
        return self.leaf((kind, None))

    def shape(self, node: dict[str, Any]) -> tuple[str, Any]:
        """What a schema node (not a ``$ref``) is, worked out once per node (a node reached again through
        several ``$ref``s is not read again: an ``enum`` or ``required`` list may be long): ("one", the
        one non-null branch), ("object", (properties, required names)), ("array", the items' schema), or
        a leaf kind (integer, number, boolean, string, json)."""
        got = self.shapes.get(id(node))
        if got is None:
            got = self.shapes[id(node)] = (_shape(node), node)
        return got[0]

    def resolve(
        self, ref: str, root: Any, owner: Schema
    ) -> tuple[tuple[int, tuple[str, ...]], Schema, Any, Any]:
        """(the key of the node ``ref`` points to, its schema, that schema's root, the node); once per text."""
        got = self.refs.get((owner.id, ref))
        if got is None:
            doc_name, _, pointer = ref.partition("#")
            target_owner, target_root = (owner, root) if not doc_name else self.reader.target(owner, doc_name)
            parts = tuple(p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/") if p)
            got = self.refs[(owner.id, ref)] = (
                (target_owner.id, parts),
                target_owner,
                target_root,
                _pointer(target_root, parts, owner.id, ref),
            )
        return got


def _shape(node: dict[str, Any]) -> tuple[str, Any]:
    """:meth:`_Builder.shape`, worked out."""
    for union in ("anyOf", "oneOf"):
        branches = node.get(union)
        if isinstance(branches, list):
            real = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
            return ("one", real[0]) if len(real) == 1 else ("json", None)
    kind = node.get("type")
    if isinstance(kind, list):
        real = [x for x in kind if x != "null"]
        kind = real[0] if len(real) == 1 else None
        if kind is None:
            return ("json", None)
    if kind is None and isinstance(node.get("properties"), dict):
        kind = "object"
    if kind is None and isinstance(node.get("enum"), list) and all(isinstance(x, str) for x in node["enum"]):
        kind = "string"
    if kind == "object":
        props = node.get("properties")
        if not isinstance(props, dict) or not props:
            return ("json", None)
        required = node.get("required")
        return (
            "object",
            (props, {x for x in required if isinstance(x, str)} if isinstance(required, list) else set()),
        )
    if kind == "array":
        items = node.get("items")
        return ("array", items) if isinstance(items, dict) else ("json", None)
    if kind in ("integer", "number", "boolean", "string"):
        return (kind, None)
    return ("json", None)


def _pointer(doc: Any, parts: tuple[str, ...], schema_id: int, ref: str) -> Any:
    node = doc
    for part in parts:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise ValueError(f"schema id {schema_id}: $ref {ref[:80]!r} points to nothing")
    return node


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
            raise ValueError(
                f"{path} has property {extra[0][:80]!r}, which the schema's properties do not name "
                "(it has no column)"
            )
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
        type(v), type(v).__name__
    )
