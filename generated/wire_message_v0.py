"""WireMessage v0: The Kafka 0.6 message: LENGTH, MAGIC 0, CHECKSUM, PAYLOAD. It has no offset
field: offsets are byte positions in the partition's log, and the next
message's offset is this offset + LENGTH + 4.

Since Kafka 0.6.0.

Generated from schemas/legacy/wire_message_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.crc import crc32
from kafkaspec.errors import CorruptRecordError, InvalidLengthError, InvalidMagicError, TruncatedError

SCHEMA = "schemas/legacy/wire_message_v0.yaml"
NAME = "WireMessage"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

LENGTH_OFFSET = 0
LENGTH_LENGTH = 4
MAGIC_OFFSET = LENGTH_OFFSET + LENGTH_LENGTH
MAGIC_LENGTH = 1
CHECKSUM_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH
CHECKSUM_LENGTH = 4
PAYLOAD_OFFSET = CHECKSUM_OFFSET + CHECKSUM_LENGTH
WIRE_MESSAGE_OVERHEAD = PAYLOAD_OFFSET  # bytes before the first variable-size field
LENGTH_END = LENGTH_OFFSET + LENGTH_LENGTH  # length counts from here
MIN_LENGTH = WIRE_MESSAGE_OVERHEAD - LENGTH_END  # the fixed-width fields length covers


_S0 = struct.Struct(">ibI")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">bI")
_new = tuple.__new__


# -- typed values ---------------------------------------------------------------


class WireMessage(NamedTuple):
    """The Kafka 0.6 message: LENGTH, MAGIC 0, CHECKSUM, PAYLOAD. It has no offset
    field: offsets are byte positions in the partition's log, and the next message's
    offset is this offset + LENGTH + 4.

    Fields:
        magic: 0 means there is no COMPRESSION byte (Kafka 0.6 and earlier).
        checksum: CRC-32 of the payload only.
        payload: Message content, up to the end given by LENGTH.
    """

    magic: int = 0
    checksum: int | None = None
    payload: bytes | None = None


class WireMessageHead(NamedTuple):
    """The head of a WireMessage v0: its fixed-size leading fields, every one before the first variable-size field."""

    length: int
    magic: int
    checksum: int


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
    """Check the head at ``pos``: length fits the buffer, magic is 0 and checksum matches; return the end position.

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
    if magic != 0:
        raise InvalidMagicError(f"WireMessage magic is {magic}, expected 0", start + MAGIC_OFFSET)
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
    """Decode one WireMessage v0 at ``pos``: head, checks, the rest; return it and the position after it."""
    head = decode_wire_message_head(buf, pos)
    end = check_wire_message(buf, pos, head, verify=verify)
    (payload,) = decode_wire_message_rest(buf, pos, head, end)
    return WireMessage(head.magic, head.checksum, payload), end


#: the struct of an entry's fixed-size head (the fields of :class:`WireMessageHead`), for readers that
#: unpack whole entries of one shape at once (kafkaspec.message_set)
RUN_HEAD = _S0


def decode_wire_message_run(
    buf, pos: int, stop: int, *, verify: bool = True, whole: bool = False
) -> tuple[list[tuple], int]:
    """Decode WireMessage v0 entries back to back from ``pos`` up to ``stop``, while their magic is 0.

    Each entry is checked as :func:`decode_wire_message` checks it and returned as a plain
    tuple (length, magic, checksum, payload), with no per-entry
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
            (length, magic, checksum) = unpack(buf, pos)
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
            append((length, magic, checksum, payload))
    except (IndexError, struct.error):
        raise TruncatedError("WireMessage ends before its fields do", start) from None
    finally:
        view.release()
    return items, pos


def encode_wire_message(
    *,
    payload,
) -> bytes:
    """Encode one WireMessage v0; length, count and checksum fields are computed."""

    d2 = payload
    if d2 is None:
        raise ValueError("WireMessage payload cannot be null")
        d2 = b""

    p1 = _S2.pack(0, crc32(d2))

    p0 = _S1.pack(len(p1) + len(d2))
    return b"".join((p0, p1, d2))
