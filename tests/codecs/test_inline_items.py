"""A record's headers are decoded inside the record loop (codegen inlines small flat item arrays):
the same values and the same refusals as the Header array decoder."""

from __future__ import annotations

import pytest

from kafkaspec.errors import InvalidLengthError, KafkaFormatError
from kafkaspec.generated import header_v2, record_v2
from kafkaspec.generated.record_v2 import Record


def _records_region(headers: list) -> bytes:
    return record_v2.encode_record_array([Record(timestamp=0, key=b"k", value=b"v", headers=headers)], 0, 0)


def test_inline_headers_equal_the_header_decoder():
    headers = [("a", b"1"), ("a", None), ("", b""), ("ü", b"x" * 300)]
    data = _records_region(headers)
    (record,), end = record_v2.decode_record_array(data, 0, 1, 0, 0)
    assert end == len(data)
    assert record.headers == headers and all(type(h) is header_v2.Header for h in record.headers)


def test_inline_header_key_not_utf8_names_the_record():
    data = bytearray(_records_region([("ab", b"1")]))
    data[data.index(b"ab")] = 0xFF
    with pytest.raises(KafkaFormatError, match="not UTF-8") as info:
        record_v2.decode_record_array(bytes(data), 0, 1, 0, 0)
    assert info.value.position == 0


def test_inline_header_count_beyond_the_record_is_refused():
    data = bytearray(_records_region([("a", b"1")]))
    count_at = data.index(b"\x02\x02a")  # header count 1 (zigzag 2), then the key length 1 and "a"
    data[count_at] = 0x7E  # 63 headers cannot fit in the 5 bytes left
    with pytest.raises(InvalidLengthError, match="Headers cannot fit"):
        record_v2.decode_record_array(bytes(data), 0, 1, 0, 0)
