"""build_batch(keys=, values=, timestamps=, headers=): records given as columns write exactly the bytes
of the same records given as Record objects (offsets base_offset + index), and refuse what it refuses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.records import CODECS, record_lists
from support.settings import scaled

from kafkaspec import Record, build_batch, iter_batches


@scaled(3)
@given(
    records=record_lists(min_size=1, max_size=40),
    codec=st.sampled_from(CODECS),
    base_offset=st.integers(0, 1 << 40),
)
def test_columns_equal_records(records, codec, base_offset):
    records = [r._replace(offset=None) for r in records]
    if records[0].timestamp is None:  # the batch default would be "now": two calls could differ
        records[0] = records[0]._replace(timestamp=0)
    options = {"compression": codec, "base_offset": base_offset}
    expected = build_batch(records, **options)
    got = build_batch(
        keys=[r.key for r in records],
        values=[r.value for r in records],
        timestamps=[r.timestamp for r in records],
        headers=[r.headers for r in records],
        **options,
    )
    assert got == expected


def test_omitted_columns_are_null_keys_base_timestamp_no_headers():
    data = build_batch(values=[b"a", None, b"c"], base_offset=5)
    (batch,) = iter_batches(data)
    assert [(r.offset, r.key, r.value, r.headers) for r in batch] == [
        (5, None, b"a", []),
        (6, None, None, []),
        (7, None, b"c", []),
    ]
    assert len({r.timestamp for r in batch}) == 1


@pytest.mark.parametrize("magic", [0, 1])
def test_columns_for_legacy_magics(magic):
    data = build_batch(keys=[b"k1", b"k2"], values=[b"v1", b"v2"], timestamps=[10, 11], magic=magic)
    expected = build_batch(
        [Record(key=b"k1", value=b"v1", timestamp=10), Record(key=b"k2", value=b"v2", timestamp=11)],
        magic=magic,
    )
    assert data == expected


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"values": [b"1", b"2"], "keys": [b"1"]}, ValueError, r"keys= has 1 items, values= has 2"),
        ({"values": [b"1"], "timestamps": [1, 2]}, ValueError, r"timestamps= has 2 items"),
        ({"keys": [b"1"]}, ValueError, r"needs records, or columns: values="),
        ({"values": [b"1"], "timestamps": ["x"]}, TypeError, r"records\[0\]\.timestamp must be an int"),
        (
            {"values": [b"1"] * 20, "timestamps": [1] * 19 + [1 << 63]},
            ValueError,
            r"records\[19\]\.timestamp",
        ),
        ({"values": [b"1", 2]}, TypeError, r"records\[1\]\.value is of type int, not bytes or None"),
        (
            {"values": [b"1"], "headers": [[(b"k", b"v")]]},
            TypeError,
            r"records\[0\]\.headers\[0\] has a key of type bytes, not str",
        ),
    ],
)
def test_bad_columns_name_the_argument_or_record(kwargs, error, message):
    with pytest.raises(error, match=message):
        build_batch(**kwargs)


def test_records_and_columns_together_are_refused():
    with pytest.raises(ValueError, match="not both"):
        build_batch([Record(value=b"v", timestamp=1)], values=[b"v"])
