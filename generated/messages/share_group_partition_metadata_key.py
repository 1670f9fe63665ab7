"""ShareGroupPartitionMetadataKey, versions 9: The key of the topic metadata a share group (KIP-932) subscribes to: the group id.

Generated from schemas/messages/share_group_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_partition_metadata_key.yaml"
NAME = "ShareGroupPartitionMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (9,)
VERSIONS = [9]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "removed"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = "4.0"
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ShareGroupPartitionMetadataValue"


# -- typed values ---------------------------------------------------------------


class ShareGroupPartitionMetadataKey(NamedTuple):
    """The key of the topic metadata a share group (KIP-932) subscribes to: the group id.

    Fields:
        group_id: Group id. (versions 9)
    """

    group_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_share_group_partition_metadata_key_v9(
    buf, pos: int, end: int
) -> tuple[ShareGroupPartitionMetadataKey, int]:
    """Read a ShareGroupPartitionMetadataKey v9 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupPartitionMetadataKey v9 ShareGroupPartitionMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    return ShareGroupPartitionMetadataKey(f_group_id), pos


def _write_share_group_partition_metadata_key_v9(v: ShareGroupPartitionMetadataKey, out: list) -> None:
    """Append the bytes of a ShareGroupPartitionMetadataKey v9 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ShareGroupPartitionMetadataKey v9 ShareGroupPartitionMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    9: _read_share_group_partition_metadata_key_v9,
}
_WRITERS = {
    9: _write_share_group_partition_metadata_key_v9,
}


def decode_share_group_partition_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupPartitionMetadataKey, int]:
    """Decode a ShareGroupPartitionMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupPartitionMetadataKey: unknown version {version} (this schema has versions 9)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_partition_metadata_key(value: ShareGroupPartitionMetadataKey, version: int) -> bytes:
    """Encode ``value`` as ShareGroupPartitionMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupPartitionMetadataKey: unknown version {version} (this schema has versions 9)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupPartitionMetadataKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
