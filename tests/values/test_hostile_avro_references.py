"""Avro schemas from a ``_schemas`` topic whose references clash, chain or carry fastavro's own keys
(issue 39 items 12 and 13).

Two references defining ``shop.Money`` differently: the last one parsed won in silence (the decoding
depended on the order of the references), and a schema redefining a referenced type inline was
accepted; Java's Avro refuses both ("Can't redefine"). A chain of 3,000 references raised
RecursionError out of the whole ``dump`` (exit 2, nothing on stdout). A schema holding
``__fastavro_parsed`` was taken by fastavro as already checked (an enum of no symbols, a fixed of -5
bytes). Now each is an error of the records of that schema, naming the type or the bound, and the
other records decode. A type defined twice the same way (a diamond of references, two versions of one
subject) is accepted: its values decode the same whichever definition is taken.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.values import framed, skey, sval

from kafkaspec import Record
from kafkaspec.arrow.value_types import value_type
from kafkaspec.logdir import PartitionWriter
from kafkaspec.values import Schemas, SchemaStore, ValueDecoder
from kafkaspec.values.avro import MAX_REFERENCE_DEPTH

pytestmark = pytest.mark.hostile

MONEY = {
    "type": "record",
    "name": "Money",
    "namespace": "shop",
    "fields": [{"name": "cents", "type": "long"}],
}
MONEY_TEXT = {
    "type": "record",
    "name": "Money",
    "namespace": "shop",
    "fields": [{"name": "amount", "type": "string"}],
}
ORDER = {"type": "record", "name": "Order", "namespace": "shop", "fields": [{"name": "m", "type": "Money"}]}
OK = {"type": "record", "name": "Ok", "fields": [{"name": "n", "type": "long"}]}


def ref(name: str, subject: str, version: int = 1) -> dict:
    return {"name": name, "subject": subject, "version": version}


def chain_records(first_id: int, length: int) -> list[tuple[bytes, bytes]]:
    """``_schemas`` records of ``length`` Avro records ``T_i``, each with a field of ``T_(i-1)`` from a
    reference to the one before; the last one's id is ``first_id + length - 1``."""
    out = [
        (
            skey("c0", 1),
            sval(
                "c0",
                1,
                first_id,
                json.dumps({"type": "record", "name": "T0", "fields": [{"name": "v", "type": "long"}]}),
            ),
        )
    ]
    for i in range(1, length):
        t = {"type": "record", "name": f"T{i}", "fields": [{"name": "x", "type": f"T{i - 1}"}]}
        out.append(
            (
                skey(f"c{i}", 1),
                sval(f"c{i}", 1, first_id + i, json.dumps(t), references=[ref(f"c{i - 1}", f"c{i - 1}")]),
            )
        )
    return out


def store() -> SchemaStore:
    s = SchemaStore()
    s.apply(skey("money", 1), sval("money", 1, 1, json.dumps(MONEY)))
    s.apply(skey("money", 2), sval("money", 2, 2, json.dumps(MONEY_TEXT)))
    s.apply(skey("money-copy", 1), sval("money-copy", 1, 3, json.dumps(MONEY)))
    s.apply(skey("ok-value", 1), sval("ok-value", 1, 4, json.dumps(OK)))
    # two references define shop.Money, differently (in both orders)
    s.apply(
        skey("a-value", 1),
        sval("a-value", 1, 10, json.dumps(ORDER), references=[ref("m1", "money", 1), ref("m2", "money", 2)]),
    )
    s.apply(
        skey("b-value", 1),
        sval("b-value", 1, 11, json.dumps(ORDER), references=[ref("m2", "money", 2), ref("m1", "money", 1)]),
    )
    # the schema redefines the referenced shop.Money inline
    inline = {**ORDER, "fields": [{"name": "m", "type": MONEY_TEXT}]}
    s.apply(
        skey("c-value", 1), sval("c-value", 1, 12, json.dumps(inline), references=[ref("m1", "money", 1)])
    )
    # the same definition twice: from two subjects, and inline
    s.apply(
        skey("d-value", 1),
        sval(
            "d-value",
            1,
            13,
            json.dumps(ORDER),
            references=[ref("m1", "money", 1), ref("m3", "money-copy", 1)],
        ),
    )
    same_inline = {**ORDER, "fields": [{"name": "m", "type": MONEY}]}
    s.apply(
        skey("e-value", 1),
        sval("e-value", 1, 14, json.dumps(same_inline), references=[ref("m1", "money", 1)]),
    )
    assert s.problems == []
    return s


def test_two_references_defining_one_name_differently_are_an_error_of_the_schema():
    dec = ValueDecoder(Schemas(store()))
    body = b"\x0a"  # {"m": {"cents": 5}} in either definition's reading of the first field
    for sid, first, second in [(10, "m1", "m2"), (11, "m2", "m1")]:
        got = dec.decode("orders", framed(sid, body))
        assert got.value is None and got.raw == framed(sid, body)
        one = {"m1": "'money' version 1 (schema id 1)", "m2": "'money' version 2 (schema id 2)"}
        assert got.error == (
            f"schema id {sid}: its reference {second!r}, subject {one[second]}, redefines the Avro type "
            f"shop.Money that its reference {first!r}, subject {one[first]}, defined otherwise "
            "(Avro has one definition per name), so its values are not decoded (kept as bytes)"
        )
    assert dec.decode("ok", framed(4, b"\x0a")).value == {"n": 5}
    assert value_type(dec, "a") == (None, False)


def test_a_schema_redefining_a_referenced_type_inline_is_an_error_of_the_schema():
    dec = ValueDecoder(Schemas(store()))
    got = dec.decode("c", framed(12, b"\x02a"))
    assert got.value is None
    assert got.error == (
        "schema id 12: the schema itself redefines the Avro type shop.Money that its reference 'm1', "
        "subject 'money' version 1 (schema id 1), defined otherwise (Avro has one definition per name), "
        "so its values are not decoded (kept as bytes)"
    )


def test_one_definition_met_twice_is_accepted():
    dec = ValueDecoder(Schemas(store()))
    for sid in (13, 14):
        assert dec.decode("d", framed(sid, b"\x0a")).value == {"m": {"cents": 5}}


def test_a_diamond_of_references_parses_the_shared_one_once():
    s = store()
    left = {"type": "record", "name": "L", "fields": [{"name": "m", "type": "shop.Money"}]}
    right = {"type": "record", "name": "R", "fields": [{"name": "m", "type": "shop.Money"}]}
    top = {
        "type": "record",
        "name": "Top",
        "fields": [{"name": "l", "type": "L"}, {"name": "r", "type": "R"}],
    }
    s.apply(skey("l", 1), sval("l", 1, 20, json.dumps(left), references=[ref("m", "money", 1)]))
    s.apply(skey("r", 1), sval("r", 1, 21, json.dumps(right), references=[ref("m", "money", 1)]))
    s.apply(
        skey("top-value", 1),
        sval("top-value", 1, 22, json.dumps(top), references=[ref("l", "l"), ref("r", "r")]),
    )
    dec = ValueDecoder(Schemas(s))
    assert dec.decode("top", framed(22, b"\x02\x04")).value == {
        "l": {"m": {"cents": 1}},
        "r": {"m": {"cents": 2}},
    }


def test_a_chain_of_references_deeper_than_the_bound_is_an_error_of_its_records():
    s = SchemaStore()
    for key, value in chain_records(1000, 3000):
        s.apply(key, value)
    s.apply(skey("ok-value", 1), sval("ok-value", 1, 4, json.dumps(OK)))
    dec = ValueDecoder(Schemas(s))
    got = dec.decode("t", framed(3999, b"\x02"))
    assert got.value is None and got.error == (
        f"schema id 3999: references nested more than {MAX_REFERENCE_DEPTH} deep (at subject "
        f"'c{2998 - MAX_REFERENCE_DEPTH}' version 1), so its values are not decoded (kept as bytes)"
    )
    shallow = dec.decode("t", framed(1005, b"\x02"))
    assert shallow.error is None and shallow.value == {"x": {"x": {"x": {"x": {"x": {"v": 1}}}}}}
    assert dec.decode("ok", framed(4, b"\x02")).value == {"n": 1}


def test_a_cycle_of_references_is_read_once():
    s = SchemaStore()
    a = {"type": "record", "name": "A", "fields": [{"name": "n", "type": "long"}]}
    b = {"type": "record", "name": "B", "fields": [{"name": "a", "type": "A"}]}
    s.apply(skey("a", 1), sval("a", 1, 1, json.dumps(a), references=[ref("b", "b")]))
    s.apply(skey("b", 1), sval("b", 1, 2, json.dumps(b), references=[ref("a", "a")]))
    dec = ValueDecoder(Schemas(s))
    assert dec.decode("t", framed(2, b"\x02")).value == {"a": {"n": 1}}


@pytest.mark.parametrize("name", [".", "x", "x/y", "x.avsc/y.avsc", "..", "/etc/passwd"])
def test_reference_names_of_any_shape_are_only_names(name):
    s = SchemaStore()
    s.apply(skey("money", 1), sval("money", 1, 1, json.dumps(MONEY)))
    s.apply(skey("o-value", 1), sval("o-value", 1, 2, json.dumps(ORDER), references=[ref(name, "money", 1)]))
    dec = ValueDecoder(Schemas(s))
    assert dec.decode("o", framed(2, b"\x0a")).value == {"m": {"cents": 5}}


@pytest.mark.parametrize(
    "schema",
    [
        {"__fastavro_parsed": True, "type": "enum", "name": "E", "symbols": []},
        {
            "__fastavro_parsed": True,
            "type": "record",
            "name": "R",
            "fields": [{"name": "a", "type": {"type": "fixed", "name": "X", "size": -5}}],
        },
        {
            "type": "record",
            "name": "R",
            "fields": [
                {
                    "name": "a",
                    "type": {"type": "record", "name": "S", "__named_schemas": {"T": "long"}, "fields": []},
                }
            ],
        },
    ],
)
def test_fastavros_own_keys_in_a_schema_are_an_error_of_the_schema(schema):
    s = SchemaStore()
    s.apply(skey("t-value", 1), sval("t-value", 1, 1, json.dumps(schema)))
    s.apply(skey("r-value", 1), sval("r-value", 1, 2, json.dumps(OK), references=[ref("t", "t-value", 1)]))
    dec = ValueDecoder(Schemas(s))
    key = "__named_schemas" if "__named_schemas" in json.dumps(schema) else "__fastavro_parsed"
    assert dec.decode("t", framed(1, b"\x00")).error == (
        f"schema id 1 holds the key {key!r}, fastavro's own (it would take the schema as checked), so its values "
        "are not decoded (kept as bytes)"
    )
    assert dec.decode("r", framed(2, b"\x00")).error.startswith(
        f"schema id 2: its reference 't', subject 't-value' version 1 (schema id 1), holds the key {key!r}"
    )
    assert value_type(dec, "t") == (None, False)


def test_a_deeply_nested_schema_is_an_error_of_its_records():
    deep = '{"type": "array", "items": ' * 3000 + '"long"' + "}" * 3000
    s = SchemaStore()
    s.apply(skey("t-value", 1), sval("t-value", 1, 1, deep))
    s.apply(skey("ok-value", 1), sval("ok-value", 1, 4, json.dumps(OK)))
    dec = ValueDecoder(Schemas(s))
    assert dec.decode("t", framed(1, b"\x00")).error.startswith("schema id 1 is not")
    assert value_type(dec, "t") == (None, False)
    assert dec.decode("ok", framed(4, b"\x02")).value == {"n": 1}


def test_dump_decodes_the_other_records_and_exits_1(tmp_path):
    root = tmp_path / "data"
    with PartitionWriter(root, "_schemas", 0) as w:
        w.append([Record(key=k, value=v) for k, v in store_records()])
        w.append([Record(key=k, value=v) for k, v in chain_records(1000, 3000)])
    values = [
        framed(4, b"\x02"),
        framed(10, b"\x0a"),
        framed(3999, b"\x02"),
        framed(12, b"\x02a"),
        framed(13, b"\x0a"),
        framed(4, b"\x04"),
    ]
    with PartitionWriter(root, "t", 0) as w:
        w.append([Record(value=v) for v in values])
    (tmp_path / "canary").write_text("keep")
    for fmt in ("auto", "avro"):
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
                fmt,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
        rows = [r for r in map(json.loads, done.stdout.splitlines()) if r["type"] == "record"]
        assert [r.get("value_decoded") for r in rows] == [
            {"n": 1},
            None,
            None,
            None,
            {"m": {"cents": 5}},
            {"n": 2},
        ]
        assert "redefines the Avro type shop.Money" in rows[1]["value_error"]
        assert "references nested more than" in rows[2]["value_error"]
        assert "redefines the Avro type shop.Money" in rows[3]["value_error"]
    assert (tmp_path / "canary").read_text() == "keep"


def test_to_arrow_types_the_column_and_errors_the_bad_records(tmp_path):
    pa = pytest.importorskip("pyarrow")
    from kafkaspec.arrow.value_columns import decode_column

    dec = ValueDecoder(Schemas(store()))
    col, err = decode_column(
        dec, "ok", pa.array([framed(4, b"\x02"), framed(10, b"\x0a"), framed(4, b"\x04")])
    )
    assert col.to_pylist() == [{"n": 1}, None, {"n": 2}]
    assert err.to_pylist()[1].startswith("schema id 10: its reference 'm2'") and err.to_pylist()[::2] == [
        None,
        None,
    ]


def store_records() -> list[tuple[bytes, bytes]]:
    """The records :func:`store` applies."""
    s = store()
    return [
        (
            skey(v.subject, v.version),
            sval(
                v.subject,
                v.version,
                v.schema.id,
                v.schema.schema,
                references=[r._asdict() for r in v.schema.references],
            ),
        )
        for v in s.versions.values()
    ]


def test_named_types_nested_through_references_past_the_bound_are_an_error_of_the_schema():
    """40 references, each wrapping the one below in ten arrays: one text is shallow, a value 440 deep."""
    from kafkaspec.values.avro import MAX_SCHEMA_DEPTH

    s = SchemaStore()
    s.apply(skey("w0", 1), sval("w0", 1, 100, json.dumps({"type": "fixed", "name": "W0", "size": 1})))
    for i in range(1, 41):
        t: object = f"W{i - 1}"
        for _ in range(10):
            t = {"type": "array", "items": t}
        doc = {"type": "record", "name": f"W{i}", "fields": [{"name": "x", "type": t}]}
        s.apply(
            skey(f"w{i}", 1),
            sval(f"w{i}", 1, 100 + i, json.dumps(doc), references=[ref(f"w{i - 1}", f"w{i - 1}")]),
        )
    s.apply(skey("ok-value", 1), sval("ok-value", 1, 4, json.dumps(OK)))
    dec = ValueDecoder(Schemas(s))
    body = b"\x02" * 400 + b"x" + b"\x00" * 400
    got = dec.decode("w", framed(140, body))
    assert got.value is None and got.error == (
        f"schema id 140: its values nest more than {MAX_SCHEMA_DEPTH} levels deep "
        "with its named types expanded, so they are not decoded (kept as bytes)"
    )
    assert value_type(dec, "w") == (None, False)
    assert dec.decode("w", framed(102, b"\x02" * 20 + b"x" + b"\x00" * 20)).error is None  # 22 levels
    assert dec.decode("ok", framed(4, b"\x02")).value == {"n": 1}


def test_a_schema_text_nested_past_the_bound_is_an_error_of_its_records():
    from kafkaspec.values.avro import MAX_SCHEMA_DEPTH

    prop: object = 1
    for _ in range(MAX_SCHEMA_DEPTH + 100):  # a property of its own, nested: no level of any value
        prop = [prop]
    s = SchemaStore()
    s.apply(skey("t-value", 1), sval("t-value", 1, 1, json.dumps({**OK, "x-deep": prop})))
    dec = ValueDecoder(Schemas(s))
    assert dec.decode("t", framed(1, b"\x02")).error == (
        f"schema id 1 nests more than {MAX_SCHEMA_DEPTH} levels deep, "
        "so its values are not decoded (kept as bytes)"
    )


def test_many_references_cost_time_linear_in_their_number():
    from support.timing import assert_linear

    def schemas(n: int) -> SchemaStore:
        s = SchemaStore()
        for i in range(n):
            s.apply(
                skey(f"e{i}", 1),
                sval(f"e{i}", 1, 10 + i, json.dumps({"type": "enum", "name": f"E{i}", "symbols": ["a"]})),
            )
        top = {"type": "record", "name": "Top", "fields": [{"name": "e", "type": "E0"}]}
        s.apply(
            skey("t-value", 1),
            sval("t-value", 1, 1, json.dumps(top), references=[ref(f"r{i}", f"e{i}") for i in range(n)]),
        )
        return s

    small, large = schemas(1000), schemas(4000)

    def read(s: SchemaStore):
        return lambda: ValueDecoder(Schemas(s)).decode("t", framed(1, b"\x00")).value == {"e": "a"}

    assert read(small)() and read(large)()
    assert_linear(read(small), read(large), what="an Avro schema with many references")


def test_a_registry_failing_on_a_reference_is_an_error_of_the_schema():
    import socket

    from kafkaspec.values.registry import RegistryClient

    with socket.socket() as sock:  # a port of this machine that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    s = SchemaStore()
    s.apply(skey("t-value", 1), sval("t-value", 1, 1, json.dumps(ORDER), references=[ref("m", "gone", 1)]))
    s.apply(
        skey("j-value", 1),
        sval(
            "j-value", 1, 2, json.dumps({"$ref": "m"}), schema_type="JSON", references=[ref("m", "gone", 1)]
        ),
    )
    s.apply(skey("ok-value", 1), sval("ok-value", 1, 4, json.dumps(OK)))
    dec = ValueDecoder(Schemas(s, RegistryClient(f"http://127.0.0.1:{port}/")))
    for sid, body in ((1, b"\x0a"), (2, b"1")):
        got = dec.decode("t", framed(sid, body))
        assert got.value is None and got.error.startswith(
            f"schema id {sid} references 'gone' version 1: http://127.0.0.1:{port}/subjects/gone/versions/1"
        )
    assert dec.decode("ok", framed(4, b"\x02")).value == {"n": 1}
