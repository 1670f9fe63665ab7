"""Hostile ``_schemas`` Protobuf schemas (issue 39 items 1, 8 and 12): references named to be run as
Python or to land outside protoc's temp dir, a file and a directory of one name, reference chains
thousands deep and dependency fan-outs that multiply. Each schema that cannot be used is an error of
the records framed with it, naming why; nothing from the data is ever imported or run; the other
records decode.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys

import pytest
from support.values import framed, skey, sval

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log
from kafkaspec.values import Schemas, SchemaStore, ValueDecoder

pytestmark = pytest.mark.hostile

OK = 'syntax = "proto3";\npackage ok;\nmessage Ok { int64 id = 1; }\n'
OK_VALUE = framed(1, b"\x00\x08\x07")  # Ok{id: 7}
EVIL_ID = 2

#: reference names that would be Python on a sys.path holding protoc's temp dir, or files outside it
TRICKS = [
    "sitecustomize.py",
    "usercustomize.py",
    "grpc_tools/__init__.py",
    "grpc_tools/protoc.py",
    "google/__init__.py",
    "google/protobuf/__init__.py",
    "x.pth",
    "__main__.py",
    "pkg_resources.py",
    "importlib_resources/__init__.py",
    "../escape.proto",
    "a/../../escape.proto",
    "ABSOLUTE",
    ".",
    "",
    "a//b.proto",
    "./a.proto",
    "a\\b.proto",
    "a\0.proto",
    "sitecustomize.proto/../sitecustomize.py",
]


def _python(marker) -> str:
    """Schema text that is also Python (and a ``.pth`` line) writing ``marker`` when run."""
    return f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran')\n"


def _store_records(trick: str, marker, escape) -> list[tuple[bytes, bytes]]:
    name = str(escape) if trick == "ABSOLUTE" else trick
    main = 'syntax = "proto3";\npackage evil;\nmessage M { int64 id = 1; }\n'
    return [
        (skey("ok-value", 1), sval("ok-value", 1, 1, OK, schema_type="PROTOBUF")),
        (skey("payload", 1), sval("payload", 1, 3, _python(marker), schema_type="PROTOBUF")),
        (
            skey("evil-value", 1),
            sval(
                "evil-value",
                1,
                EVIL_ID,
                main,
                schema_type="PROTOBUF",
                references=[{"name": name, "subject": "payload", "version": 1}],
            ),
        ),
    ]


def _write(root, records, values) -> None:
    with PartitionWriter(root, "_schemas", 0) as w:
        for k, v in records:
            w.append([Record(key=k, value=v)])
    with PartitionWriter(root, "orders", 0) as w:
        w.append([Record(key=None, value=v) for v in values])


@pytest.mark.parametrize("trick", TRICKS)
def test_reference_names_never_run_or_escape(tmp_path, trick):
    """dump --value-format auto in a subprocess (a fresh interpreter, as a user runs it) and
    to_arrow(decode_values=True): the marker the schema text would write never appears, no file lands
    outside the temp dir, the evil schema's records get an error naming the reference, the others decode."""
    root, tmpdir = tmp_path / "data", tmp_path / "tmp"
    root.mkdir()
    tmpdir.mkdir()
    (tmp_path / "canary").write_text("keep")
    marker, escape = tmp_path / "marker", tmpdir / "sub" / "escape.proto"
    _write(
        root, _store_records(trick, marker, escape), [OK_VALUE, framed(EVIL_ID, b"\x00\x08\x01"), OK_VALUE]
    )
    env = {**os.environ, "TMPDIR": str(tmpdir / "sub"), "PYTHONPATH": os.pathsep.join(sys.path)}
    (tmpdir / "sub").mkdir()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "dump",
            str(root / "orders-0"),
            "--json",
            "--schemas",
            str(root),
            "--value-format",
            "auto",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert not marker.exists(), f"{trick!r}: the schema text ran"
    assert "Traceback" not in run.stderr and run.returncode == 1, (run.returncode, run.stderr)
    rows = [r for r in map(json.loads, run.stdout.splitlines()) if r["type"] == "record"]
    assert [r.get("value_decoded") for r in rows] == [{"id": 7}, None, {"id": 7}]
    error = rows[1]["value_error"]
    assert error.startswith(f"schema id {EVIL_ID} ") and "payload" in error, error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["canary", "data", "tmp"]
    assert list((tmpdir / "sub").iterdir()) == [] and not (tmpdir / "escape.proto").exists()

    table = open_log(root).partition("orders", 0).to_arrow(decode_values=True)
    assert not marker.exists(), f"{trick!r}: the schema text ran in-process"
    assert table.column("value_error").to_pylist()[1] == error
    assert [v and json.loads(v) for v in table.column("value_decoded").to_pylist()] == [
        {"id": 7},
        None,
        {"id": 7},
    ]


def _cli_dump(root) -> tuple[int, list[dict], str]:
    from contextlib import redirect_stderr, redirect_stdout
    from io import StringIO

    from kafkaspec.cli import main

    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main(
            ["dump", str(root / "orders-0"), "--json", "--schemas", str(root), "--value-format", "auto"]
        )
    return (
        rc,
        [r for r in map(json.loads, out.getvalue().splitlines()) if r["type"] == "record"],
        err.getvalue(),
    )


def _chain(depth: int, main_id: int = EVIL_ID) -> list[tuple[bytes, bytes]]:
    """.proto text schemas c0 <- c1 <- ... <- c<depth-1> <- the main schema: ``depth`` references deep."""
    records = [(skey("ok-value", 1), sval("ok-value", 1, 1, OK, schema_type="PROTOBUF"))]
    prev = None
    for k in range(depth + 1):
        subject, sid = ("evil-value", main_id) if k == depth else (f"c{k}", 100 + k)
        text = f'syntax = "proto3";\npackage c{k};\n'
        refs = []
        if prev is not None:
            text += f'import "c{k - 1}.proto";\n'
            refs = [{"name": f"c{k - 1}.proto", "subject": prev, "version": 1}]
        text += f"message M{k} {{ int64 id = 1; }}\n" if k == depth else f"message C{k} {{ int64 id = 1; }}\n"
        records.append(
            (skey(subject, 1), sval(subject, 1, sid, text, schema_type="PROTOBUF", references=refs))
        )
        prev = subject
    return records


def test_a_file_and_a_directory_of_one_name_is_that_schemas_error(tmp_path):
    refs = [
        {"name": "x.proto", "subject": "ok-value", "version": 1},
        {"name": "x.proto/y.proto", "subject": "ok-value", "version": 1},
    ]
    records = [
        (skey("ok-value", 1), sval("ok-value", 1, 1, OK, schema_type="PROTOBUF")),
        (
            skey("evil-value", 1),
            sval(
                "evil-value",
                1,
                EVIL_ID,
                'syntax = "proto3";\nmessage M { int64 id = 1; }',
                schema_type="PROTOBUF",
                references=refs,
            ),
        ),
    ]
    _write(tmp_path, records, [OK_VALUE, framed(EVIL_ID, b"\x00\x08\x01"), OK_VALUE])
    rc, rows, err = _cli_dump(tmp_path)
    assert rc == 1 and "Traceback" not in err
    assert [r.get("value_decoded") for r in rows] == [{"id": 7}, None, {"id": 7}]
    assert (
        rows[1]["value_error"].startswith(f"schema id {EVIL_ID}:") and "'x.proto'" in rows[1]["value_error"]
    )


def test_reference_chains_past_the_bound_are_that_schemas_error(tmp_path):
    """3,000 references deep: an error of the records framed with it (no RecursionError, no exit 2);
    a chain at the bound compiles."""
    from kafkaspec.values.protobuf import MAX_REFERENCE_DEPTH

    _write(tmp_path, _chain(3000), [OK_VALUE, framed(EVIL_ID, b"\x00\x08\x01"), OK_VALUE])
    rc, rows, err = _cli_dump(tmp_path)
    assert rc == 1 and "Traceback" not in err
    assert [r.get("value_decoded") for r in rows] == [{"id": 7}, None, {"id": 7}]
    assert rows[1]["value_error"] == (
        f"schema id {EVIL_ID}: references nest more than {MAX_REFERENCE_DEPTH} deep "
        f"(at subject 'c{2999 - MAX_REFERENCE_DEPTH}' version 1)"
    )
    store = SchemaStore()
    for k, v in _chain(MAX_REFERENCE_DEPTH):
        store.apply(k, v)
    d = ValueDecoder(Schemas(store)).decode("evil", framed(EVIL_ID, b"\x00\x08\x05"))
    assert (d.error, d.value) == (None, {"id": 5})


def _fdp(name: str, deps: list[str], message: str | None = None) -> str:
    from google.protobuf import descriptor_pb2

    f = descriptor_pb2.FileDescriptorProto(name=name, package=name.removesuffix(".proto"), syntax="proto3")
    f.dependency.extend(deps)
    if message:
        m = f.message_type.add(name=message)
        m.field.add(
            name="id",
            number=1,
            type=descriptor_pb2.FieldDescriptorProto.TYPE_INT64,
            label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
        )
    return base64.b64encode(f.SerializeToString()).decode()


class _Counted:
    """A resolve that counts its calls and stops an exponential walk early (so the test fails, not hangs)."""

    def __init__(self, store: SchemaStore, cap: int = 10_000) -> None:
        self.schemas, self.calls, self.cap = Schemas(store), 0, cap

    def __call__(self, subject: str, version: int):
        self.calls += 1
        if self.calls > self.cap:
            raise AssertionError(f"{self.calls} lookups: the walk is not linear")
        return self.schemas.version(subject, version)


def test_descriptor_dependency_lattice_visits_each_file_once():
    """Base64 FileDescriptorProtos, two files per level each importing both of the level below, 25
    levels: 2^25 paths, 50 files; each file is looked up once and the message decodes."""
    store, depth = SchemaStore(), 25
    sid = 1000
    below: list[tuple[str, str]] = []
    for k in range(depth):
        here = []
        for side in "ab":
            name = f"{side}{k}.proto"
            refs = [{"name": n, "subject": s, "version": 1} for n, s in below]
            store.apply(
                skey(f"{side}{k}", 1),
                sval(
                    f"{side}{k}",
                    1,
                    sid,
                    _fdp(name, [n for n, _ in below]),
                    schema_type="PROTOBUF",
                    references=refs,
                ),
            )
            sid += 1
            here.append((name, f"{side}{k}"))
        below = here
    refs = [{"name": n, "subject": s, "version": 1} for n, s in below]
    store.apply(
        skey("evil-value", 1),
        sval(
            "evil-value",
            1,
            EVIL_ID,
            _fdp("main.proto", [n for n, _ in below], "Ok"),
            schema_type="PROTOBUF",
            references=refs,
        ),
    )
    assert store.problems == []
    from kafkaspec.values.protobuf import ProtobufReader

    resolve = _Counted(store)
    schema = Schemas(store).version("evil-value", 1)
    got = ProtobufReader(resolve).read(b"\x08\x07", schema, [0])
    assert got == {"id": 7}
    assert resolve.calls <= 2 * depth


def test_descriptor_duplicate_dependencies_collapse():
    """100 duplicate dependencies per level, 3 levels (the probe's 1e6 visits): three lookups, and
    the schema's records get the descriptor pool's answer (an error or the value), never a hang."""
    store = SchemaStore()
    store.apply(skey("l3", 1), sval("l3", 1, 13, _fdp("l3.proto", []), schema_type="PROTOBUF"))
    for k, below in ((2, 3), (1, 2)):
        store.apply(
            skey(f"l{k}", 1),
            sval(
                f"l{k}",
                1,
                10 + k,
                _fdp(f"l{k}.proto", [f"l{below}.proto"] * 100),
                schema_type="PROTOBUF",
                references=[{"name": f"l{below}.proto", "subject": f"l{below}", "version": 1}],
            ),
        )
    store.apply(
        skey("evil-value", 1),
        sval(
            "evil-value",
            1,
            EVIL_ID,
            _fdp("main.proto", ["l1.proto"] * 100, "Ok"),
            schema_type="PROTOBUF",
            references=[{"name": "l1.proto", "subject": "l1", "version": 1}],
        ),
    )
    from kafkaspec.values.protobuf import ProtobufReader

    resolve = _Counted(store)
    schema = Schemas(store).version("evil-value", 1)
    try:
        got = ProtobufReader(resolve).read(b"\x08\x07", schema, [0])
    except ValueError as exc:
        got = str(exc)
    assert resolve.calls <= 3, resolve.calls
    assert got == {"id": 7} or got.startswith(f"schema id {EVIL_ID}"), got


@pytest.mark.parametrize("trick", [t for t in TRICKS if t.endswith((".py", ".pth"))])
def test_protoc_child_imports_nothing_from_the_written_files(tmp_path, monkeypatch, trick):
    """The second wall: with the name check switched off, Python files the data writes beside the
    .proto files are still never imported by the child that runs protoc (its working directory is
    empty and its import path holds only the standard library and grpc_tools' own dir)."""
    from kafkaspec.values import protobuf

    monkeypatch.setattr(protobuf, "_check_import_name", lambda schema, ref: None)
    marker = tmp_path / "marker"
    store = SchemaStore()
    for k, v in _store_records(trick, marker, tmp_path / "unused"):
        store.apply(k, v)
    dec = ValueDecoder(Schemas(store))
    dec.decode("evil", framed(EVIL_ID, b"\x00\x08\x01"))
    assert not marker.exists(), f"{trick!r}: the protoc child ran the data's file"
    assert dec.decode("ok", OK_VALUE).value == {"id": 7}


def _decode(records, body: bytes = b"\x00\x08\x01"):
    store = SchemaStore()
    for k, v in records:
        store.apply(k, v)
    dec = ValueDecoder(Schemas(store))
    return dec.decode("evil", framed(EVIL_ID, body)), dec


def _main_with(refs, text='syntax = "proto3";\nmessage M { int64 id = 1; }\n'):
    return [
        (skey("ok-value", 1), sval("ok-value", 1, 1, OK, schema_type="PROTOBUF")),
        (
            skey("evil-value", 1),
            sval("evil-value", 1, EVIL_ID, text, schema_type="PROTOBUF", references=refs),
        ),
    ]


@pytest.mark.parametrize(
    ("refs", "reason"),
    [
        (
            [{"name": "a" * 300 + ".proto", "subject": "ok-value", "version": 1}],
            f"schema id {EVIL_ID} cannot be compiled: File name too long ('aaaa",
        ),
        (
            [{"name": "self.proto", "subject": "evil-value", "version": 1}],
            f"schema id {EVIL_ID}: its references import each other in a cycle (at subject 'evil-value' version 1)",
        ),
    ],
)
def test_schemas_the_file_system_or_a_cycle_refuse_are_their_records_error(refs, reason):
    d, dec = _decode(_main_with(refs))
    assert d.value is None and d.error.startswith(reason), d.error
    assert dec.decode("ok", OK_VALUE).value == {"id": 7}


def test_descriptor_importing_proto_text_or_an_unknown_well_known_type_is_refused():
    d, _ = _decode(
        [
            (skey("ok-value", 1), sval("ok-value", 1, 1, OK, schema_type="PROTOBUF")),
            (
                skey("evil-value", 1),
                sval(
                    "evil-value",
                    1,
                    EVIL_ID,
                    _fdp("e.proto", ["ok.proto"], "M"),
                    schema_type="PROTOBUF",
                    references=[{"name": "ok.proto", "subject": "ok-value", "version": 1}],
                ),
            ),
        ]
    )
    assert (
        d.error
        == f"schema id {EVIL_ID} (a serialized descriptor) references schema id 1, .proto text: not read here"
    )
    for dep in ("google/protobuf/compiler/plugin.proto", "google/protobuf/internal.proto"):
        d, _ = _decode(
            [
                (
                    skey("evil-value", 1),
                    sval("evil-value", 1, EVIL_ID, _fdp("e.proto", [dep], "M"), schema_type="PROTOBUF"),
                )
            ]
        )
        assert d.error == f"schema id {EVIL_ID} imports {dep!r}, not one of Google's well-known types"
    d, _ = _decode(
        [
            (
                skey("evil-value", 1),
                sval(
                    "evil-value",
                    1,
                    EVIL_ID,
                    _fdp("e.proto", ["google/protobuf/timestamp.proto"], "M"),
                    schema_type="PROTOBUF",
                ),
            )
        ]
    )
    assert (d.error, d.value) == (None, {"id": 1})


def test_one_schema_under_many_names_is_bounded(tmp_path, monkeypatch):
    """A 1 MiB schema referenced under 70 names would be 70 MiB of files: refused before any is
    written (the temp dir stays empty)."""
    import tempfile

    from kafkaspec.values.protobuf import MAX_SOURCE_BYTES

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "canary").write_text("keep")
    big = 'syntax = "proto3";\npackage big;\n' + "// " + "x" * (1 << 20) + "\n"
    refs = [{"name": f"b{i}.proto", "subject": "big", "version": 1} for i in range(70)]
    d, dec = _decode(_main_with(refs) + [(skey("big", 1), sval("big", 1, 3, big, schema_type="PROTOBUF"))])
    assert d.error.startswith(f"schema id {EVIL_ID}: its .proto files, references included, come to ")
    assert d.error.endswith(f"bytes, more than {MAX_SOURCE_BYTES >> 20} MiB")
    assert [p.name for p in tmp_path.iterdir()] == ["canary"]
    assert dec.decode("ok", OK_VALUE).value == {"id": 7}


def test_a_lone_surrogate_in_the_text_is_that_schemas_error():
    """JSON's \\u escapes carry lone surrogates, which no file can hold as UTF-8."""
    text = 'syntax = "proto3";\nmessage M { int64 id = 1; }\n// \ud800\n'
    d, dec = _decode(_main_with([], text))
    assert d.error == f"schema id {EVIL_ID}: its .proto text is not UTF-8 (a lone surrogate)"
    d, dec = _decode(
        _main_with([{"name": "ok.proto", "subject": "sur", "version": 1}])
        + [(skey("sur", 1), sval("sur", 1, 3, text, schema_type="PROTOBUF"))]
    )
    assert (
        d.error
        == f"schema id {EVIL_ID}: the schema its reference 'ok.proto' names is not UTF-8 (a lone surrogate)"
    )
    assert dec.decode("ok", OK_VALUE).value == {"id": 7}


def test_the_depth_bound_holds_along_the_longest_path_whatever_the_walks_order():
    """main imports A then B, B imports A, A heads a chain: A is first walked one level deep, then
    reached again two deep; the longest chain counts (protoc nests along it)."""
    from kafkaspec.values.protobuf import MAX_REFERENCE_DEPTH, _walk
    from kafkaspec.values.schemas_topic import Reference, Schema

    def graph(chain: int) -> tuple[Schema, dict[int, list[int]]]:
        edges = {0: [1, 2], 2: [1], 1: [3]} | {k: [k + 1] for k in range(3, 3 + chain - 1)}
        return Schema(0, "", "PROTOBUF"), edges

    for chain, ok in ((MAX_REFERENCE_DEPTH - 2, True), (MAX_REFERENCE_DEPTH - 1, False)):
        root, edges = graph(chain)

        def imports(s: Schema, edges=edges) -> list[tuple[Reference, Schema]]:
            return [
                (Reference(f"s{t}.proto", f"s{t}", 1), Schema(t, "", "PROTOBUF")) for t in edges.get(s.id, [])
            ]

        if ok:
            order = [s.id for s in _walk(root, imports)]
            assert (
                sorted(order) == list(range(3 + chain)) and order[-1] == 0 and order.index(1) < order.index(2)
            )
        else:
            with pytest.raises(ValueError, match=f"references nest more than {MAX_REFERENCE_DEPTH} deep"):
                _walk(root, imports)
