"""RemoteLogSegmentMetadataRecord, versions 0 (flexible: 0+): A remote segment's metadata as the leader starts copying it (state COPY_SEGMENT_STARTED): its offsets, epochs and size.

Generated from schemas/messages/remote_log_segment_metadata_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    ZERO_UUID,
    encode_bytes,
    encode_count,
    encode_string,
    encode_tagged,
    read_bool,
    read_bytes,
    read_count,
    read_string,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/remote_log_segment_metadata_record.yaml"
NAME = "RemoteLogSegmentMetadataRecord"
FAMILY = "remote_log"
#: the api key of the __remote_log_metadata record
TYPE_IDS = (0,)
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
_S3 = struct.Struct(">qqiqq")
_S4 = struct.Struct(">i")
_S5 = struct.Struct(">b")

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


class SegmentLeaderEpochEntry(NamedTuple):
    """Each leader epoch in the segment with its first offset there, ascending.

    Fields:
        leader_epoch: Leader epoch. (versions 0+)
        offset: First offset of the epoch in the segment. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    leader_epoch: int = 0
    offset: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class RemoteLogSegmentMetadataRecord(NamedTuple):
    """A remote segment's metadata as the leader starts copying it (state COPY_SEGMENT_STARTED): its offsets, epochs and size.

    Fields:
        remote_log_segment_id: The remote segment: its partition and the segment's own id. (versions 0+)
        start_offset: First offset in the segment. (versions 0+)
        end_offset: Last offset in the segment. (versions 0+)
        broker_id: Broker that wrote the event (the partition's leader). (versions 0+)
        max_timestamp_ms: Largest record timestamp in the segment. (versions 0+)
        event_timestamp_ms: When the broker wrote the event. (versions 0+)
        segment_leader_epochs: Each leader epoch in the segment with its first offset there, ascending. (versions 0+)
        segment_size_in_bytes: Size of the segment's .log in bytes. (versions 0+)
        custom_metadata: Opaque bytes the remote storage plugin returned for the segment (Aiven's plugin: where its objects are), or null. (versions 0+, nullable 0+)
        remote_log_segment_state: The segment's state: 0 COPY_SEGMENT_STARTED, 1 COPY_SEGMENT_FINISHED, 2 DELETE_SEGMENT_STARTED, 3 DELETE_SEGMENT_FINISHED. (versions 0+)
        txn_index_empty: The segment has no aborted transactions (its transaction index is empty). (versions 0+, tagged 0 in 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    remote_log_segment_id: RemoteLogSegmentIdEntry = RemoteLogSegmentIdEntry()
    start_offset: int = 0
    end_offset: int = 0
    broker_id: int = 0
    max_timestamp_ms: int = 0
    event_timestamp_ms: int = 0
    segment_leader_epochs: list[SegmentLeaderEpochEntry] = EMPTY_LIST
    segment_size_in_bytes: int = 0
    custom_metadata: bytes | None = None
    remote_log_segment_state: int = 0
    txn_index_empty: bool = False
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_id_partition_entry_v0(buf, pos: int, end: int) -> tuple[TopicIdPartitionEntry, int]:
    """Read a TopicIdPartitionEntry of RemoteLogSegmentMetadataRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataRecord v0 TopicIdPartitionEntry.name",
        compact=True,
        nullable=False,
    )
    if end - pos < 20:
        raise truncated("RemoteLogSegmentMetadataRecord v0 TopicIdPartitionEntry.id", pos, 20, end)
    (
        f_id,
        f_partition,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_id = UUID(bytes=f_id)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoteLogSegmentMetadataRecord v0 TopicIdPartitionEntry tagged fields"
    )
    return TopicIdPartitionEntry(f_name, f_id, f_partition, unknown), pos


def _write_topic_id_partition_entry_v0(v: TopicIdPartitionEntry, out: list) -> None:
    """Append the bytes of a TopicIdPartitionEntry of RemoteLogSegmentMetadataRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.name,
            "RemoteLogSegmentMetadataRecord v0 TopicIdPartitionEntry.name",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.id.bytes, v.partition))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_remote_log_segment_id_entry_v0(buf, pos: int, end: int) -> tuple[RemoteLogSegmentIdEntry, int]:
    """Read a RemoteLogSegmentIdEntry of RemoteLogSegmentMetadataRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_topic_id_partition, pos = _read_topic_id_partition_entry_v0(buf, pos, end)
    if end - pos < 16:
        raise truncated("RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentIdEntry.id", pos, 16, end)
    (f_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    f_id = UUID(bytes=f_id)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentIdEntry tagged fields"
    )
    return RemoteLogSegmentIdEntry(f_topic_id_partition, f_id, unknown), pos


def _write_remote_log_segment_id_entry_v0(v: RemoteLogSegmentIdEntry, out: list) -> None:
    """Append the bytes of a RemoteLogSegmentIdEntry of RemoteLogSegmentMetadataRecord v0 to ``out``."""
    _write_topic_id_partition_entry_v0(v.topic_id_partition, out)
    out.append(v.id.bytes)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_segment_leader_epoch_entry_v0(buf, pos: int, end: int) -> tuple[SegmentLeaderEpochEntry, int]:
    """Read a SegmentLeaderEpochEntry of RemoteLogSegmentMetadataRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated(
            "RemoteLogSegmentMetadataRecord v0 SegmentLeaderEpochEntry.leader_epoch", pos, 12, end
        )
    (
        f_leader_epoch,
        f_offset,
    ) = _S2.unpack_from(buf, pos)
    pos += 12
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoteLogSegmentMetadataRecord v0 SegmentLeaderEpochEntry tagged fields"
    )
    return SegmentLeaderEpochEntry(f_leader_epoch, f_offset, unknown), pos


def _write_segment_leader_epoch_entry_v0(v: SegmentLeaderEpochEntry, out: list) -> None:
    """Append the bytes of a SegmentLeaderEpochEntry of RemoteLogSegmentMetadataRecord v0 to ``out``."""
    out.append(_S2.pack(v.leader_epoch, v.offset))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_remote_log_segment_metadata_record_v0(
    buf, pos: int, end: int
) -> tuple[RemoteLogSegmentMetadataRecord, int]:
    """Read a RemoteLogSegmentMetadataRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_remote_log_segment_id, pos = _read_remote_log_segment_id_entry_v0(buf, pos, end)
    if end - pos < 36:
        raise truncated(
            "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord.start_offset", pos, 36, end
        )
    (
        f_start_offset,
        f_end_offset,
        f_broker_id,
        f_max_timestamp_ms,
        f_event_timestamp_ms,
    ) = _S3.unpack_from(buf, pos)
    pos += 36
    n, pos = read_count(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord.segment_leader_epochs",
        compact=True,
        nullable=False,
        min_size=13,
    )
    f_segment_leader_epochs = []
    append = f_segment_leader_epochs.append
    for _ in range(n):
        item, pos = _read_segment_leader_epoch_entry_v0(buf, pos, end)
        append(item)
    if end - pos < 4:
        raise truncated(
            "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord.segment_size_in_bytes",
            pos,
            4,
            end,
        )
    (f_segment_size_in_bytes,) = _S4.unpack_from(buf, pos)
    pos += 4
    f_custom_metadata, pos = read_bytes(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord.custom_metadata",
        compact=True,
        nullable=True,
    )
    if end - pos < 1:
        raise truncated(
            "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord.remote_log_segment_state",
            pos,
            1,
            end,
        )
    (f_remote_log_segment_state,) = _S5.unpack_from(buf, pos)
    pos += 1
    f_txn_index_empty = False
    n, pos = read_uvarint(
        buf, pos, end, "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag(
                "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            f_txn_index_empty, pos = read_bool(
                buf,
                pos,
                stop,
                "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord.txn_index_empty",
            )
            if pos != stop:
                raise tagged_size_mismatch(
                    "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return RemoteLogSegmentMetadataRecord(
        f_remote_log_segment_id,
        f_start_offset,
        f_end_offset,
        f_broker_id,
        f_max_timestamp_ms,
        f_event_timestamp_ms,
        f_segment_leader_epochs,
        f_segment_size_in_bytes,
        f_custom_metadata,
        f_remote_log_segment_state,
        f_txn_index_empty,
        unknown,
    ), pos


def _write_remote_log_segment_metadata_record_v0(v: RemoteLogSegmentMetadataRecord, out: list) -> None:
    """Append the bytes of a RemoteLogSegmentMetadataRecord v0 to ``out``."""
    _write_remote_log_segment_id_entry_v0(v.remote_log_segment_id, out)
    out.append(_S3.pack(v.start_offset, v.end_offset, v.broker_id, v.max_timestamp_ms, v.event_timestamp_ms))
    out.append(
        encode_count(
            v.segment_leader_epochs,
            "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord.segment_leader_epochs",
            compact=True,
            nullable=False,
        )
    )
    for item in v.segment_leader_epochs:
        _write_segment_leader_epoch_entry_v0(item, out)
    out.append(_S4.pack(v.segment_size_in_bytes))
    out.append(
        encode_bytes(
            v.custom_metadata,
            "RemoteLogSegmentMetadataRecord v0 RemoteLogSegmentMetadataRecord.custom_metadata",
            compact=True,
            nullable=True,
        )
    )
    out.append(_S5.pack(v.remote_log_segment_state))
    tags = list(v.unknown_tagged_fields)
    if v.txn_index_empty:
        outer, out = out, []
        out.append(b"\x01" if v.txn_index_empty else b"\x00")
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_remote_log_segment_metadata_record_v0,
}
_WRITERS = {
    0: _write_remote_log_segment_metadata_record_v0,
}


def decode_remote_log_segment_metadata_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RemoteLogSegmentMetadataRecord, int]:
    """Decode a RemoteLogSegmentMetadataRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RemoteLogSegmentMetadataRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_remote_log_segment_metadata_record(value: RemoteLogSegmentMetadataRecord, version: int) -> bytes:
    """Encode ``value`` as RemoteLogSegmentMetadataRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"RemoteLogSegmentMetadataRecord: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"RemoteLogSegmentMetadataRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
