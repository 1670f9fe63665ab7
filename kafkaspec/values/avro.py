"""Registry-framed Avro payloads, read by fastavro: the writer's schema by id, resolved to the topic's
one reader schema (its subject's latest version), so every record of a topic has one shape.

Parsed schemas and reader/writer pairs are cached by id: a topic costs one parse per schema id.
References are named types another subject-version defines; they are parsed first, into the names
the referring schema sees.

Recursive types (a named type that holds itself: lists, trees): fastavro's compiled reader recurses on
the C stack once per level of a value's nesting, and a few thousand levels crash the process. Every
level of a recursive value takes at least one byte (a union's branch index, an array's or map's
count; a type that holds itself with no such way out has no finite value and its schema is refused),
so a body of at most :data:`COMPILED_DEPTH` bytes is safe for the compiled reader; a longer one is
read by fastavro's pure-Python reader, whose recursion limit makes a deeper value an error of its
record instead of a crash. A value nested more than :data:`MAX_NESTING` levels deep is an error of
its record too, so that every decoded value can be shown as JSON (Python's JSON encoder stops at
about 1,000 levels).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from typing import Any

from kafkaspec.codec.extras import require

from .avro_checks import (
    MAX_EMPTY_VALUES,
    comparable,
    empty_expansion,
    expanded_depth,
    has_union,
    internal_key,
    named_types,
    recursion,
    zero_width_items,
)
from .primitives import MAX_NESTING, nesting
from .registry import referenced
from .schemas_topic import Reference, Schema

__all__ = [
    "COMPILED_DEPTH",
    "FAILED",
    "MAX_EMPTY_VALUES",
    "MAX_REFERENCE_DEPTH",
    "MAX_SCHEMA_DEPTH",
    "AvroReader",
]

#: what :meth:`AvroReader.read_many` puts where :meth:`AvroReader.read` would raise (it then says why)
FAILED: Any = object()
_PRIMITIVE = frozenset(("null", "boolean", "int", "long", "float", "double", "string", "bytes"))

#: the longest body of a recursive schema read by fastavro's compiled reader: its nesting is at most this
#: deep, a quarter of the depth at which that reader overflowed an 8 MiB C stack here (about 4,500 levels)
COMPILED_DEPTH = 1000
#: the longest chain of references (a schema's reference's reference ...) followed; a longer one is an
#: error of the records of the schema (3,000 ran Python's stack out). Registries' own chains are a few long.
MAX_REFERENCE_DEPTH = 64
#: the deepest a schema's text nests (JSON levels), and a value of it with its named types expanded (a
#: recursive type once: its values are bounded as the module docstring says): a deeper schema is an error
#: of its records. Its walks here and fastavro's compiled reader recurse once per level (a value 4,500
#: levels deep crashed the process), and a chain of references can put named types inside each other.
MAX_SCHEMA_DEPTH = 200


class _Strict(io.BytesIO):
    """A buffer whose reads return all the bytes asked for or raise EOFError."""

    def read(self, n: int | None = -1) -> bytes:
        got = super().read(n)
        if n is not None and n >= 0 and len(got) != n:
            raise EOFError(f"wanted {n} bytes, {len(got)} left")
        return got


class AvroReader:
    """Avro bodies by (writer id, reader id); ``resolve(ref)`` finds a referenced subject-version."""

    def __init__(self, resolve: Callable[[str, int], Schema | None]) -> None:
        self._fastavro = require("fastavro", "values", "decoding Avro values")
        self._resolve = resolve
        self._parsed: dict[int, Any] = {}
        #: schema id -> why it does not parse
        self._failed: dict[int, str] = {}
        #: the ids of the schemas that hold a union
        self._unions: set[int] = set()
        #: the ids of the schemas with a recursive type (module docstring), and ``id()`` of their parsed forms
        self._recursive: set[int] = set()
        self._recursive_parsed: set[int] = set()

    def parsed(self, schema: Schema) -> Any:
        """fastavro's parsed form of ``schema`` (references first); raises ValueError naming the id. A schema
        that does not parse is refused once: its reason is kept for the next record of that id."""
        got = self._parsed.get(schema.id)
        if got is None:
            failed = self._failed.get(schema.id)
            if failed is not None:
                raise ValueError(failed)
            try:
                got = self._parse(schema)
            except (
                RecursionError
            ):  # not expected within MAX_SCHEMA_DEPTH: an error of the schema all the same
                self._failed[schema.id] = f"schema id {schema.id} is nested too deep to be read here"
                raise ValueError(self._failed[schema.id]) from None
            except ValueError as exc:
                self._failed[schema.id] = str(exc)
                raise
        return got

    def _parse(self, schema: Schema) -> Any:
        named = _Names()
        #: each name in ``named`` -> what defined it, for the message of a redefinition
        defined: dict[str, str] = {}
        for target, what in self._references(schema):
            self._parse_into(schema, target, what, named, defined)
        got = self._parse_into(schema, schema, "the schema itself", named, defined)
        if expanded_depth(got, named_types(got)) > MAX_SCHEMA_DEPTH:
            raise ValueError(
                f"schema id {schema.id}: its values nest more than {MAX_SCHEMA_DEPTH} levels deep with its "
                "named types expanded, so they are not decoded (kept as bytes)"
            )
        where = zero_width_items(got, set())
        if where:
            raise ValueError(
                f"schema id {schema.id} has {where} of items written in 0 bytes: ten bytes could "
                "claim 2^63 of them, so its values are not decoded (kept as bytes)"
            )
        empty = empty_expansion(got)
        if empty:
            raise ValueError(
                f"schema id {schema.id}: a value of its type {empty[:80]} takes 0 bytes yet holds more "
                f"than {MAX_EMPTY_VALUES} values (its types share each other), so its values are not "
                "decoded (kept as bytes)"
            )
        recursive, endless = recursion(got)
        if endless:
            raise ValueError(
                f"schema id {schema.id}: type {endless} holds itself in every field: it has no finite "
                "value, so no value of this schema is decoded (kept as bytes)"
            )
        self._parsed[schema.id] = got
        if has_union(got):
            self._unions.add(schema.id)
        if recursive:
            self._recursive.add(schema.id)
            self._recursive_parsed.add(id(got))
        return got

    def _references(self, schema: Schema) -> list[tuple[Schema, str]]:
        """The schemas ``schema`` references, directly or not, each once and after the ones it references
        (a depth-first walk without recursion, at most :data:`MAX_REFERENCE_DEPTH` deep), with what each is
        to ``schema`` (for messages)."""
        order: list[tuple[Schema, str]] = []
        seen = {schema.id}
        stack: list[tuple[Schema, str, Iterator[Reference]]] = [(schema, "", iter(schema.references))]
        while stack:
            owner, what, refs = stack[-1]
            ref = next(refs, None)
            if ref is None:
                stack.pop()
                if stack:
                    order.append((owner, what))
                continue
            target = referenced(self._resolve, owner.id, ref)
            if target.id in seen:
                continue
            if len(stack) > MAX_REFERENCE_DEPTH:
                raise ValueError(
                    f"schema id {schema.id}: references nested more than {MAX_REFERENCE_DEPTH} deep (at "
                    f"subject {ref.subject[:80]!r} version {ref.version}), so its values are not decoded "
                    "(kept as bytes)"
                )
            seen.add(target.id)
            what = (
                f"its reference {ref.name[:80]!r}, subject {ref.subject[:80]!r} version {ref.version} "
                f"(schema id {target.id})"
            )
            stack.append((target, what, iter(target.references)))
        return order

    def _parse_into(
        self, schema: Schema, part: Schema, what: str, named: _Names, defined: dict[str, str]
    ) -> Any:
        """``part`` (``schema`` or one it references, ``what`` it is to it) parsed with the named types of
        those parsed before. fastavro refuses a name defined twice within one parse but lets a later parse
        replace a name in ``named``: here a type defined again otherwise is refused, as Java's Avro refuses
        it ("Can't redefine"), so that no decoding depends on the order of the references. A type defined
        again the same way (two references sharing one) is taken once."""
        try:
            doc = json.loads(part.schema)
            key = internal_key(doc)
            deep = nesting(doc) > MAX_SCHEMA_DEPTH
            named.before = {}
            got = None if key is not None or deep else self._fastavro.parse_schema(doc, named_schemas=named)
        except Exception as exc:  # fastavro raises several kinds for a schema it cannot parse
            if part is schema:
                raise ValueError(
                    f"schema id {schema.id} is not an Avro schema fastavro can parse: {exc}"
                ) from None
            raise ValueError(f"referenced schema id {part.id} does not parse: {exc}") from None
        text = f"schema id {schema.id}" if part is schema else f"schema id {schema.id}: {what},"
        if deep:
            raise ValueError(
                f"{text} nests more than {MAX_SCHEMA_DEPTH} levels deep, so its values are not decoded "
                "(kept as bytes)"
            )
        if key is not None:
            raise ValueError(
                f"{text} holds the key {key!r}, fastavro's own (it would take the schema as "
                "checked), so its values are not decoded (kept as bytes)"
            )
        for name, old in named.before.items():
            if old is _ABSENT:
                defined[name] = what
            elif named[name] is not old:
                if comparable(named[name]) != comparable(old):
                    raise ValueError(
                        f"schema id {schema.id}: {_clause(what)} redefines the Avro type {name} that "
                        f"{_clause(defined[name])} defined otherwise (Avro has one definition per "
                        "name), so its values are not decoded (kept as bytes)"
                    )
        return got

    def read(self, body: bytes, writer: Schema, reader: Schema | None) -> Any:
        """One record: the body must hold exactly one datum of ``writer``'s schema."""
        w = self.parsed(writer)
        r = None if reader is None or reader.id == writer.id else self.parsed(reader)
        if writer.id in self._unions:
            # fastavro takes a negative union index as Python does (from the end of the branches): a
            # datum whose bytes are not what Avro writes for it is refused by writing it back. Read with
            # the writer's schema alone, every byte is checked, so the resolving read needs no strict buffer
            datum = self._read(body, w, None, writer.id, io.BytesIO)
            if self._fastavro_write(w, datum) != body:
                raise ValueError(
                    f"not an Avro datum of schema id {writer.id}: its bytes are not what Avro writes "
                    "for the datum they decode to (a negative union branch index, or an overlong varint)"
                )
            return datum if r is None else self._read(body, w, r, writer.id, io.BytesIO)
        # resolving to another schema, fastavro skips the writer's fields the reader lacks without checking
        # that their bytes are there: a strict buffer refuses a short read there (reading a field checks)
        return self._read(body, w, r, writer.id, io.BytesIO if r is None else _Strict)

    def read_many(self, bodies: list[bytes], writer: Schema, reader: Schema | None) -> list[Any]:
        """:meth:`read` of each of ``bodies`` (all of ``writer``), in one loop with the schemas looked up
        once: a body :meth:`read` refuses is :data:`FAILED` here, and :meth:`read` of it names the reason
        (the batch path keeps no reasons: bad values are rare, and their texts stay in one place)."""
        w = self.parsed(writer)
        r = None if reader is None or reader.id == writer.id else self.parsed(reader)
        if writer.id in self._recursive or (r is not None and id(r) in self._recursive_parsed):
            return [self._or_failed(b, writer, reader) for b in bodies]  # the depth rules of read()
        read = self._fastavro.schemaless_reader
        write = self._fastavro.schemaless_writer
        plain = io.BytesIO
        out: list[Any] = []
        append = out.append
        if writer.id not in self._unions:
            buffer = plain if r is None else _Strict  # read(): a resolving read checks the skipped fields
            for body in bodies:
                bio = buffer(body)
                try:
                    datum = read(bio, w, r)
                except Exception:  # read() names it
                    append(FAILED)
                    continue
                append(datum if bio.tell() == len(body) else FAILED)
            return out
        project, defaults = self._projection(w, r) if r is not None else (None, {})
        for body in bodies:
            # read(): the writer's schema alone, every byte checked, and the datum written back to the same bytes
            bio = plain(body)
            try:
                datum = read(bio, w, None)
                if bio.tell() != len(body):
                    append(FAILED)
                    continue
                back = plain()
                write(back, w, datum)
                if back.getvalue() != body:
                    append(FAILED)
                    continue
                if project is not None:
                    datum = {name: datum[name] if name in datum else defaults[name] for name in project}
                elif r is not None:
                    bio = plain(body)
                    datum = read(bio, w, r)
                    if bio.tell() != len(body):
                        append(FAILED)
                        continue
            except Exception:  # read() names it
                append(FAILED)
                continue
            append(datum)
        return out

    def _projection(self, w: Any, r: Any) -> tuple[list[str] | None, dict[str, Any]]:
        """(the reader's field names, the defaults of those the writer lacks) when resolving a writer's
        datum to the reader is picking fields: both records of one name, each shared field of the same type,
        each added field of a primitive type (or a union of them) with a default, no aliases. Else (None, {}):
        the datum is read again with both schemas. The defaults are fastavro's own: the added fields read
        from an empty record of the same name."""
        if not (
            isinstance(w, dict)
            and isinstance(r, dict)
            and w.get("type") == r.get("type") == "record"
            and w.get("name") == r.get("name")
        ):
            return None, {}
        nw, nr = named_types(w), named_types(r)
        if any(nw[n] != nr[n] for n in nw.keys() & nr.keys() if n != r["name"]):
            return None, {}  # a shared field naming a type whose definitions differ (references) resolves it
        types = {f["name"]: f["type"] for f in w["fields"]}
        added = []
        for f in r["fields"]:
            if f.get("aliases"):
                return None, {}
            if f["name"] in types:
                if types[f["name"]] != f["type"]:
                    return None, {}
                continue
            branches = f["type"] if isinstance(f["type"], list) else [f["type"]]
            if "default" not in f or not all(isinstance(b, str) and b in _PRIMITIVE for b in branches):
                return None, {}
            added.append(f)
        try:
            empty = {"type": "record", "name": r["name"], "fields": []}
            defaults = self._fastavro.schemaless_reader(
                io.BytesIO(b""),
                self._fastavro.parse_schema(empty),
                self._fastavro.parse_schema({**empty, "fields": added}),
            )
        except Exception:  # a default fastavro refuses: the resolving read says so per record
            return None, {}
        return [f["name"] for f in r["fields"]], defaults

    def _or_failed(self, body: bytes, writer: Schema, reader: Schema | None) -> Any:
        try:
            return self.read(body, writer, reader)
        except ValueError:
            return FAILED

    def _python_reader(self) -> Callable[..., Any]:
        """fastavro's pure-Python reader (module docstring: deep values of recursive types)."""
        from fastavro._read_py import schemaless_reader  # the compiled reader's own fallback module

        return schemaless_reader

    def _fastavro_write(self, w: Any, datum: Any) -> bytes:
        out = io.BytesIO()
        self._fastavro.schemaless_writer(out, w, datum)
        return out.getvalue()

    def _read(self, body: bytes, w: Any, r: Any, writer_id: int, buffer: type[io.BytesIO]) -> Any:
        bio = buffer(body)
        read = self._fastavro.schemaless_reader
        if (
            len(body) > COMPILED_DEPTH
            and self._recursive
            and (writer_id in self._recursive or (r is not None and id(r) in self._recursive_parsed))
        ):
            read = self._python_reader()
        try:
            datum = read(bio, w, r)
        except EOFError:
            raise ValueError("the Avro body ends before the datum") from None
        except RecursionError:
            raise ValueError(
                f"not an Avro datum of schema id {writer_id}: nested deeper than this reader follows"
            ) from None
        except Exception as exc:  # a union branch out of range, a bad length, a resolution error...
            what = (
                "a union branch index out of range"
                if isinstance(exc, IndexError)
                else f"{type(exc).__name__}: {exc}"
            )
            raise ValueError(f"not an Avro datum of schema id {writer_id}: {what}") from None
        left = len(body) - bio.tell()
        if left:
            raise ValueError(f"{left} bytes left over after the Avro datum of schema id {writer_id}")
        if writer_id in self._recursive and nesting(datum) > MAX_NESTING:
            raise ValueError(
                f"not an Avro datum of schema id {writer_id} shown here: nested more than {MAX_NESTING} "
                "levels deep"
            )
        return datum


_ABSENT: Any = object()


class _Names(dict[str, Any]):
    """fastavro's ``named_schemas``, noting what each name it sets held before (:data:`_ABSENT` if nothing),
    so that a parse is checked against the names it set, not against every name parsed so far."""

    def __init__(self) -> None:
        super().__init__()
        self.before: dict[str, Any] = {}

    def __setitem__(self, name: str, value: Any) -> None:
        if name not in self.before:
            self.before[name] = self.get(name, _ABSENT)
        super().__setitem__(name, value)


def _clause(what: str) -> str:
    """``what`` (from :meth:`AvroReader._references`) as the subject of a sentence."""
    return what if what == "the schema itself" else f"{what},"
