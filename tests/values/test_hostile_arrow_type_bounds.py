"""Schemas whose Arrow type is exponential in their text: messages (Protobuf) or records (Avro) that
share each other in a lattice, level k holding two fields of the types of level k+1. The Arrow type was
built by expanding every path: 18 levels (715 bytes of .proto) took 16 s, 30 levels never ended. Such a
schema now has no Arrow type (its values go as JSON text, as a recursive type's do), found by counting
each type once. And a chain of 5,000 Protobuf messages ran the protobuf library's class making out of
Python's stack, out of the whole run; it is now an error of that schema's records."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from kafkaspec.values import Schema
from kafkaspec.values.protobuf import ProtobufReader

pytestmark = pytest.mark.hostile

LEVELS = 40


def _proto_lattice(levels: int) -> str:
    msgs = [f"message M{k} {{ M{k + 1} a = 1; M{k + 1} b = 2; }}" for k in range(levels)]
    return (
        'syntax = "proto3";\npackage p;\n'
        + "\n".join([*msgs, f"message M{levels} {{ int64 x = 1; }}"])
        + "\n"
    )


def _run(script: str) -> subprocess.CompletedProcess:
    """In a child: the unbounded build ran for hours (this timeout only catches that hang)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=120
    )


def test_a_lattice_of_protobuf_messages_has_no_arrow_type():
    run = _run(f"""
        from kafkaspec.values import Schema
        from kafkaspec.arrow.value_types import _Untyped, message_type
        from kafkaspec.values.protobuf import ProtobufReader
        desc = ProtobufReader(lambda s, v: None).message(Schema(1, {_proto_lattice(LEVELS)!r}, "PROTOBUF", ()), [0])
        try:
            message_type(desc)
        except _Untyped as exc:
            print("untyped:", exc)
        """)
    assert run.returncode == 0 and "untyped:" in run.stdout and "p.M0" in run.stdout, (run.stdout, run.stderr)


def test_a_lattice_of_avro_records_has_no_arrow_type():
    def layer(k: int) -> list:
        if k == LEVELS:
            return [
                {"type": "record", "name": f"R{k}_{j}", "fields": [{"name": "x", "type": "boolean"}]}
                for j in (0, 1)
            ]
        below = layer(k + 1)
        return [
            {
                "type": "record",
                "name": f"R{k}_0",
                "fields": [{"name": "a", "type": below[0]}, {"name": "b", "type": below[1]}],
            },
            {
                "type": "record",
                "name": f"R{k}_1",
                "fields": [{"name": "a", "type": f"R{k + 1}_0"}, {"name": "b", "type": f"R{k + 1}_1"}],
            },
        ]

    run = _run(f"""
        from kafkaspec.values import Schema
        from kafkaspec.arrow.value_types import column_type
        from kafkaspec.values.avro import AvroReader
        parsed = AvroReader(lambda s, v: None).parsed(Schema(1, {json.dumps(layer(0)[0])!r}, "AVRO", ()))
        print("type:", column_type(parsed))
        """)
    assert run.returncode == 0 and "type: (None, False)" in run.stdout, (run.stdout, run.stderr)


def test_a_chain_of_thousands_of_protobuf_messages_is_an_error_of_its_schema():
    n = 5000
    text = (
        'syntax = "proto3";\npackage p;\n'
        + "\n".join(
            [f"message M{k} {{ M{k + 1} a = 1; }}" for k in range(n)] + [f"message M{n} {{ int64 x = 1; }}"]
        )
        + "\n"
    )
    reader = ProtobufReader(lambda s, v: None)
    for _ in range(2):  # and again, from what the first attempt kept
        with pytest.raises(ValueError, match="schema id 1: message p.M0 holds messages nested too deep"):
            reader.message(Schema(1, text, "PROTOBUF", ()), [0])
