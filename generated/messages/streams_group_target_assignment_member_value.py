"""StreamsGroupTargetAssignmentMemberValue, versions 0 (flexible: 0+): The tasks a streams group (KIP-1071) member should own: active, standby and warm-up tasks.

Generated from schemas/messages/streams_group_target_assignment_member_value.yaml by codegen. DO NOT EDIT.
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
    read_unknown_tags,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/streams_group_target_assignment_member_value.yaml"
NAME = "StreamsGroupTargetAssignmentMemberValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (21,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None


# -- typed values ---------------------------------------------------------------


class TaskIds(NamedTuple):
    """The tasks of one subtopology: its id and the input partitions numbered within it.

    Fields:
        subtopology_id: Subtopology id. (versions 0+)
        partitions: Partition numbers of the subtopology's input topics, one task each. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    subtopology_id: str = ""
    partitions: list[int] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class StreamsGroupTargetAssignmentMemberValue(NamedTuple):
    """The tasks a streams group (KIP-1071) member should own: active, standby and warm-up tasks.

    Fields:
        active_tasks: Active tasks the member should process. (versions 0+)
        standby_tasks: Standby tasks the member should keep state for. (versions 0+)
        warmup_tasks: Warm-up tasks: state the member should build before taking the task over. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    active_tasks: list[TaskIds] = EMPTY_LIST
    standby_tasks: list[TaskIds] = EMPTY_LIST
    warmup_tasks: list[TaskIds] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_task_ids_v0(buf, pos: int, end: int) -> tuple[TaskIds, int]:
    """Read a TaskIds of StreamsGroupTargetAssignmentMemberValue v0 at ``pos``, inside ``buf[:end]``."""
    f_subtopology_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupTargetAssignmentMemberValue v0 TaskIds.subtopology_id",
        compact=True,
        nullable=False,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTargetAssignmentMemberValue v0 TaskIds.partitions",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_partitions = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    unknown, pos = read_unknown_tags(
        buf, pos, end, "StreamsGroupTargetAssignmentMemberValue v0 TaskIds tagged fields"
    )
    return TaskIds(f_subtopology_id, f_partitions, unknown), pos


def _write_task_ids_v0(v: TaskIds, out: list) -> None:
    """Append the bytes of a TaskIds of StreamsGroupTargetAssignmentMemberValue v0 to ``out``."""
    out.append(
        encode_string(
            v.subtopology_id,
            "StreamsGroupTargetAssignmentMemberValue v0 TaskIds.subtopology_id",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.partitions,
            "StreamsGroupTargetAssignmentMemberValue v0 TaskIds.partitions",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partitions)}i", *v.partitions))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_streams_group_target_assignment_member_value_v0(
    buf, pos: int, end: int
) -> tuple[StreamsGroupTargetAssignmentMemberValue, int]:
    """Read a StreamsGroupTargetAssignmentMemberValue v0 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTargetAssignmentMemberValue v0 StreamsGroupTargetAssignmentMemberValue.active_tasks",
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
        "StreamsGroupTargetAssignmentMemberValue v0 StreamsGroupTargetAssignmentMemberValue.standby_tasks",
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
        "StreamsGroupTargetAssignmentMemberValue v0 StreamsGroupTargetAssignmentMemberValue.warmup_tasks",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_warmup_tasks = []
    append = f_warmup_tasks.append
    for _ in range(n):
        item, pos = _read_task_ids_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "StreamsGroupTargetAssignmentMemberValue v0 StreamsGroupTargetAssignmentMemberValue tagged fields",
    )
    return StreamsGroupTargetAssignmentMemberValue(
        f_active_tasks, f_standby_tasks, f_warmup_tasks, unknown
    ), pos


def _write_streams_group_target_assignment_member_value_v0(
    v: StreamsGroupTargetAssignmentMemberValue, out: list
) -> None:
    """Append the bytes of a StreamsGroupTargetAssignmentMemberValue v0 to ``out``."""
    out.append(
        encode_count(
            v.active_tasks,
            "StreamsGroupTargetAssignmentMemberValue v0 StreamsGroupTargetAssignmentMemberValue.active_tasks",
            compact=True,
            nullable=False,
        )
    )
    for item in v.active_tasks:
        _write_task_ids_v0(item, out)
    out.append(
        encode_count(
            v.standby_tasks,
            "StreamsGroupTargetAssignmentMemberValue v0 StreamsGroupTargetAssignmentMemberValue.standby_tasks",
            compact=True,
            nullable=False,
        )
    )
    for item in v.standby_tasks:
        _write_task_ids_v0(item, out)
    out.append(
        encode_count(
            v.warmup_tasks,
            "StreamsGroupTargetAssignmentMemberValue v0 StreamsGroupTargetAssignmentMemberValue.warmup_tasks",
            compact=True,
            nullable=False,
        )
    )
    for item in v.warmup_tasks:
        _write_task_ids_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_streams_group_target_assignment_member_value_v0,
}
_WRITERS = {
    0: _write_streams_group_target_assignment_member_value_v0,
}


def decode_streams_group_target_assignment_member_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupTargetAssignmentMemberValue, int]:
    """Decode a StreamsGroupTargetAssignmentMemberValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupTargetAssignmentMemberValue: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_target_assignment_member_value(
    value: StreamsGroupTargetAssignmentMemberValue, version: int
) -> bytes:
    """Encode ``value`` as StreamsGroupTargetAssignmentMemberValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"StreamsGroupTargetAssignmentMemberValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupTargetAssignmentMemberValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
