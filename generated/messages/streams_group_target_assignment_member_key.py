"""StreamsGroupTargetAssignmentMemberKey, versions 21: The key of one member's target tasks in a streams group (KIP-1071): group and member ids.

Generated from schemas/messages/streams_group_target_assignment_member_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/streams_group_target_assignment_member_key.yaml"
NAME = "StreamsGroupTargetAssignmentMemberKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (21,)
VERSIONS = [21]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "StreamsGroupTargetAssignmentMemberValue"


# -- typed values ---------------------------------------------------------------


class StreamsGroupTargetAssignmentMemberKey(NamedTuple):
    """The key of one member's target tasks in a streams group (KIP-1071): group and member ids.

    Fields:
        group_id: Group id. (versions 21)
        member_id: Member id. (versions 21)
    """

    group_id: str = ""
    member_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_streams_group_target_assignment_member_key_v21(
    buf, pos: int, end: int
) -> tuple[StreamsGroupTargetAssignmentMemberKey, int]:
    """Read a StreamsGroupTargetAssignmentMemberKey v21 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupTargetAssignmentMemberKey v21 StreamsGroupTargetAssignmentMemberKey.group_id",
        compact=False,
        nullable=False,
    )
    f_member_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupTargetAssignmentMemberKey v21 StreamsGroupTargetAssignmentMemberKey.member_id",
        compact=False,
        nullable=False,
    )
    return StreamsGroupTargetAssignmentMemberKey(f_group_id, f_member_id), pos


def _write_streams_group_target_assignment_member_key_v21(
    v: StreamsGroupTargetAssignmentMemberKey, out: list
) -> None:
    """Append the bytes of a StreamsGroupTargetAssignmentMemberKey v21 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "StreamsGroupTargetAssignmentMemberKey v21 StreamsGroupTargetAssignmentMemberKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.member_id,
            "StreamsGroupTargetAssignmentMemberKey v21 StreamsGroupTargetAssignmentMemberKey.member_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    21: _read_streams_group_target_assignment_member_key_v21,
}
_WRITERS = {
    21: _write_streams_group_target_assignment_member_key_v21,
}


def decode_streams_group_target_assignment_member_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupTargetAssignmentMemberKey, int]:
    """Decode a StreamsGroupTargetAssignmentMemberKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupTargetAssignmentMemberKey: unknown version {version} (this schema has versions 21)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_target_assignment_member_key(
    value: StreamsGroupTargetAssignmentMemberKey, version: int
) -> bytes:
    """Encode ``value`` as StreamsGroupTargetAssignmentMemberKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"StreamsGroupTargetAssignmentMemberKey: unknown version {version} (this schema has versions 21)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupTargetAssignmentMemberKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
