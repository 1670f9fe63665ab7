"""RemoteLogSegmentMetadataSnapshotRecord, versions 0 (flexible: 0+): A remote segment's metadata and state as a snapshot of the metadata cache holds it (no partition: the snapshot is per partition).

Generated from schemas/messages/remote_log_segment_metadata_snapshot_record.yaml by codegen. DO NOT EDIT.
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
    encode_tagged,
    read_bool,
    read_bytes,
    read_count,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/remote_log_segment_metadata_snapshot_record.yaml"
NAME = "RemoteLogSegmentMetadataSnapshotRecord"
FAMILY = "remote_log"
#: the api key of the __remote_log_metadata record
TYPE_IDS = (3,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">iq")
_S1 = struct.Struct(">16sqqiqq")
_S2 = struct.Struct(">i")
_S3 = struct.Struct(">b")

# -- typed values ---------------------------------------------------------------


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


class RemoteLogSegmentMetadataSnapshotRecord(NamedTuple):
    """A remote segment's metadata and state as a snapshot of the metadata cache holds it (no partition: the snapshot is per partition).

    Fields:
        segment_id: Segment id. (versions 0+)
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

    segment_id: UUID = ZERO_UUID
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


def _read_segment_leader_epoch_entry_v0(buf, pos: int, end: int) -> tuple[SegmentLeaderEpochEntry, int]:
    """Read a SegmentLeaderEpochEntry of RemoteLogSegmentMetadataSnapshotRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated(
            "RemoteLogSegmentMetadataSnapshotRecord v0 SegmentLeaderEpochEntry.leader_epoch", pos, 12, end
        )
    (
        f_leader_epoch,
        f_offset,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoteLogSegmentMetadataSnapshotRecord v0 SegmentLeaderEpochEntry tagged fields"
    )
    return SegmentLeaderEpochEntry(f_leader_epoch, f_offset, unknown), pos


def _write_segment_leader_epoch_entry_v0(v: SegmentLeaderEpochEntry, out: list) -> None:
    """Append the bytes of a SegmentLeaderEpochEntry of RemoteLogSegmentMetadataSnapshotRecord v0 to ``out``."""
    out.append(_S0.pack(v.leader_epoch, v.offset))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_remote_log_segment_metadata_snapshot_record_v0(
    buf, pos: int, end: int
) -> tuple[RemoteLogSegmentMetadataSnapshotRecord, int]:
    """Read a RemoteLogSegmentMetadataSnapshotRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 52:
        raise truncated(
            "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord.segment_id",
            pos,
            52,
            end,
        )
    (
        f_segment_id,
        f_start_offset,
        f_end_offset,
        f_broker_id,
        f_max_timestamp_ms,
        f_event_timestamp_ms,
    ) = _S1.unpack_from(buf, pos)
    pos += 52
    f_segment_id = UUID(bytes=f_segment_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord.segment_leader_epochs",
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
            "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord.segment_size_in_bytes",
            pos,
            4,
            end,
        )
    (f_segment_size_in_bytes,) = _S2.unpack_from(buf, pos)
    pos += 4
    f_custom_metadata, pos = read_bytes(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord.custom_metadata",
        compact=True,
        nullable=True,
    )
    if end - pos < 1:
        raise truncated(
            "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord.remote_log_segment_state",
            pos,
            1,
            end,
        )
    (f_remote_log_segment_state,) = _S3.unpack_from(buf, pos)
    pos += 1
    f_txn_index_empty = False
    n, pos = read_uvarint(
        buf,
        pos,
        end,
        "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord tagged fields",
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf,
            pos,
            end,
            "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord tagged fields",
        )
        if tag in seen:
            raise repeated_tag(
                "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord tagged fields",
                tag,
                pos,
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            f_txn_index_empty, pos = read_bool(
                buf,
                pos,
                stop,
                "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord.txn_index_empty",
            )
            if pos != stop:
                raise tagged_size_mismatch(
                    "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return RemoteLogSegmentMetadataSnapshotRecord(
        f_segment_id,
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


def _write_remote_log_segment_metadata_snapshot_record_v0(
    v: RemoteLogSegmentMetadataSnapshotRecord, out: list
) -> None:
    """Append the bytes of a RemoteLogSegmentMetadataSnapshotRecord v0 to ``out``."""
    out.append(
        _S1.pack(
            v.segment_id.bytes,
            v.start_offset,
            v.end_offset,
            v.broker_id,
            v.max_timestamp_ms,
            v.event_timestamp_ms,
        )
    )
    out.append(
        encode_count(
            v.segment_leader_epochs,
            "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord.segment_leader_epochs",
            compact=True,
            nullable=False,
        )
    )
    for item in v.segment_leader_epochs:
        _write_segment_leader_epoch_entry_v0(item, out)
    out.append(_S2.pack(v.segment_size_in_bytes))
    out.append(
        encode_bytes(
            v.custom_metadata,
            "RemoteLogSegmentMetadataSnapshotRecord v0 RemoteLogSegmentMetadataSnapshotRecord.custom_metadata",
            compact=True,
            nullable=True,
        )
    )
    out.append(_S3.pack(v.remote_log_segment_state))
    tags = list(v.unknown_tagged_fields)
    if v.txn_index_empty:
        outer, out = out, []
        out.append(b"\x01" if v.txn_index_empty else b"\x00")
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_remote_log_segment_metadata_snapshot_record_v0,
}
_WRITERS = {
    0: _write_remote_log_segment_metadata_snapshot_record_v0,
}


def decode_remote_log_segment_metadata_snapshot_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RemoteLogSegmentMetadataSnapshotRecord, int]:
    """Decode a RemoteLogSegmentMetadataSnapshotRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RemoteLogSegmentMetadataSnapshotRecord: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_remote_log_segment_metadata_snapshot_record(
    value: RemoteLogSegmentMetadataSnapshotRecord, version: int
) -> bytes:
    """Encode ``value`` as RemoteLogSegmentMetadataSnapshotRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"RemoteLogSegmentMetadataSnapshotRecord: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"RemoteLogSegmentMetadataSnapshotRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
