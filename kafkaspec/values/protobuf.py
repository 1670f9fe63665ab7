"""Registry-framed Protobuf payloads: the schema's ``.proto`` text compiled by protoc (grpcio-tools'
bundled one, the ``values`` extra) into descriptors, the message chosen by the value's message-index
path, the body parsed by the ``protobuf`` library and turned into plain Python values.

Why protoc: the registry keeps ``.proto`` text, and only protoc reads every corner of it (options,
extensions, imports, proto2 and proto3, editions). It runs once per schema id, in a temp directory of
our own removed at once; its answer (a FileDescriptorSet with every import) is kept in memory.
References are the schema's imports: each is written under its import name, from the subject-version
it names; Google's well-known types (``google/protobuf/*.proto``) come with protoc. A schema held as base64
(a serialized FileDescriptorProto: what Confluent's Python serializer registers) is loaded as it is.

Values: each field of the message by name; a field with presence (proto2, proto3 ``optional``, a
oneof member, a message) that is not set is None, a proto3 field without presence its default; enums
as their value names, maps as dicts, repeated fields as lists. Bytes that do not parse, fields the
writer's schema does not have, and enum numbers the enum does not name are errors (never kept silently).
"""

from __future__ import annotations

import os
import posixpath
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from kafkaspec.codec.extras import require

from .schemas_topic import Schema

__all__ = ["ProtobufReader", "message_arrow_type"]

#: protoc gets this long per schema; a schema that takes longer is refused (and not retried)
COMPILE_TIMEOUT = 60.0


class ProtobufReader:
    """Protobuf bodies by (schema, message-index path); ``resolve(subject, version)`` finds a reference."""

    def __init__(self, resolve: Callable[[str, int], Schema | None]) -> None:
        self._pb = require("google.protobuf", "values", "decoding Protobuf values")
        require("grpc_tools", "values", "compiling Protobuf schemas")
        self._resolve = resolve
        #: schema id -> (descriptor pool, the schema's FileDescriptorProto), or the reason it did not compile
        self._compiled: dict[int, tuple[Any, Any] | str] = {}
        #: (schema id, path) -> message class
        self._classes: dict[tuple[int, tuple[int, ...]], Any] = {}

    def message(self, schema: Schema, path: list[int] | tuple[int, ...]) -> Any:
        """The message descriptor at the message-index ``path`` of ``schema``; ValueError naming why not."""
        return self._class(schema, tuple(path)).DESCRIPTOR

    def read(self, body: bytes, writer: Schema, path: list[int], reader: Schema | None = None) -> Any:
        """One message: ``body`` parsed as the writer's message at ``path``, every byte checked; then,
        with a ``reader`` schema (the topic's latest), read again as the reader's message of the same full
        name, so a topic's values have one shape: fields the writer lacks take their defaults, fields the
        reader lacks are dropped, as Protobuf's compatibility rules say."""
        from google.protobuf.message import DecodeError

        cls = self._class(writer, tuple(path))
        msg = cls()
        try:
            msg.ParseFromString(bytes(body))
        except (DecodeError, RuntimeError, ValueError) as exc:
            raise ValueError(f"not a Protobuf {cls.DESCRIPTOR.full_name} of schema id {writer.id}: {exc}") from None
        out = to_python(msg, strict=True, where=f"schema id {writer.id}")
        if reader is None or reader.id == writer.id:
            return out
        rcls = self._named(reader, cls.DESCRIPTOR.full_name)
        if rcls is None:
            raise ValueError(f"message {cls.DESCRIPTOR.full_name} of schema id {writer.id} is not in the topic's "
                             f"schema id {reader.id}")
        rmsg = rcls()
        try:
            rmsg.ParseFromString(bytes(body))
        except (DecodeError, RuntimeError, ValueError) as exc:
            raise ValueError(f"schema id {writer.id}'s {cls.DESCRIPTOR.full_name} does not read as schema id "
                             f"{reader.id}'s: {exc}") from None
        return to_python(rmsg, strict=False, where=f"schema id {reader.id}")

    def _named(self, schema: Schema, full_name: str) -> Any:
        """The message class of ``schema`` named ``full_name``, or None."""
        from google.protobuf import message_factory

        pool, _ = self._compile(schema)
        try:
            return message_factory.GetMessageClass(pool.FindMessageTypeByName(full_name))
        except KeyError:
            return None

    def _class(self, schema: Schema, path: tuple[int, ...]) -> Any:
        key = (schema.id, path)
        got = self._classes.get(key)
        if got is None:
            pool, fdp = self._compile(schema)
            types, what = fdp.message_type, "top-level"
            name = fdp.package
            for depth, i in enumerate(path):
                if i >= len(types):
                    raise ValueError(f"message index path {list(path)} is not a message of schema id {schema.id}: "
                                     f"index {i} at depth {depth}, where it has {len(types)} {what} messages")
                name = f"{name}.{types[i].name}" if name else types[i].name
                types, what = types[i].nested_type, "nested"
            from google.protobuf import message_factory

            got = message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
            self._classes[key] = got
        return got

    def _compile(self, schema: Schema) -> tuple[Any, Any]:
        got = self._compiled.get(schema.id)
        if isinstance(got, str):
            raise ValueError(got)
        if got is None:
            try:
                got = self._protoc(schema)
            except ValueError as exc:
                self._compiled[schema.id] = str(exc)
                raise
            self._compiled[schema.id] = got
        return got

    def _protoc(self, schema: Schema) -> tuple[Any, Any]:
        from google.protobuf import descriptor_pool

        files = self._file_set(schema, {schema.id})
        pool = descriptor_pool.DescriptorPool()
        added: set[str] = set()
        for file in files:  # each file after its imports
            if file.name in added:
                continue
            added.add(file.name)
            try:
                pool.Add(file)
            except Exception as exc:  # the pool raises several kinds for descriptors that do not fit together
                raise ValueError(f"schema id {schema.id}: {file.name} does not load: {exc}") from None
        return pool, files[-1]

    def _file_set(self, schema: Schema, seen: set[int]) -> list[Any]:
        """The schema's FileDescriptorProto last, after those of everything it imports."""
        serialized = _serialized(schema.schema)
        if serialized is None:
            return self._compile_text(schema)
        from google.protobuf import descriptor_pb2

        try:
            fdp = descriptor_pb2.FileDescriptorProto.FromString(serialized)
        except Exception as exc:
            raise ValueError(f"schema id {schema.id} is base64 but not a serialized FileDescriptorProto: {exc}") from None
        refs = {r.name: r for r in schema.references}
        out: list[Any] = []
        for dep in fdp.dependency:
            if dep in refs:
                target = self._target(schema, refs[dep])
                if target.id not in seen:
                    out.extend(self._file_set(target, seen | {target.id}))
            elif dep.startswith("google/protobuf/"):
                out.append(_well_known(dep, schema.id))
            else:
                raise ValueError(f"schema id {schema.id} imports {dep[:80]!r}, which none of its references names")
        out.append(fdp)
        return out

    def _compile_text(self, schema: Schema) -> list[Any]:
        from google.protobuf import descriptor_pb2

        main = f"kafkaspec_schema_{schema.id}.proto"
        files = {main: schema.schema}
        self._references(schema, files, {schema.id})
        with tempfile.TemporaryDirectory(prefix="kafkaspec-proto-") as tmp:
            for name, text in files.items():
                path = os.path.join(tmp, *name.split("/"))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            out = os.path.join(tmp, "set.pb")
            try:
                run = subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{tmp}", "--include_imports",
                                      f"--descriptor_set_out={out}", os.path.join(tmp, main)],
                                     capture_output=True, timeout=COMPILE_TIMEOUT, cwd=tmp, check=False)
            except subprocess.TimeoutExpired:
                raise ValueError(f"schema id {schema.id}: protoc took more than {COMPILE_TIMEOUT:.0f} s") from None
            if run.returncode != 0:
                why = run.stderr.decode("utf-8", "replace").replace(tmp + os.sep, "").strip().splitlines()
                raise ValueError(f"schema id {schema.id} is not a .proto protoc compiles: "
                                 + ("; ".join(why[:3]) or f"exit {run.returncode}"))
            with open(out, "rb") as fb:
                fds = descriptor_pb2.FileDescriptorSet.FromString(fb.read())
        got = [f for f in fds.file if f.name != main] + [f for f in fds.file if f.name == main]
        if not got or got[-1].name != main:
            raise ValueError(f"schema id {schema.id}: protoc gave no descriptor for the schema")
        return got

    def _target(self, schema: Schema, ref: Any) -> Schema:
        target = self._resolve(ref.subject, ref.version)
        if target is None:
            raise ValueError(f"schema id {schema.id} references {ref.subject!r} version {ref.version}, "
                             "which no source holds")
        if target.schema_type != "PROTOBUF":
            raise ValueError(f"schema id {schema.id} references schema id {target.id}, which is "
                             f"{target.schema_type}, not PROTOBUF")
        return target

    def _references(self, schema: Schema, files: dict[str, str], seen: set[int]) -> None:
        for ref in schema.references:
            name = ref.name
            if (not name or name.startswith("/") or "\\" in name or "\0" in name
                    or posixpath.normpath(name) != name or name.split("/")[0] == ".."):
                raise ValueError(f"schema id {schema.id} references {name[:80]!r}, which is not a relative .proto "
                                 "import path")
            target = self._target(schema, ref)
            if _serialized(target.schema) is not None:
                raise ValueError(f"schema id {schema.id} (.proto text) references schema id {target.id}, a "
                                 "serialized descriptor: not read here")
            if name in files and files[name] != target.schema:
                raise ValueError(f"schema id {schema.id}: two references name {name!r} with different schemas")
            files[name] = target.schema
            if target.id not in seen:
                seen.add(target.id)
                self._references(target, files, seen)


def _serialized(text: str) -> bytes | None:
    """The bytes of a schema given as base64 (a serialized FileDescriptorProto, as Confluent's Python
    serializer registers it), or None for .proto text (whose spaces and semicolons are not base64)."""
    import base64
    import binascii

    try:
        return base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        return None


def _well_known(name: str, schema_id: int) -> Any:
    """The FileDescriptorProto of one of Google's well-known types, from the protobuf library."""
    import importlib

    from google.protobuf import descriptor_pb2, descriptor_pool

    module = name.removeprefix("google/protobuf/").removesuffix(".proto")
    if not module.replace("_", "").isalnum():
        raise ValueError(f"schema id {schema_id} imports {name[:80]!r}, not one of Google's well-known types")
    try:
        importlib.import_module(f"google.protobuf.{module}_pb2")
        found = descriptor_pool.Default().FindFileByName(name)
    except (ImportError, KeyError):
        raise ValueError(f"schema id {schema_id} imports {name[:80]!r}, not one of Google's well-known types") from None
    fdp = descriptor_pb2.FileDescriptorProto()
    found.CopyToProto(fdp)
    return fdp


def to_python(msg: Any, strict: bool, where: str) -> dict[str, Any]:
    """A parsed message as a dict of plain values (see the module's docstring); with ``strict``, a
    field number the schema does not have or an enum number the enum does not name is a ValueError."""
    from google.protobuf import unknown_fields

    d = msg.DESCRIPTOR
    if strict:
        unknown = unknown_fields.UnknownFieldSet(msg)
        if len(unknown):
            raise ValueError(f"field number {unknown[0].field_number} is not a field of {d.full_name} ({where})")
    out: dict[str, Any] = {}
    for name, kind, f, convert in _plan(d):
        v = getattr(msg, name)
        if kind == "map":
            out[name] = {k: x for k, x in v.items()} if convert is None else \
                {k: convert(f, x, strict, where) for k, x in v.items()}
        elif kind == "repeated":
            out[name] = list(v) if convert is None else [convert(f, x, strict, where) for x in v]
        elif kind == "presence" and not msg.HasField(name):
            out[name] = None
        else:
            out[name] = v if convert is None else convert(f, v, strict, where)
    return out


#: message descriptor -> (field name, map/repeated/presence/plain, the field whose values convert, how)
_PLANS: dict[Any, list[tuple[str, str, Any, Any]]] = {}


def _plan(d: Any) -> list[tuple[str, str, Any, Any]]:
    """How each field of a message turns into a plain value, worked out once per message type."""
    got = _PLANS.get(d)
    if got is None:
        got = []
        for f in d.fields:
            if f.message_type is not None and f.message_type.GetOptions().map_entry:
                vf = f.message_type.fields_by_name["value"]
                got.append((f.name, "map", vf, _scalar if vf.message_type or vf.enum_type else None))
                continue
            kind = "repeated" if _repeated(f) else "presence" if f.has_presence else "plain"
            got.append((f.name, kind, f, _scalar if f.message_type or f.enum_type else None))
        if len(_PLANS) > 10_000:  # bounded: a run over many schemas does not keep every plan
            _PLANS.clear()
        _PLANS[d] = got
    return got


def _repeated(f: Any) -> bool:
    return bool(f.is_repeated) if hasattr(f, "is_repeated") else bool(f.label == f.LABEL_REPEATED)


def _scalar(f: Any, v: Any, strict: bool, where: str) -> Any:
    if f.message_type is not None:
        return to_python(v, strict, where)
    if f.enum_type is not None:
        named = f.enum_type.values_by_number.get(v)
        if named is None:
            if strict:
                raise ValueError(f"enum {f.enum_type.full_name} has no value {v} (field {f.full_name}, {where})")
            return None
        return named.name
    return v


def message_arrow_type(desc: Any, seen: tuple[str, ...] = ()) -> Any:
    """The Arrow type of a message's values (a struct of its fields); ValueError for a recursive message
    (``google.protobuf.Struct`` among them), which has no Arrow type: its values go as JSON text."""
    from .arrow_types import _pa, _Untyped

    p = _pa()
    if desc.full_name in seen:
        raise _Untyped(f"the recursive message {desc.full_name}")
    seen = (*seen, desc.full_name)
    fields = []
    for f in desc.fields:
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            kf, vf = f.message_type.fields_by_name["key"], f.message_type.fields_by_name["value"]
            t = p.map_(_field_type(kf, seen), _field_type(vf, seen))
        elif _repeated(f):
            t = p.list_(_field_type(f, seen))
        else:
            t = _field_type(f, seen)
        fields.append(p.field(f.name, t))
    return p.struct(fields)


def _field_type(f: Any, seen: tuple[str, ...]) -> Any:
    from .arrow_types import _pa

    p = _pa()
    if f.message_type is not None:
        return message_arrow_type(f.message_type, seen)
    if f.enum_type is not None:
        return p.string()
    t = f.type
    by_type = {f.TYPE_DOUBLE: p.float64(), f.TYPE_FLOAT: p.float32(), f.TYPE_INT64: p.int64(),
               f.TYPE_SINT64: p.int64(), f.TYPE_SFIXED64: p.int64(), f.TYPE_UINT64: p.uint64(),
               f.TYPE_FIXED64: p.uint64(), f.TYPE_INT32: p.int32(), f.TYPE_SINT32: p.int32(),
               f.TYPE_SFIXED32: p.int32(), f.TYPE_UINT32: p.uint32(), f.TYPE_FIXED32: p.uint32(),
               f.TYPE_BOOL: p.bool_(), f.TYPE_STRING: p.string(), f.TYPE_BYTES: p.binary()}
    return by_type[t]
