"""Recursive Avro schemas (a type that holds itself: lists, trees) and hostile values of them.

fastavro's compiled reader recurses on the C stack once per level of nesting: a value of a
recursive type nested a few thousand levels deep (10 KB of bytes) crashed the whole process with a
segmentation fault (no error, no line on stderr; a Spark executor lost). A type that holds itself
with no way out (a record whose field is the record) has no finite value at all, and reading any
body of it recursed without consuming a byte. And the Arrow mapping recursed forever on any
recursive schema (RecursionError out of ``to_arrow``). Now: a recursive type is a JSON text column;
a value is read by the compiled reader only when its size bounds its depth far below what the C stack
takes, else by fastavro's pure-Python reader, whose recursion limit is an error of that record; a
type without a finite value is refused when its schema is parsed. The bytes are always kept.
Each case runs in a subprocess: before the fix a crash would take the test run with it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.values import avro_bytes, framed, skey, sval

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

pytestmark = pytest.mark.hostile

NODE = {
    "type": "record",
    "name": "Node",
    "fields": [{"name": "v", "type": "long"}, {"name": "next", "type": ["null", "Node"], "default": None}],
}
LOOP = {"type": "record", "name": "Loop", "fields": [{"name": "again", "type": "Loop"}]}
ONE_BYTE = {
    "type": "record",
    "name": "N",
    "fields": [{"name": "n", "type": ["null", "N"]}],
}  # a level per byte
MAYBE_LOOP = {
    "type": "record",
    "name": "Top",
    "fields": [
        {
            "name": "x",
            "type": [
                "null",
                {"type": "record", "name": "Loop", "fields": [{"name": "again", "type": "Loop"}]},
            ],
        }
    ],
}


def _deep(levels: int) -> bytes:
    """A Node list ``levels`` deep: v=0, then branch 1 (another Node), ..., then v=0 and null."""
    return b"\x00\x02" * levels + b"\x00\x00"


def _write(root: Path, values: list[bytes | None]) -> None:
    with PartitionWriter(root, "_schemas", 0) as w:
        for subject, sid, schema in [
            ("list-value", 1, NODE),
            ("loop-value", 2, LOOP),
            ("top-value", 3, MAYBE_LOOP),
            ("one-value", 4, ONE_BYTE),
        ]:
            w.append([Record(key=skey(subject, 1), value=sval(subject, 1, sid, json.dumps(schema)))])
    with PartitionWriter(root, "list", 0) as w:
        w.append([Record(value=v) for v in values])
    (root.parent / "canary").write_text("keep")


def _in_subprocess(code: str, root: Path) -> subprocess.CompletedProcess:
    script = textwrap.dedent(code)
    done = subprocess.run(
        [sys.executable, "-c", script, str(root)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert (root.parent / "canary").read_text() == "keep"
    return done


TO_ARROW = """
    import json, sys
    from kafkaspec.logdir import open_log
    part = next(p for p in open_log(sys.argv[1]).partitions() if p.topic == "list")
    t = part.to_arrow(decode_values=True)
    print(json.dumps({"type": str(t.schema.field("value_decoded").type), "errors": t.column("value_error").to_pylist(),
                      "decoded": t.column("value_decoded").to_pylist(), "raw": [v.hex() if v else v
                                                                               for v in t.column("value").to_pylist()]}))
"""


def test_a_recursive_type_is_a_json_text_column(tmp_path):
    root = tmp_path / "data"
    short = framed(1, avro_bytes(NODE, {"v": 1, "next": {"v": 2, "next": None}}))
    _write(root, [short])
    got = json.loads(_in_subprocess(TO_ARROW, root).stdout)
    assert got["type"] == "string" and got["errors"] == [None]
    assert json.loads(got["decoded"][0]) == {"v": 1, "next": {"v": 2, "next": None}}


def test_a_value_nested_deeper_than_the_stack_is_an_error_of_its_record(tmp_path):
    root = tmp_path / "data"
    values = [
        framed(1, _deep(100_000)),
        framed(1, _deep(30)),
        framed(1, _deep(450)),
        framed(1, _deep(900)),
        framed(4, b"\x02" * 990 + b"\x00"),
    ]  # 990 levels in 991 bytes: the compiled reader's side
    _write(root, values)
    got = json.loads(_in_subprocess(TO_ARROW, root).stdout)
    assert got["raw"] == [v.hex() for v in values]  # every record kept, with its bytes
    assert got["errors"][0] == "not an Avro datum of schema id 1: nested deeper than this reader follows"
    assert got["errors"][1] is None and json.loads(got["decoded"][1])["v"] == 0
    assert (
        got["errors"][2] is None and json.loads(got["decoded"][2])["v"] == 0
    )  # the compiled reader: 902 bytes
    assert got["errors"][3] == "not an Avro datum of schema id 1: nested deeper than this reader follows"
    assert got["errors"][4] == "not an Avro datum of schema id 4 shown here: nested more than 500 levels deep"


def test_dump_of_deep_values_is_a_line_per_record(tmp_path):
    root = tmp_path / "data"
    _write(root, [framed(1, _deep(100_000)), framed(1, _deep(1000)), framed(1, _deep(3))])
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "dump", str(root), "--value-format", "avro", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr[-2000:]
    records = [
        json.loads(line)
        for line in done.stdout.splitlines()
        if '"type":"record"' in line and '"list"' in line
    ]
    assert len(records) == 3
    assert "nested deeper than this reader follows" in records[0]["value_error"]
    assert records[2]["value_decoded"]["next"]["next"]["next"]["next"] is None


def test_a_type_with_no_finite_value_is_refused_not_read(tmp_path):
    root = tmp_path / "data"
    _write(root, [framed(2, b"\x00"), framed(3, b"\x02"), framed(3, b"\x00")])
    done = _in_subprocess(
        """
        import json, sys
        from kafkaspec import values
        from kafkaspec.logdir import open_log
        dec = values.decoder(open_log(sys.argv[1]), value_format="avro")
        out = [dec.decode("list", v) for v in (b"\\x00\\x00\\x00\\x00\\x02\\x00", b"\\x00\\x00\\x00\\x00\\x03\\x02",
                                                b"\\x00\\x00\\x00\\x00\\x03\\x00")]
        print(json.dumps([(d.value, d.error) for d in out]))
    """,
        root,
    )
    got = json.loads(done.stdout)
    for value, error in got[:2]:
        assert value is None and "type Loop holds itself in every field: it has no finite value" in error
    assert got[2][1] is not None  # the schema is refused whole, also for a value that would not reach Loop
