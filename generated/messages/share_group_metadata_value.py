"""ShareGroupMetadataValue, versions 0 (flexible: 0+): The epoch of a share group (KIP-932): bumped whenever its membership or subscriptions change.

Generated from schemas/messages/share_group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_metadata_value.yaml"
NAME = "ShareGroupMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (11,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = "4.1+"
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">iq")

# -- typed values ---------------------------------------------------------------


class ShareGroupMetadataValue(NamedTuple):
    """The epoch of a share group (KIP-932): bumped whenever its membership or subscriptions change.

    Fields:
        epoch: The group epoch. (versions 0+)
        metadata_hash: Hash over the metadata of the topics the group subscribes to (Kafka 4.1+); a change asks for a new assignment. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    epoch: int = 0
    metadata_hash: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_share_group_metadata_value_v0(buf, pos: int, end: int) -> tuple[ShareGroupMetadataValue, int]:
    """Read a ShareGroupMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated("ShareGroupMetadataValue v0 ShareGroupMetadataValue.epoch", pos, 12, end)
    (
        f_epoch,
        f_metadata_hash,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ShareGroupMetadataValue v0 ShareGroupMetadataValue tagged fields"
    )
    return ShareGroupMetadataValue(f_epoch, f_metadata_hash, unknown), pos


def _write_share_group_metadata_value_v0(v: ShareGroupMetadataValue, out: list) -> None:
    """Append the bytes of a ShareGroupMetadataValue v0 to ``out``."""
    out.append(_S0.pack(v.epoch, v.metadata_hash))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_group_metadata_value_v0,
}
_WRITERS = {
    0: _write_share_group_metadata_value_v0,
}


def decode_share_group_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupMetadataValue, int]:
    """Decode a ShareGroupMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupMetadataValue: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_metadata_value(value: ShareGroupMetadataValue, version: int) -> bytes:
    """Encode ``value`` as ShareGroupMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ShareGroupMetadataValue: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupMetadataValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
