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
from kafkaspec.generated import header_v2, record_v2
from kafkaspec.generated.record_v2 import Record


def _one_at_a_time(records: list, base_offset: int, base_timestamp: int) -> bytes:
    """The general loop's bytes: each record encoded alone (fewer than 16 items never take the column path)."""
    return b"".join(
        record_v2.encode_record_array([r._replace(offset=base_offset + i if r.offset is None else r.offset)],
                                      base_offset, base_timestamp)
        for i, r in enumerate(records))


headers = st.lists(st.tuples(st.sampled_from(["trace", "schema", "ü", ""]) | st.text(max_size=5),
                             st.binary(max_size=12)), max_size=4)


@scaled(1)
@given(st.lists(st.tuples(st.binary(max_size=8), st.binary(max_size=40), headers), min_size=16, max_size=60))
def test_record_columns_equal_general_loop(rows):
    records = [Record(timestamp=1_700_000_000_000 + i, key=k, value=v, headers=h) for i, (k, v, h) in enumerate(rows)]
    data = record_v2.encode_record_array(records, 7, 1_700_000_000_000)
    assert data == _one_at_a_time(records, 7, 1_700_000_000_000)
    decoded, end = record_v2.decode_record_array(data, 0, len(records), 7, 1_700_000_000_000)
    assert end == len(data)
    assert [(r.key, r.value, [tuple(x) for x in r.headers]) for r in decoded] == [(k, v, h) for k, v, h in rows]


def test_headers_mixed_counts_and_nulls():
    records = [Record(timestamp=i, key=b"k", value=b"v", headers=[("h", b"x")] * (i % 4)) for i in range(40)]
    assert record_v2.encode_record_array(records, 0, 0) == _one_at_a_time(records, 0, 0)
    # a null header value is outside the column encoder: the general loop writes it (length -1)
    with_null = [*records[:20], Record(timestamp=3, key=b"k", value=b"v", headers=[("h", None)]), *records[20:]]
    data = record_v2.encode_record_array(with_null, 0, 0)
    assert data == _one_at_a_time(with_null, 0, 0)
    decoded, _ = record_v2.decode_record_array(data, 0, len(with_null), 0, 0)
    assert decoded[20].headers == [("h", None)]


def test_header_key_not_str_is_a_type_error_naming_headers():
    records = [Record(timestamp=i, key=b"k", value=b"v", headers=[("h", b"1")]) for i in range(20)]
    records[9] = records[9]._replace(headers=[(b"bytes-key", b"1")])
    with pytest.raises(TypeError, match="headers are"):
        kafkaspec.build_batch(records)


def test_header_column_parts_yield_one_piece_per_item_per_part():
    items = [("a", b"1"), ("bb", b""), ("a", b"333")]
    parts = header_v2.header_column_parts(items)
    per_part = [list(p) for p in parts]
    assert all(len(p) == len(items) for p in per_part)
    assert b"".join(b"".join(x) for x in zip(*per_part)) == b"".join(header_v2.encode_header(h) for h in items)
