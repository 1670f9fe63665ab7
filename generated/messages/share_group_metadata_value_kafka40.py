"""ShareGroupMetadataValueKafka40, versions 0 (flexible: 0+): ShareGroupMetadataValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: the epoch alone, without the metadata hash 4.1 put after it.

Generated from schemas/messages/share_group_metadata_value_kafka40.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_metadata_value_kafka40.yaml"
NAME = "ShareGroupMetadataValueKafka40"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (11,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = "4.0"
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = "ShareGroupMetadataValue"

_S0 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class ShareGroupMetadataValueKafka40(NamedTuple):
    """ShareGroupMetadataValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: the epoch alone, without the metadata hash 4.1 put after it.

    Fields:
        epoch: The group epoch. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    epoch: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_share_group_metadata_value_kafka40_v0(
    buf, pos: int, end: int
) -> tuple[ShareGroupMetadataValueKafka40, int]:
    """Read a ShareGroupMetadataValueKafka40 v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("ShareGroupMetadataValueKafka40 v0 ShareGroupMetadataValueKafka40.epoch", pos, 4, end)
    (f_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ShareGroupMetadataValueKafka40 v0 ShareGroupMetadataValueKafka40 tagged fields"
    )
    return ShareGroupMetadataValueKafka40(f_epoch, unknown), pos


def _write_share_group_metadata_value_kafka40_v0(v: ShareGroupMetadataValueKafka40, out: list) -> None:
    """Append the bytes of a ShareGroupMetadataValueKafka40 v0 to ``out``."""
    out.append(_S0.pack(v.epoch))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_group_metadata_value_kafka40_v0,
}
_WRITERS = {
    0: _write_share_group_metadata_value_kafka40_v0,
}


def decode_share_group_metadata_value_kafka40(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupMetadataValueKafka40, int]:
    """Decode a ShareGroupMetadataValueKafka40 of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupMetadataValueKafka40: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_metadata_value_kafka40(value: ShareGroupMetadataValueKafka40, version: int) -> bytes:
    """Encode ``value`` as ShareGroupMetadataValueKafka40 ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupMetadataValueKafka40: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupMetadataValueKafka40 v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
