"""ShareGroupTargetAssignmentMetadataValue, versions 0 (flexible: 0+): The group epoch the share group (KIP-932)'s target assignment was computed for.

Generated from schemas/messages/share_group_target_assignment_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    encode_tagged,
    read_tag_header,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_target_assignment_metadata_value.yaml"
NAME = "ShareGroupTargetAssignmentMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (12,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i")
_S1 = struct.Struct(">q")

# -- typed values ---------------------------------------------------------------


class ShareGroupTargetAssignmentMetadataValue(NamedTuple):
    """The group epoch the share group (KIP-932)'s target assignment was computed for.

    Fields:
        assignment_epoch: The group epoch this target assignment was computed for. (versions 0+)
        assignment_timestamp: When the computation of this target assignment finished (ms since the epoch; Kafka 4.3, KIP-1263), 0 when not written. (versions 0+, tagged 0 in 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    assignment_epoch: int = 0
    assignment_timestamp: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_share_group_target_assignment_metadata_value_v0(
    buf, pos: int, end: int
) -> tuple[ShareGroupTargetAssignmentMetadataValue, int]:
    """Read a ShareGroupTargetAssignmentMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated(
            "ShareGroupTargetAssignmentMetadataValue v0 ShareGroupTargetAssignmentMetadataValue.assignment_epoch",
            pos,
            4,
            end,
        )
    (f_assignment_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_assignment_timestamp = 0
    n, pos = read_uvarint(
        buf,
        pos,
        end,
        "ShareGroupTargetAssignmentMetadataValue v0 ShareGroupTargetAssignmentMetadataValue tagged fields",
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf,
            pos,
            end,
            "ShareGroupTargetAssignmentMetadataValue v0 ShareGroupTargetAssignmentMetadataValue tagged fields",
        )
        if tag in seen:
            raise repeated_tag(
                "ShareGroupTargetAssignmentMetadataValue v0 ShareGroupTargetAssignmentMetadataValue tagged fields",
                tag,
                pos,
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 8:
                raise truncated(
                    "ShareGroupTargetAssignmentMetadataValue v0 ShareGroupTargetAssignmentMetadataValue.assignment_timestamp",
                    pos,
                    8,
                    stop,
                )
            (f_assignment_timestamp,) = _S1.unpack_from(buf, pos)
            pos += 8
            if pos != stop:
                raise tagged_size_mismatch(
                    "ShareGroupTargetAssignmentMetadataValue v0 ShareGroupTargetAssignmentMetadataValue tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return ShareGroupTargetAssignmentMetadataValue(f_assignment_epoch, f_assignment_timestamp, unknown), pos


def _write_share_group_target_assignment_metadata_value_v0(
    v: ShareGroupTargetAssignmentMetadataValue, out: list
) -> None:
    """Append the bytes of a ShareGroupTargetAssignmentMetadataValue v0 to ``out``."""
    out.append(_S0.pack(v.assignment_epoch))
    tags = list(v.unknown_tagged_fields)
    if v.assignment_timestamp != 0:
        outer, out = out, []
        out.append(_S1.pack(v.assignment_timestamp))
        tags.append((0, b"".join(out)))
        out = outer
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
