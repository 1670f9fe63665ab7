"""Registry-framed Protobuf payloads: the schema's ``.proto`` text compiled by protoc (grpcio-tools'
bundled one, the ``values`` extra) into descriptors, the message chosen by the value's message-index
path, the body parsed by the ``protobuf`` library and turned into plain Python values.

Why protoc: the registry keeps ``.proto`` text, and only protoc reads every corner of it (options,
extensions, imports, proto2 and proto3, editions). It runs once per schema id, in a temp directory of
our own removed at once; its answer (a FileDescriptorSet with every import) is kept in memory.
References are the schema's imports: each is written under its import name, from the subject-version
it names; Google's well-known types (``google/protobuf/*.proto``) come with protoc. A schema held as base64
(a serialized FileDescriptorProto: what Confluent's Python serializer registers) is loaded as it is.

What a ``_schemas`` topic can make this do: nothing it writes is ever imported or run. A reference's
name must be a relative ``.proto`` path (no ``..``, ``.``, empty or absolute parts, no backslash or
control character); the files go to a directory of their own that is neither protoc's working
directory nor on its interpreter's import path (``python -I -S``, the one package dir that holds
grpc_tools added by us). Why a child process and not protoc's entry point in this one: a child can
be stopped at :data:`COMPILE_TIMEOUT` and a protoc that crashes on a hostile file takes only itself
down. References nest at most :data:`MAX_REFERENCE_DEPTH` deep, each referenced schema is walked
once, however many paths lead to it, and one schema brings protoc at most :data:`MAX_SOURCE_BYTES`. A schema that cannot be compiled, for any of these reasons or
one of protoc's, is an error of the records framed with it; the others decode.

Values: a parsed message as plain Python values (:mod:`.protobuf_values`); bytes that do not parse,
fields the writer's schema does not have, and enum numbers the enum does not name are errors (never
kept silently). Descriptors protoc does not make here (base64 schemas, Google's well-known types)
come from :mod:`.protobuf_descriptors`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from kafkaspec.codec.extras import require

from .protobuf_descriptors import message_class, serialized, well_known
from .protobuf_values import to_python
from .registry import referenced
from .schemas_topic import Schema

__all__ = ["ProtobufReader"]

#: protoc gets this long per schema; a schema that takes longer is refused (and not retried)
COMPILE_TIMEOUT = 60.0
#: references nest at most this deep below a schema (imports of imports, along the longest chain); a
#: deeper schema is refused, so no walk of ours or protoc's recursion grows with the data
MAX_REFERENCE_DEPTH = 64
#: the longest reference name accepted (a path; each part is also bounded by the file system)
MAX_IMPORT_NAME = 1000
#: the .proto text one schema may bring to protoc, its references' files included (one schema under
#: a thousand names would otherwise be written a thousand times)
MAX_SOURCE_BYTES = 64 << 20
#: the child that runs protoc: no site, no environment, no working directory on its path; only the
#: standard library and the package dir that holds grpc_tools (argv[1])
_PROTOC_CHILD = (
    "import sys; sys.path.append(sys.argv[1]); from grpc_tools import protoc; "
    "sys.exit(protoc.main(['protoc', *sys.argv[2:]]))"
)


class ProtobufReader:
    """Protobuf bodies by (schema, message-index path); ``resolve(subject, version)`` finds a reference."""

    def __init__(self, resolve: Callable[[str, int], Schema | None]) -> None:
        self._pb = require("google.protobuf", "values", "decoding Protobuf values")
        require("grpc_tools", "values", "compiling Protobuf schemas")
        self._resolve = resolve
        #: schema id -> (descriptor pool, the schema's FileDescriptorProto), or the reason it did not compile
        self._compiled: dict[int, tuple[Any, Any] | str] = {}
        #: (schema id, path) -> message class, or why it has none
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
            raise ValueError(
                f"not a Protobuf {cls.DESCRIPTOR.full_name} of schema id {writer.id}: {exc}"
            ) from None
        out = to_python(msg, strict=True, where=f"schema id {writer.id}")
        if reader is None or reader.id == writer.id:
            return out
        rcls = self._named(reader, cls.DESCRIPTOR.full_name)
        if rcls is None:
            raise ValueError(
                f"message {cls.DESCRIPTOR.full_name} of schema id {writer.id} is not in the topic's "
                f"schema id {reader.id}"
            )
        rmsg = rcls()
        try:
            rmsg.ParseFromString(bytes(body))
        except (DecodeError, RuntimeError, ValueError) as exc:
            raise ValueError(
                f"schema id {writer.id}'s {cls.DESCRIPTOR.full_name} does not read as schema id "
                f"{reader.id}'s: {exc}"
            ) from None
        return to_python(rmsg, strict=False, where=f"schema id {reader.id}")

    def _named(self, schema: Schema, full_name: str) -> Any:
        """The message class of ``schema`` named ``full_name``, or None."""
        from google.protobuf import message_factory

        pool, _ = self._compile(schema)
        try:
            got = message_class(message_factory, pool, full_name, schema)
        except KeyError:
            return None
        if isinstance(got, str):
            raise ValueError(got)
        return got

    def _class(self, schema: Schema, path: tuple[int, ...]) -> Any:
        key = (schema.id, path)
        got = self._classes.get(key)
        if got is None:
            pool, fdp = self._compile(schema)
            types, what = fdp.message_type, "top-level"
            name = fdp.package
            for depth, i in enumerate(path):
                if i >= len(types):
                    raise ValueError(
                        f"message index path {list(path)} is not a message of schema id {schema.id}: "
                        f"index {i} at depth {depth}, where it has {len(types)} {what} messages"
                    )
                name = f"{name}.{types[i].name}" if name else types[i].name
                types, what = types[i].nested_type, "nested"
            from google.protobuf import message_factory

            got = self._classes[key] = message_class(message_factory, pool, name, schema)
        if isinstance(got, str):
            raise ValueError(got)
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
            except OSError as exc:  # the temp dir's files: a name the file system refuses, a full disk
                self._compiled[schema.id] = why = (
                    f"schema id {schema.id} cannot be compiled: {_os_reason(exc)}"
                )
                raise ValueError(why) from None
            except RecursionError:  # a descriptor nested deeper than the protobuf library reads
                self._compiled[schema.id] = why = f"schema id {schema.id} is nested too deep to load"
                raise ValueError(why) from None
            self._compiled[schema.id] = got
        return got

    def _protoc(self, schema: Schema) -> tuple[Any, Any]:
        from google.protobuf import descriptor_pool

        files = self._file_set(schema)
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

    def _file_set(self, schema: Schema) -> list[Any]:
        """The schema's FileDescriptorProto last, after those of everything it imports: for a base64
        schema, each schema its descriptor's dependencies reach, once (duplicates collapse). Each of
        those must be base64 too: a .proto text's descriptor is named after its schema id, not after the
        import, so it could never load (and compiling each would be one protoc run per reference)."""
        if serialized(schema.schema) is None:
            return self._compile_text(schema)
        from google.protobuf import descriptor_pb2

        parsed: dict[int, Any] = {}
        targets: dict[tuple[str, int], Schema] = {}

        def descriptor(s: Schema) -> Any:
            got = parsed.get(s.id)
            if got is None:
                try:
                    got = parsed[s.id] = descriptor_pb2.FileDescriptorProto.FromString(
                        serialized(s.schema) or b""
                    )
                except Exception as exc:
                    raise ValueError(
                        f"schema id {s.id} is base64 but not a serialized FileDescriptorProto: {exc}"
                    ) from None
            return got

        def imports(s: Schema) -> list[tuple[Any, Schema]]:
            refs = {r.name: r for r in s.references}
            out = []
            for dep in dict.fromkeys(descriptor(s).dependency):
                if dep in refs:
                    target = self._target(s, refs[dep], targets)
                    if serialized(target.schema) is None:
                        raise ValueError(
                            f"schema id {s.id} (a serialized descriptor) references schema id "
                            f"{target.id}, .proto text: not read here"
                        )
                    out.append((refs[dep], target))
                elif not dep.startswith("google/protobuf/"):
                    raise ValueError(
                        f"schema id {s.id} imports {dep[:80]!r}, which none of its references names"
                    )
            return out

        files: list[Any] = []
        for s in _walk(schema, imports):
            fdp = descriptor(s)
            named = {r.name for r in s.references}
            files.extend(
                well_known(dep, s.id)
                for dep in dict.fromkeys(fdp.dependency)
                if dep.startswith("google/protobuf/") and dep not in named
            )
            files.append(fdp)
        return files

    def _compile_text(self, schema: Schema) -> list[Any]:
        from google.protobuf import descriptor_pb2

        main = f"kafkaspec_schema_{schema.id}.proto"
        files = {main: schema.schema}
        self._references(schema, files)
        with tempfile.TemporaryDirectory(prefix="kafkaspec-proto-") as tmp:
            src, run_in, out_dir = (os.path.join(tmp, d) for d in ("src", "run", "out"))
            for d in (src, run_in, out_dir):
                os.mkdir(d)
            for name, text in files.items():
                path = os.path.join(src, *name.split("/"))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                try:
                    data = text.encode("utf-8")
                except UnicodeEncodeError:  # a lone surrogate, which JSON's \u escapes can carry
                    what = (
                        "its .proto text" if name == main else f"the schema its reference {name[:80]!r} names"
                    )
                    raise ValueError(
                        f"schema id {schema.id}: {what} is not UTF-8 (a lone surrogate)"
                    ) from None
                with open(path, "xb") as f:
                    f.write(data)
            out = os.path.join(out_dir, "set.pb")
            try:
                run = subprocess.run(
                    [
                        sys.executable,
                        "-I",
                        "-S",
                        "-c",
                        _PROTOC_CHILD,
                        _grpc_tools_root(),
                        f"-I{src}",
                        f"-I{_well_known_dir()}",
                        "--include_imports",
                        f"--descriptor_set_out={out}",
                        os.path.join(src, main),
                    ],
                    capture_output=True,
                    timeout=COMPILE_TIMEOUT,
                    cwd=run_in,
                    check=False,
                    stdin=subprocess.DEVNULL,
                )
            except subprocess.TimeoutExpired:
                raise ValueError(
                    f"schema id {schema.id}: protoc took more than {COMPILE_TIMEOUT:.0f} s"
                ) from None
            if run.returncode != 0:
                why = run.stderr.decode("utf-8", "replace").replace(src + os.sep, "").strip().splitlines()
                raise ValueError(
                    f"schema id {schema.id} is not a .proto protoc compiles: "
                    + ("; ".join(why[:3]) or f"exit {run.returncode}")
                )
            with open(out, "rb") as fb:
                fds = descriptor_pb2.FileDescriptorSet.FromString(fb.read())
        got = [f for f in fds.file if f.name != main] + [f for f in fds.file if f.name == main]
        if not got or got[-1].name != main:
            raise ValueError(f"schema id {schema.id}: protoc gave no descriptor for the schema")
        return got

    def _target(self, schema: Schema, ref: Any, seen: dict[tuple[str, int], Schema]) -> Schema:
        """The schema ``ref`` of ``schema`` names, looked up once per walk (``seen``)."""
        target = seen.get((ref.subject, ref.version)) or referenced(self._resolve, schema.id, ref)
        if target.schema_type != "PROTOBUF":
            raise ValueError(
                f"schema id {schema.id} references schema id {target.id}, which is "
                f"{target.schema_type}, not PROTOBUF"
            )
        seen[(ref.subject, ref.version)] = target
        return target

    def _references(self, schema: Schema, files: dict[str, str]) -> None:
        """Every file the .proto text of ``schema`` may import, by import name, into ``files``: each
        referenced schema once, its name checked before anything is written."""
        targets: dict[tuple[str, int], Schema] = {}

        def imports(s: Schema) -> list[tuple[Any, Schema]]:
            out = []
            for ref in s.references:
                _check_import_name(s, ref)
                target = self._target(s, ref, targets)
                if serialized(target.schema) is not None:
                    raise ValueError(
                        f"schema id {s.id} (.proto text) references schema id {target.id}, a "
                        "serialized descriptor: not read here"
                    )
                if ref.name in files and files[ref.name] != target.schema:
                    raise ValueError(
                        f"schema id {schema.id}: two references name {ref.name!r} with different schemas"
                    )
                files[ref.name] = target.schema
                out.append((ref, target))
            return out

        _walk(schema, imports)
        size = sum(len(text.encode("utf-8", "surrogatepass")) for text in files.values())
        if size > MAX_SOURCE_BYTES:
            raise ValueError(
                f"schema id {schema.id}: its .proto files, references included, come to {size:,} "
                f"bytes, more than {MAX_SOURCE_BYTES >> 20} MiB"
            )
        dirs = {name[:i]: name for name in files for i, c in enumerate(name) if c == "/"}
        clash = next((name for name in files if name in dirs), None)
        if clash is not None:
            raise ValueError(
                f"schema id {schema.id}: references name both {clash!r} and {dirs[clash][:80]!r}, "
                "a file and a directory"
            )


def _walk(root: Schema, imports: Callable[[Schema], list[tuple[Any, Schema]]]) -> list[Schema]:
    """``root`` and every schema its ``imports`` (reference, schema) reach, each once, every one after
    those it imports (``root`` last). Without recursion; a cycle, or a chain of imports longer than
    :data:`MAX_REFERENCE_DEPTH` along any path, is a ValueError naming the reference where it shows."""
    order: list[Schema] = []
    height: dict[int, int] = {}  # a schema walked -> the longest chain of imports below it
    below = {root.id: 0}
    on_path = {root.id}
    stack = [(root, iter(imports(root)), 0)]
    while stack:
        node, todo, depth = stack[-1]
        step = next(todo, None)
        if step is None:
            stack.pop()
            on_path.discard(node.id)
            height[node.id] = below.pop(node.id)
            order.append(node)
            if stack:
                parent = stack[-1][0].id
                below[parent] = max(below[parent], height[node.id] + 1)
            continue
        ref, target = step
        if target.id in on_path:
            raise ValueError(
                f"schema id {root.id}: its references import each other in a cycle (at subject "
                f"{ref.subject!r} version {ref.version})"
            )
        if depth + 1 + height.get(target.id, 0) > MAX_REFERENCE_DEPTH:
            raise ValueError(
                f"schema id {root.id}: references nest more than {MAX_REFERENCE_DEPTH} deep "
                f"(at subject {ref.subject!r} version {ref.version})"
            )
        if target.id in height:
            below[node.id] = max(below[node.id], height[target.id] + 1)
            continue
        on_path.add(target.id)
        below[target.id] = 0
        stack.append((target, iter(imports(target)), depth + 1))
    return order


def _check_import_name(schema: Schema, ref: Any) -> None:
    """A reference's name is the path its file is written under: only a relative ``.proto`` path."""
    name = ref.name
    parts = name.split("/")
    if (
        not name.endswith(".proto")
        or len(name) > MAX_IMPORT_NAME
        or "\\" in name
        or not name.isprintable()
        or any(p in ("", ".", "..") for p in parts)
    ):
        raise ValueError(
            f"schema id {schema.id} references {name[:80]!r}, which is not a relative .proto import "
            f"path (the reference to subject {ref.subject!r} version {ref.version})"
        )


def _grpc_tools_root() -> str:
    """The package dir that holds grpc_tools: the one dir the protoc child imports from."""
    return os.path.dirname(_grpc_tools_dir())


def _well_known_dir() -> str:
    """grpcio-tools' copy of Google's well-known ``.proto`` files (what ``python -m grpc_tools.protoc``
    adds to the include path)."""
    return os.path.join(_grpc_tools_dir(), "_proto")


def _grpc_tools_dir() -> str:
    import importlib.util

    spec = importlib.util.find_spec("grpc_tools")
    if spec is None or not spec.submodule_search_locations:
        raise ValueError("grpcio-tools is not installed: Protobuf schemas are compiled by its protoc")
    return os.path.abspath(next(iter(spec.submodule_search_locations)))


def _os_reason(exc: OSError) -> str:
    """An OSError's reason without the temp dir's path."""
    name = os.path.basename(exc.filename) if isinstance(exc.filename, str) else None
    return f"{exc.strerror or exc} ({name[:80]!r})" if name else str(exc.strerror or exc)
