"""Issue 30 item 16: an entry too large to hold is written as it is read, and says the same.

With a sink (``kafkaspec explain`` text and JSON), once an entry holds more than ``hold`` unwritten
spans its records are written as each one ends and let go (test_explain_memory.py checks the
memory). These tests check that nothing is lost or invented on the way, with a small ``hold``
so that small batches stream: every record reads exactly as in the whole explanation; the facts
found after a structure's line went out (the length and count that matched, the item count) are on
its closing line (text) or its ``notes`` (JSON); a failure inside a streamed batch is reported as
for a whole one, and the output stays valid JSON.
"""

from __future__ import annotations

import io
import json
import struct

import pytest
from support.explain import run

from kafkaspec import Record, build_batch
from kafkaspec.explain import explain, jsonout, text

pytestmark = pytest.mark.hostile

RECORDS = 300
HOLD = 200  # spans: a record is about a dozen, so a batch streams after some 16 records


def _batch(compression: str = "zstd", n: int = RECORDS, **kwargs) -> bytes:
    return build_batch(
        [
            Record(
                key=b"k%d" % i if i % 3 else None,
                value=b"value %d" % i,
                timestamp=1_000 + i,
                headers=[("h", b"%d" % i)] * (i % 2),
            )
            for i in range(n)
        ],
        compression=compression,
        base_offset=40,
        **kwargs,
    )


def _json_streamed(data: bytes, hold: int = HOLD) -> dict:
    out = io.StringIO()
    writer = jsonout.Writer(out)
    writer.start("log-entry")
    expl = explain(data, sink=writer, keep=False, hold=hold)
    writer.finish(expl)
    return json.loads(out.getvalue())


def _text_streamed(data: bytes, hold: int = HOLD) -> str:
    out = io.StringIO()
    expl = explain(data, sink=text.Writer(out, text.Style(False)), keep=False, hold=hold)
    return out.getvalue() + text.render(expl)


def _fields(node: dict) -> dict:
    return {c["name"]: c for c in node["children"]}


def _without_notes(node: dict) -> dict:
    return {
        k: [_without_notes(c) for c in v] if k == "children" else v for k, v in node.items() if k != "notes"
    }


@pytest.mark.parametrize("compression", ["none", "zstd", "gzip"])
@pytest.mark.parametrize("timestamp_type", ["create", "log_append"])
def test_streamed_json_says_what_the_whole_explanation_says(compression, timestamp_type):
    data = _batch(compression, timestamp_type=timestamp_type)
    whole = jsonout.to_dict(explain(data))
    streamed = _json_streamed(data)
    assert {k: v for k, v in streamed.items() if k != "entries"} == {
        k: v for k, v in whole.items() if k != "entries"
    }
    (s_batch,), (w_batch,) = streamed["entries"], whole["entries"]
    # every span is there, with the same bytes, values and ends; only where the late notes sit differs
    assert _without_notes(s_batch) == _without_notes(w_batch)
    s_fields, w_fields = _fields(s_batch), _fields(w_batch)
    records, w_records = s_fields["records"], w_fields["records"]
    if compression != "none":
        records, w_records = _fields(records)["decompressed"], _fields(w_records)["decompressed"]
    assert len(records["children"]) == RECORDS
    assert records["children"] == w_records["children"]  # each record whole, notes included
    if timestamp_type == "log_append":
        assert all(
            any("LogAppendTime" in note for note in _fields(r)["timestamp_delta"]["notes"])
            for r in records["children"]
        )
    assert w_fields["batch_length"]["notes"][-1] == "matches"
    assert s_fields["batch_length"]["notes"] == w_fields["batch_length"]["notes"][:-1]
    assert "batch_length: matches" in s_batch["notes"]
    assert f"records_count: matches: {RECORDS} Records read" in s_batch["notes"]
    assert s_fields["records"]["notes"] == w_fields["records"]["notes"] == [f"{RECORDS} items"]
    assert (
        s_fields["last_offset_delta"] == w_fields["last_offset_delta"]
    )  # its absolute offset, written early


@pytest.mark.parametrize("compression", ["none", "zstd"])
def test_streamed_text_holds_every_line_of_the_whole_text(compression):
    data = _batch(compression)
    whole = text.render(explain(data)).splitlines()
    streamed = _text_streamed(data).splitlines()

    def words(line: str) -> str:
        return " ".join(line.split())

    # every record line, in order, as the whole text has it (the columns may be aligned otherwise)
    record_lines = [
        words(line) for line in whole if "Record v2" in line or line.lstrip().startswith(("s1:", "6"))
    ]
    streamed_words = [words(line) for line in streamed]
    position = 0
    for line in record_lines[3:]:  # the batch's own first lines (widths, late notes) may differ
        position = streamed_words.index(line, position) + 1
    closing = next(line for line in streamed if "end of RecordBatch v2" in line)
    assert "batch_length: matches" in closing and f"records_count: matches: {RECORDS} Records read" in closing
    assert streamed[-1] == whole[-1]  # the summary


def _broken(n: int, at: int) -> bytes:
    """An uncompressed batch whose record ``at`` claims a length past the batch."""
    data = bytearray(_batch("none", n))
    position = 61
    for _ in range(at):  # walk the records' lengths (zigzag varints, all one or two bytes here)
        length, size = _varint(data, position)
        position += size + length
    data[position : position + 2] = b"\xfe\x7f"  # 8191: past the batch's end (the varint was two bytes)
    return bytes(data)


def _varint(data: bytes | bytearray, position: int) -> tuple[int, int]:
    shift = value = 0
    for size in range(1, 6):
        byte = data[position + size - 1]
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return (value >> 1) ^ -(value & 1), size
    raise AssertionError("no varint")


def test_a_failure_inside_a_streamed_batch_is_reported_as_for_a_whole_one():
    data = _broken(RECORDS, 250)
    whole_expl = explain(data)
    assert whole_expl.failure is not None and "records[250]" in whole_expl.failure.path
    whole = jsonout.to_dict(whole_expl)
    streamed = _json_streamed(data)  # valid JSON although the batch's pieces went out before it failed
    assert streamed["failure"] == whole["failure"] and streamed["count"] == whole["count"] == 0
    s_batch, w_batch = streamed["entries"][0], whole["entries"][0]
    assert s_batch["stopped"] and s_batch["end"] == w_batch["end"]
    assert [e["kind"] for e in streamed["entries"]] == [e["kind"] for e in whole["entries"]]
    if len(whole["entries"]) > 1:  # what decoding did not reach, from the same byte
        assert streamed["entries"][1] == whole["entries"][1]
    assert _without_notes(s_batch) == _without_notes(w_batch)
    lines = _text_streamed(data)
    assert "end of RecordBatch v2" in lines and "(incomplete: decoding stopped inside)" in lines
    assert "decoding stopped at byte" in lines.splitlines()[-1]


def test_the_cli_streams_a_large_batch_between_small_ones(tmp_path):
    """Past the default hold (20,000 spans): a small batch, a large one, a small one; text and JSON."""
    small = _batch("zstd", 3)
    large = _batch("none", 3_000)
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(small + large + small)
    code, out, err = run("explain", path, "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["count"] == 3 and [e["type"] for e in doc["entries"]] == ["RecordBatch v2"] * 3
    assert len(_fields(doc["entries"][1])["records"]["children"]) == 3_000
    assert doc["entries"][1]["end"] == len(small) + len(large)
    code, out, err = run("explain", path)
    assert code == 0 and err == "" and out.count("end of RecordBatch v2") == 1
    assert out.splitlines()[-1] == "3 log-entry entries, 2 decompressed regions; every byte explained"


def test_a_broken_large_batch_through_the_cli():
    data = _broken(3_000, 2_900)
    code, out, _ = run("explain", "-", "--json", stdin=data.hex())
    assert code == 1
    doc = json.loads(out)
    assert doc["failure"] is not None and "records[2900]" in doc["failure"]["path"]
    code, out, _ = run("explain", "-", stdin=data.hex())
    assert code == 1 and "records[2900]" in out


def test_position_helper_breaks_what_it_says():
    data = _broken(20, 5)
    assert struct.unpack_from(">q", data, 0)[0] == 40
    expl = explain(data)
    assert expl.failure is not None and "records[5]" in expl.failure.path


def test_a_record_with_more_headers_than_the_hold_is_written_in_pieces_too():
    many = [(f"h{i}", b"x" * (i % 5)) for i in range(400)]
    data = build_batch(
        [
            Record(value=b"a", timestamp=1),
            Record(value=b"b", timestamp=2, headers=many),
            Record(value=b"c", timestamp=3),
        ],
        compression="zstd",
    )
    whole = jsonout.to_dict(explain(data))
    streamed = _json_streamed(data)
    assert _without_notes(streamed["entries"][0]) == _without_notes(whole["entries"][0])
    records = _fields(_fields(streamed["entries"][0])["records"])["decompressed"]["children"]
    assert [r["name"] for r in records] == ["[0]", "[1]", "[2]"]
    headers = _fields(records[1])["headers"]
    assert len(headers["children"]) == 401 and "400 items" in headers["notes"]  # the count, then 400 headers
    assert "length: matches" in records[1]["notes"]  # the record's length, found to match after it went out


@pytest.mark.parametrize("magic", [0, 1])
def test_legacy_wrappers(magic):
    """Magic-1 inner offsets need the last inner message: such a set is held and written whole, exactly as
    before; a magic-0 set (absolute inner offsets) is written in pieces like a v2 batch."""
    data = build_batch(
        [Record(value=b"v%d" % i, timestamp=i) for i in range(RECORDS)], magic=magic, compression="gzip"
    )
    streamed, whole = _json_streamed(data), jsonout.to_dict(explain(data))
    if magic == 1:
        assert streamed == whole
    assert _without_notes(streamed["entries"][0]) == _without_notes(whole["entries"][0])
