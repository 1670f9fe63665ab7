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

from kafkaspec.codec.crc import crc32
from kafkaspec.errors import CorruptRecordError, InvalidLengthError, InvalidMagicError, TruncatedError
from kafkaspec.generated.enums import CompressionType, members

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
MESSAGE_SIZE_END = MESSAGE_SIZE_OFFSET + MESSAGE_SIZE_LENGTH  # message_size counts from here
MIN_MESSAGE_SIZE = MESSAGE_OVERHEAD - MESSAGE_SIZE_END  # the fixed-width fields message_size covers

COMPRESSION_MASK = 0x07  # attributes bits 0-2
COMPRESSION_SHIFT = 0

# attributes bits:
# -------------------------------------------------------------
# | 0-2   | compression            | CompressionType    |
# -------------------------------------------------------------
_COMPRESSION_MEMBERS = members(CompressionType, 3)


_S0 = struct.Struct(">qiIbb")
_S1 = struct.Struct(">qi")
_S2 = struct.Struct(">I")
_S3 = struct.Struct(">bb")
_new = tuple.__new__
_I32 = struct.Struct(">i")
_NULL32 = _I32.pack(-1)  # a null length prefix


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
    def compression(self) -> CompressionType | int:
        """Codec of the value: when set, the value is a compressed inner message set. (a CompressionType member; an int where no member has the value)"""
        return _COMPRESSION_MEMBERS[self.attributes & COMPRESSION_MASK]


class MessageHead(NamedTuple):
    """The head of a Message v0: its fixed-size leading fields, every one before the first variable-size field."""

    offset: int
    message_size: int
    crc: int
    magic: int
    attributes: int

    # the same attributes bits, read by the same properties
    compression = Message.compression


# -- fast codec -----------------------------------------------------------------


def decode_message_head(buf, pos: int = 0) -> MessageHead:
    """Unpack the head at ``pos``; nothing is checked yet (:func:`check_message` does that)."""
    try:
        return _new(MessageHead, _S0.unpack_from(buf, pos))
    except struct.error:
        raise TruncatedError(
            f"Message head needs {MESSAGE_OVERHEAD} bytes, {len(buf) - pos} left", pos
        ) from None


def check_message(buf, pos: int, head: MessageHead, *, verify: bool = True) -> int:
    """Check the head at ``pos``: message_size fits the buffer, crc matches and magic is 0; return the end position.

    ``verify=False`` skips the checksum.
    """
    start = pos

    message_size, crc, magic = head.message_size, head.crc, head.magic

    end = start + MESSAGE_SIZE_END + message_size
    # shorter than the fixed fields it covers: they would be read past the end
    if message_size < MIN_MESSAGE_SIZE:
        raise InvalidLengthError(
            f"Message message_size is {message_size}, less than the {MIN_MESSAGE_SIZE} bytes of fixed fields it covers",
            start,
        )
    if end > len(buf):
        raise TruncatedError(f"Message needs {end - start} bytes, {len(buf) - start} present", start)
    if verify:
        actual = crc32(memoryview(buf)[start + MAGIC_OFFSET : end])
        if actual != crc:
            raise CorruptRecordError(
                f"Message crc is {crc:#010x}, CRC32 of bytes {start + MAGIC_OFFSET}..{end} is {actual:#010x}",
                start,
            )
    if magic != 0:
        raise InvalidMagicError(f"Message magic is {magic}, expected 0", start + MAGIC_OFFSET)
    return end


def decode_message_rest(buf, pos: int, head: MessageHead, end: int) -> tuple:
    """Decode the fields after the head at ``pos``, up to ``end`` (from :func:`check_message`, which has checked the head); return them as a tuple."""
    start = pos

    pos += MESSAGE_OVERHEAD
    try:
        (n,) = _I32.unpack_from(buf, pos)
        pos += 4
        if n > end - pos:
            raise InvalidLengthError(
                f"Message key length {n} runs past byte {end}, the end of what holds it", pos - 1
            )
        if n >= 0:
            key = buf[pos : pos + n]
            pos += n
        elif n == -1:
            key = None
        else:
            raise InvalidLengthError(f"Message key length {n} is negative", pos - 1)  # its length's last byte

        (n,) = _I32.unpack_from(buf, pos)
        pos += 4
        if n > end - pos:
            raise InvalidLengthError(
                f"Message value length {n} runs past byte {end}, the end of what holds it", pos - 1
            )
        if n >= 0:
            value = buf[pos : pos + n]
            pos += n
        elif n == -1:
            value = None
        else:
            raise InvalidLengthError(
                f"Message value length {n} is negative", pos - 1
            )  # its length's last byte
    except (IndexError, struct.error):
        raise TruncatedError("Message ends before its fields do", start) from None
    if pos != end:
        raise InvalidLengthError(f"Message fields end at byte {pos}, its length says {end}", start)
    return (key, value)


def decode_message(buf, pos: int = 0, *, verify: bool = True) -> tuple[Message, int]:
    """Decode one Message v0 at ``pos``: head, checks, the rest; return it and the position after it."""
    head = decode_message_head(buf, pos)
    end = check_message(buf, pos, head, verify=verify)
    (key, value) = decode_message_rest(buf, pos, head, end)
    return Message(head.offset, head.crc, head.magic, head.attributes, key, value), end


#: the struct of an entry's fixed-size head (the fields of :class:`MessageHead`), for readers that
#: unpack whole entries of one shape at once (kafkaspec.message_set)
RUN_HEAD = _S0


def decode_message_run(
    buf, pos: int, stop: int, *, verify: bool = True, whole: bool = False
) -> tuple[list[tuple], int]:
    """Decode Message v0 entries back to back from ``pos`` up to ``stop``, while their magic is 0.

    Each entry is checked as :func:`decode_message` checks it and returned as a plain
    tuple (offset, message_size, crc, magic, attributes, key, value), with no per-entry
    function call. Returns the tuples and the position where the run ended: ``stop``,
    or the start of an entry of another version. ``whole=True``: an entry whose length runs
    past ``stop`` ends the run too (its start is returned; the caller reads it its own way)
    instead of raising.
    """
    items = []
    append = items.append
    unpack = _S0.unpack_from
    start = pos
    view = memoryview(buf)  # one view for every entry's checksum, released however the run ends
    try:
        while pos < stop:
            start = pos
            if buf[pos + MAGIC_OFFSET] != 0:
                break
            (offset, message_size, crc, magic, attributes) = unpack(buf, pos)
            if whole and start + MESSAGE_SIZE_END + message_size > stop:
                pos = start
                break
            pos += MESSAGE_OVERHEAD

            end = start + MESSAGE_SIZE_END + message_size
            # shorter than the fixed fields it covers: they would be read past the end
            if message_size < MIN_MESSAGE_SIZE:
                raise InvalidLengthError(
                    f"Message message_size is {message_size}, less than the {MIN_MESSAGE_SIZE} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(f"Message needs {end - start} bytes, {len(buf) - start} present", start)
            if verify:
                actual = crc32(view[start + MAGIC_OFFSET : end])
                if actual != crc:
                    raise CorruptRecordError(
                        f"Message crc is {crc:#010x}, CRC32 of bytes {start + MAGIC_OFFSET}..{end} is {actual:#010x}",
                        start,
                    )
            if end > stop:
                raise TruncatedError(
                    f"Message needs {end - start} bytes, {stop - start} left before the end", start
                )

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n > end - pos:
                raise InvalidLengthError(
                    f"Message key length {n} runs past byte {end}, the end of what holds it", pos - 1
                )
            if n >= 0:
                key = buf[pos : pos + n]
                pos += n
            elif n == -1:
                key = None
            else:
                raise InvalidLengthError(
                    f"Message key length {n} is negative", pos - 1
                )  # its length's last byte

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n > end - pos:
                raise InvalidLengthError(
                    f"Message value length {n} runs past byte {end}, the end of what holds it", pos - 1
                )
            if n >= 0:
                value = buf[pos : pos + n]
                pos += n
            elif n == -1:
                value = None
            else:
                raise InvalidLengthError(
                    f"Message value length {n} is negative", pos - 1
                )  # its length's last byte
            if pos != end:
                raise InvalidLengthError(f"Message fields end at byte {pos}, its length says {end}", start)
            append((offset, message_size, crc, magic, attributes, key, value))
    except (IndexError, struct.error):
        raise TruncatedError("Message ends before its fields do", start) from None
    finally:
        view.release()
    return items, pos


def encode_message(
    *,
    offset,
    attributes=0,
    key=None,
    value=None,
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

    p2 = _S3.pack(0, attributes)

    p1 = _S2.pack(
        crc32(
            d4,
            crc32(
                b"".join(
                    (
                        p2,
                        p3,
                        d3,
                        p4,
                    )
                )
            ),
        )
    )

    p0 = _S1.pack(offset, len(p1) + len(p2) + len(p3) + len(d3) + len(p4) + len(d4))
    return b"".join((p0, p1, p2, p3, d3, p4, d4))
