"""ShareGroupCurrentMemberAssignmentKey, versions 14: The key of one member's current assignment in a share group (KIP-932): group id and member id.

Generated from schemas/messages/share_group_current_member_assignment_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_current_member_assignment_key.yaml"
NAME = "ShareGroupCurrentMemberAssignmentKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (14,)
VERSIONS = [14]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ShareGroupCurrentMemberAssignmentValue"


# -- typed values ---------------------------------------------------------------


class ShareGroupCurrentMemberAssignmentKey(NamedTuple):
    """The key of one member's current assignment in a share group (KIP-932): group id and member id.

    Fields:
        group_id: Group id. (versions 14)
        member_id: Member id the coordinator gave the member. (versions 14)
    """

    group_id: str = ""
    member_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_share_group_current_member_assignment_key_v14(
    buf, pos: int, end: int
) -> tuple[ShareGroupCurrentMemberAssignmentKey, int]:
    """Read a ShareGroupCurrentMemberAssignmentKey v14 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupCurrentMemberAssignmentKey v14 ShareGroupCurrentMemberAssignmentKey.group_id",
        compact=False,
        nullable=False,
    )
    f_member_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupCurrentMemberAssignmentKey v14 ShareGroupCurrentMemberAssignmentKey.member_id",
        compact=False,
        nullable=False,
    )
    return ShareGroupCurrentMemberAssignmentKey(f_group_id, f_member_id), pos


def _write_share_group_current_member_assignment_key_v14(
    v: ShareGroupCurrentMemberAssignmentKey, out: list
) -> None:
    """Append the bytes of a ShareGroupCurrentMemberAssignmentKey v14 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ShareGroupCurrentMemberAssignmentKey v14 ShareGroupCurrentMemberAssignmentKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.member_id,
            "ShareGroupCurrentMemberAssignmentKey v14 ShareGroupCurrentMemberAssignmentKey.member_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    14: _read_share_group_current_member_assignment_key_v14,
}
_WRITERS = {
    14: _write_share_group_current_member_assignment_key_v14,
}


def decode_share_group_current_member_assignment_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupCurrentMemberAssignmentKey, int]:
    """Decode a ShareGroupCurrentMemberAssignmentKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 14)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_current_member_assignment_key(
    value: ShareGroupCurrentMemberAssignmentKey, version: int
) -> bytes:
    """Encode ``value`` as ShareGroupCurrentMemberAssignmentKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 14)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupCurrentMemberAssignmentKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
