"""FetchRequest v0: FETCH (type 1): read up to MAX_SIZE bytes of a partition's log from a byte
offset.

Since Kafka 0.6.0.

Generated from schemas/legacy/fetch_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, InvalidMagicError, KafkaFormatError, TruncatedError

SCHEMA = "schemas/legacy/fetch_request_v0.yaml"
NAME = "FetchRequest"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

REQUEST_LENGTH_OFFSET = 0
REQUEST_LENGTH_LENGTH = 4
REQUEST_TYPE_OFFSET = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH
REQUEST_TYPE_LENGTH = 2
TOPIC_OFFSET = REQUEST_TYPE_OFFSET + REQUEST_TYPE_LENGTH
FETCH_REQUEST_OVERHEAD = TOPIC_OFFSET  # bytes before the first variable-size field
MIN_FETCH_REQUEST_SIZE = 24  # smallest encoded size
REQUEST_LENGTH_END = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH  # request_length counts from here
MIN_REQUEST_LENGTH = (
    FETCH_REQUEST_OVERHEAD - REQUEST_LENGTH_END
)  # the fixed-width fields request_length covers


_S0 = struct.Struct(">ih")
_S1 = struct.Struct(">iqi")
_S2 = struct.Struct(">i")
_S3 = struct.Struct(">h")
_new = tuple.__new__
_I16 = struct.Struct(">h")


# -- typed values ---------------------------------------------------------------


class FetchRequest(NamedTuple):
    """FETCH (type 1): read up to MAX_SIZE bytes of a partition's log from a byte
    offset.

    Fields:
        request_type: REQUEST_TYPE; 1 for this request (see the RequestType enum).
        topic: Topic name (ASCII, not null terminated; it names a directory on the
            broker).
        partition: Partition to act on, numbered from 0.
        offset: Byte offset in the partition's log to start from.
        max_size: Maximum number of bytes of messages to return; the response may end
            mid-message.
    """

    request_type: int = 1
    topic: str | None = None
    partition: int | None = None
    offset: int | None = None
    max_size: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_fetch_request_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[FetchRequest], int]:
    """Decode ``count`` consecutive FetchRequests from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_REQUEST_SIZE:
        raise InvalidLengthError(
            f"{count} FetchRequests cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, FetchRequest
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type) = _S0.unpack_from(buf, pos)
            pos += FETCH_REQUEST_OVERHEAD
            end = start + REQUEST_LENGTH_END + request_length
            # shorter than the fixed fields it covers: they would be read past the end
            if request_length < MIN_REQUEST_LENGTH:
                raise InvalidLengthError(
                    f"FetchRequest request_length is {request_length}, less than the {MIN_REQUEST_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"FetchRequest needs {end - start} bytes, {len(buf) - start} present", start
                )
            if request_type != 1:
                raise InvalidMagicError(
                    f"FetchRequest request_type is {request_type}, expected 1", start + REQUEST_TYPE_OFFSET
                )

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > end - pos:
                raise InvalidLengthError(
                    f"FetchRequest topic length {n} runs past byte {end}, the end of what holds it", pos - 1
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"FetchRequest topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition, offset, max_size) = _S1.unpack_from(buf, pos)
            pos += 16
            if pos != end:
                raise InvalidLengthError(
                    f"FetchRequest fields end at byte {pos}, its length says {end}", start
                )
            append(new(cls, (request_type, topic, partition, offset, max_size)))
    except (IndexError, struct.error):
        raise TruncatedError("FetchRequest ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"FetchRequest has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchRequest runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_fetch_request(buf, pos: int = 0) -> tuple[FetchRequest, int]:
    """Decode one FetchRequest at ``pos``; return it and the position after it."""
    items, pos = decode_fetch_request_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_fetch_request_array(items) -> bytes:
    """Encode a sequence of FetchRequests back to back."""
    out = bytearray()
    for item in items:
        (_, topic, partition, offset, max_size) = item

        p3 = _S1.pack(partition, offset, max_size)

        d2 = topic.encode() if topic is not None else None
        if d2 is None:
            raise ValueError("FetchRequest topic cannot be null")
            d2 = b""
        else:
            p2 = _I16.pack(len(d2))

        p1 = _S3.pack(1)

        s0 = b"".join((p1, p2, d2, p3))
        p0 = _S2.pack(len(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_fetch_request(item) -> bytes:
    """Encode one FetchRequest."""
    return encode_fetch_request_array((item,))


# -- columnar decoding ------------------------------------------------------------


class FetchRequestColumns:
    """Decoded FetchRequests as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "request_type",
        "topic",
        "partition",
        "offset",
        "max_size",
    )

    def __init__(self) -> None:
        self.request_type: list = []
        self.topic: list = []
        self.partition: list = []
        self.offset: list = []
        self.max_size: list = []

    def __len__(self) -> int:
        return len(self.request_type)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.request_type[n:]
        del self.topic[n:]
        del self.partition[n:]
        del self.offset[n:]
        del self.max_size[n:]


def decode_fetch_request_columns(
    buf, pos: int, count: int, columns: FetchRequestColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive FetchRequests at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_fetch_request_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_REQUEST_SIZE:
        raise InvalidLengthError(
            f"{count} FetchRequests cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_request_type = columns.request_type.append
    append_topic = columns.topic.append
    append_partition = columns.partition.append
    append_offset = columns.offset.append
    append_max_size = columns.max_size.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type) = _S0.unpack_from(buf, pos)
            pos += FETCH_REQUEST_OVERHEAD
            end = start + REQUEST_LENGTH_END + request_length
            # shorter than the fixed fields it covers: they would be read past the end
            if request_length < MIN_REQUEST_LENGTH:
                raise InvalidLengthError(
                    f"FetchRequest request_length is {request_length}, less than the {MIN_REQUEST_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"FetchRequest needs {end - start} bytes, {len(buf) - start} present", start
                )
            if request_type != 1:
                raise InvalidMagicError(
                    f"FetchRequest request_type is {request_type}, expected 1", start + REQUEST_TYPE_OFFSET
                )

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > end - pos:
                raise InvalidLengthError(
                    f"FetchRequest topic length {n} runs past byte {end}, the end of what holds it", pos - 1
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"FetchRequest topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition, offset, max_size) = _S1.unpack_from(buf, pos)
            pos += 16
            if pos != end:
                raise InvalidLengthError(
                    f"FetchRequest fields end at byte {pos}, its length says {end}", start
                )
            append_request_type(request_type)
            append_topic(topic)
            append_partition(partition)
            append_offset(offset)
            append_max_size(max_size)
    except (IndexError, struct.error):
        raise TruncatedError("FetchRequest ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"FetchRequest has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchRequest runs past byte {stop}, the end of what holds it", start)
    return pos
