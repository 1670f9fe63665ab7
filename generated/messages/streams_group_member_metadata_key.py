"""StreamsGroupMemberMetadataKey, versions 19: The key of one streams group member's metadata (KIP-1071): group and member ids.

Generated from schemas/messages/streams_group_member_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/streams_group_member_metadata_key.yaml"
NAME = "StreamsGroupMemberMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (19,)
VERSIONS = [19]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "StreamsGroupMemberMetadataValue"


# -- typed values ---------------------------------------------------------------


class StreamsGroupMemberMetadataKey(NamedTuple):
    """The key of one streams group member's metadata (KIP-1071): group and member ids.

    Fields:
        group_id: Group id. (versions 19)
        member_id: Member id. (versions 19)
    """

    group_id: str = ""
    member_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_streams_group_member_metadata_key_v19(
    buf, pos: int, end: int
) -> tuple[StreamsGroupMemberMetadataKey, int]:
    """Read a StreamsGroupMemberMetadataKey v19 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupMemberMetadataKey v19 StreamsGroupMemberMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    f_member_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupMemberMetadataKey v19 StreamsGroupMemberMetadataKey.member_id",
        compact=False,
        nullable=False,
    )
    return StreamsGroupMemberMetadataKey(f_group_id, f_member_id), pos


def _write_streams_group_member_metadata_key_v19(v: StreamsGroupMemberMetadataKey, out: list) -> None:
    """Append the bytes of a StreamsGroupMemberMetadataKey v19 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "StreamsGroupMemberMetadataKey v19 StreamsGroupMemberMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.member_id,
            "StreamsGroupMemberMetadataKey v19 StreamsGroupMemberMetadataKey.member_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    19: _read_streams_group_member_metadata_key_v19,
}
_WRITERS = {
    19: _write_streams_group_member_metadata_key_v19,
}


def decode_streams_group_member_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupMemberMetadataKey, int]:
    """Decode a StreamsGroupMemberMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupMemberMetadataKey: unknown version {version} (this schema has versions 19)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_member_metadata_key(value: StreamsGroupMemberMetadataKey, version: int) -> bytes:
    """Encode ``value`` as StreamsGroupMemberMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"StreamsGroupMemberMetadataKey: unknown version {version} (this schema has versions 19)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupMemberMetadataKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
