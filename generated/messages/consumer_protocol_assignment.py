"""ConsumerProtocolAssignment, versions 0-3: The partitions the group leader assigned to a member of a classic consumer group. Versions 0-3 share one layout (the version follows the subscription's). The bytes start with an int16 version.

Generated from schemas/messages/consumer_protocol_assignment.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    encode_bytes,
    encode_count,
    encode_string,
    read_bytes,
    read_count,
    read_string,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_protocol_assignment.yaml"
NAME = "ConsumerProtocolAssignment"
FAMILY = "consumer_protocol"
#: which bytes of a classic consumer group's member (GroupMetadataValue, protocol type consumer) hold it: 0 the subscription, 1 the assignment (our numbering; Kafka has none)
TYPE_IDS = (1,)
VERSIONS = [0, 1, 2, 3]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None


# -- typed values ---------------------------------------------------------------


class TopicPartition(NamedTuple):
    """A topic and some of its partitions.

    Fields:
        topic: Topic name. (versions 0+)
        partitions: Partition numbers. (versions 0+)
    """

    topic: str = ""
    partitions: list[int] = EMPTY_LIST


class ConsumerProtocolAssignment(NamedTuple):
    """The partitions the group leader assigned to a member of a classic consumer group. Versions 0-3 share one layout (the version follows the subscription's). The bytes start with an int16 version.

    Fields:
        assigned_partitions: The partitions assigned to the member, by topic. (versions 0+)
        user_data: The assignor's own data, or null. (versions 0+, nullable 0+)
    """

    assigned_partitions: list[TopicPartition] = EMPTY_LIST
    user_data: bytes | None = None


# -- fast codec -----------------------------------------------------------------


def _read_topic_partition_v0(buf, pos: int, end: int) -> tuple[TopicPartition, int]:
    """Read a TopicPartition of ConsumerProtocolAssignment v0/v1/v2/v3 at ``pos``, inside ``buf[:end]``."""
    f_topic, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerProtocolAssignment v0/v1/v2/v3 TopicPartition.topic",
        compact=False,
        nullable=False,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolAssignment v0/v1/v2/v3 TopicPartition.partitions",
        compact=False,
        nullable=False,
        min_size=4,
    )
    f_partitions = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    return TopicPartition(f_topic, f_partitions), pos


def _write_topic_partition_v0(v: TopicPartition, out: list) -> None:
    """Append the bytes of a TopicPartition of ConsumerProtocolAssignment v0/v1/v2/v3 to ``out``."""
    out.append(
        encode_string(
            v.topic,
            "ConsumerProtocolAssignment v0/v1/v2/v3 TopicPartition.topic",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.partitions,
            "ConsumerProtocolAssignment v0/v1/v2/v3 TopicPartition.partitions",
            compact=False,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partitions)}i", *v.partitions))


def _read_consumer_protocol_assignment_v0(buf, pos: int, end: int) -> tuple[ConsumerProtocolAssignment, int]:
    """Read a ConsumerProtocolAssignment v0/v1/v2/v3 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolAssignment v0/v1/v2/v3 ConsumerProtocolAssignment.assigned_partitions",
        compact=False,
        nullable=False,
        min_size=6,
    )
    f_assigned_partitions = []
    append = f_assigned_partitions.append
    for _ in range(n):
        item, pos = _read_topic_partition_v0(buf, pos, end)
        append(item)
    f_user_data, pos = read_bytes(
        buf,
        pos,
        end,
        "ConsumerProtocolAssignment v0/v1/v2/v3 ConsumerProtocolAssignment.user_data",
        compact=False,
        nullable=True,
    )
    return ConsumerProtocolAssignment(f_assigned_partitions, f_user_data), pos


def _write_consumer_protocol_assignment_v0(v: ConsumerProtocolAssignment, out: list) -> None:
    """Append the bytes of a ConsumerProtocolAssignment v0/v1/v2/v3 to ``out``."""
    out.append(
        encode_count(
            v.assigned_partitions,
            "ConsumerProtocolAssignment v0/v1/v2/v3 ConsumerProtocolAssignment.assigned_partitions",
            compact=False,
            nullable=False,
        )
    )
    for item in v.assigned_partitions:
        _write_topic_partition_v0(item, out)
    out.append(
        encode_bytes(
            v.user_data,
            "ConsumerProtocolAssignment v0/v1/v2/v3 ConsumerProtocolAssignment.user_data",
            compact=False,
            nullable=True,
        )
    )


_READERS = {
    0: _read_consumer_protocol_assignment_v0,
    1: _read_consumer_protocol_assignment_v0,
    2: _read_consumer_protocol_assignment_v0,
    3: _read_consumer_protocol_assignment_v0,
}
_WRITERS = {
    0: _write_consumer_protocol_assignment_v0,
    1: _write_consumer_protocol_assignment_v0,
    2: _write_consumer_protocol_assignment_v0,
    3: _write_consumer_protocol_assignment_v0,
}


def decode_consumer_protocol_assignment(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerProtocolAssignment, int]:
    """Decode a ConsumerProtocolAssignment of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerProtocolAssignment: unknown version {version} (this schema has versions 0-3)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_protocol_assignment(value: ConsumerProtocolAssignment, version: int) -> bytes:
    """Encode ``value`` as ConsumerProtocolAssignment ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerProtocolAssignment: unknown version {version} (this schema has versions 0-3)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerProtocolAssignment v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
