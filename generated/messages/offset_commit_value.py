"""OffsetCommitValue, versions 0-4 (flexible: 4+): A committed offset of a group for one partition, with its metadata string and timestamps. A null value (tombstone) deletes the commit.

Generated from schemas/messages/offset_commit_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    ZERO_UUID,
    absent,
    encode_string,
    encode_tagged,
    read_string,
    read_tag_header,
    read_uuid,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/offset_commit_value.yaml"
NAME = "OffsetCommitValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (0, 1)
VERSIONS = [0, 1, 2, 3, 4]
FLEXIBLE_VERSIONS = [4]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">q")
_S1 = struct.Struct(">qq")
_S2 = struct.Struct(">qi")

# -- typed values ---------------------------------------------------------------


class OffsetCommitValue(NamedTuple):
    """A committed offset of a group for one partition, with its metadata string and timestamps. A null value (tombstone) deletes the commit.

    Fields:
        offset: The committed offset: the next record the group will read. (versions 0+)
        leader_epoch: Leader epoch of the last record consumed, or -1 when unknown. (versions 3+)
        metadata: Free text the consumer stored with the commit. (versions 0+)
        commit_timestamp: When the offset was committed (ms). (versions 0+)
        expire_timestamp: When the commit expires (ms), kept in version 1 only; -1 when not set. (versions 1)
        topic_id: Id of the committed partition's topic (Kafka 4.1+), the zero uuid when not written. (versions 4+, tagged 0 in 4+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    offset: int = 0
    leader_epoch: int = -1
    metadata: str = ""
    commit_timestamp: int = 0
    expire_timestamp: int = -1
    topic_id: UUID = ZERO_UUID
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_offset_commit_value_v0(buf, pos: int, end: int) -> tuple[OffsetCommitValue, int]:
    """Read an OffsetCommitValue v0/v2 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 8:
        raise truncated("OffsetCommitValue v0/v2 OffsetCommitValue.offset", pos, 8, end)
    (f_offset,) = _S0.unpack_from(buf, pos)
    pos += 8
    f_metadata, pos = read_string(
        buf, pos, end, "OffsetCommitValue v0/v2 OffsetCommitValue.metadata", compact=False, nullable=False
    )
    if end - pos < 8:
        raise truncated("OffsetCommitValue v0/v2 OffsetCommitValue.commit_timestamp", pos, 8, end)
    (f_commit_timestamp,) = _S0.unpack_from(buf, pos)
    pos += 8
    return OffsetCommitValue(f_offset, -1, f_metadata, f_commit_timestamp, -1, ZERO_UUID, ()), pos


def _write_offset_commit_value_v0(v: OffsetCommitValue, out: list) -> None:
    """Append the bytes of an OffsetCommitValue v0/v2 to ``out``."""
    absent(v.leader_epoch, -1, "OffsetCommitValue v0/v2 OffsetCommitValue.leader_epoch")
    absent(v.expire_timestamp, -1, "OffsetCommitValue v0/v2 OffsetCommitValue.expire_timestamp")
    absent(v.topic_id, ZERO_UUID, "OffsetCommitValue v0/v2 OffsetCommitValue.topic_id")
    absent(v.unknown_tagged_fields, (), "OffsetCommitValue v0/v2 OffsetCommitValue tagged fields")
    out.append(_S0.pack(v.offset))
    out.append(
        encode_string(
            v.metadata, "OffsetCommitValue v0/v2 OffsetCommitValue.metadata", compact=False, nullable=False
        )
    )
    out.append(_S0.pack(v.commit_timestamp))


def _read_offset_commit_value_v1(buf, pos: int, end: int) -> tuple[OffsetCommitValue, int]:
    """Read an OffsetCommitValue v1 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 8:
        raise truncated("OffsetCommitValue v1 OffsetCommitValue.offset", pos, 8, end)
    (f_offset,) = _S0.unpack_from(buf, pos)
    pos += 8
    f_metadata, pos = read_string(
        buf, pos, end, "OffsetCommitValue v1 OffsetCommitValue.metadata", compact=False, nullable=False
    )
    if end - pos < 16:
        raise truncated("OffsetCommitValue v1 OffsetCommitValue.commit_timestamp", pos, 16, end)
    (
        f_commit_timestamp,
        f_expire_timestamp,
    ) = _S1.unpack_from(buf, pos)
    pos += 16
    return OffsetCommitValue(
        f_offset, -1, f_metadata, f_commit_timestamp, f_expire_timestamp, ZERO_UUID, ()
    ), pos


def _write_offset_commit_value_v1(v: OffsetCommitValue, out: list) -> None:
    """Append the bytes of an OffsetCommitValue v1 to ``out``."""
    absent(v.leader_epoch, -1, "OffsetCommitValue v1 OffsetCommitValue.leader_epoch")
    absent(v.topic_id, ZERO_UUID, "OffsetCommitValue v1 OffsetCommitValue.topic_id")
    absent(v.unknown_tagged_fields, (), "OffsetCommitValue v1 OffsetCommitValue tagged fields")
    out.append(_S0.pack(v.offset))
    out.append(
        encode_string(
            v.metadata, "OffsetCommitValue v1 OffsetCommitValue.metadata", compact=False, nullable=False
        )
    )
    out.append(_S1.pack(v.commit_timestamp, v.expire_timestamp))


def _read_offset_commit_value_v3(buf, pos: int, end: int) -> tuple[OffsetCommitValue, int]:
    """Read an OffsetCommitValue v3 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated("OffsetCommitValue v3 OffsetCommitValue.offset", pos, 12, end)
    (
        f_offset,
        f_leader_epoch,
    ) = _S2.unpack_from(buf, pos)
    pos += 12
    f_metadata, pos = read_string(
        buf, pos, end, "OffsetCommitValue v3 OffsetCommitValue.metadata", compact=False, nullable=False
    )
    if end - pos < 8:
        raise truncated("OffsetCommitValue v3 OffsetCommitValue.commit_timestamp", pos, 8, end)
    (f_commit_timestamp,) = _S0.unpack_from(buf, pos)
    pos += 8
    return OffsetCommitValue(f_offset, f_leader_epoch, f_metadata, f_commit_timestamp, -1, ZERO_UUID, ()), pos


def _write_offset_commit_value_v3(v: OffsetCommitValue, out: list) -> None:
    """Append the bytes of an OffsetCommitValue v3 to ``out``."""
    absent(v.expire_timestamp, -1, "OffsetCommitValue v3 OffsetCommitValue.expire_timestamp")
    absent(v.topic_id, ZERO_UUID, "OffsetCommitValue v3 OffsetCommitValue.topic_id")
    absent(v.unknown_tagged_fields, (), "OffsetCommitValue v3 OffsetCommitValue tagged fields")
    out.append(_S2.pack(v.offset, v.leader_epoch))
    out.append(
        encode_string(
            v.metadata, "OffsetCommitValue v3 OffsetCommitValue.metadata", compact=False, nullable=False
        )
    )
    out.append(_S0.pack(v.commit_timestamp))


def _read_offset_commit_value_v4(buf, pos: int, end: int) -> tuple[OffsetCommitValue, int]:
    """Read an OffsetCommitValue v4 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated("OffsetCommitValue v4 OffsetCommitValue.offset", pos, 12, end)
    (
        f_offset,
        f_leader_epoch,
    ) = _S2.unpack_from(buf, pos)
    pos += 12
    f_metadata, pos = read_string(
        buf, pos, end, "OffsetCommitValue v4 OffsetCommitValue.metadata", compact=True, nullable=False
    )
    if end - pos < 8:
        raise truncated("OffsetCommitValue v4 OffsetCommitValue.commit_timestamp", pos, 8, end)
    (f_commit_timestamp,) = _S0.unpack_from(buf, pos)
    pos += 8
    f_topic_id = ZERO_UUID
    n, pos = read_uvarint(buf, pos, end, "OffsetCommitValue v4 OffsetCommitValue tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "OffsetCommitValue v4 OffsetCommitValue tagged fields"
        )
        if tag in seen:
            raise repeated_tag("OffsetCommitValue v4 OffsetCommitValue tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            f_topic_id, pos = read_uuid(buf, pos, stop, "OffsetCommitValue v4 OffsetCommitValue.topic_id")
            if pos != stop:
                raise tagged_size_mismatch(
                    "OffsetCommitValue v4 OffsetCommitValue tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return OffsetCommitValue(
        f_offset, f_leader_epoch, f_metadata, f_commit_timestamp, -1, f_topic_id, unknown
    ), pos


def _write_offset_commit_value_v4(v: OffsetCommitValue, out: list) -> None:
    """Append the bytes of an OffsetCommitValue v4 to ``out``."""
    absent(v.expire_timestamp, -1, "OffsetCommitValue v4 OffsetCommitValue.expire_timestamp")
    out.append(_S2.pack(v.offset, v.leader_epoch))
    out.append(
        encode_string(
            v.metadata, "OffsetCommitValue v4 OffsetCommitValue.metadata", compact=True, nullable=False
        )
    )
    out.append(_S0.pack(v.commit_timestamp))
    tags = list(v.unknown_tagged_fields)
    if v.topic_id != ZERO_UUID:
        outer, out = out, []
        out.append(v.topic_id.bytes)
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_offset_commit_value_v0,
    1: _read_offset_commit_value_v1,
    2: _read_offset_commit_value_v0,
    3: _read_offset_commit_value_v3,
    4: _read_offset_commit_value_v4,
}
_WRITERS = {
    0: _write_offset_commit_value_v0,
    1: _write_offset_commit_value_v1,
    2: _write_offset_commit_value_v0,
    3: _write_offset_commit_value_v3,
    4: _write_offset_commit_value_v4,
}


def decode_offset_commit_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[OffsetCommitValue, int]:
    """Decode an OffsetCommitValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"OffsetCommitValue: unknown version {version} (this schema has versions 0-4)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_offset_commit_value(value: OffsetCommitValue, version: int) -> bytes:
    """Encode ``value`` as OffsetCommitValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"OffsetCommitValue: unknown version {version} (this schema has versions 0-4)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"OffsetCommitValue v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
