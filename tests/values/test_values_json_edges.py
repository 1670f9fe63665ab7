"""Plain-JSON values (``json`` format) that Python's JSON reader takes badly.

Nested a few thousand levels deep, a value raised RecursionError out of ``decode`` (the whole dump
stopped at that record, exit 2); a number beyond a double's range became ``inf``, which the JSON
output then printed as ``Infinity`` (not JSON). Each is now an error of its record, the bytes kept.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter
from kafkaspec.values import Schemas, ValueDecoder

pytestmark = pytest.mark.hostile

DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        (DEEP, "not JSON here: nested more than 500 levels deep"),
        (b'{"a":' * 800 + b"1" + b"}" * 800, "not JSON here: nested more than 500 levels deep"),
        (b"1e999999", "not JSON here: 1e999999 is beyond a double's range"),
        (b'{"x": -1e400}', "not JSON here: -1e400 is beyond a double's range"),
    ],
)
def test_an_unreadable_json_value_is_an_error_of_its_record(raw, error):
    got = ValueDecoder(Schemas(), value_format="json").decode("t", raw)
    assert (got.value, got.error, got.raw) == (None, error, raw)


def test_json_nested_within_the_limit_is_read():
    raw = b"[" * 400 + b"]" * 400
    got = ValueDecoder(Schemas(), value_format="json").decode("t", raw)
    assert got.error is None and json.dumps(got.value).encode().replace(b" ", b"") == raw


def test_dump_goes_on_past_them(tmp_path):
    with PartitionWriter(tmp_path / "data", "t", 0) as w:
        w.append([Record(value=v) for v in (DEEP, b"1e999999", b'{"ok": 1}')])
    (tmp_path / "canary").write_text("keep")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["dump", str(tmp_path / "data"), "--value-format", "json", "--json"])
    rows = [json.loads(line) for line in out.getvalue().splitlines() if '"type":"record"' in line]
    assert (code, err.getvalue(), len(rows)) == (1, "", 3)
    assert [r.get("value_error", "").split(":")[0] for r in rows[:2]] == ["not JSON here", "not JSON here"]
    assert rows[2]["value_decoded"] == {"ok": 1}
    assert (tmp_path / "canary").read_text() == "keep"
