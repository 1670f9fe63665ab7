"""RemotePartitionDeleteMetadataRecord, versions 0 (flexible: 0+): The remote data of a whole partition is being deleted (its topic was deleted).

Generated from schemas/messages/remote_partition_delete_metadata_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    ZERO_UUID,
    encode_string,
    encode_tagged,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/remote_partition_delete_metadata_record.yaml"
NAME = "RemotePartitionDeleteMetadataRecord"
FAMILY = "remote_log"
#: the api key of the __remote_log_metadata record
TYPE_IDS = (2,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">16si")
_S1 = struct.Struct(">iqb")

# -- typed values ---------------------------------------------------------------


class TopicIdPartitionEntry(NamedTuple):
    """The partition whose remote segments are deleted.

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


class RemotePartitionDeleteMetadataRecord(NamedTuple):
    """The remote data of a whole partition is being deleted (its topic was deleted).

    Fields:
        topic_id_partition: The partition whose remote segments are deleted. (versions 0+)
        broker_id: Broker that wrote the event. (versions 0+)
        event_timestamp_ms: When the broker wrote the event. (versions 0+)
        remote_partition_delete_state: 0 DELETE_PARTITION_MARKED, 1 DELETE_PARTITION_STARTED, 2 DELETE_PARTITION_FINISHED. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_id_partition: TopicIdPartitionEntry = TopicIdPartitionEntry()
    broker_id: int = 0
    event_timestamp_ms: int = 0
    remote_partition_delete_state: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_id_partition_entry_v0(buf, pos: int, end: int) -> tuple[TopicIdPartitionEntry, int]:
    """Read a TopicIdPartitionEntry of RemotePartitionDeleteMetadataRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf,
        pos,
        end,
        "RemotePartitionDeleteMetadataRecord v0 TopicIdPartitionEntry.name",
        compact=True,
        nullable=False,
    )
    if end - pos < 20:
        raise truncated("RemotePartitionDeleteMetadataRecord v0 TopicIdPartitionEntry.id", pos, 20, end)
    (
        f_id,
        f_partition,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_id = UUID(bytes=f_id)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemotePartitionDeleteMetadataRecord v0 TopicIdPartitionEntry tagged fields"
    )
    return TopicIdPartitionEntry(f_name, f_id, f_partition, unknown), pos


def _write_topic_id_partition_entry_v0(v: TopicIdPartitionEntry, out: list) -> None:
    """Append the bytes of a TopicIdPartitionEntry of RemotePartitionDeleteMetadataRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.name,
            "RemotePartitionDeleteMetadataRecord v0 TopicIdPartitionEntry.name",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.id.bytes, v.partition))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_remote_partition_delete_metadata_record_v0(
    buf, pos: int, end: int
) -> tuple[RemotePartitionDeleteMetadataRecord, int]:
    """Read a RemotePartitionDeleteMetadataRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_topic_id_partition, pos = _read_topic_id_partition_entry_v0(buf, pos, end)
    if end - pos < 13:
        raise truncated(
            "RemotePartitionDeleteMetadataRecord v0 RemotePartitionDeleteMetadataRecord.broker_id",
            pos,
            13,
            end,
        )
    (
        f_broker_id,
        f_event_timestamp_ms,
        f_remote_partition_delete_state,
    ) = _S1.unpack_from(buf, pos)
    pos += 13
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "RemotePartitionDeleteMetadataRecord v0 RemotePartitionDeleteMetadataRecord tagged fields",
    )
    return RemotePartitionDeleteMetadataRecord(
        f_topic_id_partition, f_broker_id, f_event_timestamp_ms, f_remote_partition_delete_state, unknown
    ), pos


def _write_remote_partition_delete_metadata_record_v0(
    v: RemotePartitionDeleteMetadataRecord, out: list
) -> None:
    """Append the bytes of a RemotePartitionDeleteMetadataRecord v0 to ``out``."""
    _write_topic_id_partition_entry_v0(v.topic_id_partition, out)
    out.append(_S1.pack(v.broker_id, v.event_timestamp_ms, v.remote_partition_delete_state))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_remote_partition_delete_metadata_record_v0,
}
_WRITERS = {
    0: _write_remote_partition_delete_metadata_record_v0,
}


def decode_remote_partition_delete_metadata_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RemotePartitionDeleteMetadataRecord, int]:
    """Decode a RemotePartitionDeleteMetadataRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RemotePartitionDeleteMetadataRecord: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_remote_partition_delete_metadata_record(
    value: RemotePartitionDeleteMetadataRecord, version: int
) -> bytes:
    """Encode ``value`` as RemotePartitionDeleteMetadataRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"RemotePartitionDeleteMetadataRecord: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"RemotePartitionDeleteMetadataRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
