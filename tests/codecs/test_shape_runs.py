"""Runs of same-shape records decode at C level (kafkaspec.codec.shapes): the same records, and on bad
input the same errors at the same byte positions, as the general loop.

The reference is the general loop itself: ``decode_record_array`` over a bytearray (runs read
bytes only: the loop decodes every record of any other buffer; its values are then bytearrays,
equal to the same bytes).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.settings import scaled

from kafkaspec.codec import shapes
from kafkaspec.errors import KafkaFormatError
from kafkaspec.generated import record_v2
from kafkaspec.generated.record_v2 import Header, Record

BASE_OFFSET, BASE_TS = 1_000, 1_700_000_000_000


def one_by_one(buf: bytes, count: int):
    """The general loop's outcome: the records and the end, or the error (type, reason, position)."""
    return at_once(bytearray(buf), count)


def at_once(buf: bytes | bytearray, count: int):
    try:
        return record_v2.decode_record_array(buf, 0, count, BASE_OFFSET, BASE_TS, len(buf))
    except KafkaFormatError as exc:
        return type(exc), exc.reason, exc.position


def region(records: list[Record]) -> bytes:
    return record_v2.encode_record_array(records, BASE_OFFSET, BASE_TS)


def same_shape(
    n: int, headers: int = 3, key: bytes | None = b"key-01", value: bytes | None = b"v" * 60, ts_step: int = 1
) -> list[Record]:
    return [
        Record(
            timestamp=BASE_TS + i * ts_step,
            offset=BASE_OFFSET + i,
            key=None if key is None else key[:-2] + b"%02d" % (i % 100),
            value=None if value is None else bytes([i % 256]) * len(value),
            headers=[Header(f"h{j}", b"%08d" % (i * 7 + j)) for j in range(headers)],
        )
        for i in range(n)
    ]


def test_runs_are_taken_and_agree():
    """200 records of two shapes (offset deltas reach two bytes at 64): decoded in runs, not one by one."""
    records = same_shape(200)
    data = region(records)
    shapes._SHAPES.clear()
    got, end = at_once(data, len(records))
    assert shapes._SHAPES, "no run was tried: the test would not exercise the fast path"
    assert (got, end) == one_by_one(data, len(records))
    assert got == records and end == len(data)
    assert all(type(r) is Record and all(type(h) is Header for h in r.headers) for r in got)
    assert len({id(r.headers) for r in got}) == len(got)  # every record has its own headers list


def test_a_run_takes_the_records_of_one_shape_and_stops_at_another():
    """decode_run itself: from a decoded record's shape, the records after it up to the first with
    two-byte deltas (offset 64); then nothing there until a record of the new shape is given; a
    later call starts a run at once in a shape it has seen."""
    records = same_shape(200)
    data = region(records)
    ends = [len(region(records[: i + 1])) for i in range(len(records))]
    shapes._RECENT.clear()
    bases = (BASE_OFFSET, BASE_TS)
    run, pos = shapes.decode_run(data, ends[0], 199, len(data), record_v2._SHAPE, Record, records[0], bases)
    assert run == records[1:64] and pos == ends[63]
    assert shapes.decode_run(data, pos, 136, len(data), record_v2._SHAPE, Record, None, bases) == ([], pos)
    run, pos = shapes.decode_run(data, ends[64], 135, len(data), record_v2._SHAPE, Record, records[64], bases)
    assert run == records[65:] and pos == len(data)
    run, pos = shapes.decode_run(data, 0, 200, len(data), record_v2._SHAPE, Record, None, bases)
    assert run == records and pos == len(data)  # both shapes are recent: runs from the first record on


@pytest.mark.parametrize(
    "kwargs",
    [
        {"headers": 0},
        {"headers": 1},
        {"key": None},
        {"value": None},
        {"key": None, "value": None, "headers": 0},
        {"ts_step": 100},
        {"ts_step": -3},
        {"ts_step": 10_000},  # 2-byte deltas, negative ones, 3-byte ones
        {"value": b""},
    ],
)
def test_shapes_with_nulls_empties_and_wide_varints(kwargs):
    records = same_shape(150, **kwargs)
    data = region(records)
    assert at_once(data, len(records)) == one_by_one(data, len(records)) == (records, len(data))


def test_mixed_header_keys_and_shapes():
    records = same_shape(40) + same_shape(40, headers=1) + same_shape(40)
    records = [
        r._replace(headers=[Header(f"k{i % 3}", b"12345678")] + list(r.headers[1:]))
        for i, r in enumerate(records)
    ]
    data = region(records)
    assert at_once(data, len(records)) == one_by_one(data, len(records))


#: the bytes each position is set to: small and large varint bytes, lengths -1/0, the byte flipped
HOSTILE = (0x00, 0x01, 0x02, 0x7E, 0x7F, 0x80, 0xC3, 0xFF)


def test_hostile_bytes_give_the_same_errors_at_the_same_positions():
    """Every byte of a record inside a run, and of the record that starts it, set to each hostile value."""
    records = same_shape(120)
    data = region(records)
    size = len(region(records[:1]))
    at_once(data, len(records))  # its shapes are now recent: a run may start at the first record
    mismatches = []
    for record in (0, 1, 40):  # before a run, its first record, inside it
        for at in range(record * size, record * size + size):
            for value in (*HOSTILE, data[at] ^ 1):
                bad = bytearray(data)
                bad[at] = value
                bad = bytes(bad)
                expected, got = one_by_one(bad, len(records)), at_once(bad, len(records))
                if expected != got:
                    mismatches.append(
                        (
                            at,
                            value,
                            expected if isinstance(expected[0], type) else "records",
                            got if isinstance(got[0], type) else "records",
                        )
                    )
    assert not mismatches, mismatches[:5]


def test_a_string_that_is_not_utf8_inside_a_run():
    records = same_shape(100)
    data = bytearray(region(records))
    data[data.index(b"h1", len(data) // 2)] = 0xFF  # a header key of a record in the middle of the run
    outcome = at_once(bytes(data), len(records))
    assert outcome == one_by_one(bytes(data), len(records))
    assert "not UTF-8" in outcome[1]


def test_truncated_and_cut_regions():
    records = same_shape(100)
    data = region(records)
    boundaries = [len(region(records[: i + 1])) for i in (0, 1, 50, 98)]  # more records said than there are
    for cut in (len(data) - 1, len(data) // 2, len(data) // 2 + 1, *boundaries):
        assert at_once(data[:cut], len(records)) == one_by_one(data[:cut], len(records))
        count = min(len(records), cut // record_v2.MIN_RECORD_SIZE)  # what the count check up front lets by
        assert at_once(data[:cut], count) == one_by_one(data[:cut], count)


@scaled(3)
@given(data=st.data())
def test_runs_of_drawn_shapes(data):
    """Runs of records drawn from a few shapes (key, value, headers with nulls), in any order and length."""
    blob = st.one_of(st.none(), st.binary(max_size=12))
    header = st.tuples(st.sampled_from(["a", "trace-id", "ü"]), blob).map(lambda kv: Header(*kv))
    shape = st.tuples(blob, blob, st.lists(header, max_size=3), st.integers(-70, 70))
    pieces = data.draw(st.lists(st.tuples(shape, st.integers(1, 40)), min_size=1, max_size=5))
    records = []
    for (key, value, headers, ts_step), run in pieces:
        for _ in range(run):
            i = len(records)
            records.append(
                Record(
                    timestamp=BASE_TS + i * ts_step,
                    offset=BASE_OFFSET + i,
                    key=key,
                    value=value,
                    headers=headers,
                )
            )
    encoded = region(records)
    at = data.draw(st.integers(0, len(encoded) - 1))
    bad = bytearray(encoded)
    bad[at] = data.draw(st.integers(0, 255))
    for buf in (encoded, bytes(bad)):
        assert at_once(buf, len(records)) == one_by_one(buf, len(records))


def test_large_records_get_no_shape_and_decode_one_by_one():
    """A shape is kept in a cache: records with many headers or long header keys get none (the cache
    stays small), and decode as before."""
    many = [
        Record(
            timestamp=BASE_TS, offset=BASE_OFFSET + i, key=b"k", value=b"v", headers=[Header("h", b"1")] * 100
        )
        for i in range(20)
    ]
    long_key = [
        Record(
            timestamp=BASE_TS,
            offset=BASE_OFFSET + i,
            key=b"k",
            value=b"v",
            headers=[Header("x" * 1000, b"1")],
        )
        for i in range(20)
    ]
    for records in (many, long_key):
        assert shapes.shape_of(record_v2._SHAPE, records[0], (BASE_OFFSET, BASE_TS)) is None
        data = region(records)
        assert at_once(data, len(records)) == one_by_one(data, len(records)) == (records, len(data))
