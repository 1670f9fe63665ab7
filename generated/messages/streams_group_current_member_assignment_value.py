"""StreamsGroupCurrentMemberAssignmentValue, versions 0 (flexible: 0+): The tasks one member of a streams group (KIP-1071) owns now, those it must give up, and its member epoch and state.

Generated from schemas/messages/streams_group_current_member_assignment_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    encode_count,
    encode_string,
    encode_tagged,
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

SCHEMA = "schemas/messages/streams_group_current_member_assignment_value.yaml"
NAME = "StreamsGroupCurrentMemberAssignmentValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (22,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">iib")

# -- typed values ---------------------------------------------------------------


class TaskIds(NamedTuple):
    """The tasks of one subtopology: its id and the input partitions numbered within it.

    Fields:
        subtopology_id: Subtopology id. (versions 0+)
        partitions: Partition numbers of the subtopology's input topics, one task each. (versions 0+)
        assignment_epochs: The epoch at which each partition was assigned to the member, one per partition (Kafka 4.3, active tasks only, to fence zombie commits); empty when not written. (versions 0+, nullable 0+, tagged 0 in 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    subtopology_id: str = ""
    partitions: list[int] = EMPTY_LIST
    assignment_epochs: list[int] | None = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class StreamsGroupCurrentMemberAssignmentValue(NamedTuple):
    """The tasks one member of a streams group (KIP-1071) owns now, those it must give up, and its member epoch and state.

    Fields:
        member_epoch: The member epoch the member must send in its next heartbeat. (versions 0+)
        previous_member_epoch: The member's epoch before the last bump, accepted in case the member missed the bump. (versions 0+)
        state: Member state code (as in the consumer group records). (versions 0+)
        active_tasks: Active tasks the member owns. (versions 0+)
        standby_tasks: Standby tasks the member owns. (versions 0+)
        warmup_tasks: Warm-up tasks the member owns. (versions 0+)
        active_tasks_pending_revocation: Active tasks the member still has to give up. (versions 0+)
        standby_tasks_pending_revocation: Standby tasks the member still has to give up. (versions 0+)
        warmup_tasks_pending_revocation: Warm-up tasks the member still has to give up. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: int = 0
    active_tasks: list[TaskIds] = EMPTY_LIST
    standby_tasks: list[TaskIds] = EMPTY_LIST
    warmup_tasks: list[TaskIds] = EMPTY_LIST
    active_tasks_pending_revocation: list[TaskIds] = EMPTY_LIST
    standby_tasks_pending_revocation: list[TaskIds] = EMPTY_LIST
    warmup_tasks_pending_revocation: list[TaskIds] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_task_ids_v0(buf, pos: int, end: int) -> tuple[TaskIds, int]:
    """Read a TaskIds of StreamsGroupCurrentMemberAssignmentValue v0 at ``pos``, inside ``buf[:end]``."""
    f_subtopology_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds.subtopology_id",
        compact=True,
        nullable=False,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds.partitions",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_partitions = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    f_assignment_epochs = []
    n, pos = read_uvarint(buf, pos, end, "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds tagged fields"
        )
        if tag in seen:
            raise repeated_tag("StreamsGroupCurrentMemberAssignmentValue v0 TaskIds tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds.assignment_epochs",
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
                    "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return TaskIds(f_subtopology_id, f_partitions, f_assignment_epochs, unknown), pos


def _write_task_ids_v0(v: TaskIds, out: list) -> None:
    """Append the bytes of a TaskIds of StreamsGroupCurrentMemberAssignmentValue v0 to ``out``."""
    out.append(
        encode_string(
            v.subtopology_id,
            "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds.subtopology_id",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.partitions,
            "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds.partitions",
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
                "StreamsGroupCurrentMemberAssignmentValue v0 TaskIds.assignment_epochs",
                compact=True,
                nullable=True,
            )
        )
        if v.assignment_epochs is not None:
            out.append(struct.pack(f">{len(v.assignment_epochs)}i", *v.assignment_epochs))
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_streams_group_current_member_assignment_value_v0(
    buf, pos: int, end: int
) -> tuple[StreamsGroupCurrentMemberAssignmentValue, int]:
    """Read a StreamsGroupCurrentMemberAssignmentValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 9:
        raise truncated(
            "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.member_epoch",
            pos,
            9,
            end,
        )
    (
        f_member_epoch,
        f_previous_member_epoch,
        f_state,
    ) = _S0.unpack_from(buf, pos)
    pos += 9
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.active_tasks",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_active_tasks = []
    append = f_active_tasks.append
    for _ in range(n):
        item, pos = _read_task_ids_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.standby_tasks",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_standby_tasks = []
    append = f_standby_tasks.append
    for _ in range(n):
        item, pos = _read_task_ids_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.warmup_tasks",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_warmup_tasks = []
    append = f_warmup_tasks.append
    for _ in range(n):
        item, pos = _read_task_ids_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.active_tasks_pending_revocation",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_active_tasks_pending_revocation = []
    append = f_active_tasks_pending_revocation.append
    for _ in range(n):
        item, pos = _read_task_ids_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.standby_tasks_pending_revocation",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_standby_tasks_pending_revocation = []
    append = f_standby_tasks_pending_revocation.append
    for _ in range(n):
        item, pos = _read_task_ids_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.warmup_tasks_pending_revocation",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_warmup_tasks_pending_revocation = []
    append = f_warmup_tasks_pending_revocation.append
    for _ in range(n):
        item, pos = _read_task_ids_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue tagged fields",
    )
    return StreamsGroupCurrentMemberAssignmentValue(
        f_member_epoch,
        f_previous_member_epoch,
        f_state,
        f_active_tasks,
        f_standby_tasks,
        f_warmup_tasks,
        f_active_tasks_pending_revocation,
        f_standby_tasks_pending_revocation,
        f_warmup_tasks_pending_revocation,
        unknown,
    ), pos


def _write_streams_group_current_member_assignment_value_v0(
    v: StreamsGroupCurrentMemberAssignmentValue, out: list
) -> None:
    """Append the bytes of a StreamsGroupCurrentMemberAssignmentValue v0 to ``out``."""
    out.append(_S0.pack(v.member_epoch, v.previous_member_epoch, v.state))
    out.append(
        encode_count(
            v.active_tasks,
            "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.active_tasks",
            compact=True,
            nullable=False,
        )
    )
    for item in v.active_tasks:
        _write_task_ids_v0(item, out)
    out.append(
        encode_count(
            v.standby_tasks,
            "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.standby_tasks",
            compact=True,
            nullable=False,
        )
    )
    for item in v.standby_tasks:
        _write_task_ids_v0(item, out)
    out.append(
        encode_count(
            v.warmup_tasks,
            "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.warmup_tasks",
            compact=True,
            nullable=False,
        )
    )
    for item in v.warmup_tasks:
        _write_task_ids_v0(item, out)
    out.append(
        encode_count(
            v.active_tasks_pending_revocation,
            "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.active_tasks_pending_revocation",
            compact=True,
            nullable=False,
        )
    )
    for item in v.active_tasks_pending_revocation:
        _write_task_ids_v0(item, out)
    out.append(
        encode_count(
            v.standby_tasks_pending_revocation,
            "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.standby_tasks_pending_revocation",
            compact=True,
            nullable=False,
        )
    )
    for item in v.standby_tasks_pending_revocation:
        _write_task_ids_v0(item, out)
    out.append(
        encode_count(
            v.warmup_tasks_pending_revocation,
            "StreamsGroupCurrentMemberAssignmentValue v0 StreamsGroupCurrentMemberAssignmentValue.warmup_tasks_pending_revocation",
            compact=True,
            nullable=False,
        )
    )
    for item in v.warmup_tasks_pending_revocation:
        _write_task_ids_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_streams_group_current_member_assignment_value_v0,
}
_WRITERS = {
    0: _write_streams_group_current_member_assignment_value_v0,
}


def decode_streams_group_current_member_assignment_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupCurrentMemberAssignmentValue, int]:
    """Decode a StreamsGroupCurrentMemberAssignmentValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_current_member_assignment_value(
    value: StreamsGroupCurrentMemberAssignmentValue, version: int
) -> bytes:
    """Encode ``value`` as StreamsGroupCurrentMemberAssignmentValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"StreamsGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupCurrentMemberAssignmentValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
