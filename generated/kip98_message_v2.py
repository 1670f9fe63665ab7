"""Kip98Message (PROPOSAL, never used on the wire): PROPOSAL, never used on the wire: one message of the KIP-98 draft's message set. Lengths and the offset delta are unsigned varints ("uintVar"); null keys and values are flagged by attribute bits instead of a -1 length, so their length fields can be left out; a per-message CRC sits at the end for auditing tools. The final Record v2 drops the CRC and uses zigzag varints with -1 for null.

A straight-line codec for review and tests: ``decode_kip98_message`` / ``encode_kip98_message``.
Optional fields (``present_if``) read as None when absent; the writer sets the presence bits from
the values (a null key or value sets its bit).

Generated from schemas/proposals/kip98_message_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.crc import crc32
from kafkaspec.codec.message_types import encode_uvarint, read_uvarint, truncated
from kafkaspec.errors import CorruptRecordError, InvalidLengthError

NAME = "Kip98Message"
VERSION = 2
STATUS = "proposal"

NULL_KEY_MASK = 0x01  # attributes bit 0
NULL_KEY_SHIFT = 0
NULL_VALUE_MASK = 0x02  # attributes bit 1
NULL_VALUE_SHIFT = 1
CONTROL_MASK = 0x04  # attributes bit 2
CONTROL_SHIFT = 2

_ATTRIBUTES = struct.Struct(">b")
_TIMESTAMP = struct.Struct(">q")
_CRC = struct.Struct(">I")


class Kip98Message(NamedTuple):
    """PROPOSAL, never used on the wire: one message of the KIP-98 draft's message set. Lengths and the
    offset delta are unsigned varints ("uintVar"); null keys and values are flagged by attribute
    bits instead of a -1 length, so their length fields can be left out; a per-message CRC sits at
    the end for auditing tools. The final Record v2 drops the CRC and uses zigzag varints with -1
    for null.

    Fields:
        attributes: Message flags; only message sets are compressed, so no codec bits. Bits 3-7 are unused.
        timestamp: Message timestamp, milliseconds since the epoch; a full int64 in the draft.
        offset: The offset itself (absolute), base_offset + offset_delta; the stored offset_delta is the
            oessage offset minus the message set offset. When encoding, None means base_offset + the
            item's index.
        key: Message key ("Key"), present only when the null-key bit is 0.
        value: Message value ("Value"), up to the CRC; it has no length field, as its size follows from
            length and the key.
        crc: Per-message CRC, kept at the end for auditing tools that check single messages. The
            draft names neither the algorithm nor the range; CRC-32 over the message after its
            length is assumed.
    """

    attributes: int = 0
    timestamp: int = -1
    offset: int | None = None
    key: bytes | None = None
    value: bytes | None = None
    crc: int | None = None


def decode_kip98_message(
    buf, pos: int = 0, base_offset: int = 0, end: int | None = None
) -> tuple[Kip98Message, int]:
    """Read one Kip98Message at ``pos`` (inside ``buf[:end]``); return it and the position after it.
    Lengths are checked against the bytes left, checksums against the bytes they cover; anything
    else raises :class:`~kafkaspec.errors.KafkaFormatError` naming the field and position."""
    limit = len(buf) if end is None else end
    # length
    f_length, pos = read_uvarint(buf, pos, limit, "Kip98Message.length")
    if f_length < 0 or f_length > limit - pos:
        raise InvalidLengthError(
            f"Kip98Message.length is {f_length}, but {limit - pos} bytes follow it (byte {pos})"
        )
    limit = pos + f_length
    # attributes
    p_attributes = pos
    if limit - pos < 1:
        raise truncated("Kip98Message.attributes", pos, 1, limit)
    (f_attributes,) = _ATTRIBUTES.unpack_from(buf, pos)
    pos += 1
    # timestamp
    if limit - pos < 8:
        raise truncated("Kip98Message.timestamp", pos, 8, limit)
    (f_timestamp,) = _TIMESTAMP.unpack_from(buf, pos)
    pos += 8
    # offset_delta
    f_offset_delta, pos = read_uvarint(buf, pos, limit, "Kip98Message.offset_delta")
    # key_length (when f_attributes & NULL_KEY_MASK == 0 and f_attributes & NULL_VALUE_MASK == 0)
    f_key_length = None
    if f_attributes & NULL_KEY_MASK == 0 and f_attributes & NULL_VALUE_MASK == 0:
        f_key_length, pos = read_uvarint(buf, pos, limit, "Kip98Message.key_length")
    # key (when f_attributes & NULL_KEY_MASK == 0)
    f_key = None
    if f_attributes & NULL_KEY_MASK == 0:
        n = f_key_length if f_key_length is not None else limit - 4 - pos
        if n < 0 or n > limit - pos:
            raise truncated("Kip98Message.key", pos, n, limit)
        f_key = bytes(buf[pos : pos + n])
        pos += n
    # value (when f_attributes & NULL_VALUE_MASK == 0)
    f_value = None
    if f_attributes & NULL_VALUE_MASK == 0:
        n = limit - 4 - pos
        if n < 0 or n > limit - pos:
            raise truncated("Kip98Message.value", pos, n, limit)
        f_value = bytes(buf[pos : pos + n])
        pos += n
    # crc
    if limit - pos < 4:
        raise truncated("Kip98Message.crc", pos, 4, limit)
    (f_crc,) = _CRC.unpack_from(buf, pos)
    actual = crc32(memoryview(buf)[p_attributes:pos])
    if actual != f_crc:
        raise CorruptRecordError(
            f"Kip98Message.crc is {f_crc:#010x}, CRC-32 of bytes {p_attributes}..{pos} is {actual:#010x}"
        )
    pos += 4
    if pos != limit:
        raise InvalidLengthError(
            f"Kip98Message ends at byte {pos}, {limit - pos} bytes before the end its length gives ({limit})"
        )
    return Kip98Message(f_attributes, f_timestamp, base_offset + f_offset_delta, f_key, f_value, f_crc), pos


def encode_kip98_message(item: Kip98Message, base_offset: int = 0, index: int = 0) -> bytes:
    """The bytes of ``item``; lengths and checksums are computed (the item's own are ignored)."""
    (
        f_attributes,
        f_timestamp,
        f_offset_delta,
        f_key,
        f_value,
        _,
    ) = item
    f_attributes = (
        f_attributes & ~(NULL_KEY_MASK | NULL_VALUE_MASK)
        | (NULL_KEY_MASK if f_key is None else 0)
        | (NULL_VALUE_MASK if f_value is None else 0)
    )
    f_key_length = None if f_key is None else len(f_key)
    parts: list[bytes] = [b""] * 8
    parts[1] = _ATTRIBUTES.pack(f_attributes)
    parts[2] = _TIMESTAMP.pack(f_timestamp)
    parts[3] = encode_uvarint(index if f_offset_delta is None else f_offset_delta - base_offset)
    if f_attributes & NULL_KEY_MASK == 0 and f_attributes & NULL_VALUE_MASK == 0:
        parts[4] = encode_uvarint(f_key_length)
    if f_attributes & NULL_KEY_MASK == 0:
        parts[5] = bytes(f_key)
    if f_attributes & NULL_VALUE_MASK == 0:
        parts[6] = bytes(f_value)
    parts[7] = _CRC.pack(crc32(b"".join(parts[1:7])))
    parts[0] = encode_uvarint(sum(map(len, parts[1:])))
    return b"".join(parts)
