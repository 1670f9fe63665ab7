"""ShareGroupTargetAssignmentMemberValue, versions 0 (flexible: 0+): The partitions the coordinator wants one member of a share group (KIP-932) to own.

Generated from schemas/messages/share_group_target_assignment_member_value.yaml by codegen. DO NOT EDIT.
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
    encode_tagged,
    read_count,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_target_assignment_member_value.yaml"
NAME = "ShareGroupTargetAssignmentMemberValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (13,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">16s")

# -- typed values ---------------------------------------------------------------


class TopicPartition(NamedTuple):
    """The assigned partitions, by topic.

    Fields:
        topic_id: Topic id. (versions 0+)
        partitions: Partition numbers. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_id: UUID = ZERO_UUID
    partitions: list[int] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ShareGroupTargetAssignmentMemberValue(NamedTuple):
    """The partitions the coordinator wants one member of a share group (KIP-932) to own.

    Fields:
        topic_partitions: The assigned partitions, by topic. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_partitions: list[TopicPartition] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_partition_v0(buf, pos: int, end: int) -> tuple[TopicPartition, int]:
    """Read a TopicPartition of ShareGroupTargetAssignmentMemberValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 16:
        raise truncated("ShareGroupTargetAssignmentMemberValue v0 TopicPartition.topic_id", pos, 16, end)
    (f_topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    f_topic_id = UUID(bytes=f_topic_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareGroupTargetAssignmentMemberValue v0 TopicPartition.partitions",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_partitions = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ShareGroupTargetAssignmentMemberValue v0 TopicPartition tagged fields"
    )
    return TopicPartition(f_topic_id, f_partitions, unknown), pos


def _write_topic_partition_v0(v: TopicPartition, out: list) -> None:
    """Append the bytes of a TopicPartition of ShareGroupTargetAssignmentMemberValue v0 to ``out``."""
    out.append(v.topic_id.bytes)
    out.append(
        encode_count(
            v.partitions,
            "ShareGroupTargetAssignmentMemberValue v0 TopicPartition.partitions",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partitions)}i", *v.partitions))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_share_group_target_assignment_member_value_v0(
    buf, pos: int, end: int
) -> tuple[ShareGroupTargetAssignmentMemberValue, int]:
    """Read a ShareGroupTargetAssignmentMemberValue v0 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareGroupTargetAssignmentMemberValue v0 ShareGroupTargetAssignmentMemberValue.topic_partitions",
        compact=True,
        nullable=False,
        min_size=18,
    )
    f_topic_partitions = []
    append = f_topic_partitions.append
    for _ in range(n):
        item, pos = _read_topic_partition_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "ShareGroupTargetAssignmentMemberValue v0 ShareGroupTargetAssignmentMemberValue tagged fields",
    )
    return ShareGroupTargetAssignmentMemberValue(f_topic_partitions, unknown), pos


def _write_share_group_target_assignment_member_value_v0(
    v: ShareGroupTargetAssignmentMemberValue, out: list
) -> None:
    """Append the bytes of a ShareGroupTargetAssignmentMemberValue v0 to ``out``."""
    out.append(
        encode_count(
            v.topic_partitions,
            "ShareGroupTargetAssignmentMemberValue v0 ShareGroupTargetAssignmentMemberValue.topic_partitions",
            compact=True,
            nullable=False,
        )
    )
    for item in v.topic_partitions:
        _write_topic_partition_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_group_target_assignment_member_value_v0,
}
_WRITERS = {
    0: _write_share_group_target_assignment_member_value_v0,
}


def decode_share_group_target_assignment_member_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupTargetAssignmentMemberValue, int]:
    """Decode a ShareGroupTargetAssignmentMemberValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupTargetAssignmentMemberValue: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_target_assignment_member_value(
    value: ShareGroupTargetAssignmentMemberValue, version: int
) -> bytes:
    """Encode ``value`` as ShareGroupTargetAssignmentMemberValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupTargetAssignmentMemberValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupTargetAssignmentMemberValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
