"""What a parsed Avro schema is checked for before its values are read (:mod:`.avro`), each a walk of the
schema without recursion or with each named type once: how deep its values nest with its named types
expanded, whether a value can take no bytes and how many values such an empty datum holds, which
named types hold themselves and whether they have a way out, unions, and fastavro's own keys in a
schema's text. Each is a bound on what a hostile ``_schemas`` topic can make a read cost.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "MAX_EMPTY_VALUES",
    "comparable",
    "empty_expansion",
    "expanded_depth",
    "has_union",
    "internal_key",
    "named_types",
    "recursion",
    "zero_width_items",
]

#: the most values a datum of 0 bytes (a record of nulls and such records) may decode into: named types
#: that share each other double with each level, and 40 levels of 6 KB of text made one empty body a
#: value of 2^40 nulls. With it, a body decodes into at most this many values per byte.
MAX_EMPTY_VALUES = 1000


def expanded_depth(schema: Any, named: dict[str, Any]) -> int:
    """How many levels (records, arrays, maps) a value of the parsed ``schema`` nests with its named types
    expanded; a named type met again inside itself counts nothing more there. A walk without recursion,
    each node once, as a chain of references can make the expanded depth far more than a text's."""

    def children(t: Any) -> list[Any]:
        if isinstance(t, str):
            return [named[t]] if t in named else []
        if isinstance(t, list):
            return t
        if isinstance(t, dict):
            kind = t.get("type")
            if kind in ("record", "error"):
                return [f.get("type") for f in t.get("fields", []) if isinstance(f, dict)]
            if kind == "array":
                return [t.get("items")]
            if kind == "map":
                return [t.get("values")]
            if kind in ("enum", "fixed"):
                return []
            return [kind]
        return []

    def own(t: Any) -> int:
        return 1 if isinstance(t, dict) and t.get("type") in ("record", "error", "array", "map") else 0

    depth: dict[int, int] = {}
    on_path: set[int] = set()
    keep: list[Any] = []  # every node walked stays alive while its id() is a key
    stack: list[tuple[Any, bool]] = [(schema, False)]
    while stack:
        node, done = stack.pop()
        if isinstance(node, str) and node in named:
            node = named[node]
        k = id(node)
        if done:
            on_path.discard(k)
            depth[k] = own(node) + max(
                (
                    depth.get(id(named[c]) if isinstance(c, str) and c in named else id(c), 0)
                    for c in children(node)
                ),
                default=0,
            )
            continue
        if k in depth or k in on_path:
            continue
        on_path.add(k)
        keep.append(node)
        stack.append((node, True))
        stack.extend((c, False) for c in children(node))
    return depth[id(schema if not (isinstance(schema, str) and schema in named) else named[schema])]


def internal_key(doc: Any) -> str | None:
    """A key of fastavro's own parsed form (``__fastavro_parsed``, ``__named_schemas``) anywhere in ``doc``:
    given one, fastavro takes a schema as parsed and checked already, or takes named types from it."""
    todo = [doc]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k.startswith("__fastavro") or k == "__named_schemas":
                    return k
                todo.append(v)
        elif isinstance(node, list):
            todo.extend(node)
    return None


def comparable(t: Any) -> str:
    """A parsed named type as text that two equal definitions share (fastavro's own keys left out)."""

    def plain(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: plain(v) for k, v in x.items() if not k.startswith("__")}
        if isinstance(x, list):
            return [plain(v) for v in x]
        return x

    return json.dumps(plain(t), sort_keys=True, default=repr)


def _zero_width(
    t: Any, named: dict[str, Any], memo: dict[str, bool], seen: frozenset[str] = frozenset()
) -> bool:
    """Whether a datum of type ``t`` can take 0 bytes (null, fixed of size 0, records of such). Each named
    type is worked out once (``memo``): the names of a schema can share their types in a lattice whose
    paths double with each level (40 levels, 6 KB of text: 2^40 walks). A type met again inside itself
    has no 0-byte datum there (only unions, arrays and maps end such a nesting, and they take bytes)."""
    if isinstance(t, str):
        if t == "null":
            return True
        if t in named:
            if t in memo:
                return memo[t]
            return False if t in seen else _zero_width(named[t], named, memo, seen)
        return False
    if isinstance(t, list):  # a union writes its branch index: at least one byte
        return False
    if not isinstance(t, dict):
        return False
    kind = t.get("type")
    name = t.get("name") if kind in ("record", "error", "enum", "fixed") else None
    if isinstance(name, str):
        if name in memo:
            return memo[name]
        if name in seen:
            return False
        seen = seen | {name}
    if kind == "fixed":
        got = t.get("size") == 0
    elif kind in ("record", "error"):
        got = all(_zero_width(f["type"], named, memo, seen) for f in t.get("fields", []))
    elif kind in ("array", "map", "enum") or not isinstance(kind, str):
        got = False
    else:
        got = _zero_width(kind, named, memo, seen)
    if isinstance(name, str):
        memo[name] = got
    return got


def empty_expansion(schema: Any) -> str | None:
    """The name of a named type of the parsed ``schema`` whose datum takes 0 bytes yet decodes into more
    than :data:`MAX_EMPTY_VALUES` values, or None. Each type is counted once, capped at the bound."""
    named = named_types(schema)
    zero: dict[str, bool] = {}
    sizes: dict[str, int] = {}

    def size(t: Any) -> int:  # only for types that take 0 bytes, so records of such and nulls
        if isinstance(t, str):
            return size(named[t]) if t in named else 1
        if isinstance(t, dict):
            kind = t.get("type")
            if kind in ("record", "error"):
                name = t.get("name")
                if not isinstance(name, str):
                    return min(MAX_EMPTY_VALUES + 1, 1 + sum(size(f["type"]) for f in t.get("fields", [])))
                if name not in sizes:  # each record once, wherever it is met (by name or where it is defined)
                    sizes[name] = MAX_EMPTY_VALUES + 1  # met again inside itself: no finite value, no bound
                    sizes[name] = min(
                        MAX_EMPTY_VALUES + 1, 1 + sum(size(f["type"]) for f in t.get("fields", []))
                    )
                return sizes[name]
            if kind in ("fixed", "enum") or not isinstance(kind, str):
                return 1
            return size(kind)
        return 1

    for name in named:
        if _zero_width(name, named, zero) and size(name) > MAX_EMPTY_VALUES:
            return name
    return None


def zero_width_items(schema: Any, _seen: set[int]) -> str | None:
    """'an array' or 'a map' when ``schema`` (parsed) holds one whose items can take 0 bytes."""
    named = named_types(schema)
    memo: dict[str, bool] = {}

    def walk(t: Any) -> str | None:
        if isinstance(t, dict):
            kind = t.get("type")
            if kind == "array" and _zero_width(t.get("items"), named, memo):
                return "an array"
            if kind == "map" and _zero_width(t.get("values"), named, memo):
                return "a map"
            for v in t.values():
                found = walk(v)
                if found:
                    return found
        elif isinstance(t, list):
            for v in t:
                found = walk(v)
                if found:
                    return found
        return None

    return walk(schema)


def has_union(t: Any) -> bool:
    """Whether the (parsed) type ``t`` holds a union anywhere."""
    if isinstance(t, list):
        return True
    if isinstance(t, dict):
        if t.get("type") in ("record", "error"):
            return any(has_union(f.get("type")) for f in t.get("fields", []))
        return any(has_union(t.get(k)) for k in ("type", "items", "values") if not isinstance(t.get(k), str))
    return False


def named_types(schema: Any) -> dict[str, Any]:
    """Every named type (record, error, enum, fixed) a parsed schema defines or takes from its references."""
    named: dict[str, Any] = dict(schema.get("__named_schemas", {})) if isinstance(schema, dict) else {}

    def collect(t: Any) -> None:
        if isinstance(t, dict):
            if t.get("type") in ("record", "error", "enum", "fixed") and "name" in t:
                named.setdefault(t["name"], t)
            for v in t.values():
                collect(v)
        elif isinstance(t, list):
            for v in t:
                collect(v)

    collect(schema)
    return named


def recursion(schema: Any) -> tuple[bool, str | None]:
    """(whether a named type of the parsed ``schema`` holds itself, the name of a type that has no finite
    value: one that holds itself in a field with no union, array or map on the way back)."""
    named = named_types(schema)

    def refs(t: Any) -> set[str]:
        if isinstance(t, str):
            return {t} if t in named else set()
        if isinstance(t, list):
            return set().union(*(refs(b) for b in t)) if t else set()
        if isinstance(t, dict):
            kind = t.get("type")
            if kind in ("record", "error"):
                return (
                    set().union(*(refs(f.get("type")) for f in t.get("fields", [])))
                    if t.get("fields")
                    else set()
                )
            if kind == "array":
                return refs(t.get("items"))
            if kind == "map":
                return refs(t.get("values"))
            return refs(kind) if isinstance(kind, str) and kind not in ("enum", "fixed") else set()
        return set()

    edges = {name: refs(t) for name, t in named.items()}
    recursive = _has_cycle(edges)

    def finite(
        t: Any, ok: set[str]
    ) -> bool:  # a finite value exists, given the named types in ``ok`` have one
        if isinstance(t, str):
            return t in ok if t in named else True
        if isinstance(t, list):
            return any(finite(b, ok) for b in t)
        if isinstance(t, dict):
            kind = t.get("type")
            if kind in ("record", "error"):
                return all(finite(f.get("type"), ok) for f in t.get("fields", []))
            if kind in ("array", "map", "enum", "fixed"):
                return True  # an empty array or map ends the nesting
            return finite(kind, ok)
        return True

    ok: set[str] = set()
    grew = True
    while grew:  # the least fixed point: types with a finite value, found bottom up
        grew = False
        for name, t in named.items():
            if name not in ok and finite(t, ok):
                ok.add(name)
                grew = True
    endless = sorted(set(named) - ok)
    return recursive, endless[0] if endless else None


def _has_cycle(edges: dict[str, set[str]]) -> bool:
    """Whether the graph ``edges`` has a cycle (a self-loop too): one depth-first walk without recursion,
    each name and edge once (a walk from every name was N x E: seconds for a few hundred KB of schema)."""
    state: dict[str, bool] = {}  # name -> on the walk's path (True) or done (False)
    for root in edges:
        if root in state:
            continue
        state[root] = True
        stack = [(root, iter(edges[root]))]
        while stack:
            node, todo = stack[-1]
            name = next(todo, None)
            if name is None:
                state[node] = False
                stack.pop()
            elif state.get(name) is True:
                return True
            elif name not in state:
                state[name] = True
                stack.append((name, iter(edges.get(name, ()))))
    return False
