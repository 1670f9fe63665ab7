"""The column-at-a-time encoders (16 items or more) == the general per-item loop, byte for byte.

The column encoder of Record flattens every record's headers into one call of the Header column
encoder and cuts the pieces back per record: records with 0, 1 and many headers, repeated and
distinct keys, must come out exactly as the general loop (one record at a time) writes them, and
anything outside the common case (a null header value, a key that is not a str) must take the
general loop, whose answer (bytes or the error) is the reference.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.settings import scaled

import kafkaspec
from kafkaspec.codec.columns import ColumnItems
from kafkaspec.generated import header_v2, record_v2
from kafkaspec.generated.record_v2 import Record


def _one_at_a_time(records: list, base_offset: int, base_timestamp: int) -> bytes:
    """The general loop's bytes: each record encoded alone (fewer than 16 items never take the column path)."""
    return b"".join(
        record_v2.encode_record_array(
            [r._replace(offset=base_offset + i if r.offset is None else r.offset)],
            base_offset,
            base_timestamp,
        )
        for i, r in enumerate(records)
    )


headers = st.lists(
    st.tuples(st.sampled_from(["trace", "schema", "ü", ""]) | st.text(max_size=5), st.binary(max_size=12)),
    max_size=4,
)


@scaled(1)
@given(st.lists(st.tuples(st.binary(max_size=8), st.binary(max_size=40), headers), min_size=16, max_size=60))
def test_record_columns_equal_general_loop(rows):
    records = [
        Record(timestamp=1_700_000_000_000 + i, key=k, value=v, headers=h) for i, (k, v, h) in enumerate(rows)
    ]
    data = record_v2.encode_record_array(records, 7, 1_700_000_000_000)
    assert data == _one_at_a_time(records, 7, 1_700_000_000_000)
    decoded, end = record_v2.decode_record_array(data, 0, len(records), 7, 1_700_000_000_000)
    assert end == len(data)
    assert [(r.key, r.value, [tuple(x) for x in r.headers]) for r in decoded] == [
        (k, v, h) for k, v, h in rows
    ]


def test_headers_mixed_counts_and_nulls():
    records = [Record(timestamp=i, key=b"k", value=b"v", headers=[("h", b"x")] * (i % 4)) for i in range(40)]
    assert record_v2.encode_record_array(records, 0, 0) == _one_at_a_time(records, 0, 0)
    # a null header value is outside the column encoder: the general loop writes it (length -1)
    with_null = [
        *records[:20],
        Record(timestamp=3, key=b"k", value=b"v", headers=[("h", None)]),
        *records[20:],
    ]
    data = record_v2.encode_record_array(with_null, 0, 0)
    assert data == _one_at_a_time(with_null, 0, 0)
    decoded, _ = record_v2.decode_record_array(data, 0, len(with_null), 0, 0)
    assert decoded[20].headers == [("h", None)]


def test_header_key_not_str_is_a_type_error_naming_headers():
    records = [Record(timestamp=i, key=b"k", value=b"v", headers=[("h", b"1")]) for i in range(20)]
    records[9] = records[9]._replace(headers=[(b"bytes-key", b"1")])
    with pytest.raises(TypeError, match=r"records\[9\]\.headers\[0\] has a key of type bytes, not str"):
        kafkaspec.build_batch(records)


def test_header_column_parts_yield_one_piece_per_item_per_part():
    items = [("a", b"1"), ("bb", b""), ("a", b"333")]
    parts = header_v2.header_column_parts(items)
    per_part = [list(p) for p in parts]
    assert all(len(p) == len(items) for p in per_part)
    assert b"".join(b"".join(x) for x in zip(*per_part)) == b"".join(
        header_v2.encode_header(h) for h in items
    )


@pytest.mark.parametrize("count", [2, 20])
def test_headers_with_a_third_item_are_refused_not_truncated(count):
    # found in issue 16: with 16 records or more the column encoder kept the first two items of a
    # 3-item header and dropped the third; the general loop (fewer records) refuses the header
    records = [
        Record(timestamp=i, key=b"k", value=b"v", headers=[("h", b"x", b"dropped")]) for i in range(count)
    ]
    with pytest.raises(ValueError, match="too many values to unpack"):
        record_v2.encode_record_array(records, 0, 0)


@pytest.mark.parametrize("count", [2, 20])
def test_record_tuples_with_a_seventh_item_are_refused_not_truncated(count):
    rows = [(0, i, None, b"k", b"v", (), "dropped") for i in range(count)]
    with pytest.raises(ValueError, match="too many values to unpack"):
        record_v2.encode_record_array(rows, 0, 0)


def _as_columns(records: list) -> ColumnItems:
    """``records`` as columns; a column whose every item is the field's default given as None (omitted)."""
    defaults = tuple(Record._field_defaults[f] for f in Record._fields)
    columns = tuple(
        None if all(x == d and type(x) is type(d) for x in col) else list(col)
        for col, d in zip(zip(*records), defaults)
    )
    return ColumnItems(len(records), columns, defaults)


nullable = st.none() | st.binary(max_size=8)
big = st.integers(-(1 << 40), 1 << 40)  # varints past the lookup tables


@scaled(1)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0, 0, 0, 5]),
            st.none() | big,
            st.none() | big,
            nullable,
            st.none() | st.binary(max_size=300) | st.binary(min_size=9000, max_size=9001),
            st.lists(st.tuples(st.sampled_from(["t", "ü"]), nullable), max_size=3),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_column_items_equal_the_general_loop(rows):
    # nulls (partial and whole columns), headers, big varints, offsets/timestamps None: the columns give the
    # bytes the same records give one at a time, or the same error
    records = [Record(*row) for row in rows]
    try:
        expected = _one_at_a_time(records, 1 << 20, 1 << 30)
    except (ValueError, TypeError) as exc:
        with pytest.raises(type(exc)):
            record_v2.encode_record_array(_as_columns(records), 1 << 20, 1 << 30)
        return
    assert record_v2.encode_record_array(_as_columns(records), 1 << 20, 1 << 30) == expected
    assert record_v2.encode_record_array(records, 1 << 20, 1 << 30) == expected


def test_column_items_read_as_the_records():
    items = ColumnItems(
        3, (None, [1, 2, 3], None, None, [b"a", None, b"c"], None), (0, None, None, None, None, ())
    )
    assert list(items) == [
        (0, 1, None, None, b"a", ()),
        (0, 2, None, None, None, ()),
        (0, 3, None, None, b"c", ()),
    ]
    assert items[-1] == (0, 3, None, None, b"c", ()) and items[1:] == list(items)[1:] and len(items) == 3
    with pytest.raises(IndexError):
        items[3]
    with pytest.raises(ValueError, match="column 1 has 2 items, not 3"):
        ColumnItems(3, (None, [1, 2]), (0, None))


@pytest.mark.parametrize(
    "bad",
    [
        {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6},
        "abcdef",
        (0, 1, 2),
        42,
        [0, "x", None, b"k", b"v", ()],
    ],
)
def test_a_record_that_is_no_record_is_named(bad):
    # build_batch takes the records a column at a time; what is not a Record (a 3-tuple raised
    # AttributeError before issue 16's change) is named by its index
    records = [Record(key=b"k", value=b"v", timestamp=i) for i in range(20)]
    with pytest.raises(TypeError, match=rf"records\[5\] is a {type(bad).__name__}, not a kafkaspec.Record"):
        kafkaspec.build_batch([*records[:5], bad, *records[5:]])


@pytest.mark.parametrize("header", [("h",), (), ["h", b"x", b"y"], {"h": b"x"}, "hx"])
def test_headers_of_another_shape_get_the_general_loops_error(header):
    # the pairs encoder (header_pieces) hands each header to a dict's get by starmap: a header of
    # another shape must fail as the general loop fails on it, never encode
    records = [Record(timestamp=i, key=b"k", value=b"v", headers=[("a", b"1"), header]) for i in range(20)]
    with pytest.raises(Exception) as general:
        record_v2.encode_record_array(records[:1], 0, 0)
    with pytest.raises(type(general.value)):
        record_v2.encode_record_array(records, 0, 0)
