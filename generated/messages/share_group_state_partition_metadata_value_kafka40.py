"""ShareGroupStatePartitionMetadataValueKafka40, versions 0 (flexible: 0+): ShareGroupStatePartitionMetadataValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: initialized and deleting topics, without the initializing topics 4.1 put first.

Generated from schemas/messages/share_group_state_partition_metadata_value_kafka40.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    ZERO_UUID,
    encode_count,
    encode_string,
    encode_tagged,
    read_count,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_state_partition_metadata_value_kafka40.yaml"
NAME = "ShareGroupStatePartitionMetadataValueKafka40"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (15,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = "4.0"
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = "ShareGroupStatePartitionMetadataValue"

_S0 = struct.Struct(">16s")

# -- typed values ---------------------------------------------------------------


class TopicPartitionsInfo(NamedTuple):
    """A topic whose share-group state is initialized, with its partitions.

    Fields:
        topic_id: Topic id. (versions 0+)
        topic_name: Topic name. (versions 0+)
        partitions: Partition numbers. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_id: UUID = ZERO_UUID
    topic_name: str = ""
    partitions: list[int] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class TopicInfo(NamedTuple):
    """A topic whose share-group state is being deleted.

    Fields:
        topic_id: Topic id. (versions 0+)
        topic_name: Topic name. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_id: UUID = ZERO_UUID
    topic_name: str = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ShareGroupStatePartitionMetadataValueKafka40(NamedTuple):
    """ShareGroupStatePartitionMetadataValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: initialized and deleting topics, without the initializing topics 4.1 put first.

    Fields:
        initialized_topics: Topics whose share-group state is initialized, with their partitions. (versions 0+)
        deleting_topics: Topics whose share-group state is being deleted. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    initialized_topics: list[TopicPartitionsInfo] = EMPTY_LIST
    deleting_topics: list[TopicInfo] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_partitions_info_v0(buf, pos: int, end: int) -> tuple[TopicPartitionsInfo, int]:
    """Read a TopicPartitionsInfo of ShareGroupStatePartitionMetadataValueKafka40 v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 16:
        raise truncated(
            "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicPartitionsInfo.topic_id", pos, 16, end
        )
    (f_topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    f_topic_id = UUID(bytes=f_topic_id)
    f_topic_name, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicPartitionsInfo.topic_name",
        compact=True,
        nullable=False,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicPartitionsInfo.partitions",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_partitions = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicPartitionsInfo tagged fields"
    )
    return TopicPartitionsInfo(f_topic_id, f_topic_name, f_partitions, unknown), pos


def _write_topic_partitions_info_v0(v: TopicPartitionsInfo, out: list) -> None:
    """Append the bytes of a TopicPartitionsInfo of ShareGroupStatePartitionMetadataValueKafka40 v0 to ``out``."""
    out.append(v.topic_id.bytes)
    out.append(
        encode_string(
            v.topic_name,
            "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicPartitionsInfo.topic_name",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.partitions,
            "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicPartitionsInfo.partitions",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partitions)}i", *v.partitions))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_topic_info_v0(buf, pos: int, end: int) -> tuple[TopicInfo, int]:
    """Read a TopicInfo of ShareGroupStatePartitionMetadataValueKafka40 v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 16:
        raise truncated("ShareGroupStatePartitionMetadataValueKafka40 v0 TopicInfo.topic_id", pos, 16, end)
    (f_topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    f_topic_id = UUID(bytes=f_topic_id)
    f_topic_name, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicInfo.topic_name",
        compact=True,
        nullable=False,
    )
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicInfo tagged fields"
    )
    return TopicInfo(f_topic_id, f_topic_name, unknown), pos


def _write_topic_info_v0(v: TopicInfo, out: list) -> None:
    """Append the bytes of a TopicInfo of ShareGroupStatePartitionMetadataValueKafka40 v0 to ``out``."""
    out.append(v.topic_id.bytes)
    out.append(
        encode_string(
            v.topic_name,
            "ShareGroupStatePartitionMetadataValueKafka40 v0 TopicInfo.topic_name",
            compact=True,
            nullable=False,
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_share_group_state_partition_metadata_value_kafka40_v0(
    buf, pos: int, end: int
) -> tuple[ShareGroupStatePartitionMetadataValueKafka40, int]:
    """Read a ShareGroupStatePartitionMetadataValueKafka40 v0 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareGroupStatePartitionMetadataValueKafka40 v0 ShareGroupStatePartitionMetadataValueKafka40.initialized_topics",
        compact=True,
        nullable=False,
        min_size=19,
    )
    f_initialized_topics = []
    append = f_initialized_topics.append
    for _ in range(n):
        item, pos = _read_topic_partitions_info_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareGroupStatePartitionMetadataValueKafka40 v0 ShareGroupStatePartitionMetadataValueKafka40.deleting_topics",
        compact=True,
        nullable=False,
        min_size=18,
    )
    f_deleting_topics = []
    append = f_deleting_topics.append
    for _ in range(n):
        item, pos = _read_topic_info_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "ShareGroupStatePartitionMetadataValueKafka40 v0 ShareGroupStatePartitionMetadataValueKafka40 tagged fields",
    )
    return ShareGroupStatePartitionMetadataValueKafka40(f_initialized_topics, f_deleting_topics, unknown), pos


def _write_share_group_state_partition_metadata_value_kafka40_v0(
    v: ShareGroupStatePartitionMetadataValueKafka40, out: list
) -> None:
    """Append the bytes of a ShareGroupStatePartitionMetadataValueKafka40 v0 to ``out``."""
    out.append(
        encode_count(
            v.initialized_topics,
            "ShareGroupStatePartitionMetadataValueKafka40 v0 ShareGroupStatePartitionMetadataValueKafka40.initialized_topics",
            compact=True,
            nullable=False,
        )
    )
    for item in v.initialized_topics:
        _write_topic_partitions_info_v0(item, out)
    out.append(
        encode_count(
            v.deleting_topics,
            "ShareGroupStatePartitionMetadataValueKafka40 v0 ShareGroupStatePartitionMetadataValueKafka40.deleting_topics",
            compact=True,
            nullable=False,
        )
    )
    for item in v.deleting_topics:
        _write_topic_info_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_group_state_partition_metadata_value_kafka40_v0,
}
_WRITERS = {
    0: _write_share_group_state_partition_metadata_value_kafka40_v0,
}


def decode_share_group_state_partition_metadata_value_kafka40(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupStatePartitionMetadataValueKafka40, int]:
    """Decode a ShareGroupStatePartitionMetadataValueKafka40 of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupStatePartitionMetadataValueKafka40: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_state_partition_metadata_value_kafka40(
    value: ShareGroupStatePartitionMetadataValueKafka40, version: int
) -> bytes:
    """Encode ``value`` as ShareGroupStatePartitionMetadataValueKafka40 ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupStatePartitionMetadataValueKafka40: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupStatePartitionMetadataValueKafka40 v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
