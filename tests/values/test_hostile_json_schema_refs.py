"""JSON Schemas from a ``_schemas`` topic whose ``$ref``s multiply or chain (issue 39 items 7 and 12).

Definitions ``d_k`` with two properties that both ``$ref`` ``d_(k-1)`` made the column type 2^k nodes
large: 20 levels took 42 s and 390 MB for one 2.2 KB schema, 40 would never end. A chain of 3,000
schemas, each a ``$ref`` to the next through its references, raised RecursionError out of the whole
``dump`` (exit 2, nothing on stdout). Now a definition is resolved once, the expanded type is bounded
(:data:`~kafkaspec.values.json_schema.MAX_TYPE_NODES`) and so is the depth of ``$ref``s and nesting
(:data:`~kafkaspec.values.json_schema.MAX_DEPTH`): past either, the schema's records get an error
naming it, and the other records decode.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.memory import cli_memory
from support.timing import assert_linear
from support.values import framed, skey, sval

from kafkaspec import Record
from kafkaspec.arrow.value_types import value_type
from kafkaspec.logdir import PartitionWriter
from kafkaspec.values import Schemas, SchemaStore, ValueDecoder
from kafkaspec.values.json_schema import MAX_DEPTH, MAX_TYPE_NODES

pa = pytest.importorskip("pyarrow")
pytestmark = pytest.mark.hostile

GOOD = {"type": "object", "properties": {"n": {"type": "integer"}}}


def doubling(levels: int) -> dict:
    """``d_levels``: each definition two properties that both ``$ref`` the one below: 2^levels leaves."""
    defs = {"d0": {"type": "object", "properties": {"x": {"type": "integer"}}}}
    for k in range(1, levels + 1):
        below = {"$ref": f"#/definitions/d{k - 1}"}
        defs[f"d{k}"] = {"type": "object", "properties": {"a": below, "b": dict(below)}}
    return {"$ref": f"#/definitions/d{levels}", "definitions": defs}


def chain_records(first_id: int, length: int) -> list[tuple[bytes, bytes]]:
    """``_schemas`` records of ``length`` JSON Schemas, each a ``$ref`` to the one before through a
    reference; the last one's id is ``first_id + length - 1``."""
    out = [(skey("c0", 1), sval("c0", 1, first_id, json.dumps({"type": "integer"}), schema_type="JSON"))]
    for i in range(1, length):
        ref = [{"name": f"c{i - 1}.json", "subject": f"c{i - 1}", "version": 1}]
        out.append(
            (
                skey(f"c{i}", 1),
                sval(
                    f"c{i}",
                    1,
                    first_id + i,
                    json.dumps({"$ref": f"c{i - 1}.json"}),
                    schema_type="JSON",
                    references=ref,
                ),
            )
        )
    return out


def decoder_of(*schemas: tuple[int, dict]) -> ValueDecoder:
    s = SchemaStore()
    for sid, doc in schemas:
        s.apply(skey(f"s{sid}-value", 1), sval(f"s{sid}-value", 1, sid, json.dumps(doc), schema_type="JSON"))
    assert s.problems == []
    return ValueDecoder(Schemas(s))


def test_a_shared_definition_within_the_bound_is_typed_in_full():
    dec = decoder_of((1, doubling(10)))
    t, _ = value_type(dec, "s1")
    assert str(t).count("x: int64") == 2**10
    leaf = {"x": 7}
    for _ in range(10):
        leaf = {"a": leaf, "b": leaf}
    got = dec.decode("s1", framed(1, json.dumps(leaf).encode()))
    assert got.error is None and got.value == leaf


@pytest.mark.parametrize("levels", [20, 40])
def test_doubling_refs_are_an_error_of_their_records_at_once(levels):
    dec = decoder_of((1, doubling(levels)), (2, GOOD))
    got = dec.decode("s1", framed(1, b'{"a": null}'))
    assert got.value is None and got.raw == framed(1, b'{"a": null}')
    assert got.error == (
        f"schema id 1: its column type has more than {MAX_TYPE_NODES:,} nodes once its $refs are "
        "expanded, so its values are not decoded (kept as bytes)"
    )
    assert value_type(dec, "s1") == (None, False)  # a JSON text column, each record its error
    assert dec.decode("s2", framed(2, b'{"n": 5}')).value == {"n": 5}


def test_doubling_refs_cost_time_linear_in_the_schema():
    small, large = json.dumps(doubling(20)), json.dumps(doubling(80))

    def build(text: str):
        def run():
            s = SchemaStore()
            s.apply(skey("t-value", 1), sval("t-value", 1, 1, text, schema_type="JSON"))
            assert ValueDecoder(Schemas(s)).decode("t", framed(1, b"{}")).error is not None

        return run

    assert_linear(build(small), build(large), what="column type of doubling $refs")


def test_the_arrow_column_of_a_doubling_schema_is_json_text_with_errors():
    from kafkaspec.arrow.value_columns import decode_column

    dec = decoder_of((1, doubling(40)))
    col, err = decode_column(dec, "s1", pa.array([framed(1, b'{"a": {}}'), None]))
    assert col.type == pa.string() and col.to_pylist() == [None, None]
    assert (
        err.to_pylist()[0].startswith("schema id 1: its column type has more than")
        and err.to_pylist()[1] is None
    )


def test_a_chain_of_references_deeper_than_the_bound_is_an_error_of_its_records():
    s = SchemaStore()
    for key, value in chain_records(1000, 3000):
        s.apply(key, value)
    s.apply(skey("ok-value", 1), sval("ok-value", 1, 1, json.dumps(GOOD), schema_type="JSON"))
    dec = ValueDecoder(Schemas(s))
    got = dec.decode("t", framed(3999, b"5"))
    assert got.value is None and got.error == (
        f"schema id 3999: $refs and nesting deeper than {MAX_DEPTH} levels, so "
        "its values are not decoded (kept as bytes)"
    )
    assert dec.decode("t", framed(1000 + MAX_DEPTH // 2, b"5")).value == 5  # a chain within the bound
    assert dec.decode("t", framed(1, b'{"n": 1}')).value == {"n": 1}


def test_a_chain_of_definitions_and_a_deep_nesting_are_errors_too():
    defs = {f"d{i}": {"$ref": f"#/definitions/d{i + 1}"} for i in range(5000)}
    defs["d5000"] = {"type": "string"}
    deep: dict = {"type": "integer"}
    for _ in range(MAX_DEPTH + 100):  # 600 levels of JSON: Python's reader takes it
        deep = {"type": "array", "items": deep}
    dec = decoder_of((1, {"$ref": "#/definitions/d0", "definitions": defs}), (2, deep), (3, GOOD))
    for sid in (1, 2):
        assert dec.decode("t", framed(sid, b"[]")).error.startswith(
            f"schema id {sid}: $refs and nesting deeper"
        )
    assert dec.decode("t", framed(3, b'{"n": 1}')).error is None


def test_a_schema_text_nested_past_pythons_reader_is_an_error_of_its_records():
    s = SchemaStore()
    s.apply(skey("d-value", 1), sval("d-value", 1, 1, "[" * 5000 + "]" * 5000, schema_type="JSON"))
    s.apply(
        skey("r-value", 1),
        sval(
            "r-value",
            1,
            2,
            json.dumps({"$ref": "d.json"}),
            schema_type="JSON",
            references=[{"name": "d.json", "subject": "d-value", "version": 1}],
        ),
    )
    dec = ValueDecoder(Schemas(s))
    assert (
        dec.decode("t", framed(1, b"1")).error
        == "schema id 1 is not JSON: nested deeper than Python's reader goes"
    )
    assert dec.decode("t", framed(2, b"1")).error == (
        "referenced schema id 1 is not JSON: nested deeper than Python's reader goes"
    )


@pytest.mark.parametrize("name", [".", "x", "x/y", "x.json/y.json", "..", "/etc/passwd"])
def test_reference_names_of_any_shape_are_only_names(name):
    s = SchemaStore()
    s.apply(skey("a", 1), sval("a", 1, 1, json.dumps({"definitions": {"A": GOOD}}), schema_type="JSON"))
    s.apply(
        skey("t-value", 1),
        sval(
            "t-value",
            1,
            2,
            json.dumps({"$ref": f"{name}#/definitions/A"}),
            schema_type="JSON",
            references=[{"name": name, "subject": "a", "version": 1}],
        ),
    )
    dec = ValueDecoder(Schemas(s))
    assert dec.decode("t", framed(2, b'{"n": 3}')).value == {"n": 3}
    assert str(value_type(dec, "t")[0]) == "struct<n: int64>"


def _write_log(root) -> list[bytes]:
    """``_schemas``: a good schema (1), a doubling one (2), a 3,000-long chain (1000..3999); topic ``t``."""
    with PartitionWriter(root, "_schemas", 0) as w:
        w.append(
            [
                Record(
                    key=skey("good-value", 1),
                    value=sval("good-value", 1, 1, json.dumps(GOOD), schema_type="JSON"),
                ),
                Record(
                    key=skey("big-value", 1),
                    value=sval("big-value", 1, 2, json.dumps(doubling(40)), schema_type="JSON"),
                ),
            ]
        )
        w.append([Record(key=k, value=v) for k, v in chain_records(1000, 3000)])
    values = [framed(1, b'{"n": 1}'), framed(2, b"{}"), framed(3999, b"5"), framed(1, b'{"n": 2}')]
    with PartitionWriter(root, "t", 0) as w:
        w.append([Record(value=v) for v in values])
    (root.parent / "canary").write_text("keep")
    return values


def test_dump_decodes_the_other_records_and_exits_1(tmp_path):
    root = tmp_path / "data"
    _write_log(root)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "dump",
            str(root / "t-0"),
            "--json",
            "--schemas",
            str(root),
            "--value-format",
            "json-schema",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    rows = [r for r in map(json.loads, done.stdout.splitlines()) if r["type"] == "record"]
    assert [r.get("value_decoded") for r in rows] == [{"n": 1}, None, None, {"n": 2}]
    assert rows[1]["value_error"].startswith("schema id 2: its column type has more than")
    assert rows[2]["value_error"].startswith("schema id 3999: $refs and nesting deeper than")
    assert (tmp_path / "canary").read_text() == "keep"


def test_dump_of_a_doubling_schema_stays_small_in_memory(tmp_path):
    root = tmp_path / "data"
    _write_log(root)
    got = cli_memory("dump", root / "t-0", "--schemas", root, "--value-format", "auto", timeout=120)
    assert got.code == 1
    assert got.grew < 150 << 20, f"dump grew {got.grew >> 20} MiB"


def test_many_references_cost_time_linear_in_their_number():
    def schemas(n: int) -> SchemaStore:
        s = SchemaStore()
        s.apply(skey("a", 1), sval("a", 1, 1, json.dumps({"definitions": {"A": GOOD}}), schema_type="JSON"))
        doc = {"type": "object", "properties": {f"p{i}": {"$ref": f"r{i}#/definitions/A"} for i in range(n)}}
        s.apply(
            skey("t-value", 1),
            sval(
                "t-value",
                1,
                2,
                json.dumps(doc),
                schema_type="JSON",
                references=[{"name": f"r{i}", "subject": "a", "version": 1} for i in range(n)],
            ),
        )
        return s

    small, large = schemas(1000), schemas(4000)

    def read(s: SchemaStore):
        return lambda: (
            ValueDecoder(Schemas(s)).decode("t", framed(2, b'{"p0": {"n": 1}}')).value == {"p0": {"n": 1}}
        )

    assert read(small)() and read(large)()
    assert_linear(read(small), read(large), what="a JSON Schema with many references")
