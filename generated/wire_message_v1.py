"""WireMessage v1: The Kafka 0.7 message: LENGTH, MAGIC 1, COMPRESSION, CHECKSUM, PAYLOAD. When
COMPRESSION is set the payload is a compressed message set (wire messages
back to back); compression is end to end, so offsets a consumer can fetch
from are the boundaries of the compressed messages.

Since Kafka 0.7.0.

Generated from schemas/legacy/wire_message_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.crc import crc32
from kafkaspec.errors import CorruptRecordError, InvalidLengthError, InvalidMagicError, TruncatedError
from kafkaspec.generated.enums import CompressionType, members

SCHEMA = "schemas/legacy/wire_message_v1.yaml"
NAME = "WireMessage"
VERSION = 1
SINCE = "0.7.0"

# -- layout ------------------------------------------------------------------

LENGTH_OFFSET = 0
LENGTH_LENGTH = 4
MAGIC_OFFSET = LENGTH_OFFSET + LENGTH_LENGTH
MAGIC_LENGTH = 1
COMPRESSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH
COMPRESSION_LENGTH = 1
CHECKSUM_OFFSET = COMPRESSION_OFFSET + COMPRESSION_LENGTH
CHECKSUM_LENGTH = 4
PAYLOAD_OFFSET = CHECKSUM_OFFSET + CHECKSUM_LENGTH
WIRE_MESSAGE_OVERHEAD = PAYLOAD_OFFSET  # bytes before the first variable-size field
LENGTH_END = LENGTH_OFFSET + LENGTH_LENGTH  # length counts from here
MIN_LENGTH = WIRE_MESSAGE_OVERHEAD - LENGTH_END  # the fixed-width fields length covers

CODEC_MASK = 0x07  # compression bits 0-2
CODEC_SHIFT = 0

# compression bits:
# -------------------------------------------------------------
# | 0-2   | codec                  | CompressionType    |
# -------------------------------------------------------------
_CODEC_MEMBERS = members(CompressionType, 3)


_S0 = struct.Struct(">ibbI")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">bbI")
_new = tuple.__new__


# -- typed values ---------------------------------------------------------------


class WireMessage(NamedTuple):
    """The Kafka 0.7 message: LENGTH, MAGIC 1, COMPRESSION, CHECKSUM, PAYLOAD. When
    COMPRESSION is set the payload is a compressed message set (wire messages back
    to back); compression is end to end, so offsets a consumer can fetch from are
    the boundaries of the compressed messages.

    Fields:
        magic: 1 means a COMPRESSION byte follows (Kafka 0.7 and later).
        compression: Codec of the payload; 0 none, 1 gzip, 2 snappy.
        checksum: CRC-32 of the payload only.
        payload: Message content, or a compressed message set when COMPRESSION is
            set.
    """

    magic: int = 1
    compression: int = 0
    checksum: int | None = None
    payload: bytes | None = None

    @property
    def codec(self) -> CompressionType | int:
        """0 none, 1 gzip, 2 snappy: the payload is then a compressed message set. (a CompressionType member; an int where no member has the value)"""
        return _CODEC_MEMBERS[self.compression & CODEC_MASK]


class WireMessageHead(NamedTuple):
    """The head of a WireMessage v1: its fixed-size leading fields, every one before the first variable-size field."""

    length: int
    magic: int
    compression: int
    checksum: int

    # the same compression bits, read by the same properties
    codec = WireMessage.codec


# -- fast codec -----------------------------------------------------------------


def decode_wire_message_head(buf, pos: int = 0) -> WireMessageHead:
    """Unpack the head at ``pos``; nothing is checked yet (:func:`check_wire_message` does that)."""
    try:
        return _new(WireMessageHead, _S0.unpack_from(buf, pos))
    except struct.error:
        raise TruncatedError(
            f"WireMessage head needs {WIRE_MESSAGE_OVERHEAD} bytes, {len(buf) - pos} left", pos
        ) from None


def check_wire_message(buf, pos: int, head: WireMessageHead, *, verify: bool = True) -> int:
    """Check the head at ``pos``: length fits the buffer, magic is 1 and checksum matches; return the end position.

    ``verify=False`` skips the checksum.
    """
    start = pos

    length, magic, checksum = head.length, head.magic, head.checksum

    end = start + LENGTH_END + length
    # shorter than the fixed fields it covers: they would be read past the end
    if length < MIN_LENGTH:
        raise InvalidLengthError(
            f"WireMessage length is {length}, less than the {MIN_LENGTH} bytes of fixed fields it covers",
            start,
        )
    if end > len(buf):
        raise TruncatedError(f"WireMessage needs {end - start} bytes, {len(buf) - start} present", start)
    if magic != 1:
        raise InvalidMagicError(f"WireMessage magic is {magic}, expected 1", start + MAGIC_OFFSET)
    if verify:
        actual = crc32(memoryview(buf)[start + PAYLOAD_OFFSET : end])
        if actual != checksum:
            raise CorruptRecordError(
                f"WireMessage checksum is {checksum:#010x}, CRC32 of bytes {start + PAYLOAD_OFFSET}..{end} is {actual:#010x}",
                start,
            )
    return end


def decode_wire_message_rest(buf, pos: int, head: WireMessageHead, end: int) -> tuple:
    """Decode the fields after the head at ``pos``, up to ``end`` (from :func:`check_wire_message`, which has checked the head); return them as a tuple."""
    start = pos

    pos += WIRE_MESSAGE_OVERHEAD
    try:
        n = end - pos
        if n >= 0:
            payload = buf[pos : pos + n]
            pos += n
        else:
            raise InvalidLengthError(
                f"WireMessage payload length {n} is negative", pos - 1
            )  # its length's last byte
    except (IndexError, struct.error):
        raise TruncatedError("WireMessage ends before its fields do", start) from None
    if pos != end:
        raise InvalidLengthError(f"WireMessage fields end at byte {pos}, its length says {end}", start)
    return (payload,)


def decode_wire_message(buf, pos: int = 0, *, verify: bool = True) -> tuple[WireMessage, int]:
    """Decode one WireMessage v1 at ``pos``: head, checks, the rest; return it and the position after it."""
    head = decode_wire_message_head(buf, pos)
    end = check_wire_message(buf, pos, head, verify=verify)
    (payload,) = decode_wire_message_rest(buf, pos, head, end)
    return WireMessage(head.magic, head.compression, head.checksum, payload), end


#: the struct of an entry's fixed-size head (the fields of :class:`WireMessageHead`), for readers that
#: unpack whole entries of one shape at once (kafkaspec.message_set)
RUN_HEAD = _S0


def decode_wire_message_run(
    buf, pos: int, stop: int, *, verify: bool = True, whole: bool = False
) -> tuple[list[tuple], int]:
    """Decode WireMessage v1 entries back to back from ``pos`` up to ``stop``, while their magic is 1.

    Each entry is checked as :func:`decode_wire_message` checks it and returned as a plain
    tuple (length, magic, compression, checksum, payload), with no per-entry
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
            if buf[pos + MAGIC_OFFSET] != 1:
                break
            (length, magic, compression, checksum) = unpack(buf, pos)
            if whole and start + LENGTH_END + length > stop:
                pos = start
                break
            pos += WIRE_MESSAGE_OVERHEAD

            end = start + LENGTH_END + length
            # shorter than the fixed fields it covers: they would be read past the end
            if length < MIN_LENGTH:
                raise InvalidLengthError(
                    f"WireMessage length is {length}, less than the {MIN_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"WireMessage needs {end - start} bytes, {len(buf) - start} present", start
                )
            if verify:
                actual = crc32(view[start + PAYLOAD_OFFSET : end])
                if actual != checksum:
                    raise CorruptRecordError(
                        f"WireMessage checksum is {checksum:#010x}, CRC32 of bytes {start + PAYLOAD_OFFSET}..{end} is {actual:#010x}",
                        start,
                    )
            if end > stop:
                raise TruncatedError(
                    f"WireMessage needs {end - start} bytes, {stop - start} left before the end", start
                )

            n = end - pos
            if n >= 0:
                payload = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"WireMessage payload length {n} is negative", pos - 1
                )  # its length's last byte
            if pos != end:
                raise InvalidLengthError(
                    f"WireMessage fields end at byte {pos}, its length says {end}", start
                )
            append((length, magic, compression, checksum, payload))
    except (IndexError, struct.error):
        raise TruncatedError("WireMessage ends before its fields do", start) from None
    finally:
        view.release()
    return items, pos


def encode_wire_message(
    *,
    compression=0,
    payload,
) -> bytes:
    """Encode one WireMessage v1; length, count and checksum fields are computed."""

    d2 = payload
    if d2 is None:
        raise ValueError("WireMessage payload cannot be null")
        d2 = b""

    p1 = _S2.pack(1, compression, crc32(d2))

    p0 = _S1.pack(len(p1) + len(d2))
    return b"".join((p0, p1, d2))
