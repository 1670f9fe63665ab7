"""ConsumerGroupMemberMetadataKey, versions 5: The key of one member of a consumer group (KIP-848): group id and member id.

Generated from schemas/messages/consumer_group_member_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_group_member_metadata_key.yaml"
NAME = "ConsumerGroupMemberMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (5,)
VERSIONS = [5]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ConsumerGroupMemberMetadataValue"


# -- typed values ---------------------------------------------------------------


class ConsumerGroupMemberMetadataKey(NamedTuple):
    """The key of one member of a consumer group (KIP-848): group id and member id.

    Fields:
        group_id: Group id. (versions 5)
        member_id: Member id the coordinator gave the member. (versions 5)
    """

    group_id: str = ""
    member_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_consumer_group_member_metadata_key_v5(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupMemberMetadataKey, int]:
    """Read a ConsumerGroupMemberMetadataKey v5 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataKey v5 ConsumerGroupMemberMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    f_member_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataKey v5 ConsumerGroupMemberMetadataKey.member_id",
        compact=False,
        nullable=False,
    )
    return ConsumerGroupMemberMetadataKey(f_group_id, f_member_id), pos


def _write_consumer_group_member_metadata_key_v5(v: ConsumerGroupMemberMetadataKey, out: list) -> None:
    """Append the bytes of a ConsumerGroupMemberMetadataKey v5 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ConsumerGroupMemberMetadataKey v5 ConsumerGroupMemberMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.member_id,
            "ConsumerGroupMemberMetadataKey v5 ConsumerGroupMemberMetadataKey.member_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    5: _read_consumer_group_member_metadata_key_v5,
}
_WRITERS = {
    5: _write_consumer_group_member_metadata_key_v5,
}


def decode_consumer_group_member_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupMemberMetadataKey, int]:
    """Decode a ConsumerGroupMemberMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupMemberMetadataKey: unknown version {version} (this schema has versions 5)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_member_metadata_key(value: ConsumerGroupMemberMetadataKey, version: int) -> bytes:
    """Encode ``value`` as ConsumerGroupMemberMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupMemberMetadataKey: unknown version {version} (this schema has versions 5)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupMemberMetadataKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
