"""StreamsGroupCurrentMemberAssignmentKey, versions 22: The key of the tasks one streams group member owns now (KIP-1071): group and member ids.

Generated from schemas/messages/streams_group_current_member_assignment_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/streams_group_current_member_assignment_key.yaml"
NAME = "StreamsGroupCurrentMemberAssignmentKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (22,)
VERSIONS = [22]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "StreamsGroupCurrentMemberAssignmentValue"


# -- typed values ---------------------------------------------------------------


class StreamsGroupCurrentMemberAssignmentKey(NamedTuple):
    """The key of the tasks one streams group member owns now (KIP-1071): group and member ids.

    Fields:
        group_id: Group id. (versions 22)
        member_id: Member id. (versions 22)
    """

    group_id: str = ""
    member_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_streams_group_current_member_assignment_key_v22(
    buf, pos: int, end: int
) -> tuple[StreamsGroupCurrentMemberAssignmentKey, int]:
    """Read a StreamsGroupCurrentMemberAssignmentKey v22 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentKey v22 StreamsGroupCurrentMemberAssignmentKey.group_id",
        compact=False,
        nullable=False,
    )
    f_member_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupCurrentMemberAssignmentKey v22 StreamsGroupCurrentMemberAssignmentKey.member_id",
        compact=False,
        nullable=False,
    )
    return StreamsGroupCurrentMemberAssignmentKey(f_group_id, f_member_id), pos


def _write_streams_group_current_member_assignment_key_v22(
    v: StreamsGroupCurrentMemberAssignmentKey, out: list
) -> None:
    """Append the bytes of a StreamsGroupCurrentMemberAssignmentKey v22 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "StreamsGroupCurrentMemberAssignmentKey v22 StreamsGroupCurrentMemberAssignmentKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.member_id,
            "StreamsGroupCurrentMemberAssignmentKey v22 StreamsGroupCurrentMemberAssignmentKey.member_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    22: _read_streams_group_current_member_assignment_key_v22,
}
_WRITERS = {
    22: _write_streams_group_current_member_assignment_key_v22,
}


def decode_streams_group_current_member_assignment_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupCurrentMemberAssignmentKey, int]:
    """Decode a StreamsGroupCurrentMemberAssignmentKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 22)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_current_member_assignment_key(
    value: StreamsGroupCurrentMemberAssignmentKey, version: int
) -> bytes:
    """Encode ``value`` as StreamsGroupCurrentMemberAssignmentKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"StreamsGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 22)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupCurrentMemberAssignmentKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
