"""Bad input on the legacy paths: every failure is a KafkaFormatError naming a byte position."""

from __future__ import annotations

import zlib

import pytest

import kafkaspec
from kafkaspec import (
    CorruptRecordError,
    InvalidLengthError,
    InvalidMagicError,
    LimitExceededError,
    Record,
    UnsupportedCodecError,
)
from kafkaspec.generated import message_v1

RECORDS = [Record(key=b"k", value=b"v%d" % i, timestamp=100 + i) for i in range(3)]


def test_crc_error_names_position_and_values():
    data = bytearray(kafkaspec.build_batch(RECORDS, magic=1))
    first = len(data) // 3
    data[first + 30] ^= 1
    with pytest.raises(CorruptRecordError, match=r"crc is 0x[0-9a-f]{8}, CRC32 of bytes .* is 0x") as info:
        list(kafkaspec.iter_batches(bytes(data)))
    assert info.value.position == first


def test_unknown_magic():
    data = bytearray(kafkaspec.build_batch(RECORDS, magic=0))
    data[16] = 3
    with pytest.raises(InvalidMagicError, match="magic byte is 3, expected 0, 1 or 2") as info:
        list(kafkaspec.iter_batches(bytes(data)))
    assert info.value.position == 16


def test_decompression_bomb_is_bounded():
    bomb = zlib.compress(b"\x00" * (8 << 20), 9, wbits=31)
    data = message_v1.encode_message(offset=0, attributes=1, timestamp=0, key=None, value=bomb)
    (batch,) = kafkaspec.iter_batches(data, max_decompressed=1 << 20)
    with pytest.raises(LimitExceededError, match="max_decompressed"):
        batch.records  # noqa: B018


def test_nested_wrapper_rejected():
    inner = kafkaspec.build_batch(RECORDS, magic=1, compression="gzip")
    data = message_v1.encode_message(
        offset=0, attributes=1, timestamp=0, key=None, value=zlib.compress(inner, wbits=31)
    )
    (batch,) = kafkaspec.iter_batches(data)
    with pytest.raises(LimitExceededError, match="nesting") as info:
        batch.records  # noqa: B018
    assert info.value.position == 0


def test_unsupported_codec():
    data = message_v1.encode_message(offset=0, attributes=6, timestamp=0, key=None, value=b"xx")
    (batch,) = kafkaspec.iter_batches(data)
    with pytest.raises(UnsupportedCodecError, match="no known codec"):
        batch.records  # noqa: B018


def test_length_too_small_for_any_format():
    data = bytes.fromhex("000000000000000300000003feb01d")
    with pytest.raises(InvalidLengthError, match="shorter than any message format"):
        list(kafkaspec.iter_batches(data))


def test_partial_tail_is_reported_not_raised():
    data = kafkaspec.build_batch(RECORDS, magic=1, compression="snappy")
    cut = data + data[:25]
    it = kafkaspec.iter_batches(cut)
    assert [b.magic for b in it] == [1]
    assert it.partial == kafkaspec.Partial(len(data), 25, len(data))


def test_zstd_cannot_be_written_below_magic_2():
    with pytest.raises(UnsupportedCodecError):
        kafkaspec.build_batch(RECORDS, magic=1, compression="zstd")


def test_headers_cannot_be_written_below_magic_2():
    with pytest.raises(ValueError, match="headers need magic 2"):
        kafkaspec.build_batch([Record(value=b"v", headers=[("a", b"b")])], magic=1)


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize(
    ("argument", "value"),
    [
        ("producer_id", 7),
        ("producer_epoch", 0),
        ("base_sequence", 0),
        ("is_transactional", True),
        ("partition_leader_epoch", 3),
        ("is_control", True),
        ("last_offset_delta", 5),
    ],
)
def test_v2_only_arguments_are_refused_below_magic_2(magic, argument, value):
    # Message v0/v1 has no field for these: dropping them silently would lose what the caller asked for
    with pytest.raises(
        ValueError, match=rf"{argument}={value!r} needs magic 2 \(Message v{magic} has no such field\)"
    ):
        kafkaspec.build_batch(RECORDS, magic=magic, **{argument: value})


@pytest.mark.parametrize("magic", [0, 1])
def test_v2_only_arguments_at_their_none_values_are_accepted_below_magic_2(magic):
    none_values = dict(
        producer_id=-1,
        producer_epoch=-1,
        base_sequence=-1,
        is_transactional=False,
        partition_leader_epoch=-1,
        is_control=False,
        last_offset_delta=None,
    )
    assert kafkaspec.build_batch(RECORDS, magic=magic, **none_values) == kafkaspec.build_batch(
        RECORDS, magic=magic
    )


def test_log_append_time_needs_magic_1():
    with pytest.raises(ValueError, match=r"timestamp_type='log_append' needs magic 1 or 2"):
        kafkaspec.build_batch(RECORDS, magic=0, timestamp_type="log_append")
