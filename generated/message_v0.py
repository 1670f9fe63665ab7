"""Message v0: A MessageSet entry holding a Message v0 (Kafka 0.8 to 0.9): offset and size,
then the message itself (crc, magic, attributes, key, value). A log segment
or a fetch response of this era is a plain concatenation of entries. When
the compression bits are set the message is a wrapper: its value is the
compressed bytes of an inner message set whose offsets are absolute.

Since Kafka 0.8.0.

Generated from schemas/legacy/message_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from construct import (
    Adapter,
    Const,
    Int8sb,
    Int32sb,
    Int32ub,
    Int64sb,
    Prefixed,
    Struct,
)

from kafkaspec._construct import Checksummed, KafkaBytes, flatten, nest
from kafkaspec.compression import DEFAULT_MAX_DECOMPRESSED
from kafkaspec.crc import crc32
from kafkaspec.errors import (
    CorruptRecordError,
    InvalidLengthError,
    InvalidMagicError,
    KafkaFormatError,
    TruncatedError,
)

SCHEMA = "schemas/legacy/message_v0.yaml"
NAME = "Message"
VERSION = 0
SINCE = "0.8.0"

# -- layout ------------------------------------------------------------------

OFFSET_OFFSET = 0
OFFSET_LENGTH = 8
MESSAGE_SIZE_OFFSET = OFFSET_OFFSET + OFFSET_LENGTH
MESSAGE_SIZE_LENGTH = 4
CRC_OFFSET = MESSAGE_SIZE_OFFSET + MESSAGE_SIZE_LENGTH
CRC_LENGTH = 4
MAGIC_OFFSET = CRC_OFFSET + CRC_LENGTH
MAGIC_LENGTH = 1
ATTRIBUTES_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH
ATTRIBUTES_LENGTH = 1
KEY_OFFSET = ATTRIBUTES_OFFSET + ATTRIBUTES_LENGTH
MESSAGE_OVERHEAD = KEY_OFFSET  # bytes before the first variable-size field

COMPRESSION_MASK = 0x07  # attributes bits 0-2
COMPRESSION_SHIFT = 0

# attributes bits:
# -------------------------------------------------------------
# | 0-2   | compression            | CompressionType    |
# -------------------------------------------------------------


_S0 = struct.Struct(">qiIbb")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">qi")
_S3 = struct.Struct(">I")
_S4 = struct.Struct(">bb")
_new = tuple.__new__
_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_NULL16 = _I16.pack(-1)
_NULL32 = _I32.pack(-1)
_BYTE = tuple(bytes((i,)) for i in range(256))


# -- typed values ---------------------------------------------------------------


class Message(NamedTuple):
    """A MessageSet entry holding a Message v0 (Kafka 0.8 to 0.9): offset and size,
    then the message itself (crc, magic, attributes, key, value). A log segment or a
    fetch response of this era is a plain concatenation of entries. When the
    compression bits are set the message is a wrapper: its value is the compressed
    bytes of an inner message set whose offsets are absolute.

    Fields:
        offset: Logical offset of the message; for a compressed wrapper, the offset
            of its last inner message. Producers may send any value (-1, 0).
        crc: CRC-32 (IEEE) of everything from magic to the end of the message.
        magic: Format version 0; at byte 16 of the entry, as in every later format.
        attributes: Message flags; bits 3-7 are unused and zero.
        key: Message key; length -1 means null. Null for a compressed wrapper.
        value: Message value (payload); length -1 means null. For a wrapper, the
            compressed inner message set.
    """

    offset: int | None = None
    crc: int | None = None
    magic: int = 0
    attributes: int = 0
    key: bytes | None = None
    value: bytes | None = None

    @property
    def compression(self) -> int:
        """Codec of the value: when set, the value is a compressed inner message set."""
        return (self.attributes >> 0) & 7


class MessageHeader(NamedTuple):
    """The fixed-size header of a Message v0: every field before the first variable-size one."""

    offset: int
    message_size: int
    crc: int
    magic: int
    attributes: int

    @property
    def compression(self) -> int:
        """Codec of the value: when set, the value is a compressed inner message set."""
        return (self.attributes >> 0) & 7


# -- Construct reference codec ------------------------------------------------------

message_fields = Struct(
    "offset" / Int64sb,
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "_rest"
            / Checksummed(
                "crc",
                Int32ub,
                "crc32",
                Struct(
                    "magic" / Const(0, Int8sb),
                    "attributes" / Int8sb,
                    "key" / KafkaBytes(Int32sb, nullable=True),
                    "value" / KafkaBytes(Int32sb, nullable=True),
                ),
            )
        ),
    ),
)


class _MessageAdapter(Adapter):
    def _decode(self, obj, context, path):
        v = flatten(obj)
        return Message(
            v["offset"],
            v["crc"],
            v["magic"],
            v["attributes"],
            v["key"],
            v["value"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, Message):
            obj = Message(*obj)
        v = {
            "offset": obj.offset,
            "crc": obj.crc,
            "magic": obj.magic,
            "attributes": obj.attributes,
            "key": obj.key,
            "value": obj.value,
        }
        return nest(v, _GROUPS)


_GROUPS = [["offset"], [], ["magic", "attributes", "key", "value"]]
message_construct = _MessageAdapter(message_fields)
message_construct.__doc__ = "Construct parser/builder for Message v0 (the reference codec)."


def _message_rebase(item):
    """Turn stored deltas into absolute values."""
    return item


def _message_unbase(item, index):
    """Turn absolute values (or their defaults) into stored deltas."""
    item = Message._make(item)
    return item


# -- fast codec -----------------------------------------------------------------


def decode_message_header(buf, pos: int = 0) -> MessageHeader:
    """Unpack the fixed-size header at ``pos`` (nothing is checked yet)."""
    try:
        return _new(MessageHeader, _S0.unpack_from(buf, pos))
    except struct.error:
        raise TruncatedError(f"Message header needs 18 bytes, {len(buf) - pos} left", pos) from None


def check_message(buf, pos: int, header: MessageHeader, *, verify: bool = True) -> int:
    """Check the header's constants, length and checksum against ``buf``; return the end position."""
    start = pos
    (
        offset,
        message_size,
        crc,
        magic,
        attributes,
    ) = header
    pos += 18

    end = pos - 6 + message_size
    if message_size < 6:  # shorter than the fixed fields it covers: they would be read past the end
        raise InvalidLengthError(
            f"Message message_size is {message_size}, less than the 6 bytes of fixed fields it covers", start
        )
    if end > len(buf):
        raise TruncatedError(f"Message needs {end - start} bytes, {len(buf) - start} present", start)
    if verify:
        actual = crc32(memoryview(buf)[pos - 2 : end])
        if actual != crc:
            raise CorruptRecordError(
                f"Message crc is {crc:#010x}, CRC32 of bytes {pos - 2}..{end} is {actual:#010x}",
                start,
            )
    if magic != 0:
        raise InvalidMagicError(f"Message magic is {magic}, expected 0", pos - 2)
    return end


def decode_message_rest(
    buf,
    pos: int,
    header: MessageHeader,
    *,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> tuple:
    """Check the header at ``pos`` and decode the fields after it; return them as a tuple."""
    start = pos
    (
        offset,
        message_size,
        crc,
        magic,
        attributes,
    ) = header
    pos += 18

    end = pos - 6 + message_size
    if message_size < 6:  # shorter than the fixed fields it covers: they would be read past the end
        raise InvalidLengthError(
            f"Message message_size is {message_size}, less than the 6 bytes of fixed fields it covers", start
        )
    if end > len(buf):
        raise TruncatedError(f"Message needs {end - start} bytes, {len(buf) - start} present", start)
    if verify:
        actual = crc32(memoryview(buf)[pos - 2 : end])
        if actual != crc:
            raise CorruptRecordError(
                f"Message crc is {crc:#010x}, CRC32 of bytes {pos - 2}..{end} is {actual:#010x}",
                start,
            )
    if magic != 0:
        raise InvalidMagicError(f"Message magic is {magic}, expected 0", pos - 2)
    try:
        (n,) = _S1.unpack_from(buf, pos)
        pos += 4
        if n >= 0:
            key = buf[pos : pos + n]
            pos += n
        elif n == -1:
            key = None
        else:
            raise InvalidLengthError(f"Message key length {n} is negative", pos)

        (n,) = _S1.unpack_from(buf, pos)
        pos += 4
        if n >= 0:
            value = buf[pos : pos + n]
            pos += n
        elif n == -1:
            value = None
        else:
            raise InvalidLengthError(f"Message value length {n} is negative", pos)
    except (IndexError, struct.error):
        raise TruncatedError("Message ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"Message has a string that is not UTF-8: {exc.reason}", start) from None
    if pos != end:
        raise InvalidLengthError(f"Message fields end at byte {pos}, its length says {end}", start)
    return (
        key,
        value,
    )


def decode_message(
    buf, pos: int = 0, *, verify: bool = True, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED
) -> tuple[Message, int]:
    """Decode one Message v0 at ``pos``; return it and the position after it."""
    header = decode_message_header(buf, pos)
    end = check_message(buf, pos, header, verify=verify)
    rest = decode_message_rest(buf, pos, header, verify=False, max_decompressed=max_decompressed)
    v = dict(zip(header._fields, header, strict=True))
    v.update(zip(["key", "value"], rest, strict=True))
    return Message(
        v["offset"],
        v["crc"],
        v["magic"],
        v["attributes"],
        v["key"],
        v["value"],
    ), end


def decode_message_run(buf, pos: int, stop: int, *, verify: bool = True) -> tuple[list[tuple], int]:
    """Decode Message v0 entries back to back from ``pos`` up to ``stop``, while their magic is 0.

    Each entry is checked as :func:`decode_message` checks it and returned as a plain
    tuple (offset, message_size, crc, magic, attributes, key, value), with no per-entry
    function call. Returns the tuples and the position where the run ended: ``stop``,
    or the start of an entry of another version.
    """
    items = []
    append = items.append
    unpack = _S0.unpack_from
    start = pos
    try:
        while pos < stop:
            start = pos
            if buf[pos + 16] != 0:
                break
            (
                offset,
                message_size,
                crc,
                magic,
                attributes,
            ) = unpack(buf, pos)
            pos += 18

            end = pos - 6 + message_size
            if message_size < 6:  # shorter than the fixed fields it covers: they would be read past the end
                raise InvalidLengthError(
                    f"Message message_size is {message_size}, less than the 6 bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(f"Message needs {end - start} bytes, {len(buf) - start} present", start)
            if verify:
                actual = crc32(memoryview(buf)[pos - 2 : end])
                if actual != crc:
                    raise CorruptRecordError(
                        f"Message crc is {crc:#010x}, CRC32 of bytes {pos - 2}..{end} is {actual:#010x}",
                        start,
                    )
            if magic != 0:
                raise InvalidMagicError(f"Message magic is {magic}, expected 0", pos - 2)
            if end > stop:
                raise TruncatedError(
                    f"Message needs {end - start} bytes, {stop - start} left before the end", start
                )

            (n,) = _S1.unpack_from(buf, pos)
            pos += 4
            if n >= 0:
                key = buf[pos : pos + n]
                pos += n
            elif n == -1:
                key = None
            else:
                raise InvalidLengthError(f"Message key length {n} is negative", pos)

            (n,) = _S1.unpack_from(buf, pos)
            pos += 4
            if n >= 0:
                value = buf[pos : pos + n]
                pos += n
            elif n == -1:
                value = None
            else:
                raise InvalidLengthError(f"Message value length {n} is negative", pos)
            if pos != end:
                raise InvalidLengthError(f"Message fields end at byte {pos}, its length says {end}", start)
            append(
                (
                    offset,
                    message_size,
                    crc,
                    magic,
                    attributes,
                    key,
                    value,
                )
            )
    except (IndexError, struct.error):
        raise TruncatedError("Message ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"Message has a string that is not UTF-8: {exc.reason}", start) from None
    return items, pos


def encode_message(
    *,
    offset,
    attributes=0,
    key=None,
    value=None,
    compress_options: dict | None = None,
) -> bytes:
    """Encode one Message v0; length, count and checksum fields are computed."""

    d4 = value
    if d4 is None:
        p4 = _NULL32
        d4 = b""
    else:
        p4 = _I32.pack(len(d4))

    d3 = key
    if d3 is None:
        p3 = _NULL32
        d3 = b""
    else:
        p3 = _I32.pack(len(d3))

    p2 = _S4.pack(
        0,
        attributes,
    )

    s1 = b"".join(
        (
            p2,
            p3,
            d3,
            p4,
            d4,
        )
    )
    p1 = _S3.pack(
        crc32(s1),
    )

    s0 = b"".join(
        (
            p1,
            s1,
        )
    )
    p0 = _S2.pack(
        offset,
        len(s0),
    )
    return b"".join(
        (
            p0,
            s0,
        )
    )
