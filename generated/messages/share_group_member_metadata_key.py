"""ShareGroupMemberMetadataKey, versions 10: The key of one member of a share group (KIP-932): group id and member id.

Generated from schemas/messages/share_group_member_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_member_metadata_key.yaml"
NAME = "ShareGroupMemberMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (10,)
VERSIONS = [10]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ShareGroupMemberMetadataValue"


# -- typed values ---------------------------------------------------------------


class ShareGroupMemberMetadataKey(NamedTuple):
    """The key of one member of a share group (KIP-932): group id and member id.

    Fields:
        group_id: Group id. (versions 10)
        member_id: Member id the coordinator gave the member. (versions 10)
    """

    group_id: str = ""
    member_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_share_group_member_metadata_key_v10(
    buf, pos: int, end: int
) -> tuple[ShareGroupMemberMetadataKey, int]:
    """Read a ShareGroupMemberMetadataKey v10 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupMemberMetadataKey v10 ShareGroupMemberMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    f_member_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupMemberMetadataKey v10 ShareGroupMemberMetadataKey.member_id",
        compact=False,
        nullable=False,
    )
    return ShareGroupMemberMetadataKey(f_group_id, f_member_id), pos


def _write_share_group_member_metadata_key_v10(v: ShareGroupMemberMetadataKey, out: list) -> None:
    """Append the bytes of a ShareGroupMemberMetadataKey v10 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ShareGroupMemberMetadataKey v10 ShareGroupMemberMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.member_id,
            "ShareGroupMemberMetadataKey v10 ShareGroupMemberMetadataKey.member_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    10: _read_share_group_member_metadata_key_v10,
}
_WRITERS = {
    10: _write_share_group_member_metadata_key_v10,
}


def decode_share_group_member_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupMemberMetadataKey, int]:
    """Decode a ShareGroupMemberMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupMemberMetadataKey: unknown version {version} (this schema has versions 10)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_member_metadata_key(value: ShareGroupMemberMetadataKey, version: int) -> bytes:
    """Encode ``value`` as ShareGroupMemberMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupMemberMetadataKey: unknown version {version} (this schema has versions 10)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupMemberMetadataKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
