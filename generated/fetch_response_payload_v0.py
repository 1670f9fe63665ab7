"""FetchResponsePayload v0: A Fetch response, version 0 (Kafka 0.8 to 0.9), as a client holds it after
reading the 4-byte size that frames it on the socket: the response header's
correlation id, then every requested topic with its partitions, each with
its message set.

Since Kafka 0.8.0.

Generated from schemas/protocol/fetch_response_payload_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, TruncatedError

from .fetch_topic_v0 import (
    FetchTopicColumns,
    decode_fetch_topic_array,
    decode_fetch_topic_columns,
    encode_fetch_topic_array,
)

SCHEMA = "schemas/protocol/fetch_response_payload_v0.yaml"
NAME = "FetchResponsePayload"
VERSION = 0
SINCE = "0.8.0"

# -- layout ------------------------------------------------------------------

CORRELATION_ID_OFFSET = 0
CORRELATION_ID_LENGTH = 4
TOPICS_OFFSET = CORRELATION_ID_OFFSET + CORRELATION_ID_LENGTH
FETCH_RESPONSE_PAYLOAD_OVERHEAD = TOPICS_OFFSET  # bytes before the first variable-size field
MIN_FETCH_RESPONSE_PAYLOAD_SIZE = 8  # smallest encoded size


_S0 = struct.Struct(">i")
_new = tuple.__new__
_I32 = struct.Struct(">i")


# -- typed values ---------------------------------------------------------------


class FetchResponsePayload(NamedTuple):
    """A Fetch response, version 0 (Kafka 0.8 to 0.9), as a client holds it after
    reading the 4-byte size that frames it on the socket: the response header's
    correlation id, then every requested topic with its partitions, each with its
    message set.

    Fields:
        correlation_id: The correlation id of the request this answers (the response header
            v0).
        topics: The topics fetched, an int32 count followed by each topic.
    """

    correlation_id: int | None = None
    topics: Sequence = ()


# -- fast codec -----------------------------------------------------------------


def decode_fetch_response_payload_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[FetchResponsePayload], int]:
    """Decode ``count`` consecutive FetchResponsePayloads from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_RESPONSE_PAYLOAD_SIZE:
        raise InvalidLengthError(
            f"{count} FetchResponsePayloads cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, FetchResponsePayload
    try:
        for _ in range(count):
            start = pos

            (correlation_id,) = _S0.unpack_from(buf, pos)
            pos += FETCH_RESPONSE_PAYLOAD_OVERHEAD

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n == 0:
                topics = []
            else:
                topics, pos = decode_fetch_topic_array(buf, pos, n, stop)
            append(new(cls, (correlation_id, topics)))
    except (IndexError, struct.error):
        raise TruncatedError("FetchResponsePayload ends before its fields do", start) from None
    return items, pos


def decode_fetch_response_payload(buf, pos: int = 0) -> tuple[FetchResponsePayload, int]:
    """Decode one FetchResponsePayload at ``pos``; return it and the position after it."""
    items, pos = decode_fetch_response_payload_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_fetch_response_payload_array(items) -> bytes:
    """Encode a sequence of FetchResponsePayloads back to back."""
    out = bytearray()
    for item in items:
        (correlation_id, topics) = item

        if topics:
            d1 = encode_fetch_topic_array(topics)
            p1 = _I32.pack(len(topics))
        else:
            d1 = b""
            p1 = _I32.pack(0)

        p0 = _S0.pack(correlation_id)
        out += p0
        out += p1
        out += d1
    return bytes(out)


def encode_fetch_response_payload(item) -> bytes:
    """Encode one FetchResponsePayload."""
    return encode_fetch_response_payload_array((item,))


# -- columnar decoding ------------------------------------------------------------


class FetchResponsePayloadColumns:
    """Decoded FetchResponsePayloads as one list per field (columns, ready for Arrow).

    ``topics_offsets`` holds the boundaries of each item's topics in
    ``topics`` (a :class:`FetchTopicColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "correlation_id",
        "topics_offsets",
        "topics",
    )

    def __init__(self) -> None:
        self.correlation_id: list = []
        self.topics_offsets: list[int] = [0]
        self.topics = FetchTopicColumns()

    def __len__(self) -> int:
        return len(self.correlation_id)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.correlation_id[n:]
        del self.topics_offsets[n + 1 :]
        self.topics.truncate(self.topics_offsets[-1])


def decode_fetch_response_payload_columns(
    buf, pos: int, count: int, columns: FetchResponsePayloadColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive FetchResponsePayloads at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_fetch_response_payload_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_RESPONSE_PAYLOAD_SIZE:
        raise InvalidLengthError(
            f"{count} FetchResponsePayloads cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_correlation_id = columns.correlation_id.append
    topics_columns = columns.topics
    append_topics_offset = columns.topics_offsets.append
    topics_total = columns.topics_offsets[-1]
    start = pos
    try:
        for _ in range(count):
            start = pos

            (correlation_id,) = _S0.unpack_from(buf, pos)
            pos += FETCH_RESPONSE_PAYLOAD_OVERHEAD

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n:
                pos = decode_fetch_topic_columns(buf, pos, n, topics_columns, stop)
                topics_total += n
            append_correlation_id(correlation_id)
            append_topics_offset(topics_total)
    except (IndexError, struct.error):
        raise TruncatedError("FetchResponsePayload ends before its fields do", start) from None
    return pos
