"""Enumerations shared by the Kafka record formats.

Generated from schemas/enums.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from enum import IntEnum


def members(enum: type[IntEnum], width: int) -> tuple:
    """Every value of a ``width``-bit field as its ``enum`` member, or as the int where no member has it."""
    by_value = {m.value: m for m in enum}
    return tuple(by_value.get(i, i) for i in range(1 << width))


class CompressionType(IntEnum):
    """Codec of a compressed region (RecordBatch attributes bits 0-2, Message attributes bits 0-2). Since Kafka 0.7.0."""

    NONE = 0
    """No compression."""
    GZIP = 1
    """GZIP (RFC 1952) stream."""
    SNAPPY = 2
    """Snappy; raw, or xerial-framed as the Java client writes it. Since Kafka 0.8.0."""
    LZ4 = 3
    """LZ4 frame format (magic 0 writers use the broken header checksum of KAFKA-3160). Since Kafka 0.8.2."""
    ZSTD = 4
    """Zstandard frames, possibly several and without content size. Since Kafka 2.1.0."""


class ControlRecordType(IntEnum):
    """The type field of a control record key; says how to read the control record's value. Since Kafka 0.11.0."""

    ABORT = 0
    """End-transaction marker aborting the producer's open transaction."""
    COMMIT = 1
    """End-transaction marker committing the producer's open transaction."""
    LEADER_CHANGE = 2
    """KRaft LeaderChangeMessage. Since Kafka 2.8.0."""
    SNAPSHOT_HEADER = 3
    """KRaft snapshot header record. Since Kafka 3.0.0."""
    SNAPSHOT_FOOTER = 4
    """KRaft snapshot footer record. Since Kafka 3.0.0."""
    KRAFT_VERSION = 5
    """KRaft version record. Since Kafka 3.9.0."""
    KRAFT_VOTERS = 6
    """KRaft voters set record. Since Kafka 3.9.0."""


class ErrorCode(IntEnum):
    """ERROR_CODE of a 0.7 response header. Since Kafka 0.6.0."""

    UNKNOWN = -1
    """Unknown error."""
    NO_ERROR = 0
    """Success."""
    OFFSET_OUT_OF_RANGE = 1
    """Offset requested is no longer available on the server."""
    INVALID_MESSAGE = 2
    """A message you sent failed its checksum and is corrupt."""
    WRONG_PARTITION = 3
    """You tried to access a partition that doesn't exist (not between 0 and num_partitions - 1)."""
    INVALID_FETCH_SIZE = 4
    """The size you requested for fetching is smaller than the message you're trying to fetch."""


class OffsetsTime(IntEnum):
    """Special TIME values of a 0.7 Offsets request; any other value is milliseconds since the UNIX epoch. Since Kafka 0.6.0."""

    LATEST = -1
    """The offset of the next message to be appended."""
    EARLIEST = -2
    """The oldest offset still available."""


class RequestType(IntEnum):
    """REQUEST_TYPE of a 0.7 request header. Since Kafka 0.6.0."""

    PRODUCE = 0
    """Send a group of messages to a topic and partition."""
    FETCH = 1
    """Fetch a group of messages from a topic and partition."""
    MULTIFETCH = 2
    """Multiple FETCH requests, chained together."""
    MULTIPRODUCE = 3
    """Multiple PRODUCE requests, chained together."""
    OFFSETS = 4
    """Find offsets before a certain time."""


class TimestampType(IntEnum):
    """Which clock a timestamp comes from (attribute bit 3). Since Kafka 0.10.0."""

    CREATE = 0
    """CreateTime, set by the producer."""
    LOG_APPEND = 1
    """LogAppendTime, set by the broker; for v2 the batch max_timestamp applies to every record."""
