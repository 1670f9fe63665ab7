"""ShareUpdateValue, versions 0 (flexible: 0+): A change to a share-partition's state since its last snapshot (KIP-932): the runs of offsets whose delivery state changed, merged into the state by the share coordinator. A null value (tombstone) deletes it.

Generated from schemas/messages/share_update_value.yaml by codegen. DO NOT EDIT.
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
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_update_value.yaml"
NAME = "ShareUpdateValue"
FAMILY = "share"
#: the key versions (record types) of __share_group_state that select this key
TYPE_IDS = (1,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = "4.1+"
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">qqbh")
_S1 = struct.Struct(">iiq")
_S2 = struct.Struct(">i")

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


class ShareUpdateValue(NamedTuple):
    """A change to a share-partition's state since its last snapshot (KIP-932): the runs of offsets whose delivery state changed, merged into the state by the share coordinator. A null value (tombstone) deletes it.

    Fields:
        snapshot_epoch: Snapshot epoch of the state this update applies to. (versions 0+)
        leader_epoch: Leader epoch of the partition when the update was written. (versions 0+)
        start_offset: New share-partition start offset, or -1 when the update leaves it as it is. (versions 0+)
        delivery_complete_count: How many offsets at or after the start offset are done with (Kafka 4.2+, KIP-1226), or -1. (versions 0+, tagged 0 in 0+)
        state_batches: The runs of offsets whose delivery state changed. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    snapshot_epoch: int = 0
    leader_epoch: int = 0
    start_offset: int = 0
    delivery_complete_count: int = -1
    state_batches: list[StateBatch] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_state_batch_v0(buf, pos: int, end: int) -> tuple[StateBatch, int]:
    """Read a StateBatch of ShareUpdateValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 19:
        raise truncated("ShareUpdateValue v0 StateBatch.first_offset", pos, 19, end)
    (
        f_first_offset,
        f_last_offset,
        f_delivery_state,
        f_delivery_count,
    ) = _S0.unpack_from(buf, pos)
    pos += 19
    unknown, pos = read_unknown_tags(buf, pos, end, "ShareUpdateValue v0 StateBatch tagged fields")
    return StateBatch(f_first_offset, f_last_offset, f_delivery_state, f_delivery_count, unknown), pos


def _write_state_batch_v0(v: StateBatch, out: list) -> None:
    """Append the bytes of a StateBatch of ShareUpdateValue v0 to ``out``."""
    out.append(_S0.pack(v.first_offset, v.last_offset, v.delivery_state, v.delivery_count))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_share_update_value_v0(buf, pos: int, end: int) -> tuple[ShareUpdateValue, int]:
    """Read a ShareUpdateValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 16:
        raise truncated("ShareUpdateValue v0 ShareUpdateValue.snapshot_epoch", pos, 16, end)
    (
        f_snapshot_epoch,
        f_leader_epoch,
        f_start_offset,
    ) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareUpdateValue v0 ShareUpdateValue.state_batches",
        compact=True,
        nullable=False,
        min_size=20,
    )
    f_state_batches = []
    append = f_state_batches.append
    for _ in range(n):
        item, pos = _read_state_batch_v0(buf, pos, end)
        append(item)
    f_delivery_complete_count = -1
    n, pos = read_uvarint(buf, pos, end, "ShareUpdateValue v0 ShareUpdateValue tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(buf, pos, end, "ShareUpdateValue v0 ShareUpdateValue tagged fields")
        if tag in seen:
            raise repeated_tag("ShareUpdateValue v0 ShareUpdateValue tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 4:
                raise truncated("ShareUpdateValue v0 ShareUpdateValue.delivery_complete_count", pos, 4, stop)
            (f_delivery_complete_count,) = _S2.unpack_from(buf, pos)
            pos += 4
            if pos != stop:
                raise tagged_size_mismatch(
                    "ShareUpdateValue v0 ShareUpdateValue tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return ShareUpdateValue(
        f_snapshot_epoch, f_leader_epoch, f_start_offset, f_delivery_complete_count, f_state_batches, unknown
    ), pos


def _write_share_update_value_v0(v: ShareUpdateValue, out: list) -> None:
    """Append the bytes of a ShareUpdateValue v0 to ``out``."""
    out.append(_S1.pack(v.snapshot_epoch, v.leader_epoch, v.start_offset))
    out.append(
        encode_count(
            v.state_batches,
            "ShareUpdateValue v0 ShareUpdateValue.state_batches",
            compact=True,
            nullable=False,
        )
    )
    for item in v.state_batches:
        _write_state_batch_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    if v.delivery_complete_count != -1:
        outer, out = out, []
        out.append(_S2.pack(v.delivery_complete_count))
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_update_value_v0,
}
_WRITERS = {
    0: _write_share_update_value_v0,
}


def decode_share_update_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareUpdateValue, int]:
    """Decode a ShareUpdateValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareUpdateValue: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_update_value(value: ShareUpdateValue, version: int) -> bytes:
    """Encode ``value`` as ShareUpdateValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ShareUpdateValue: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"ShareUpdateValue v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
