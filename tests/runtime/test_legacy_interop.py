"""Interop with kafka-python's legacy record classes, both directions: magic 0 and 1, every legacy codec."""

from __future__ import annotations

import pytest
from kafka.record.legacy_records import LegacyRecordBatch, LegacyRecordBatchBuilder

import kafkaspec
from kafkaspec import Record

CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3}
VALUES = [
    (b"k0", b"v0"),
    (None, b"value without key"),
    (b"key without value", None),
    (b"", b""),
    (b"big", bytes(range(256)) * 40),
]


def _kafka_python_build(magic: int, codec: str, base_offset: int) -> bytes:
    builder = LegacyRecordBatchBuilder(magic=magic, compression_type=CODECS[codec], batch_size=1 << 20)
    for i, (key, value) in enumerate(VALUES):
        builder.append(
            base_offset + i, timestamp=1_700_000_000_000 + i if magic else None, key=key, value=value
        )
    return bytes(builder.build())


def _kafka_python_read(data: bytes, magic: int) -> list[tuple]:
    out = []
    pos = 0
    while pos < len(data):
        size = int.from_bytes(data[pos + 8 : pos + 12], "big")
        batch = LegacyRecordBatch(bytearray(data[pos : pos + 12 + size]), magic)
        assert batch.validate_crc()
        out.extend((r.offset, r.timestamp, r.key, r.value) for r in batch)
        pos += 12 + size
    return out


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("magic", [0, 1])
def test_kafka_python_writes_kafkaspec_reads(magic, codec):
    data = _kafka_python_build(magic, codec, base_offset=40)
    records = [r for batch in kafkaspec.iter_batches(data) for r in batch]
    batches = list(kafkaspec.iter_batches(data))
    assert {b.magic for b in batches} == {magic}
    assert {b.compression for b in batches} == {codec}
    assert [(r.key, r.value) for r in records] == VALUES
    assert [r.offset for r in records] == list(range(40, 40 + len(VALUES)))
    expected_ts = [1_700_000_000_000 + i for i in range(len(VALUES))] if magic else [-1] * len(VALUES)
    assert [r.timestamp for r in records] == expected_ts
    # last_offset is the wrapper's own offset field, as in Kafka; kafka-python's producer writes 0 there
    # for magic 0 wrappers, which is legal (a broker assigns the real one).
    assert batches[-1].last_offset == batches[-1].offset


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("magic", [0, 1])
def test_kafkaspec_writes_kafka_python_reads(magic, codec):
    records = [Record(key=k, value=v, timestamp=1_700_000_000_000 + i) for i, (k, v) in enumerate(VALUES)]
    data = kafkaspec.build_batch(records, magic=magic, compression=codec, base_offset=7)
    got = _kafka_python_read(data, magic)
    assert [(k, v) for _, _, k, v in got] == VALUES
    assert [o for o, _, _, _ in got] == list(range(7, 7 + len(VALUES)))
    if magic:
        assert [t for _, t, _, _ in got] == [1_700_000_000_000 + i for i in range(len(VALUES))]


@pytest.mark.parametrize("magic", [0, 1])
def test_uncompressed_bytes_identical(magic):
    """Without compression both writers produce the same bytes."""
    ours = kafkaspec.build_batch(
        [Record(key=k, value=v, timestamp=1_700_000_000_000 + i) for i, (k, v) in enumerate(VALUES)],
        magic=magic,
        base_offset=40,
    )
    assert ours == _kafka_python_build(magic, "none", base_offset=40)


def test_magic0_lz4_uses_kafka3160_header():
    """Magic 0 lz4 frames carry the broken header checksum, which kafka-python also writes and expects."""
    ours = kafkaspec.build_batch([Record(key=None, value=b"x" * 100)], magic=0, compression="lz4")
    theirs = _kafka_python_build(0, "lz4", 0)
    ours_value = ours[ours.index(b"\x04\x22\x4d\x18") :][:7]
    theirs_value = theirs[theirs.index(b"\x04\x22\x4d\x18") :][:7]
    assert ours_value == theirs_value  # same frame descriptor and (broken) checksum byte
    assert _kafka_python_read(ours, 0)[0][3] == b"x" * 100


def test_log_append_time_applies_wrapper_timestamp():
    records = [Record(key=None, value=b"v%d" % i, timestamp=5 + i) for i in range(3)]
    data = kafkaspec.build_batch(
        records, magic=1, compression="gzip", timestamp_type="log_append", log_append_time=999
    )
    (batch,) = kafkaspec.iter_batches(data)
    assert batch.timestamp_type == "log_append"
    assert [r.timestamp for r in batch] == [999] * 3
    got = _kafka_python_read(data, 1)
    assert [t for _, t, _, _ in got] == [999] * 3


def _wrapper(magic: int, wrapper_offset: int, inner_offsets: list[int]) -> bytes:
    """A gzip wrapper assembled by hand, with the given wrapper offset and inner offset fields."""
    import zlib

    from kafkaspec.generated import message_v0, message_v1

    mod = message_v1 if magic else message_v0
    extra = {"timestamp": 5} if magic else {}
    inner = b"".join(mod.encode_message(offset=o, key=None, value=b"m%d" % o, **extra) for o in inner_offsets)
    return mod.encode_message(
        offset=wrapper_offset, attributes=1, key=None, value=zlib.compress(inner, wbits=31), **extra
    )


@pytest.mark.parametrize(
    ("magic", "wrapper_offset", "inner", "expected"),
    [
        (1, 12, [0, 1, 2], [10, 11, 12]),  # broker-assigned: relative inner offsets
        (1, 12, [0, 2, 5], [7, 9, 12]),  # compacted: gaps kept
        (
            1,
            0,
            [0, 1, 2],
            [0, 1, 2],
        ),  # a producer's wrapper offset 0: base would be negative, keep as written
        (0, 0, [30, 31, 32], [30, 31, 32]),  # magic 0: inner offsets are absolute
    ],
)
def test_inner_offsets(magic, wrapper_offset, inner, expected):
    (batch,) = kafkaspec.iter_batches(_wrapper(magic, wrapper_offset, inner))
    assert [r.offset for r in batch] == expected
    assert batch.base_offset == expected[0] and batch.last_offset == wrapper_offset
