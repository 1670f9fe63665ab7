"""Layout facts of the legacy schemas, checked against Kafka's own constants (LegacyRecord.java)."""

from __future__ import annotations

from kafkaspec.generated import (
    log_entry,
    message_v0,
    message_v1,
    record_batch_v2,
    wire_message_any,
    wire_message_v0,
    wire_message_v1,
)
from kafkaspec.generated.enums import ErrorCode, OffsetsTime, RequestType


def test_message_layout_matches_kafka():
    # Kafka: LOG_OVERHEAD 12; RECORD_OVERHEAD_V0 14 and V1 22 (crc..value length, with empty key and value)
    assert message_v0.MAGIC_OFFSET == message_v1.MAGIC_OFFSET == log_entry.DISCRIMINATOR_OFFSET == 16
    assert message_v0.MESSAGE_OVERHEAD + 8 == 12 + 14
    assert (
        message_v0.MESSAGE_SIZE_END == message_v1.MESSAGE_SIZE_END == 12
    )  # message_size counts from LOG_OVERHEAD
    assert message_v1.MESSAGE_OVERHEAD + 8 == 12 + 22
    assert (
        message_v1.TIMESTAMP_TYPE_MASK == 0x08
        and message_v0.COMPRESSION_MASK == message_v1.COMPRESSION_MASK == 7
    )
    assert len(message_v0.encode_message(offset=0, key=None, value=None)) == 26
    assert len(message_v1.encode_message(offset=0, key=None, value=None, timestamp=0)) == 34


def test_wire_message_layout_matches_seed_002():
    assert wire_message_v0.WIRE_MESSAGE_OVERHEAD == 9  # LENGTH, MAGIC, CHECKSUM
    assert wire_message_v1.WIRE_MESSAGE_OVERHEAD == 10  # LENGTH, MAGIC, COMPRESSION, CHECKSUM
    assert wire_message_any.DISCRIMINATOR_OFFSET == 4


def test_dispatch_on_magic():
    assert log_entry.CASES == {0: message_v0, 1: message_v1, 2: record_batch_v2}
    assert (record_batch_v2.NAME, record_batch_v2.VERSION) == ("RecordBatch", 2)
    entry = message_v1.encode_message(offset=3, key=None, value=b"v", timestamp=1)
    assert log_entry.discriminator(entry) == 1
    assert wire_message_any.discriminator(wire_message_v0.encode_wire_message(payload=b"x")) == 0


def test_enums_match_seed_002():
    assert {e.name: e.value for e in ErrorCode} == {
        "UNKNOWN": -1,
        "NO_ERROR": 0,
        "OFFSET_OUT_OF_RANGE": 1,
        "INVALID_MESSAGE": 2,
        "WRONG_PARTITION": 3,
        "INVALID_FETCH_SIZE": 4,
    }
    assert [e.value for e in RequestType] == [0, 1, 2, 3, 4]
    assert OffsetsTime.LATEST == -1 and OffsetsTime.EARLIEST == -2
