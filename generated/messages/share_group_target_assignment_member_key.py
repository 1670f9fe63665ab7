"""ShareGroupTargetAssignmentMemberKey, versions 13: The key of one member's target assignment in a share group (KIP-932): group id and member id.

Generated from schemas/messages/share_group_target_assignment_member_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_target_assignment_member_key.yaml"
NAME = "ShareGroupTargetAssignmentMemberKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (13,)
VERSIONS = [13]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ShareGroupTargetAssignmentMemberValue"


# -- typed values ---------------------------------------------------------------


class ShareGroupTargetAssignmentMemberKey(NamedTuple):
    """The key of one member's target assignment in a share group (KIP-932): group id and member id.

    Fields:
        group_id: Group id. (versions 13)
        member_id: Member id the coordinator gave the member. (versions 13)
    """

    group_id: str = ""
    member_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_share_group_target_assignment_member_key_v13(
    buf, pos: int, end: int
) -> tuple[ShareGroupTargetAssignmentMemberKey, int]:
    """Read a ShareGroupTargetAssignmentMemberKey v13 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupTargetAssignmentMemberKey v13 ShareGroupTargetAssignmentMemberKey.group_id",
        compact=False,
        nullable=False,
    )
    f_member_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupTargetAssignmentMemberKey v13 ShareGroupTargetAssignmentMemberKey.member_id",
        compact=False,
        nullable=False,
    )
    return ShareGroupTargetAssignmentMemberKey(f_group_id, f_member_id), pos


def _write_share_group_target_assignment_member_key_v13(
    v: ShareGroupTargetAssignmentMemberKey, out: list
) -> None:
    """Append the bytes of a ShareGroupTargetAssignmentMemberKey v13 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ShareGroupTargetAssignmentMemberKey v13 ShareGroupTargetAssignmentMemberKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.member_id,
            "ShareGroupTargetAssignmentMemberKey v13 ShareGroupTargetAssignmentMemberKey.member_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    13: _read_share_group_target_assignment_member_key_v13,
}
_WRITERS = {
    13: _write_share_group_target_assignment_member_key_v13,
}


def decode_share_group_target_assignment_member_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupTargetAssignmentMemberKey, int]:
    """Decode a ShareGroupTargetAssignmentMemberKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupTargetAssignmentMemberKey: unknown version {version} (this schema has versions 13)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_target_assignment_member_key(
    value: ShareGroupTargetAssignmentMemberKey, version: int
) -> bytes:
    """Encode ``value`` as ShareGroupTargetAssignmentMemberKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupTargetAssignmentMemberKey: unknown version {version} (this schema has versions 13)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupTargetAssignmentMemberKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
