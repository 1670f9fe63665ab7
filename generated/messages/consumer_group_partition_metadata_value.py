"""ConsumerGroupPartitionMetadataValue, versions 0 (flexible: 0+): The subscribed topics of a consumer group (KIP-848) as the coordinator last saw them (ids, names, partition counts).

Generated from schemas/messages/consumer_group_partition_metadata_value.yaml by codegen. DO NOT EDIT.
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

SCHEMA = "schemas/messages/consumer_group_partition_metadata_value.yaml"
NAME = "ConsumerGroupPartitionMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (4,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i")
_S1 = struct.Struct(">16s")

# -- typed values ---------------------------------------------------------------


class PartitionMetadata(NamedTuple):
    """Racks of each partition's replicas (empty when no rack is known; unused from Kafka 4.0).

    Fields:
        partition: Partition number. (versions 0+)
        racks: Racks holding replicas of the partition. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    partition: int = 0
    racks: list[str] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class TopicMetadata(NamedTuple):
    """The subscribed topics.

    Fields:
        topic_id: Topic id. (versions 0+)
        topic_name: Topic name. (versions 0+)
        num_partitions: Number of partitions of the topic. (versions 0+)
        partition_metadata: Racks of each partition's replicas (empty when no rack is known; unused from Kafka 4.0). (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_id: UUID = ZERO_UUID
    topic_name: str = ""
    num_partitions: int = 0
    partition_metadata: list[PartitionMetadata] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ConsumerGroupPartitionMetadataValue(NamedTuple):
    """The subscribed topics of a consumer group (KIP-848) as the coordinator last saw them (ids, names, partition counts).

    Fields:
        topics: The subscribed topics. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topics: list[TopicMetadata] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_partition_metadata_v0(buf, pos: int, end: int) -> tuple[PartitionMetadata, int]:
    """Read a PartitionMetadata of ConsumerGroupPartitionMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("ConsumerGroupPartitionMetadataValue v0 PartitionMetadata.partition", pos, 4, end)
    (f_partition,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerGroupPartitionMetadataValue v0 PartitionMetadata.racks",
        compact=True,
        nullable=False,
        min_size=1,
    )
    f_racks = []
    append = f_racks.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "ConsumerGroupPartitionMetadataValue v0 PartitionMetadata.racks",
            compact=True,
            nullable=False,
        )
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ConsumerGroupPartitionMetadataValue v0 PartitionMetadata tagged fields"
    )
    return PartitionMetadata(f_partition, f_racks, unknown), pos


def _write_partition_metadata_v0(v: PartitionMetadata, out: list) -> None:
    """Append the bytes of a PartitionMetadata of ConsumerGroupPartitionMetadataValue v0 to ``out``."""
    out.append(_S0.pack(v.partition))
    out.append(
        encode_count(
            v.racks,
            "ConsumerGroupPartitionMetadataValue v0 PartitionMetadata.racks",
            compact=True,
            nullable=False,
        )
    )
    for item in v.racks:
        out.append(
            encode_string(
                item,
                "ConsumerGroupPartitionMetadataValue v0 PartitionMetadata.racks",
                compact=True,
                nullable=False,
            )
        )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_topic_metadata_v0(buf, pos: int, end: int) -> tuple[TopicMetadata, int]:
    """Read a TopicMetadata of ConsumerGroupPartitionMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 16:
        raise truncated("ConsumerGroupPartitionMetadataValue v0 TopicMetadata.topic_id", pos, 16, end)
    (f_topic_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    f_topic_id = UUID(bytes=f_topic_id)
    f_topic_name, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupPartitionMetadataValue v0 TopicMetadata.topic_name",
        compact=True,
        nullable=False,
    )
    if end - pos < 4:
        raise truncated("ConsumerGroupPartitionMetadataValue v0 TopicMetadata.num_partitions", pos, 4, end)
    (f_num_partitions,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerGroupPartitionMetadataValue v0 TopicMetadata.partition_metadata",
        compact=True,
        nullable=False,
        min_size=6,
    )
    f_partition_metadata = []
    append = f_partition_metadata.append
    for _ in range(n):
        item, pos = _read_partition_metadata_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ConsumerGroupPartitionMetadataValue v0 TopicMetadata tagged fields"
    )
    return TopicMetadata(f_topic_id, f_topic_name, f_num_partitions, f_partition_metadata, unknown), pos


def _write_topic_metadata_v0(v: TopicMetadata, out: list) -> None:
    """Append the bytes of a TopicMetadata of ConsumerGroupPartitionMetadataValue v0 to ``out``."""
    out.append(v.topic_id.bytes)
    out.append(
        encode_string(
            v.topic_name,
            "ConsumerGroupPartitionMetadataValue v0 TopicMetadata.topic_name",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.num_partitions))
    out.append(
        encode_count(
            v.partition_metadata,
            "ConsumerGroupPartitionMetadataValue v0 TopicMetadata.partition_metadata",
            compact=True,
            nullable=False,
        )
    )
    for item in v.partition_metadata:
        _write_partition_metadata_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_consumer_group_partition_metadata_value_v0(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupPartitionMetadataValue, int]:
    """Read a ConsumerGroupPartitionMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerGroupPartitionMetadataValue v0 ConsumerGroupPartitionMetadataValue.topics",
        compact=True,
        nullable=False,
        min_size=23,
    )
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _read_topic_metadata_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "ConsumerGroupPartitionMetadataValue v0 ConsumerGroupPartitionMetadataValue tagged fields",
    )
    return ConsumerGroupPartitionMetadataValue(f_topics, unknown), pos


def _write_consumer_group_partition_metadata_value_v0(
    v: ConsumerGroupPartitionMetadataValue, out: list
) -> None:
    """Append the bytes of a ConsumerGroupPartitionMetadataValue v0 to ``out``."""
    out.append(
        encode_count(
            v.topics,
            "ConsumerGroupPartitionMetadataValue v0 ConsumerGroupPartitionMetadataValue.topics",
            compact=True,
            nullable=False,
        )
    )
    for item in v.topics:
        _write_topic_metadata_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_consumer_group_partition_metadata_value_v0,
}
_WRITERS = {
    0: _write_consumer_group_partition_metadata_value_v0,
}


def decode_consumer_group_partition_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupPartitionMetadataValue, int]:
    """Decode a ConsumerGroupPartitionMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupPartitionMetadataValue: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_partition_metadata_value(
    value: ConsumerGroupPartitionMetadataValue, version: int
) -> bytes:
    """Encode ``value`` as ConsumerGroupPartitionMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupPartitionMetadataValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupPartitionMetadataValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
