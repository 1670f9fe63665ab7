"""ConsumerGroupCurrentMemberAssignmentValue, versions 0 (flexible: 0+): The partitions one member of a consumer group (KIP-848) owns now, with its member epoch and state.

Generated from schemas/messages/consumer_group_current_member_assignment_value.yaml by codegen. DO NOT EDIT.
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
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_group_current_member_assignment_value.yaml"
NAME = "ConsumerGroupCurrentMemberAssignmentValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (8,)
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
        assignment_epochs: The epoch at which each partition was assigned to the member, one per partition (Kafka 4.3, to fence zombie commits); empty when not written. (versions 0+, nullable 0+, tagged 0 in 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_id: UUID = ZERO_UUID
    partitions: list[int] = EMPTY_LIST
    assignment_epochs: list[int] | None = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ConsumerGroupCurrentMemberAssignmentValue(NamedTuple):
    """The partitions one member of a consumer group (KIP-848) owns now, with its member epoch and state.

    Fields:
        member_epoch: The member epoch the member must send in its next heartbeat. (versions 0+)
        previous_member_epoch: The member's epoch before the last bump, accepted in case the member missed the bump. (versions 0+)
        state: Member state code (0 stable, 1 unrevoked partitions, 2 unreleased partitions, 3 unknown). (versions 0+)
        assigned_partitions: The partitions the member owns (or is assigned). (versions 0+)
        partitions_pending_revocation: Partitions the member still has to give up. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: int = 0
    assigned_partitions: list[TopicPartitions] = EMPTY_LIST
    partitions_pending_revocation: list[TopicPartitions] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_partitions_v0(buf, pos: int, end: int) -> tuple[TopicPartitions, int]:
    """Read a TopicPartitions of ConsumerGroupCurrentMemberAssignmentValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 16:
        raise truncated("ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions.topic_id", pos, 16, end)
    (f_topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    f_topic_id = UUID(bytes=f_topic_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions.partitions",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_partitions = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    f_assignment_epochs = []
    n, pos = read_uvarint(
        buf, pos, end, "ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions tagged fields"
        )
        if tag in seen:
            raise repeated_tag(
                "ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions.assignment_epochs",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_assignment_epochs = None
            else:
                f_assignment_epochs = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return TopicPartitions(f_topic_id, f_partitions, f_assignment_epochs, unknown), pos


def _write_topic_partitions_v0(v: TopicPartitions, out: list) -> None:
    """Append the bytes of a TopicPartitions of ConsumerGroupCurrentMemberAssignmentValue v0 to ``out``."""
    out.append(v.topic_id.bytes)
    out.append(
        encode_count(
            v.partitions,
            "ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions.partitions",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partitions)}i", *v.partitions))
    tags = list(v.unknown_tagged_fields)
    if v.assignment_epochs != []:
        outer, out = out, []
        out.append(
            encode_count(
                v.assignment_epochs,
                "ConsumerGroupCurrentMemberAssignmentValue v0 TopicPartitions.assignment_epochs",
                compact=True,
                nullable=True,
            )
        )
        if v.assignment_epochs is not None:
            out.append(struct.pack(f">{len(v.assignment_epochs)}i", *v.assignment_epochs))
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_consumer_group_current_member_assignment_value_v0(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupCurrentMemberAssignmentValue, int]:
    """Read a ConsumerGroupCurrentMemberAssignmentValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 9:
        raise truncated(
            "ConsumerGroupCurrentMemberAssignmentValue v0 ConsumerGroupCurrentMemberAssignmentValue.member_epoch",
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
        "ConsumerGroupCurrentMemberAssignmentValue v0 ConsumerGroupCurrentMemberAssignmentValue.assigned_partitions",
        compact=True,
        nullable=False,
        min_size=18,
    )
    f_assigned_partitions = []
    append = f_assigned_partitions.append
    for _ in range(n):
        item, pos = _read_topic_partitions_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerGroupCurrentMemberAssignmentValue v0 ConsumerGroupCurrentMemberAssignmentValue.partitions_pending_revocation",
        compact=True,
        nullable=False,
        min_size=18,
    )
    f_partitions_pending_revocation = []
    append = f_partitions_pending_revocation.append
    for _ in range(n):
        item, pos = _read_topic_partitions_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "ConsumerGroupCurrentMemberAssignmentValue v0 ConsumerGroupCurrentMemberAssignmentValue tagged fields",
    )
    return ConsumerGroupCurrentMemberAssignmentValue(
        f_member_epoch,
        f_previous_member_epoch,
        f_state,
        f_assigned_partitions,
        f_partitions_pending_revocation,
        unknown,
    ), pos


def _write_consumer_group_current_member_assignment_value_v0(
    v: ConsumerGroupCurrentMemberAssignmentValue, out: list
) -> None:
    """Append the bytes of a ConsumerGroupCurrentMemberAssignmentValue v0 to ``out``."""
    out.append(_S1.pack(v.member_epoch, v.previous_member_epoch, v.state))
    out.append(
        encode_count(
            v.assigned_partitions,
            "ConsumerGroupCurrentMemberAssignmentValue v0 ConsumerGroupCurrentMemberAssignmentValue.assigned_partitions",
            compact=True,
            nullable=False,
        )
    )
    for item in v.assigned_partitions:
        _write_topic_partitions_v0(item, out)
    out.append(
        encode_count(
            v.partitions_pending_revocation,
            "ConsumerGroupCurrentMemberAssignmentValue v0 ConsumerGroupCurrentMemberAssignmentValue.partitions_pending_revocation",
            compact=True,
            nullable=False,
        )
    )
    for item in v.partitions_pending_revocation:
        _write_topic_partitions_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_consumer_group_current_member_assignment_value_v0,
}
_WRITERS = {
    0: _write_consumer_group_current_member_assignment_value_v0,
}


def decode_consumer_group_current_member_assignment_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupCurrentMemberAssignmentValue, int]:
    """Decode a ConsumerGroupCurrentMemberAssignmentValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_current_member_assignment_value(
    value: ConsumerGroupCurrentMemberAssignmentValue, version: int
) -> bytes:
    """Encode ``value`` as ConsumerGroupCurrentMemberAssignmentValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupCurrentMemberAssignmentValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
