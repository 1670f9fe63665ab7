"""The generated columnar decoder agrees with the per-record object decoder (no Spark needed)."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kafkaspec
from kafkaspec.arrow.ranges import RangeReport, ReadRange, read_records
from kafkaspec.codec.compression import CODEC_NAMES
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.record_v2 import RecordColumns

EXAMPLES = int(os.environ.get("KAFKASPEC_FUZZ_EXAMPLES", "300")) // 3

record = st.tuples(
    st.one_of(st.none(), st.binary(max_size=20)),
    st.one_of(st.none(), st.binary(max_size=300)),
    st.integers(-(2**40), 2**40),
    st.lists(st.tuples(st.text(max_size=5), st.one_of(st.none(), st.binary(max_size=5))), max_size=3),
    st.integers(0, 3),  # offset gap before the record (compaction); 0 for most
    st.sampled_from([0, 0, 0, 5, -1]),  # record attributes: unused by Kafka, but carried
)


def _columns(data: bytes) -> RecordColumns:
    cols = RecordColumns()
    for batch in kafkaspec.iter_batches(data):
        v2.decode_record_batch_columns(data, batch.position, batch.head, batch.end, cols)
    return cols


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(record, max_size=30), st.sampled_from(CODEC_NAMES), st.integers(0, 2**40))
def test_columns_equal_record_objects(rows, codec, base_offset):
    """Also where some items leave the sparse columns' usual value: attributes,
    offset deltas that are not the record index, headers."""
    records, offset = [], base_offset
    for i, (k, v, t, h, gap, attributes) in enumerate(rows):
        offset += gap + (i > 0)
        records.append(
            kafkaspec.Record(
                key=k,
                value=v,
                timestamp=1_700_000_000_000 + t,
                headers=h,
                offset=offset,
                attributes=attributes,
            )
        )
    data = kafkaspec.build_batch(records, compression=codec, base_offset=base_offset) if records else b""
    objects = [r for b in kafkaspec.iter_batches(data) for r in b]
    cols = _columns(data)
    assert [r.offset for r in objects] == [r.offset for r in records]
    assert cols.absolute("offset") == [r.offset for r in objects]
    assert cols.attributes == [r.attributes for r in objects] == [r.attributes for r in records]
    assert cols.absolute("timestamp") == [r.timestamp for r in objects]
    assert cols.key == [r.key for r in objects]
    assert cols.value == [r.value for r in objects]
    hs = cols.headers
    assert [
        list(zip(hs.key[a:b], hs.value[a:b], strict=True))
        for a, b in zip(cols.headers_offsets, cols.headers_offsets[1:])
    ] == [list(r.headers) for r in objects]


def test_truncate_restores_columns_after_a_bad_record():
    good = kafkaspec.build_batch([kafkaspec.Record(key=b"k", value=b"v", timestamp=1, headers=[("h", b"x")])])
    bad = bytearray(
        kafkaspec.build_batch(
            [kafkaspec.Record(key=b"k", value=b"v" * 10, timestamp=1, headers=[("h", b"y")])] * 3
        )
    )
    bad[-2] = 0x7F  # the last header value length (zigzag -64) is now invalid
    cols = _columns(good)
    head = v2.decode_record_batch_head(bytes(bad))
    end = v2.check_record_batch(bytes(bad), 0, head, verify=False)
    with pytest.raises(kafkaspec.KafkaFormatError):
        v2.decode_record_batch_columns(bytes(bad), 0, head, end, cols)
    cols.truncate(1)
    assert (cols.key, cols.headers_offsets, cols.headers.key) == ([b"k"], [0, 1], ["h"])
    assert (cols.base_run_ends, cols.absolute("offset")) == ([1], [0])


def test_truncate_cuts_and_drops_runs():
    cols = RecordColumns()
    for base in (10, 20, 30):
        data = kafkaspec.build_batch([kafkaspec.Record(value=b"v", timestamp=1)] * 2, base_offset=base)
        head = v2.decode_record_batch_head(data)
        v2.decode_record_batch_columns(data, 0, head, v2.check_record_batch(data, 0, head), cols)
    assert cols.absolute("offset") == [10, 11, 20, 21, 30, 31]
    cols.truncate(3)
    assert (cols.base_run_ends, cols.base_offsets, cols.absolute("offset")) == (
        [2, 3],
        [10, 20],
        [10, 11, 20],
    )
    cols.truncate(0)
    assert (cols.base_run_ends, cols.absolute("offset")) == ([], [])


def test_read_records_arrow_batch_matches_objects(tmp_path):
    records = [
        kafkaspec.Record(
            key=None if i % 7 == 0 else b"k%d" % i,
            value=b"v" * i,
            timestamp=5 + i,
            headers=[("a", None)] * (i % 3),
        )
        for i in range(250)
    ]
    data = b"".join(
        kafkaspec.build_batch(records[i : i + 50], base_offset=i, compression=c)
        for i, c in zip(range(0, 250, 50), CODEC_NAMES, strict=True)
    )
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(data)
    report = RangeReport()
    (rb,) = read_records(ReadRange(str(path), "t", 3, 0, len(data)), report)
    rows = rb.to_pylist()
    assert [r["offset"] for r in rows] == list(range(250))
    assert [r["key"] for r in rows] == [r.key for r in records]
    assert [[(h["key"], h["value"]) for h in r["headers"]] for r in rows] == [
        list(r.headers) for r in records
    ]
    assert {r["compression"] for r in rows} == set(CODEC_NAMES)
    assert report.skipped == [] and report.partial is None


def test_skip_policy_resyncs_after_an_unreadable_header(tmp_path):
    batches = [
        kafkaspec.build_batch([kafkaspec.Record(key=b"k", value=b"v%d" % i, timestamp=i)], base_offset=i)
        for i in range(3)
    ]
    data = bytearray(b"".join(batches))
    data[len(batches[0]) + 8 : len(batches[0]) + 12] = b"\xff\xff\xff\xf0"  # batch 1: negative length
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(bytes(data))
    task = ReadRange(str(path), "t", 0, 0, len(data))
    with pytest.raises(kafkaspec.KafkaFormatError, match=f"byte {len(batches[0])}"):
        list(read_records(task))
    report = RangeReport()
    skipping = ReadRange(str(path), "t", 0, 0, len(data), skip_corrupt=True)
    rows = [r for rb in read_records(skipping, report) for r in rb.to_pylist()]
    assert [r["offset"] for r in rows] == [0, 2]
    ((start, stop),) = [(s.start, s.end) for s in report.skipped]
    assert (start, stop) == (len(batches[0]), len(batches[0]) + len(batches[1]))


INT64_MAX = (1 << 63) - 1


def _batch_at_base_offset(base_offset: int) -> bytes:
    """Two records built at base 0, then given ``base_offset`` (outside the CRC: the batch stays valid)."""
    data = bytearray(
        kafkaspec.build_batch(
            [kafkaspec.Record(value=b"a", timestamp=1), kafkaspec.Record(value=b"b", timestamp=2)]
        )
    )
    data[0:8] = base_offset.to_bytes(8, "big", signed=True)
    return bytes(data)


@pytest.mark.parametrize(
    ("what", "data"),
    [
        ("offset", _batch_at_base_offset(INT64_MAX)),
        (
            "timestamp",
            v2.encode_record_batch(
                base_offset=0,
                last_offset_delta=1,
                base_timestamp=INT64_MAX,
                max_timestamp=INT64_MAX,
                records=[
                    kafkaspec.Record(value=b"a", timestamp=INT64_MAX),
                    kafkaspec.Record(value=b"b", timestamp=INT64_MAX + 1),
                ],
            ),
        ),
        (
            "timestamp",
            kafkaspec.build_batch([kafkaspec.Record(value=b"a", timestamp=2**62)]),
        ),  # fits int64 ms, not µs
    ],
)
def test_values_beyond_int64_are_refused_not_wrapped(what, data, tmp_path):
    """Arrow's int64 arithmetic wraps silently: the reader must refuse, naming the segment and the batch."""
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(data)
    with pytest.raises(
        kafkaspec.KafkaFormatError, match=rf"record's {what} is .* beyond .*00000000000000000000\.log"
    ):
        list(read_records(ReadRange(str(path), "t", 0, 0, len(data))))
