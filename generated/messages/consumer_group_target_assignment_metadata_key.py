"""ConsumerGroupTargetAssignmentMetadataKey, versions 6: The key of a consumer group (KIP-848)'s target assignment: the group id.

Generated from schemas/messages/consumer_group_target_assignment_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_group_target_assignment_metadata_key.yaml"
NAME = "ConsumerGroupTargetAssignmentMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (6,)
VERSIONS = [6]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ConsumerGroupTargetAssignmentMetadataValue"


# -- typed values ---------------------------------------------------------------


class ConsumerGroupTargetAssignmentMetadataKey(NamedTuple):
    """The key of a consumer group (KIP-848)'s target assignment: the group id.

    Fields:
        group_id: Group id. (versions 6)
    """

    group_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_consumer_group_target_assignment_metadata_key_v6(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupTargetAssignmentMetadataKey, int]:
    """Read a ConsumerGroupTargetAssignmentMetadataKey v6 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupTargetAssignmentMetadataKey v6 ConsumerGroupTargetAssignmentMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    return ConsumerGroupTargetAssignmentMetadataKey(f_group_id), pos


def _write_consumer_group_target_assignment_metadata_key_v6(
    v: ConsumerGroupTargetAssignmentMetadataKey, out: list
) -> None:
    """Append the bytes of a ConsumerGroupTargetAssignmentMetadataKey v6 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ConsumerGroupTargetAssignmentMetadataKey v6 ConsumerGroupTargetAssignmentMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    6: _read_consumer_group_target_assignment_metadata_key_v6,
}
_WRITERS = {
    6: _write_consumer_group_target_assignment_metadata_key_v6,
}


def decode_consumer_group_target_assignment_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupTargetAssignmentMetadataKey, int]:
    """Decode a ConsumerGroupTargetAssignmentMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 6)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_target_assignment_metadata_key(
    value: ConsumerGroupTargetAssignmentMetadataKey, version: int
) -> bytes:
    """Encode ``value`` as ConsumerGroupTargetAssignmentMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 6)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupTargetAssignmentMetadataKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
