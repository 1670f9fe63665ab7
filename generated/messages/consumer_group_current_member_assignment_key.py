"""ConsumerGroupCurrentMemberAssignmentKey, versions 8: The key of one member's current assignment in a consumer group (KIP-848): group id and member id.

Generated from schemas/messages/consumer_group_current_member_assignment_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_group_current_member_assignment_key.yaml"
NAME = "ConsumerGroupCurrentMemberAssignmentKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (8,)
VERSIONS = [8]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ConsumerGroupCurrentMemberAssignmentValue"


# -- typed values ---------------------------------------------------------------


class ConsumerGroupCurrentMemberAssignmentKey(NamedTuple):
    """The key of one member's current assignment in a consumer group (KIP-848): group id and member id.

    Fields:
        group_id: Group id. (versions 8)
        member_id: Member id the coordinator gave the member. (versions 8)
    """

    group_id: str = ""
    member_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_consumer_group_current_member_assignment_key_v8(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupCurrentMemberAssignmentKey, int]:
    """Read a ConsumerGroupCurrentMemberAssignmentKey v8 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupCurrentMemberAssignmentKey v8 ConsumerGroupCurrentMemberAssignmentKey.group_id",
        compact=False,
        nullable=False,
    )
    f_member_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupCurrentMemberAssignmentKey v8 ConsumerGroupCurrentMemberAssignmentKey.member_id",
        compact=False,
        nullable=False,
    )
    return ConsumerGroupCurrentMemberAssignmentKey(f_group_id, f_member_id), pos


def _write_consumer_group_current_member_assignment_key_v8(
    v: ConsumerGroupCurrentMemberAssignmentKey, out: list
) -> None:
    """Append the bytes of a ConsumerGroupCurrentMemberAssignmentKey v8 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ConsumerGroupCurrentMemberAssignmentKey v8 ConsumerGroupCurrentMemberAssignmentKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.member_id,
            "ConsumerGroupCurrentMemberAssignmentKey v8 ConsumerGroupCurrentMemberAssignmentKey.member_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    8: _read_consumer_group_current_member_assignment_key_v8,
}
_WRITERS = {
    8: _write_consumer_group_current_member_assignment_key_v8,
}


def decode_consumer_group_current_member_assignment_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupCurrentMemberAssignmentKey, int]:
    """Decode a ConsumerGroupCurrentMemberAssignmentKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 8)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_current_member_assignment_key(
    value: ConsumerGroupCurrentMemberAssignmentKey, version: int
) -> bytes:
    """Encode ``value`` as ConsumerGroupCurrentMemberAssignmentKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 8)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupCurrentMemberAssignmentKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
