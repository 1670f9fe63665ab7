"""OffsetsRequest v0: OFFSETS (type 4): find up to MAX_NUMBER offsets of messages written before
TIME.

Since Kafka 0.6.0.

Generated from schemas/legacy/offsets_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, InvalidMagicError, KafkaFormatError, TruncatedError

SCHEMA = "schemas/legacy/offsets_request_v0.yaml"
NAME = "OffsetsRequest"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

REQUEST_LENGTH_OFFSET = 0
REQUEST_LENGTH_LENGTH = 4
REQUEST_TYPE_OFFSET = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH
REQUEST_TYPE_LENGTH = 2
TOPIC_OFFSET = REQUEST_TYPE_OFFSET + REQUEST_TYPE_LENGTH
OFFSETS_REQUEST_OVERHEAD = TOPIC_OFFSET  # bytes before the first variable-size field
MIN_OFFSETS_REQUEST_SIZE = 24  # smallest encoded size
REQUEST_LENGTH_END = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH  # request_length counts from here
MIN_REQUEST_LENGTH = (
    OFFSETS_REQUEST_OVERHEAD - REQUEST_LENGTH_END
)  # the fixed-width fields request_length covers


_S0 = struct.Struct(">ih")
_S1 = struct.Struct(">iqi")
_S2 = struct.Struct(">i")
_S3 = struct.Struct(">h")
_new = tuple.__new__
_I16 = struct.Struct(">h")


# -- typed values ---------------------------------------------------------------


class OffsetsRequest(NamedTuple):
    """OFFSETS (type 4): find up to MAX_NUMBER offsets of messages written before TIME.

    Fields:
        request_type: REQUEST_TYPE; 4 for this request (see the RequestType enum).
        topic: Topic name (ASCII, not null terminated; it names a directory on the
            broker).
        partition: Partition to act on, numbered from 0.
        time: Milliseconds since the UNIX epoch; -1 latest, -2 earliest (see the
            OffsetsTime enum).
        max_number: Return up to this many offsets.
    """

    request_type: int = 4
    topic: str | None = None
    partition: int | None = None
    time: int | None = None
    max_number: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_offsets_request_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[OffsetsRequest], int]:
    """Decode ``count`` consecutive OffsetsRequests from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_OFFSETS_REQUEST_SIZE:
        raise InvalidLengthError(
            f"{count} OffsetsRequests cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, OffsetsRequest
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type) = _S0.unpack_from(buf, pos)
            pos += OFFSETS_REQUEST_OVERHEAD
            end = start + REQUEST_LENGTH_END + request_length
            # shorter than the fixed fields it covers: they would be read past the end
            if request_length < MIN_REQUEST_LENGTH:
                raise InvalidLengthError(
                    f"OffsetsRequest request_length is {request_length}, less than the {MIN_REQUEST_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"OffsetsRequest needs {end - start} bytes, {len(buf) - start} present", start
                )
            if request_type != 4:
                raise InvalidMagicError(
                    f"OffsetsRequest request_type is {request_type}, expected 4", start + REQUEST_TYPE_OFFSET
                )

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > end - pos:
                raise InvalidLengthError(
                    f"OffsetsRequest topic length {n} runs past byte {end}, the end of what holds it", pos - 1
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"OffsetsRequest topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition, time, max_number) = _S1.unpack_from(buf, pos)
            pos += 16
            if pos != end:
                raise InvalidLengthError(
                    f"OffsetsRequest fields end at byte {pos}, its length says {end}", start
                )
            append(new(cls, (request_type, topic, partition, time, max_number)))
    except (IndexError, struct.error):
        raise TruncatedError("OffsetsRequest ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(
            f"OffsetsRequest has a string that is not UTF-8: {exc.reason}", start
        ) from None
    if pos > stop:
        raise TruncatedError(f"OffsetsRequest runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_offsets_request(buf, pos: int = 0) -> tuple[OffsetsRequest, int]:
    """Decode one OffsetsRequest at ``pos``; return it and the position after it."""
    items, pos = decode_offsets_request_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_offsets_request_array(items) -> bytes:
    """Encode a sequence of OffsetsRequests back to back."""
    out = bytearray()
    for item in items:
        (_, topic, partition, time, max_number) = item

        p3 = _S1.pack(partition, time, max_number)

        d2 = topic.encode() if topic is not None else None
        if d2 is None:
            raise ValueError("OffsetsRequest topic cannot be null")
            d2 = b""
        else:
            p2 = _I16.pack(len(d2))

        p1 = _S3.pack(4)

        s0 = b"".join((p1, p2, d2, p3))
        p0 = _S2.pack(len(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_offsets_request(item) -> bytes:
    """Encode one OffsetsRequest."""
    return encode_offsets_request_array((item,))


# -- columnar decoding ------------------------------------------------------------


class OffsetsRequestColumns:
    """Decoded OffsetsRequests as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "request_type",
        "topic",
        "partition",
        "time",
        "max_number",
    )

    def __init__(self) -> None:
        self.request_type: list = []
        self.topic: list = []
        self.partition: list = []
        self.time: list = []
        self.max_number: list = []

    def __len__(self) -> int:
        return len(self.request_type)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.request_type[n:]
        del self.topic[n:]
        del self.partition[n:]
        del self.time[n:]
        del self.max_number[n:]


def decode_offsets_request_columns(
    buf, pos: int, count: int, columns: OffsetsRequestColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive OffsetsRequests at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_offsets_request_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_OFFSETS_REQUEST_SIZE:
        raise InvalidLengthError(
            f"{count} OffsetsRequests cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_request_type = columns.request_type.append
    append_topic = columns.topic.append
    append_partition = columns.partition.append
    append_time = columns.time.append
    append_max_number = columns.max_number.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type) = _S0.unpack_from(buf, pos)
            pos += OFFSETS_REQUEST_OVERHEAD
            end = start + REQUEST_LENGTH_END + request_length
            # shorter than the fixed fields it covers: they would be read past the end
            if request_length < MIN_REQUEST_LENGTH:
                raise InvalidLengthError(
                    f"OffsetsRequest request_length is {request_length}, less than the {MIN_REQUEST_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"OffsetsRequest needs {end - start} bytes, {len(buf) - start} present", start
                )
            if request_type != 4:
                raise InvalidMagicError(
                    f"OffsetsRequest request_type is {request_type}, expected 4", start + REQUEST_TYPE_OFFSET
                )

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > end - pos:
                raise InvalidLengthError(
                    f"OffsetsRequest topic length {n} runs past byte {end}, the end of what holds it", pos - 1
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"OffsetsRequest topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition, time, max_number) = _S1.unpack_from(buf, pos)
            pos += 16
            if pos != end:
                raise InvalidLengthError(
                    f"OffsetsRequest fields end at byte {pos}, its length says {end}", start
                )
            append_request_type(request_type)
            append_topic(topic)
            append_partition(partition)
            append_time(time)
            append_max_number(max_number)
    except (IndexError, struct.error):
        raise TruncatedError("OffsetsRequest ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(
            f"OffsetsRequest has a string that is not UTF-8: {exc.reason}", start
        ) from None
    if pos > stop:
        raise TruncatedError(f"OffsetsRequest runs past byte {stop}, the end of what holds it", start)
    return pos
