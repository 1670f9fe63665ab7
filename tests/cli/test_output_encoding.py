"""What ``dump`` and ``inspect`` print must say exactly what the bytes are (issue 30 items 10 and 12).

Item 10: ``dump --json --print-data`` printed a header value that is not UTF-8 as base64 with no
flag, so ``b"\\xff\\xfe"`` and the text ``"//4="`` printed the same. Each header is now an object
``{"key", "value"}`` with ``"value_base64": true`` when the value is base64, as a record's key and
value already were. The text ``--print-data`` line never showed header values (its help says it
does); it now ends in ``headers: [key: value, ...]``.

Item 12: a ClientQuotaRecord's float64 value may be NaN or infinite; ``inspect metadata --json``
and ``dump --decode --json`` printed ``NaN``/``Infinity``, which is not JSON. Non-finite floats are
now the strings ``"NaN"``, ``"Infinity"`` and ``"-Infinity"``, and every JSON writer refuses NaN
(``allow_nan=False``). The output is checked with a strict parser (one that refuses those words).
"""

from __future__ import annotations

import base64
import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.generated.messages import client_quota_record
from kafkaspec.logdir import PartitionWriter

pytestmark = pytest.mark.hostile

TRICKY = [("h", b"\xff\xfe"), ("h", b"//4="), ("n", None), ("e", b""), ("u", "é".encode())]


def _cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def _strict(text: str):
    """json.loads that refuses NaN, Infinity and -Infinity (Python's parser accepts them by default)."""

    def refuse(word):
        raise AssertionError(f"not JSON: {word}")

    return json.loads(text, parse_constant=refuse)


def _header_bytes(h: dict) -> bytes | None:
    if h["value"] is None:
        return None
    return base64.b64decode(h["value"]) if h.get("value_base64") else h["value"].encode()


@pytest.fixture
def headers_log(tmp_path) -> Path:
    with PartitionWriter(tmp_path / "logs", "t", 0) as w:
        w.append([Record(key=b"k", value=b"v", timestamp=1, headers=TRICKY)])
    (tmp_path / "canary").write_text("stays")
    return tmp_path / "logs"


def test_json_header_values_say_their_encoding(headers_log):
    code, out, err = _cli("dump", headers_log, "--json", "--print-data")
    assert code == 0, err
    (record,) = [r for r in map(_strict, out.splitlines()) if r["type"] == "record"]
    assert [(h["key"], _header_bytes(h)) for h in record["headers"]] == TRICKY
    assert record["headers"][0]["value_base64"] is True and "value_base64" not in record["headers"][1]
    assert (headers_log.parent / "canary").read_text() == "stays"


def test_text_print_data_prints_header_values(headers_log):
    code, out, err = _cli("dump", headers_log, "--print-data")
    assert code == 0, err
    (line,) = [line for line in out.splitlines() if line.startswith("| offset:")]
    assert line.endswith(r" headers: [h: \xff\xfe, h: //4=, n: null, e: , u: é]"), line
    code, out, _ = _cli("dump", headers_log)  # without --print-data: header keys only, as before
    assert "headers: [" not in out and "headerKeys: [h,h,n,e,u]" in out


def _quota_log(root: Path, values: list[float]) -> Path:
    with PartitionWriter(root, "__cluster_metadata", 0) as w:
        for i, v in enumerate(values):
            q = client_quota_record.ClientQuotaRecord(
                entity=[client_quota_record.EntityData("user", f"u{i}")], key="producer_byte_rate", value=v
            )
            w.append(
                [
                    Record(
                        key=None,
                        value=bytes([1, 14, 0]) + client_quota_record.encode_client_quota_record(q, 0),
                        timestamp=i,
                    )
                ]
            )
    return root


def test_non_finite_quota_values_are_valid_json(tmp_path):
    root = _quota_log(tmp_path / "logs", [math.nan, math.inf, -math.inf, 1.5])
    code, out, err = _cli("inspect", "metadata", root, "--json")
    assert code == 0, err
    state = _strict(out)
    assert [q["quotas"]["producer_byte_rate"] for q in state["quotas"]] == [
        "NaN",
        "Infinity",
        "-Infinity",
        1.5,
    ]
    code, out, err = _cli("dump", root, "--decode", "--json")
    assert code == 0, err
    values = [r["decoded"]["value"]["value"] for r in map(_strict, out.splitlines()) if r["type"] == "record"]
    assert values == ["NaN", "Infinity", "-Infinity", 1.5]
    code, out, err = _cli("dump", root, "--decode")
    assert code == 0 and '"value":"NaN"' in out and "NaN," not in out
    code, out, err = _cli("inspect", "metadata", root)
    assert code == 0 and "quota user=u1: producer_byte_rate=Infinity" in out


def test_the_spark_decoded_column_is_valid_json(tmp_path):
    """The ``kafkalog`` source's ``decoded`` column holds the same JSON (driven here without Spark)."""
    from kafkaspec.arrow.ranges import ReadRange
    from kafkaspec.logdir import open_log
    from kafkaspec.spark.read.decoding import with_decoded

    root = _quota_log(tmp_path / "logs", [math.nan, -math.inf])
    (part,) = open_log(root).partitions()
    task = ReadRange(str(part.segments()[0].path), "__cluster_metadata", 0, 0, part.segments()[0].size)
    (table,) = with_decoded(iter(part.to_arrow().to_batches()), task, False)
    values = [_strict(text)["value"]["value"] for text in table.column("decoded").to_pylist()]
    assert values == ["NaN", "-Infinity"]
