"""Kip98MessageSet (PROPOSAL, never used on the wire): PROPOSAL, never used on the wire: the KIP-98 draft's message set, a separate schema for the batch so that the producer id, epoch and sequence are written once per set instead of once per message. Kafka 0.11.0 shipped RecordBatch v2 instead, which keeps the idea but moves the CRC after the magic byte and makes the per-record integers zigzag varints.

A straight-line codec for review and tests: ``decode_kip98_message_set`` / ``encode_kip98_message_set``.
Optional fields (``present_if``) read as None when absent; the writer sets the presence bits from
the values (a null field sets its bit).

Generated from schemas/proposals/kip98_message_set_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.compression import compress, decompress
from kafkaspec.codec.crc import crc32
from kafkaspec.codec.message_types import truncated
from kafkaspec.errors import CorruptRecordError, InvalidLengthError, KafkaFormatError

from .kip98_message_v2 import decode_kip98_message, encode_kip98_message

NAME = "Kip98MessageSet"
VERSION = 2
STATUS = "proposal"

COMPRESSION_MASK = 0x07  # attributes bits 0-2
COMPRESSION_SHIFT = 0
TIMESTAMP_TYPE_MASK = 0x08  # attributes bit 3
TIMESTAMP_TYPE_SHIFT = 3
IS_TRANSACTIONAL_MASK = 0x10  # attributes bit 4
IS_TRANSACTIONAL_SHIFT = 4

_OFFSET = struct.Struct(">q")
_LENGTH = struct.Struct(">i")
_CRC = struct.Struct(">I")
_MAGIC = struct.Struct(">b")
_ATTRIBUTES = struct.Struct(">h")
_OFFSET_DELTA = struct.Struct(">i")
_MAX_TIMESTAMP = struct.Struct(">q")
_PID = struct.Struct(">q")
_EPOCH = struct.Struct(">h")
_SEQUENCE = struct.Struct(">i")


class Kip98MessageSet(NamedTuple):
    """PROPOSAL, never used on the wire: the KIP-98 draft's message set, a separate schema for the
    batch so that the producer id, epoch and sequence are written once per set instead of once per
    message. Kafka 0.11.0 shipped RecordBatch v2 instead, which keeps the idea but moves the CRC
    after the magic byte and makes the per-record integers zigzag varints.

    Fields:
        offset: Offset of the first message of the set (the v0/v1 format stores the last).
        crc: CRC of the header and the message data. The draft keeps it before the magic byte, where
            v0/v1 have theirs; it names no algorithm, so the v0/v1 CRC-32 is assumed.
        magic: Format version, bumped to 2; at byte 16 like every earlier format.
        attributes: Message set flags; the draft widens them to two bytes, bits 5-15 are unused.
        offset_delta: Offset of the last message minus offset; the next set starts at offset + offset_delta
            (+1).
        max_timestamp: Largest timestamp of the messages in the set.
        pid: Producer id (PID) of the idempotent or transactional producer.
        epoch: Producer epoch; wraps around at int16 max.
        sequence: Sequence number of the first message; wraps around at int32 max.
        messages: Message1, Message2, ..., MessageN up to the end given by length; compressed as a whole
            when the codec bits are set.
    """

    offset: int = 0
    crc: int | None = None
    magic: int = 2
    attributes: int = 0
    offset_delta: int = 0
    max_timestamp: int = 0
    pid: int = -1
    epoch: int = -1
    sequence: int = -1
    messages: Sequence = ()


def decode_kip98_message_set(buf, pos: int = 0, end: int | None = None) -> tuple[Kip98MessageSet, int]:
    """Read one Kip98MessageSet at ``pos`` (inside ``buf[:end]``); return it and the position after it.
    Lengths are checked against the bytes left, checksums against the bytes they cover; anything
    else raises :class:`~kafkaspec.errors.KafkaFormatError` naming the field and position."""
    limit = len(buf) if end is None else end
    # offset
    if limit - pos < 8:
        raise truncated("Kip98MessageSet.offset", pos, 8, limit)
    (f_offset,) = _OFFSET.unpack_from(buf, pos)
    pos += 8
    # length
    if limit - pos < 4:
        raise truncated("Kip98MessageSet.length", pos, 4, limit)
    (f_length,) = _LENGTH.unpack_from(buf, pos)
    pos += 4
    if f_length < 0 or f_length > limit - pos:
        raise InvalidLengthError(
            f"Kip98MessageSet.length is {f_length}, but {limit - pos} bytes follow it (byte {pos})"
        )
    limit = pos + f_length
    # crc
    if limit - pos < 4:
        raise truncated("Kip98MessageSet.crc", pos, 4, limit)
    # crc covers the fields after it to the end, all in the buffer once the length is checked
    (f_crc,) = _CRC.unpack_from(buf, pos)
    actual = crc32(memoryview(buf)[pos + 4 : limit])
    if actual != f_crc:
        raise CorruptRecordError(
            f"Kip98MessageSet.crc is {f_crc:#010x}, CRC-32 of bytes {pos + 4}..{limit} is {actual:#010x}"
        )
    pos += 4
    # magic
    if limit - pos < 1:
        raise truncated("Kip98MessageSet.magic", pos, 1, limit)
    (f_magic,) = _MAGIC.unpack_from(buf, pos)
    pos += 1
    if f_magic != 2:
        raise KafkaFormatError(f"Kip98MessageSet.magic is {f_magic}, expected 2 (byte {pos - 1})")
    # attributes
    if limit - pos < 2:
        raise truncated("Kip98MessageSet.attributes", pos, 2, limit)
    (f_attributes,) = _ATTRIBUTES.unpack_from(buf, pos)
    pos += 2
    # offset_delta
    if limit - pos < 4:
        raise truncated("Kip98MessageSet.offset_delta", pos, 4, limit)
    (f_offset_delta,) = _OFFSET_DELTA.unpack_from(buf, pos)
    pos += 4
    # max_timestamp
    if limit - pos < 8:
        raise truncated("Kip98MessageSet.max_timestamp", pos, 8, limit)
    (f_max_timestamp,) = _MAX_TIMESTAMP.unpack_from(buf, pos)
    pos += 8
    # pid
    if limit - pos < 8:
        raise truncated("Kip98MessageSet.pid", pos, 8, limit)
    (f_pid,) = _PID.unpack_from(buf, pos)
    pos += 8
    # epoch
    if limit - pos < 2:
        raise truncated("Kip98MessageSet.epoch", pos, 2, limit)
    (f_epoch,) = _EPOCH.unpack_from(buf, pos)
    pos += 2
    # sequence
    if limit - pos < 4:
        raise truncated("Kip98MessageSet.sequence", pos, 4, limit)
    (f_sequence,) = _SEQUENCE.unpack_from(buf, pos)
    pos += 4
    # messages
    region = memoryview(buf)[pos : limit - 0]
    codec = f_attributes & COMPRESSION_MASK
    if codec:
        region = memoryview(decompress(codec, region, position=pos))
    f_messages = []
    at = 0
    while at < len(region):
        one, at = decode_kip98_message(
            region,
            at,
            base_offset=f_offset,
        )
        f_messages.append(one)
    pos = limit - 0
    if pos != limit:
        raise InvalidLengthError(
            f"Kip98MessageSet ends at byte {pos}, {limit - pos} bytes before the end its length gives ({limit})"
        )
    return Kip98MessageSet(
        f_offset,
        f_crc,
        f_magic,
        f_attributes,
        f_offset_delta,
        f_max_timestamp,
        f_pid,
        f_epoch,
        f_sequence,
        f_messages,
    ), pos


def encode_kip98_message_set(
    item: Kip98MessageSet,
) -> bytes:
    """The bytes of ``item``; lengths and checksums are computed (the item's own are ignored)."""
    (
        f_offset,
        _,
        _,
        f_attributes,
        f_offset_delta,
        f_max_timestamp,
        f_pid,
        f_epoch,
        f_sequence,
        f_messages,
    ) = item
    parts: list[bytes] = [b""] * 11
    parts[0] = _OFFSET.pack(f_offset)
    parts[3] = _MAGIC.pack(2)
    parts[4] = _ATTRIBUTES.pack(f_attributes)
    parts[5] = _OFFSET_DELTA.pack(f_offset_delta)
    parts[6] = _MAX_TIMESTAMP.pack(f_max_timestamp)
    parts[7] = _PID.pack(f_pid)
    parts[8] = _EPOCH.pack(f_epoch)
    parts[9] = _SEQUENCE.pack(f_sequence)
    region = b"".join(
        encode_kip98_message(one, base_offset=f_offset, index=at) for at, one in enumerate(f_messages)
    )
    codec = f_attributes & COMPRESSION_MASK
    parts[10] = compress(codec, region) if codec else region
    parts[2] = _CRC.pack(crc32(b"".join(parts[3:11])))
    parts[1] = _LENGTH.pack(sum(map(len, parts[2:])))
    return b"".join(parts)
