"""ShareGroupTargetAssignmentMetadataKey, versions 12: The key of a share group (KIP-932)'s target assignment: the group id.

Generated from schemas/messages/share_group_target_assignment_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_target_assignment_metadata_key.yaml"
NAME = "ShareGroupTargetAssignmentMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (12,)
VERSIONS = [12]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ShareGroupTargetAssignmentMetadataValue"


# -- typed values ---------------------------------------------------------------


class ShareGroupTargetAssignmentMetadataKey(NamedTuple):
    """The key of a share group (KIP-932)'s target assignment: the group id.

    Fields:
        group_id: Group id. (versions 12)
    """

    group_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_share_group_target_assignment_metadata_key_v12(
    buf, pos: int, end: int
) -> tuple[ShareGroupTargetAssignmentMetadataKey, int]:
    """Read a ShareGroupTargetAssignmentMetadataKey v12 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupTargetAssignmentMetadataKey v12 ShareGroupTargetAssignmentMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    return ShareGroupTargetAssignmentMetadataKey(f_group_id), pos


def _write_share_group_target_assignment_metadata_key_v12(
    v: ShareGroupTargetAssignmentMetadataKey, out: list
) -> None:
    """Append the bytes of a ShareGroupTargetAssignmentMetadataKey v12 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ShareGroupTargetAssignmentMetadataKey v12 ShareGroupTargetAssignmentMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    12: _read_share_group_target_assignment_metadata_key_v12,
}
_WRITERS = {
    12: _write_share_group_target_assignment_metadata_key_v12,
}


def decode_share_group_target_assignment_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupTargetAssignmentMetadataKey, int]:
    """Decode a ShareGroupTargetAssignmentMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 12)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_target_assignment_metadata_key(
    value: ShareGroupTargetAssignmentMetadataKey, version: int
) -> bytes:
    """Encode ``value`` as ShareGroupTargetAssignmentMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 12)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupTargetAssignmentMetadataKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
