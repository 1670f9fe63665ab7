"""ShareUpdateValueKafka40, versions 0 (flexible: 0+): ShareUpdateValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: an unsigned 16-bit snapshot epoch.

Generated from schemas/messages/share_update_value_kafka40.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    encode_count,
    encode_tagged,
    read_count,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_update_value_kafka40.yaml"
NAME = "ShareUpdateValueKafka40"
FAMILY = "share"
#: the key versions (record types) of __share_group_state that select this key
TYPE_IDS = (1,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = "4.0"
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = "ShareUpdateValue"

_S0 = struct.Struct(">qqbh")
_S1 = struct.Struct(">Hiq")

# -- typed values ---------------------------------------------------------------


class StateBatch(NamedTuple):
    """A run of offsets in one delivery state.

    Fields:
        first_offset: First offset of the run. (versions 0+)
        last_offset: Last offset of the run (inclusive). (versions 0+)
        delivery_state: Delivery state of its records: 0 available, 2 acknowledged, 4 archived. (versions 0+)
        delivery_count: How many times its records have been delivered. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    first_offset: int = 0
    last_offset: int = 0
    delivery_state: int = 0
    delivery_count: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ShareUpdateValueKafka40(NamedTuple):
    """ShareUpdateValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: an unsigned 16-bit snapshot epoch.

    Fields:
        snapshot_epoch: Snapshot epoch of the state this update applies to (unsigned 16 bits in Kafka 4.0). (versions 0+)
        leader_epoch: Leader epoch of the partition when the update was written. (versions 0+)
        start_offset: New share-partition start offset, or -1 when the update leaves it as it is. (versions 0+)
        state_batches: The runs of offsets whose delivery state changed. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    snapshot_epoch: int = 0
    leader_epoch: int = 0
    start_offset: int = 0
    state_batches: list[StateBatch] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_state_batch_v0(buf, pos: int, end: int) -> tuple[StateBatch, int]:
    """Read a StateBatch of ShareUpdateValueKafka40 v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 19:
        raise truncated("ShareUpdateValueKafka40 v0 StateBatch.first_offset", pos, 19, end)
    (
        f_first_offset,
        f_last_offset,
        f_delivery_state,
        f_delivery_count,
    ) = _S0.unpack_from(buf, pos)
    pos += 19
    unknown, pos = read_unknown_tags(buf, pos, end, "ShareUpdateValueKafka40 v0 StateBatch tagged fields")
    return StateBatch(f_first_offset, f_last_offset, f_delivery_state, f_delivery_count, unknown), pos


def _write_state_batch_v0(v: StateBatch, out: list) -> None:
    """Append the bytes of a StateBatch of ShareUpdateValueKafka40 v0 to ``out``."""
    out.append(_S0.pack(v.first_offset, v.last_offset, v.delivery_state, v.delivery_count))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_share_update_value_kafka40_v0(buf, pos: int, end: int) -> tuple[ShareUpdateValueKafka40, int]:
    """Read a ShareUpdateValueKafka40 v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 14:
        raise truncated("ShareUpdateValueKafka40 v0 ShareUpdateValueKafka40.snapshot_epoch", pos, 14, end)
    (
        f_snapshot_epoch,
        f_leader_epoch,
        f_start_offset,
    ) = _S1.unpack_from(buf, pos)
    pos += 14
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareUpdateValueKafka40 v0 ShareUpdateValueKafka40.state_batches",
        compact=True,
        nullable=False,
        min_size=20,
    )
    f_state_batches = []
    append = f_state_batches.append
    for _ in range(n):
        item, pos = _read_state_batch_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ShareUpdateValueKafka40 v0 ShareUpdateValueKafka40 tagged fields"
    )
    return ShareUpdateValueKafka40(
        f_snapshot_epoch, f_leader_epoch, f_start_offset, f_state_batches, unknown
    ), pos


def _write_share_update_value_kafka40_v0(v: ShareUpdateValueKafka40, out: list) -> None:
    """Append the bytes of a ShareUpdateValueKafka40 v0 to ``out``."""
    out.append(_S1.pack(v.snapshot_epoch, v.leader_epoch, v.start_offset))
    out.append(
        encode_count(
            v.state_batches,
            "ShareUpdateValueKafka40 v0 ShareUpdateValueKafka40.state_batches",
            compact=True,
            nullable=False,
        )
    )
    for item in v.state_batches:
        _write_state_batch_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_update_value_kafka40_v0,
}
_WRITERS = {
    0: _write_share_update_value_kafka40_v0,
}


def decode_share_update_value_kafka40(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareUpdateValueKafka40, int]:
    """Decode a ShareUpdateValueKafka40 of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareUpdateValueKafka40: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_update_value_kafka40(value: ShareUpdateValueKafka40, version: int) -> bytes:
    """Encode ``value`` as ShareUpdateValueKafka40 ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ShareUpdateValueKafka40: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareUpdateValueKafka40 v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
