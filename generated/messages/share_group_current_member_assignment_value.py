"""ShareGroupCurrentMemberAssignmentValue, versions 0 (flexible: 0+): The partitions one member of a share group (KIP-932) owns now, with its member epoch and state.

Generated from schemas/messages/share_group_current_member_assignment_value.yaml by codegen. DO NOT EDIT.
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

SCHEMA = "schemas/messages/share_group_current_member_assignment_value.yaml"
NAME = "ShareGroupCurrentMemberAssignmentValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (14,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">16s")
_S1 = struct.Struct(">iib")

# -- typed values ---------------------------------------------------------------


class TopicPartitions(NamedTuple):
    """Partitions of one topic.

    Fields:
        topic_id: Topic id. (versions 0+)
        partitions: Partition numbers. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_id: UUID = ZERO_UUID
    partitions: list[int] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ShareGroupCurrentMemberAssignmentValue(NamedTuple):
    """The partitions one member of a share group (KIP-932) owns now, with its member epoch and state.

    Fields:
        member_epoch: The member epoch the member must send in its next heartbeat. (versions 0+)
        previous_member_epoch: The member's epoch before the last bump, accepted in case the member missed the bump. (versions 0+)
        state: Member state code (0 stable, 1 unrevoked partitions, 2 unreleased partitions, 3 unknown). (versions 0+)
        assigned_partitions: The partitions the member owns (or is assigned). (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: int = 0
    assigned_partitions: list[TopicPartitions] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_partitions_v0(buf, pos: int, end: int) -> tuple[TopicPartitions, int]:
    """Read a TopicPartitions of ShareGroupCurrentMemberAssignmentValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 16:
        raise truncated("ShareGroupCurrentMemberAssignmentValue v0 TopicPartitions.topic_id", pos, 16, end)
    (f_topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    f_topic_id = UUID(bytes=f_topic_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareGroupCurrentMemberAssignmentValue v0 TopicPartitions.partitions",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_partitions = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ShareGroupCurrentMemberAssignmentValue v0 TopicPartitions tagged fields"
    )
    return TopicPartitions(f_topic_id, f_partitions, unknown), pos


def _write_topic_partitions_v0(v: TopicPartitions, out: list) -> None:
    """Append the bytes of a TopicPartitions of ShareGroupCurrentMemberAssignmentValue v0 to ``out``."""
    out.append(v.topic_id.bytes)
    out.append(
        encode_count(
            v.partitions,
            "ShareGroupCurrentMemberAssignmentValue v0 TopicPartitions.partitions",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partitions)}i", *v.partitions))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_share_group_current_member_assignment_value_v0(
    buf, pos: int, end: int
) -> tuple[ShareGroupCurrentMemberAssignmentValue, int]:
    """Read a ShareGroupCurrentMemberAssignmentValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 9:
        raise truncated(
            "ShareGroupCurrentMemberAssignmentValue v0 ShareGroupCurrentMemberAssignmentValue.member_epoch",
            pos,
            9,
            end,
        )
    (
        f_member_epoch,
        f_previous_member_epoch,
        f_state,
    ) = _S1.unpack_from(buf, pos)
    pos += 9
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareGroupCurrentMemberAssignmentValue v0 ShareGroupCurrentMemberAssignmentValue.assigned_partitions",
        compact=True,
        nullable=False,
        min_size=18,
    )
    f_assigned_partitions = []
    append = f_assigned_partitions.append
    for _ in range(n):
        item, pos = _read_topic_partitions_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "ShareGroupCurrentMemberAssignmentValue v0 ShareGroupCurrentMemberAssignmentValue tagged fields",
    )
    return ShareGroupCurrentMemberAssignmentValue(
        f_member_epoch, f_previous_member_epoch, f_state, f_assigned_partitions, unknown
    ), pos


def _write_share_group_current_member_assignment_value_v0(
    v: ShareGroupCurrentMemberAssignmentValue, out: list
) -> None:
    """Append the bytes of a ShareGroupCurrentMemberAssignmentValue v0 to ``out``."""
    out.append(_S1.pack(v.member_epoch, v.previous_member_epoch, v.state))
    out.append(
        encode_count(
            v.assigned_partitions,
            "ShareGroupCurrentMemberAssignmentValue v0 ShareGroupCurrentMemberAssignmentValue.assigned_partitions",
            compact=True,
            nullable=False,
        )
    )
    for item in v.assigned_partitions:
        _write_topic_partitions_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_group_current_member_assignment_value_v0,
}
_WRITERS = {
    0: _write_share_group_current_member_assignment_value_v0,
}


def decode_share_group_current_member_assignment_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupCurrentMemberAssignmentValue, int]:
    """Decode a ShareGroupCurrentMemberAssignmentValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_current_member_assignment_value(
    value: ShareGroupCurrentMemberAssignmentValue, version: int
) -> bytes:
    """Encode ``value`` as ShareGroupCurrentMemberAssignmentValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupCurrentMemberAssignmentValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
