"""StreamsGroupTargetAssignmentMetadataKey, versions 20: The key of a streams group's target assignment epoch (KIP-1071): the group id.

Generated from schemas/messages/streams_group_target_assignment_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/streams_group_target_assignment_metadata_key.yaml"
NAME = "StreamsGroupTargetAssignmentMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (20,)
VERSIONS = [20]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "StreamsGroupTargetAssignmentMetadataValue"


# -- typed values ---------------------------------------------------------------


class StreamsGroupTargetAssignmentMetadataKey(NamedTuple):
    """The key of a streams group's target assignment epoch (KIP-1071): the group id.

    Fields:
        group_id: Group id. (versions 20)
    """

    group_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_streams_group_target_assignment_metadata_key_v20(
    buf, pos: int, end: int
) -> tuple[StreamsGroupTargetAssignmentMetadataKey, int]:
    """Read a StreamsGroupTargetAssignmentMetadataKey v20 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupTargetAssignmentMetadataKey v20 StreamsGroupTargetAssignmentMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    return StreamsGroupTargetAssignmentMetadataKey(f_group_id), pos


def _write_streams_group_target_assignment_metadata_key_v20(
    v: StreamsGroupTargetAssignmentMetadataKey, out: list
) -> None:
    """Append the bytes of a StreamsGroupTargetAssignmentMetadataKey v20 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "StreamsGroupTargetAssignmentMetadataKey v20 StreamsGroupTargetAssignmentMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    20: _read_streams_group_target_assignment_metadata_key_v20,
}
_WRITERS = {
    20: _write_streams_group_target_assignment_metadata_key_v20,
}


def decode_streams_group_target_assignment_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupTargetAssignmentMetadataKey, int]:
    """Decode a StreamsGroupTargetAssignmentMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 20)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_target_assignment_metadata_key(
    value: StreamsGroupTargetAssignmentMetadataKey, version: int
) -> bytes:
    """Encode ``value`` as StreamsGroupTargetAssignmentMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"StreamsGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 20)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupTargetAssignmentMetadataKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
