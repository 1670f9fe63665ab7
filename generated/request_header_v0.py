"""RequestHeader v0: The header every single (non-multi) 0.7 request begins with. REQUEST_LENGTH
covers the whole request, so the request structures repeat these fields and
compute it.

Since Kafka 0.6.0.

Generated from schemas/legacy/request_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, KafkaFormatError, TruncatedError

SCHEMA = "schemas/legacy/request_header_v0.yaml"
NAME = "RequestHeader"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

REQUEST_LENGTH_OFFSET = 0
REQUEST_LENGTH_LENGTH = 4
REQUEST_TYPE_OFFSET = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH
REQUEST_TYPE_LENGTH = 2
TOPIC_OFFSET = REQUEST_TYPE_OFFSET + REQUEST_TYPE_LENGTH
REQUEST_HEADER_OVERHEAD = TOPIC_OFFSET  # bytes before the first variable-size field
MIN_REQUEST_HEADER_SIZE = 12  # smallest encoded size


_S0 = struct.Struct(">ih")
_S1 = struct.Struct(">i")
_new = tuple.__new__
_I16 = struct.Struct(">h")


# -- typed values ---------------------------------------------------------------


class RequestHeader(NamedTuple):
    """The header every single (non-multi) 0.7 request begins with. REQUEST_LENGTH
    covers the whole request, so the request structures repeat these fields and
    compute it.

    Fields:
        request_length: Length in bytes of the entire request, excluding this field.
        request_type: REQUEST_TYPE (see the RequestType enum).
        topic: Topic name (ASCII, not null terminated; it names a directory on the
            broker).
        partition: Partition to act on, numbered from 0.
    """

    request_length: int | None = None
    request_type: int | None = None
    topic: str | None = None
    partition: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_request_header_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[RequestHeader], int]:
    """Decode ``count`` consecutive RequestHeaders from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_REQUEST_HEADER_SIZE:
        raise InvalidLengthError(
            f"{count} RequestHeaders cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, RequestHeader
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type) = _S0.unpack_from(buf, pos)
            pos += REQUEST_HEADER_OVERHEAD

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > stop - pos:
                raise InvalidLengthError(
                    f"RequestHeader topic length {n} runs past byte {stop}, the end of what holds it", pos - 1
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"RequestHeader topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition,) = _S1.unpack_from(buf, pos)
            pos += 4
            append(new(cls, (request_length, request_type, topic, partition)))
    except (IndexError, struct.error):
        raise TruncatedError("RequestHeader ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"RequestHeader has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"RequestHeader runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_request_header(buf, pos: int = 0) -> tuple[RequestHeader, int]:
    """Decode one RequestHeader at ``pos``; return it and the position after it."""
    items, pos = decode_request_header_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_request_header_array(items) -> bytes:
    """Encode a sequence of RequestHeaders back to back."""
    out = bytearray()
    for item in items:
        (request_length, request_type, topic, partition) = item

        p2 = _S1.pack(partition)

        d1 = topic.encode() if topic is not None else None
        if d1 is None:
            raise ValueError("RequestHeader topic cannot be null")
            d1 = b""
        else:
            p1 = _I16.pack(len(d1))

        p0 = _S0.pack(request_length, request_type)
        out += p0
        out += p1
        out += d1
        out += p2
    return bytes(out)


def encode_request_header(item) -> bytes:
    """Encode one RequestHeader."""
    return encode_request_header_array((item,))


# -- columnar decoding ------------------------------------------------------------


class RequestHeaderColumns:
    """Decoded RequestHeaders as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "request_length",
        "request_type",
        "topic",
        "partition",
    )

    def __init__(self) -> None:
        self.request_length: list = []
        self.request_type: list = []
        self.topic: list = []
        self.partition: list = []

    def __len__(self) -> int:
        return len(self.request_length)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.request_length[n:]
        del self.request_type[n:]
        del self.topic[n:]
        del self.partition[n:]


def decode_request_header_columns(
    buf, pos: int, count: int, columns: RequestHeaderColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive RequestHeaders at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_request_header_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_REQUEST_HEADER_SIZE:
        raise InvalidLengthError(
            f"{count} RequestHeaders cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_request_length = columns.request_length.append
    append_request_type = columns.request_type.append
    append_topic = columns.topic.append
    append_partition = columns.partition.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type) = _S0.unpack_from(buf, pos)
            pos += REQUEST_HEADER_OVERHEAD

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > stop - pos:
                raise InvalidLengthError(
                    f"RequestHeader topic length {n} runs past byte {stop}, the end of what holds it", pos - 1
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"RequestHeader topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition,) = _S1.unpack_from(buf, pos)
            pos += 4
            append_request_length(request_length)
            append_request_type(request_type)
            append_topic(topic)
            append_partition(partition)
    except (IndexError, struct.error):
        raise TruncatedError("RequestHeader ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"RequestHeader has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"RequestHeader runs past byte {stop}, the end of what holds it", start)
    return pos
