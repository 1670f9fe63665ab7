"""ShareGroupTargetAssignmentMetadataValue, versions 0 (flexible: 0+): The group epoch the share group (KIP-932)'s target assignment was computed for.

Generated from schemas/messages/share_group_target_assignment_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.errors import KafkaFormatError
from kafkaspec.payloads.message_types import encode_tagged, read_unknown_tags, truncated

SCHEMA = "schemas/messages/share_group_target_assignment_metadata_value.yaml"
NAME = "ShareGroupTargetAssignmentMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (12,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]

_S0 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class ShareGroupTargetAssignmentMetadataValue(NamedTuple):
    """The group epoch the share group (KIP-932)'s target assignment was computed for.

    Fields:
        assignment_epoch: The group epoch this target assignment was computed for. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    assignment_epoch: int = 0
    unknown_tagged_fields: list[tuple[int, bytes]] = []


# -- fast codec -----------------------------------------------------------------


def _read_share_group_target_assignment_metadata_value_v0(
    buf, pos: int, end: int
) -> tuple[ShareGroupTargetAssignmentMetadataValue, int]:
    """Read a ShareGroupTargetAssignmentMetadataValue of ShareGroupTargetAssignmentMetadataValue version 0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated(
            "ShareGroupTargetAssignmentMetadataValue v0 ShareGroupTargetAssignmentMetadataValue.assignment_epoch",
            pos,
            4,
            end,
        )
    (f_assignment_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "ShareGroupTargetAssignmentMetadataValue v0 ShareGroupTargetAssignmentMetadataValue tagged fields",
    )
    return ShareGroupTargetAssignmentMetadataValue(f_assignment_epoch, unknown), pos


def _write_share_group_target_assignment_metadata_value_v0(
    v: ShareGroupTargetAssignmentMetadataValue, out: list
) -> None:
    """Append the bytes of a ShareGroupTargetAssignmentMetadataValue of ShareGroupTargetAssignmentMetadataValue version 0 to ``out``."""
    out.append(_S0.pack(v.assignment_epoch))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_group_target_assignment_metadata_value_v0,
}
_WRITERS = {
    0: _write_share_group_target_assignment_metadata_value_v0,
}


def decode_share_group_target_assignment_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupTargetAssignmentMetadataValue, int]:
    """Decode a ShareGroupTargetAssignmentMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupTargetAssignmentMetadataValue: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_target_assignment_metadata_value(
    value: ShareGroupTargetAssignmentMetadataValue, version: int
) -> bytes:
    """Encode ``value`` as ShareGroupTargetAssignmentMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupTargetAssignmentMetadataValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupTargetAssignmentMetadataValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
