"""Typed values where records are read (issue 26 item 3): the Python API over a log directory whose
``_schemas`` topic holds the schemas, and ``dump --key-format/--value-format`` (the decoded key and
value beside the raw ones; a record that does not fit named, exit 1, never dropped).
"""

from __future__ import annotations

import base64
import io
import json
import struct
from contextlib import redirect_stderr, redirect_stdout

from support.values import V1, V2, avro_bytes, framed, skey, sval

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter, open_log
from kafkaspec.values import decoder


def write_topics(root) -> list[bytes]:
    """``_schemas`` (orders-value v1, v2) and ``orders-0``: Avro values of both versions, one bad."""
    with PartitionWriter(root, "_schemas", 0) as w:
        w.append([Record(key=skey("orders-value", 1), value=sval("orders-value", 1, 1, json.dumps(V1)))])
        w.append([Record(key=skey("orders-value", 2), value=sval("orders-value", 2, 2, json.dumps(V2)))])
    values = [
        framed(1, avro_bytes(V1, {"id": 1, "coupon": "C"})),
        framed(2, avro_bytes(V2, {"id": 2, "currency": "USD"})),
        framed(9, b"\x02"),  # an id no source holds
        None,
    ]
    with PartitionWriter(root, "orders", 0) as w:
        w.append(
            [Record(key=struct.pack(">q", i), value=v) for i, v in enumerate(values)], compression="zstd"
        )
    return values


def _raw(row):
    if row["value"] is None:
        return None
    return base64.b64decode(row["value"]) if row.get("value_base64") else row["value"].encode()


def _cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main(list(args))
    return rc, out.getvalue(), err.getvalue()


def test_python_api_decodes_with_the_logs_own_schemas(tmp_path):
    values = write_topics(tmp_path)
    log = open_log(tmp_path)
    dec = decoder(log)
    got = [dec.decode("orders", v) for v in values]
    assert [g.value for g in got] == [{"id": 1, "currency": "EUR"}, {"id": 2, "currency": "USD"}, None, None]
    assert got[2].error == "unknown schema id 9 (not in _schemas)" and got[2].raw == values[2]
    assert sum(dec.errors.values()) == 1


def test_dump_json_value_and_key_decoded_beside_the_raw(tmp_path):
    values = write_topics(tmp_path)
    rc, out, err = _cli(
        "dump",
        str(tmp_path / "orders-0"),
        "--json",
        "--schemas",
        str(tmp_path),
        "--key-format",
        "long",
        "--value-format",
        "avro",
    )
    rows = [json.loads(line) for line in out.splitlines() if json.loads(line)["type"] == "record"]
    assert rc == 1 and err == ""
    assert [r["key_decoded"] for r in rows] == [0, 1, 2, 3]
    assert rows[0]["value_decoded"] == {"id": 1, "currency": "EUR"} and rows[0]["value_schema_id"] == 1
    assert [
        _raw(r) for r in rows
    ] == values  # the raw value beside, as dump prints it (text, or base64 flagged)
    assert rows[1]["value_decoded"] == {"id": 2, "currency": "USD"}
    assert (
        rows[2]["value_error"] == "unknown schema id 9 (not in _schemas)" and "value_decoded" not in rows[2]
    )
    assert rows[3]["value"] is None and rows[3]["value_decoded"] is None


def test_dump_text_and_a_clean_topic_exits_0(tmp_path):
    write_topics(tmp_path)
    rc, out, err = _cli("dump", str(tmp_path), "--value-format", "string")
    assert rc == 0 and err == ""
    assert 'valueDecoded: "{\\"subject\\": \\"orders-value\\"' in out  # the _schemas topic's values, as text
    rc, out, _ = _cli(
        "dump", str(tmp_path / "orders-0"), "--schemas", str(tmp_path), "--value-format", "auto"
    )
    assert rc == 1 and 'valueDecoded: {"id":1,"currency":"EUR"}' in out
    assert "valueError: unknown schema id 9" in out


def test_dump_unknown_format_is_a_usage_error(tmp_path):
    write_topics(tmp_path)
    try:
        _cli("dump", str(tmp_path), "--value-format", "avr")
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("argparse accepted an unknown format")
