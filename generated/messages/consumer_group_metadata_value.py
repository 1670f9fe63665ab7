"""ConsumerGroupMetadataValue, versions 0 (flexible: 0+): The epoch of a consumer group (KIP-848): bumped whenever its membership or subscriptions change.

Generated from schemas/messages/consumer_group_metadata_value.yaml by codegen. DO NOT EDIT.
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

SCHEMA = "schemas/messages/consumer_group_metadata_value.yaml"
NAME = "ConsumerGroupMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (3,)
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


class ConsumerGroupMetadataValue(NamedTuple):
    """The epoch of a consumer group (KIP-848): bumped whenever its membership or subscriptions change.

    Fields:
        epoch: The group epoch. (versions 0+)
        metadata_hash: Hash over the metadata of the topics the group subscribes to (Kafka 4.1, KIP-1101); a change asks for a rebalance. 0 when not written. (versions 0+, tagged 0 in 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    epoch: int = 0
    metadata_hash: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_consumer_group_metadata_value_v0(buf, pos: int, end: int) -> tuple[ConsumerGroupMetadataValue, int]:
    """Read a ConsumerGroupMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("ConsumerGroupMetadataValue v0 ConsumerGroupMetadataValue.epoch", pos, 4, end)
    (f_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_metadata_hash = 0
    n, pos = read_uvarint(
        buf, pos, end, "ConsumerGroupMetadataValue v0 ConsumerGroupMetadataValue tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "ConsumerGroupMetadataValue v0 ConsumerGroupMetadataValue tagged fields"
        )
        if tag in seen:
            raise repeated_tag(
                "ConsumerGroupMetadataValue v0 ConsumerGroupMetadataValue tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 8:
                raise truncated(
                    "ConsumerGroupMetadataValue v0 ConsumerGroupMetadataValue.metadata_hash", pos, 8, stop
                )
            (f_metadata_hash,) = _S1.unpack_from(buf, pos)
            pos += 8
            if pos != stop:
                raise tagged_size_mismatch(
                    "ConsumerGroupMetadataValue v0 ConsumerGroupMetadataValue tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return ConsumerGroupMetadataValue(f_epoch, f_metadata_hash, unknown), pos


def _write_consumer_group_metadata_value_v0(v: ConsumerGroupMetadataValue, out: list) -> None:
    """Append the bytes of a ConsumerGroupMetadataValue v0 to ``out``."""
    out.append(_S0.pack(v.epoch))
    tags = list(v.unknown_tagged_fields)
    if v.metadata_hash != 0:
        outer, out = out, []
        out.append(_S1.pack(v.metadata_hash))
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_consumer_group_metadata_value_v0,
}
_WRITERS = {
    0: _write_consumer_group_metadata_value_v0,
}


def decode_consumer_group_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupMetadataValue, int]:
    """Decode a ConsumerGroupMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupMetadataValue: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_metadata_value(value: ConsumerGroupMetadataValue, version: int) -> bytes:
    """Encode ``value`` as ConsumerGroupMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupMetadataValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupMetadataValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
