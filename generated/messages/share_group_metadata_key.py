"""ShareGroupMetadataKey, versions 11: The key of a share group (KIP-932)'s metadata: the group id.

Generated from schemas/messages/share_group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_metadata_key.yaml"
NAME = "ShareGroupMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (11,)
VERSIONS = [11]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ShareGroupMetadataValue"


# -- typed values ---------------------------------------------------------------


class ShareGroupMetadataKey(NamedTuple):
    """The key of a share group (KIP-932)'s metadata: the group id.

    Fields:
        group_id: Group id. (versions 11)
    """

    group_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_share_group_metadata_key_v11(buf, pos: int, end: int) -> tuple[ShareGroupMetadataKey, int]:
    """Read a ShareGroupMetadataKey v11 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupMetadataKey v11 ShareGroupMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    return ShareGroupMetadataKey(f_group_id), pos


def _write_share_group_metadata_key_v11(v: ShareGroupMetadataKey, out: list) -> None:
    """Append the bytes of a ShareGroupMetadataKey v11 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ShareGroupMetadataKey v11 ShareGroupMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    11: _read_share_group_metadata_key_v11,
}
_WRITERS = {
    11: _write_share_group_metadata_key_v11,
}


def decode_share_group_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupMetadataKey, int]:
    """Decode a ShareGroupMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupMetadataKey: unknown version {version} (this schema has versions 11)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_metadata_key(value: ShareGroupMetadataKey, version: int) -> bytes:
    """Encode ``value`` as ShareGroupMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ShareGroupMetadataKey: unknown version {version} (this schema has versions 11)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"ShareGroupMetadataKey v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
