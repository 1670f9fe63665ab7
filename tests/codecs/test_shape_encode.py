"""Records of one shape encoded by one join over the columns (kafkaspec.codec.shape_encode) == the general
per-record loop, byte for byte; anything not of one shape (one record differing in one length, key,
count or null) takes the other paths with the same outcome, and bad input raises the same errors.

The reference is the general loop: each record encoded alone (fewer than 16 items never take the
column or shape paths), its offset made explicit (None means base_offset + its index).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.settings import scaled

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.codec.shape_encode import encode_shaped
from kafkaspec.generated import record_v2
from kafkaspec.generated.record_v2 import Header, Record

BASE_OFFSET, BASE_TS = 1_000, 1_700_000_000_000
DEFAULTS = tuple(Record._field_defaults[name] for name in Record._fields)


def general(records: list, base_offset: int = BASE_OFFSET, base_ts: int = BASE_TS):
    """The general loop's outcome: the bytes, or the error (type and message)."""
    try:
        return b"".join(
            record_v2.encode_record_array(
                [r._replace(offset=base_offset + i if r.offset is None else r.offset)], base_offset, base_ts
            )
            for i, r in enumerate(records)
        )
    except Exception as exc:  # the outcome compared, whatever it is
        return type(exc), str(exc)


def fast(items, base_offset: int = BASE_OFFSET, base_ts: int = BASE_TS):
    try:
        return record_v2.encode_record_array(items, base_offset, base_ts)
    except Exception as exc:  # the outcome compared, whatever it is
        return type(exc), str(exc)


def as_columns(records: list) -> ColumnItems:
    """The records as build_batch's columns form gives them: None for a column of defaults only."""
    cols = transpose(records, 6)
    cols = tuple(None if all(x == d and type(x) is type(d) for x in c) else c for c, d in zip(cols, DEFAULTS))
    return ColumnItems(len(records), cols, DEFAULTS)


def shaped(records: list) -> bytes | None:
    parts = encode_shaped(
        record_v2._SHAPE, transpose(records, 6), (None,) * 6, len(records), (BASE_OFFSET, BASE_TS)
    )
    return None if parts is None else b"".join(parts)


shapes = st.fixed_dictionaries(
    {
        "key": st.none() | st.integers(0, 70),
        "value": st.none() | st.integers(0, 300),
        "headers": st.lists(
            st.tuples(
                st.sampled_from(["trace", "schema", "ü", ""]) | st.text(max_size=5), st.integers(0, 20)
            ),
            max_size=4,
        ),
        "attributes": st.sampled_from([0, 0, 5]),
        "ts_step": st.sampled_from([0, 1, 3, 100, 5000]),  # deltas of one, two and more varint bytes
        "offsets": st.sampled_from(["none", "explicit", "gaps"]),
    }
)
#: how one record of the batch leaves the shape (None: it does not)
changes = st.none() | st.sampled_from(
    [
        "key_len",
        "key_none",
        "value_len",
        "value_none",
        "header_key",
        "header_value_len",
        "header_value_none",
        "header_count",
        "attributes",
        "timestamp_none",
        "ts_far",
    ]
)


def make(shape: dict, n: int) -> list[Record]:
    out = []
    for i in range(n):
        offset = {"none": None, "explicit": BASE_OFFSET + i, "gaps": BASE_OFFSET + 70 * i}[shape["offsets"]]
        out.append(
            Record(
                attributes=shape["attributes"],
                timestamp=BASE_TS + i * shape["ts_step"],
                offset=offset,
                key=None if shape["key"] is None else bytes([i % 256]) * shape["key"],
                value=None if shape["value"] is None else bytes([(i * 7) % 256]) * shape["value"],
                headers=[
                    Header(k, bytes([i % 256, j]) * (vlen // 2) + b"x" * (vlen % 2))
                    for j, (k, vlen) in enumerate(shape["headers"])
                ],
            )
        )
    return out


def change(r: Record, how: str) -> Record:
    hs = list(r.headers)
    if how == "key_len":
        return r._replace(key=(r.key or b"") + b"+")
    if how == "key_none":
        return r._replace(key=None)
    if how == "value_len":
        return r._replace(value=(r.value or b"") + b"+")
    if how == "value_none":
        return r._replace(value=None)
    if how == "header_key" and hs:
        hs[-1] = Header(hs[-1].key + "x", hs[-1].value)
    elif how == "header_value_len" and hs:
        hs[0] = Header(hs[0].key, hs[0].value + b"+")
    elif how == "header_value_none" and hs:
        hs[0] = Header(hs[0].key, None)
    elif how == "header_count":
        hs.append(Header("extra", b"1"))
    elif how == "attributes":
        return r._replace(attributes=r.attributes + 1)
    elif how == "timestamp_none":
        return r._replace(timestamp=None)
    elif how == "ts_far":
        return r._replace(timestamp=BASE_TS + (1 << 40))  # a varlong of six bytes
    return r._replace(headers=hs)


@scaled(1)
@given(shapes, st.integers(1, 140), changes, st.data())
def test_one_shape_and_almost_one_shape_equal_general_loop(shape, n, how, data):
    records = make(shape, n)
    if how is not None:
        at = data.draw(st.integers(0, n - 1))
        records[at] = change(records[at], how)
    expected = general(records)
    assert fast(records) == expected
    assert fast(as_columns(records)) == expected
    assert fast(tuple(records)) == expected
    got = shaped(records)
    assert got is None or got == expected
    widest = {"none": 1, "explicit": 1, "gaps": 70}[shape["offsets"]]
    if how is None and (n - 1) * max(shape["ts_step"], widest) <= 8191:  # varints of at most two bytes
        assert got is not None, "one shape: the shape path must take it"


def test_many_records_two_byte_deltas_take_the_shape_path():
    records = make(
        {
            "key": 6,
            "value": 60,
            "headers": [("h0", 8), ("h1", 8), ("h2", 8)],
            "attributes": 0,
            "ts_step": 1,
            "offsets": "none",
        },
        300,
    )
    got = shaped(records)
    assert got is not None and got == general(records)
    assert fast(as_columns(records)) == got


@pytest.mark.parametrize("ts_step", [0, 1, 100])  # deltas of one byte, one then two, two and more
@pytest.mark.parametrize(
    "value", [2_100, 9_000]
)  # records past the flat-join size; a two-byte length and more
def test_large_records_are_one_flat_join_equal_to_the_general_loop(ts_step, value):
    records = make(
        {
            "key": 6,
            "value": value,
            "headers": [("h0", 8)],
            "attributes": 0,
            "ts_step": ts_step,
            "offsets": "none",
        },
        90,
    )
    expected = general(records)
    assert fast(as_columns(records)) == expected
    got = shaped(records)
    if value <= 8191 and 89 * ts_step <= 8191:
        assert got == expected
    else:
        assert got is None  # a length beyond the varint table: the other paths take it


@pytest.mark.parametrize(
    "bad, error",
    [
        ({"attributes": 0.0}, TypeError),  # 0.0 == 0: a count alone would let it through
        ({"attributes": 1.5}, TypeError),
        ({"key": "str-ke"}, TypeError),  # a str of the keys' length
        ({"value": 12345}, TypeError),
        ({"headers": [Header(b"h0", b"12345678")]}, AttributeError),  # a key that is no str
        ({"headers": [Header("h0", "12345678")]}, TypeError),  # a value that is no bytes
        ({"headers": [("h0", b"12345678", b"more")]}, ValueError),
        ({"timestamp": "1"}, TypeError),
    ],
)
def test_bad_input_raises_as_the_general_loop(bad, error):
    records = make(
        {"key": 6, "value": 60, "headers": [("h0", 8)], "attributes": 0, "ts_step": 1, "offsets": "none"}, 40
    )
    records[17] = records[17]._replace(**bad)
    expected = general(records)
    assert isinstance(expected, tuple) and expected[0] is error
    assert fast(records) == expected
    assert fast(as_columns(records)) == expected
    assert shaped(records) is None


def test_attributes_out_of_a_byte_are_masked_as_the_general_loop_does():
    records = make(
        {"key": 2, "value": 2, "headers": [], "attributes": -1, "ts_step": 1, "offsets": "none"}, 20
    )
    assert fast(records) == general(records)
    assert fast(as_columns(records)) == general(records)


@pytest.mark.parametrize("value", [100, 2_100, 9_000, 100_000])  # small, large of one shape, past the table
@pytest.mark.parametrize("codec", ["none", "zstd"])
def test_batches_of_large_records_equal_kafka_pythons(value, codec):
    """Large records reach the batch as parts (no region joined first): the batch equals kafka-python's
    builder's byte for byte, and the parts joined equal the array encoder's bytes."""
    import kafka.record.default_records as kp

    import kafkaspec

    records = make(
        {"key": 6, "value": value, "headers": [("h0", 8)], "attributes": 0, "ts_step": 1, "offsets": "none"},
        40,
    )
    parts = record_v2.encode_record_array_parts(records, 0, BASE_TS)
    assert b"".join(parts) == record_v2.encode_record_array(records, 0, BASE_TS)
    if (
        value >= 2_048
    ):  # large records: pieces (one shape) or a record's parts (the general loop), never one region
        assert len(parts) >= len(records)
    builder = kp.DefaultRecordBatchBuilder(2, {"none": 0, "zstd": 4}[codec], 0, -1, -1, -1, 1 << 30)
    for i, r in enumerate(records):
        builder.append(
            i, timestamp=r.timestamp, key=r.key, value=r.value, headers=[tuple(h) for h in r.headers]
        )
    ours = kafkaspec.build_batch(records, compression=codec)
    if codec == "none":  # the records region byte for byte (the heads differ in partition_leader_epoch)
        assert ours[61:] == bytes(builder.build())[61:]
        theirs = kp.DefaultRecordBatch(ours)
        assert theirs.validate_crc()
        assert [r.value for r in theirs] == [r.value for r in records]
    else:  # compressed bytes may differ by compressor settings: the records must not
        [batch] = kafkaspec.iter_batches(ours)
        assert [(r.key, r.value, r.timestamp, list(r.headers)) for r in batch.records] == [
            (r.key, r.value, r.timestamp, list(r.headers)) for r in records
        ]
