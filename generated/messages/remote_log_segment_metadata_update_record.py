"""RemoteLogSegmentMetadataUpdateRecord, versions 0 (flexible: 0+): A remote segment moved to another state (copy finished, delete started or finished).

Generated from schemas/messages/remote_log_segment_metadata_update_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    ZERO_UUID,
    encode_bytes,
    encode_string,
    encode_tagged,
    read_bytes,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/remote_log_segment_metadata_update_record.yaml"
NAME = "RemoteLogSegmentMetadataUpdateRecord"
FAMILY = "remote_log"
#: the api key of the __remote_log_metadata record
TYPE_IDS = (1,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">16si")
_S1 = struct.Struct(">16s")
_S2 = struct.Struct(">iq")
_S3 = struct.Struct(">b")

# -- typed values ---------------------------------------------------------------


class TopicIdPartitionEntry(NamedTuple):
    """Topic id and partition of the segment.

    Fields:
        name: Topic name. (versions 0+)
        id: Topic id. (versions 0+)
        partition: Partition number. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    id: UUID = ZERO_UUID
    partition: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class RemoteLogSegmentIdEntry(NamedTuple):
    """The remote segment: its partition and the segment's own id.

    Fields:
        topic_id_partition: Topic id and partition of the segment. (versions 0+)
        id: Segment id, unique in the partition (a re-upload of the same offsets gets a new one). (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_id_partition: TopicIdPartitionEntry = TopicIdPartitionEntry()
    id: UUID = ZERO_UUID
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class RemoteLogSegmentMetadataUpdateRecord(NamedTuple):
    """A remote segment moved to another state (copy finished, delete started or finished).

    Fields:
        remote_log_segment_id: The remote segment: its partition and the segment's own id. (versions 0+)
        broker_id: Broker that wrote the event. (versions 0+)
        event_timestamp_ms: When the broker wrote the event. (versions 0+)
        custom_metadata: Opaque bytes the remote storage plugin returned for the segment (Aiven's plugin: where its objects are), or null. (versions 0+, nullable 0+)
        remote_log_segment_state: The segment's state: 0 COPY_SEGMENT_STARTED, 1 COPY_SEGMENT_FINISHED, 2 DELETE_SEGMENT_STARTED, 3 DELETE_SEGMENT_FINISHED. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    remote_log_segment_id: RemoteLogSegmentIdEntry = RemoteLogSegmentIdEntry()
    broker_id: int = 0
    event_timestamp_ms: int = 0
    custom_metadata: bytes | None = None
    remote_log_segment_state: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_id_partition_entry_v0(buf, pos: int, end: int) -> tuple[TopicIdPartitionEntry, int]:
    """Read a TopicIdPartitionEntry of RemoteLogSegmentMetadataUpdateRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataUpdateRecord v0 TopicIdPartitionEntry.name",
        compact=True,
        nullable=False,
    )
    if end - pos < 20:
        raise truncated("RemoteLogSegmentMetadataUpdateRecord v0 TopicIdPartitionEntry.id", pos, 20, end)
    (
        f_id,
        f_partition,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_id = UUID(bytes=f_id)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoteLogSegmentMetadataUpdateRecord v0 TopicIdPartitionEntry tagged fields"
    )
    return TopicIdPartitionEntry(f_name, f_id, f_partition, unknown), pos


def _write_topic_id_partition_entry_v0(v: TopicIdPartitionEntry, out: list) -> None:
    """Append the bytes of a TopicIdPartitionEntry of RemoteLogSegmentMetadataUpdateRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.name,
            "RemoteLogSegmentMetadataUpdateRecord v0 TopicIdPartitionEntry.name",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.id.bytes, v.partition))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_remote_log_segment_id_entry_v0(buf, pos: int, end: int) -> tuple[RemoteLogSegmentIdEntry, int]:
    """Read a RemoteLogSegmentIdEntry of RemoteLogSegmentMetadataUpdateRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_topic_id_partition, pos = _read_topic_id_partition_entry_v0(buf, pos, end)
    if end - pos < 16:
        raise truncated("RemoteLogSegmentMetadataUpdateRecord v0 RemoteLogSegmentIdEntry.id", pos, 16, end)
    (f_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    f_id = UUID(bytes=f_id)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoteLogSegmentMetadataUpdateRecord v0 RemoteLogSegmentIdEntry tagged fields"
    )
    return RemoteLogSegmentIdEntry(f_topic_id_partition, f_id, unknown), pos


def _write_remote_log_segment_id_entry_v0(v: RemoteLogSegmentIdEntry, out: list) -> None:
    """Append the bytes of a RemoteLogSegmentIdEntry of RemoteLogSegmentMetadataUpdateRecord v0 to ``out``."""
    _write_topic_id_partition_entry_v0(v.topic_id_partition, out)
    out.append(v.id.bytes)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_remote_log_segment_metadata_update_record_v0(
    buf, pos: int, end: int
) -> tuple[RemoteLogSegmentMetadataUpdateRecord, int]:
    """Read a RemoteLogSegmentMetadataUpdateRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_remote_log_segment_id, pos = _read_remote_log_segment_id_entry_v0(buf, pos, end)
    if end - pos < 12:
        raise truncated(
            "RemoteLogSegmentMetadataUpdateRecord v0 RemoteLogSegmentMetadataUpdateRecord.broker_id",
            pos,
            12,
            end,
        )
    (
        f_broker_id,
        f_event_timestamp_ms,
    ) = _S2.unpack_from(buf, pos)
    pos += 12
    f_custom_metadata, pos = read_bytes(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataUpdateRecord v0 RemoteLogSegmentMetadataUpdateRecord.custom_metadata",
        compact=True,
        nullable=True,
    )
    if end - pos < 1:
        raise truncated(
            "RemoteLogSegmentMetadataUpdateRecord v0 RemoteLogSegmentMetadataUpdateRecord.remote_log_segment_state",
            pos,
            1,
            end,
        )
    (f_remote_log_segment_state,) = _S3.unpack_from(buf, pos)
    pos += 1
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataUpdateRecord v0 RemoteLogSegmentMetadataUpdateRecord tagged fields",
    )
    return RemoteLogSegmentMetadataUpdateRecord(
        f_remote_log_segment_id,
        f_broker_id,
        f_event_timestamp_ms,
        f_custom_metadata,
        f_remote_log_segment_state,
        unknown,
    ), pos


def _write_remote_log_segment_metadata_update_record_v0(
    v: RemoteLogSegmentMetadataUpdateRecord, out: list
) -> None:
    """Append the bytes of a RemoteLogSegmentMetadataUpdateRecord v0 to ``out``."""
    _write_remote_log_segment_id_entry_v0(v.remote_log_segment_id, out)
    out.append(_S2.pack(v.broker_id, v.event_timestamp_ms))
    out.append(
        encode_bytes(
            v.custom_metadata,
            "RemoteLogSegmentMetadataUpdateRecord v0 RemoteLogSegmentMetadataUpdateRecord.custom_metadata",
            compact=True,
            nullable=True,
        )
    )
    out.append(_S3.pack(v.remote_log_segment_state))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_remote_log_segment_metadata_update_record_v0,
}
_WRITERS = {
    0: _write_remote_log_segment_metadata_update_record_v0,
}


def decode_remote_log_segment_metadata_update_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RemoteLogSegmentMetadataUpdateRecord, int]:
    """Decode a RemoteLogSegmentMetadataUpdateRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RemoteLogSegmentMetadataUpdateRecord: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_remote_log_segment_metadata_update_record(
    value: RemoteLogSegmentMetadataUpdateRecord, version: int
) -> bytes:
    """Encode ``value`` as RemoteLogSegmentMetadataUpdateRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"RemoteLogSegmentMetadataUpdateRecord: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"RemoteLogSegmentMetadataUpdateRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
