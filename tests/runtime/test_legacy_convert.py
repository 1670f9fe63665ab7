"""kafkaspec.convert: down- and up-conversion between message format versions, with what was dropped."""

from __future__ import annotations

import pytest

import kafkaspec
from kafkaspec import Record, UnsupportedCodecError


def _records(data):
    return [(r.offset, r.timestamp, r.key, r.value) for b in kafkaspec.iter_batches(data) for r in b]


V2 = (
    kafkaspec.build_batch(
        [
            Record(key=b"a", value=b"1", timestamp=10, headers=[("h", b"x"), ("h", None)]),
            Record(key=None, value=b"2", timestamp=11),
        ],
        compression="gzip",
        base_offset=100,
        producer_id=7,
        producer_epoch=1,
        base_sequence=0,
    )
    + kafkaspec.build_control_batch("commit", producer_id=7, producer_epoch=1, base_offset=102, timestamp=12)
    + kafkaspec.build_batch([Record(key=b"c", value=b"3", timestamp=13)], base_offset=103)
)


@pytest.mark.parametrize("magic", [0, 1])
def test_down_convert(magic):
    result = kafkaspec.convert(V2, magic)
    assert {b.magic for b in kafkaspec.iter_batches(result.data)} == {magic}
    got = _records(result.data)
    assert [(o, k, v) for o, _, k, v in got] == [(100, b"a", b"1"), (101, None, b"2"), (103, b"c", b"3")]
    assert [t for _, t, _, _ in got] == ([10, 11, 13] if magic else [-1, -1, -1])
    assert result.dropped_headers == 2
    assert result.dropped_producer_fields == 1
    assert result.dropped_control_batches == 1
    assert result.dropped_timestamps == (3 if magic == 0 else 0)
    assert [b.compression for b in kafkaspec.iter_batches(result.data)] == ["gzip", "none"]


def test_up_convert_keeps_offsets_and_timestamps():
    legacy = kafkaspec.build_batch(
        [Record(key=b"k", value=b"v%d" % i, timestamp=50 + i) for i in range(3)],
        magic=1,
        compression="snappy",
        base_offset=9,
    )
    legacy += kafkaspec.build_batch([Record(key=None, value=b"z")], magic=0, base_offset=12)
    result = kafkaspec.convert(legacy, 2)
    batches = list(kafkaspec.iter_batches(result.data))
    assert [b.magic for b in batches] == [2, 2]
    assert _records(result.data) == [
        (9, 50, b"k", b"v0"),
        (10, 51, b"k", b"v1"),
        (11, 52, b"k", b"v2"),
        (12, -1, None, b"z"),
    ]
    assert result.dropped_headers == result.dropped_timestamps == 0
    assert kafkaspec.convert(result.data, 1).data == kafkaspec.convert(legacy, 1).data


def test_zstd_needs_a_codec_override_below_v2():
    data = kafkaspec.build_batch([Record(value=b"v", timestamp=1)], compression="zstd")
    with pytest.raises(UnsupportedCodecError, match="zstd"):
        kafkaspec.convert(data, 1)
    assert _records(kafkaspec.convert(data, 1, compression="lz4").data) == [(0, 1, None, b"v")]
