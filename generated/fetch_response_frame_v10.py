"""FetchResponseFrame v10: A Fetch response, version 10 (Kafka 2.1, the first to allow zstd), as sent
on the socket: the 4-byte size, the response header's correlation id, then
the response with its topics and partitions, each partition with its record
set.

Since Kafka 2.1.0.

Generated from schemas/protocol/fetch_response_frame_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, TruncatedError

from .fetch_topic_v10 import (
    FetchTopicColumns,
    decode_fetch_topic_array,
    decode_fetch_topic_columns,
    encode_fetch_topic_array,
)

SCHEMA = "schemas/protocol/fetch_response_frame_v10.yaml"
NAME = "FetchResponseFrame"
VERSION = 10
SINCE = "2.1.0"

# -- layout ------------------------------------------------------------------

RESPONSE_LENGTH_OFFSET = 0
RESPONSE_LENGTH_LENGTH = 4
CORRELATION_ID_OFFSET = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH
CORRELATION_ID_LENGTH = 4
THROTTLE_TIME_MS_OFFSET = CORRELATION_ID_OFFSET + CORRELATION_ID_LENGTH
THROTTLE_TIME_MS_LENGTH = 4
ERROR_CODE_OFFSET = THROTTLE_TIME_MS_OFFSET + THROTTLE_TIME_MS_LENGTH
ERROR_CODE_LENGTH = 2
SESSION_ID_OFFSET = ERROR_CODE_OFFSET + ERROR_CODE_LENGTH
SESSION_ID_LENGTH = 4
TOPICS_OFFSET = SESSION_ID_OFFSET + SESSION_ID_LENGTH
FETCH_RESPONSE_FRAME_OVERHEAD = TOPICS_OFFSET  # bytes before the first variable-size field
MIN_FETCH_RESPONSE_FRAME_SIZE = 22  # smallest encoded size
RESPONSE_LENGTH_END = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH  # response_length counts from here
MIN_RESPONSE_LENGTH = (
    FETCH_RESPONSE_FRAME_OVERHEAD - RESPONSE_LENGTH_END
)  # the fixed-width fields response_length covers


_S0 = struct.Struct(">iiihi")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">iihi")
_new = tuple.__new__
_I32 = struct.Struct(">i")


# -- typed values ---------------------------------------------------------------


class FetchResponseFrame(NamedTuple):
    """A Fetch response, version 10 (Kafka 2.1, the first to allow zstd), as sent on
    the socket: the 4-byte size, the response header's correlation id, then the
    response with its topics and partitions, each partition with its record set.

    Fields:
        correlation_id: The correlation id of the request this answers (the response header
            v0).
        throttle_time_ms: How long the response was throttled for a quota violation, in
            milliseconds (0 if not).
        error_code: The top-level error code, 0 for none (Kafka's protocol error codes).
        session_id: The fetch session id, or 0 outside a fetch session.
        topics: The topics fetched, an int32 count followed by each topic.
    """

    correlation_id: int | None = None
    throttle_time_ms: int | None = None
    error_code: int | None = None
    session_id: int | None = None
    topics: Sequence = ()


# -- fast codec -----------------------------------------------------------------


def decode_fetch_response_frame_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[FetchResponseFrame], int]:
    """Decode ``count`` consecutive FetchResponseFrames from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_RESPONSE_FRAME_SIZE:
        raise InvalidLengthError(
            f"{count} FetchResponseFrames cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, FetchResponseFrame
    try:
        for _ in range(count):
            start = pos

            (response_length, correlation_id, throttle_time_ms, error_code, session_id) = _S0.unpack_from(
                buf, pos
            )
            pos += FETCH_RESPONSE_FRAME_OVERHEAD
            end = start + RESPONSE_LENGTH_END + response_length
            # shorter than the fixed fields it covers: they would be read past the end
            if response_length < MIN_RESPONSE_LENGTH:
                raise InvalidLengthError(
                    f"FetchResponseFrame response_length is {response_length}, less than the {MIN_RESPONSE_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"FetchResponseFrame needs {end - start} bytes, {len(buf) - start} present", start
                )

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n == 0:
                topics = []
            else:
                topics, pos = decode_fetch_topic_array(buf, pos, n, end)
            if pos != end:
                raise InvalidLengthError(
                    f"FetchResponseFrame fields end at byte {pos}, its length says {end}", start
                )
            append(new(cls, (correlation_id, throttle_time_ms, error_code, session_id, topics)))
    except (IndexError, struct.error):
        raise TruncatedError("FetchResponseFrame ends before its fields do", start) from None
    return items, pos


def decode_fetch_response_frame(buf, pos: int = 0) -> tuple[FetchResponseFrame, int]:
    """Decode one FetchResponseFrame at ``pos``; return it and the position after it."""
    items, pos = decode_fetch_response_frame_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_fetch_response_frame_array(items) -> bytes:
    """Encode a sequence of FetchResponseFrames back to back."""
    out = bytearray()
    for item in items:
        (correlation_id, throttle_time_ms, error_code, session_id, topics) = item

        if topics:
            d2 = encode_fetch_topic_array(topics)
            p2 = _I32.pack(len(topics))
        else:
            d2 = b""
            p2 = _I32.pack(0)

        p1 = _S2.pack(correlation_id, throttle_time_ms, error_code, session_id)

        s0 = b"".join((p1, p2, d2))
        p0 = _S1.pack(len(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_fetch_response_frame(item) -> bytes:
    """Encode one FetchResponseFrame."""
    return encode_fetch_response_frame_array((item,))


# -- columnar decoding ------------------------------------------------------------


class FetchResponseFrameColumns:
    """Decoded FetchResponseFrames as one list per field (columns, ready for Arrow).

    ``topics_offsets`` holds the boundaries of each item's topics in
    ``topics`` (a :class:`FetchTopicColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "correlation_id",
        "throttle_time_ms",
        "error_code",
        "session_id",
        "topics_offsets",
        "topics",
    )

    def __init__(self) -> None:
        self.correlation_id: list = []
        self.throttle_time_ms: list = []
        self.error_code: list = []
        self.session_id: list = []
        self.topics_offsets: list[int] = [0]
        self.topics = FetchTopicColumns()

    def __len__(self) -> int:
        return len(self.correlation_id)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.correlation_id[n:]
        del self.throttle_time_ms[n:]
        del self.error_code[n:]
        del self.session_id[n:]
        del self.topics_offsets[n + 1 :]
        self.topics.truncate(self.topics_offsets[-1])


def decode_fetch_response_frame_columns(
    buf, pos: int, count: int, columns: FetchResponseFrameColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive FetchResponseFrames at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_fetch_response_frame_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_RESPONSE_FRAME_SIZE:
        raise InvalidLengthError(
            f"{count} FetchResponseFrames cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_correlation_id = columns.correlation_id.append
    append_throttle_time_ms = columns.throttle_time_ms.append
    append_error_code = columns.error_code.append
    append_session_id = columns.session_id.append
    topics_columns = columns.topics
    append_topics_offset = columns.topics_offsets.append
    topics_total = columns.topics_offsets[-1]
    start = pos
    try:
        for _ in range(count):
            start = pos

            (response_length, correlation_id, throttle_time_ms, error_code, session_id) = _S0.unpack_from(
                buf, pos
            )
            pos += FETCH_RESPONSE_FRAME_OVERHEAD
            end = start + RESPONSE_LENGTH_END + response_length
            # shorter than the fixed fields it covers: they would be read past the end
            if response_length < MIN_RESPONSE_LENGTH:
                raise InvalidLengthError(
                    f"FetchResponseFrame response_length is {response_length}, less than the {MIN_RESPONSE_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"FetchResponseFrame needs {end - start} bytes, {len(buf) - start} present", start
                )

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n:
                pos = decode_fetch_topic_columns(buf, pos, n, topics_columns, end)
                topics_total += n
            if pos != end:
                raise InvalidLengthError(
                    f"FetchResponseFrame fields end at byte {pos}, its length says {end}", start
                )
            append_correlation_id(correlation_id)
            append_throttle_time_ms(throttle_time_ms)
            append_error_code(error_code)
            append_session_id(session_id)
            append_topics_offset(topics_total)
    except (IndexError, struct.error):
        raise TruncatedError("FetchResponseFrame ends before its fields do", start) from None
    return pos
