"""MultiProduceRequest v0: MULTIPRODUCE (type 3): several PRODUCE requests chained together after a
multi- request header.

Since Kafka 0.6.0.

Generated from schemas/legacy/multi_produce_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, InvalidMagicError, TruncatedError

from .partition_produce_v0 import (
    PartitionProduceColumns,
    decode_partition_produce_array,
    decode_partition_produce_columns,
    encode_partition_produce_array,
)

SCHEMA = "schemas/legacy/multi_produce_request_v0.yaml"
NAME = "MultiProduceRequest"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

REQUEST_LENGTH_OFFSET = 0
REQUEST_LENGTH_LENGTH = 4
REQUEST_TYPE_OFFSET = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH
REQUEST_TYPE_LENGTH = 2
TOPICPARTITION_COUNT_OFFSET = REQUEST_TYPE_OFFSET + REQUEST_TYPE_LENGTH
TOPICPARTITION_COUNT_LENGTH = 2
PRODUCES_OFFSET = TOPICPARTITION_COUNT_OFFSET + TOPICPARTITION_COUNT_LENGTH
MULTI_PRODUCE_REQUEST_OVERHEAD = PRODUCES_OFFSET  # bytes before the first variable-size field
MIN_MULTI_PRODUCE_REQUEST_SIZE = 8  # smallest encoded size
REQUEST_LENGTH_END = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH  # request_length counts from here
MIN_REQUEST_LENGTH = (
    MULTI_PRODUCE_REQUEST_OVERHEAD - REQUEST_LENGTH_END
)  # the fixed-width fields request_length covers


_S0 = struct.Struct(">ihh")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">hh")
_new = tuple.__new__


# -- typed values ---------------------------------------------------------------


class MultiProduceRequest(NamedTuple):
    """MULTIPRODUCE (type 3): several PRODUCE requests chained together after a multi-
    request header.

    Fields:
        request_type: REQUEST_TYPE; 3 for this request (see the RequestType enum).
        produces: One message set per topic-partition.
    """

    request_type: int = 3
    produces: Sequence = ()


# -- fast codec -----------------------------------------------------------------


def decode_multi_produce_request_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[MultiProduceRequest], int]:
    """Decode ``count`` consecutive MultiProduceRequests from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_MULTI_PRODUCE_REQUEST_SIZE:
        raise InvalidLengthError(
            f"{count} MultiProduceRequests cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, MultiProduceRequest
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type, topicpartition_count) = _S0.unpack_from(buf, pos)
            pos += MULTI_PRODUCE_REQUEST_OVERHEAD
            end = start + REQUEST_LENGTH_END + request_length
            # shorter than the fixed fields it covers: they would be read past the end
            if request_length < MIN_REQUEST_LENGTH:
                raise InvalidLengthError(
                    f"MultiProduceRequest request_length is {request_length}, less than the {MIN_REQUEST_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"MultiProduceRequest needs {end - start} bytes, {len(buf) - start} present", start
                )
            if request_type != 3:
                raise InvalidMagicError(
                    f"MultiProduceRequest request_type is {request_type}, expected 3",
                    start + REQUEST_TYPE_OFFSET,
                )
            if topicpartition_count < 0:
                raise InvalidLengthError(
                    f"MultiProduceRequest topicpartition_count {topicpartition_count} is negative",
                    start + TOPICPARTITION_COUNT_OFFSET,
                )

            n = topicpartition_count
            if n == 0:
                produces = []
            else:
                produces, pos = decode_partition_produce_array(buf, pos, n, end)
            if pos != end:
                raise InvalidLengthError(
                    f"MultiProduceRequest fields end at byte {pos}, its length says {end}", start
                )
            append(new(cls, (request_type, produces)))
    except (IndexError, struct.error):
        raise TruncatedError("MultiProduceRequest ends before its fields do", start) from None
    return items, pos


def decode_multi_produce_request(buf, pos: int = 0) -> tuple[MultiProduceRequest, int]:
    """Decode one MultiProduceRequest at ``pos``; return it and the position after it."""
    items, pos = decode_multi_produce_request_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_multi_produce_request_array(items) -> bytes:
    """Encode a sequence of MultiProduceRequests back to back."""
    out = bytearray()
    for item in items:
        (_, produces) = item

        if produces:
            d2 = encode_partition_produce_array(produces)
        else:
            d2 = b""

        p1 = _S2.pack(3, len(produces))

        s0 = b"".join((p1, d2))
        p0 = _S1.pack(len(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_multi_produce_request(item) -> bytes:
    """Encode one MultiProduceRequest."""
    return encode_multi_produce_request_array((item,))


# -- columnar decoding ------------------------------------------------------------


class MultiProduceRequestColumns:
    """Decoded MultiProduceRequests as one list per field (columns, ready for Arrow).

    ``produces_offsets`` holds the boundaries of each item's produces in
    ``produces`` (a :class:`PartitionProduceColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "request_type",
        "produces_offsets",
        "produces",
    )

    def __init__(self) -> None:
        self.request_type: list = []
        self.produces_offsets: list[int] = [0]
        self.produces = PartitionProduceColumns()

    def __len__(self) -> int:
        return len(self.request_type)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.request_type[n:]
        del self.produces_offsets[n + 1 :]
        self.produces.truncate(self.produces_offsets[-1])


def decode_multi_produce_request_columns(
    buf, pos: int, count: int, columns: MultiProduceRequestColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive MultiProduceRequests at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_multi_produce_request_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_MULTI_PRODUCE_REQUEST_SIZE:
        raise InvalidLengthError(
            f"{count} MultiProduceRequests cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_request_type = columns.request_type.append
    produces_columns = columns.produces
    append_produces_offset = columns.produces_offsets.append
    produces_total = columns.produces_offsets[-1]
    start = pos
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type, topicpartition_count) = _S0.unpack_from(buf, pos)
            pos += MULTI_PRODUCE_REQUEST_OVERHEAD
            end = start + REQUEST_LENGTH_END + request_length
            # shorter than the fixed fields it covers: they would be read past the end
            if request_length < MIN_REQUEST_LENGTH:
                raise InvalidLengthError(
                    f"MultiProduceRequest request_length is {request_length}, less than the {MIN_REQUEST_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"MultiProduceRequest needs {end - start} bytes, {len(buf) - start} present", start
                )
            if request_type != 3:
                raise InvalidMagicError(
                    f"MultiProduceRequest request_type is {request_type}, expected 3",
                    start + REQUEST_TYPE_OFFSET,
                )
            if topicpartition_count < 0:
                raise InvalidLengthError(
                    f"MultiProduceRequest topicpartition_count {topicpartition_count} is negative",
                    start + TOPICPARTITION_COUNT_OFFSET,
                )

            n = topicpartition_count
            if n:
                pos = decode_partition_produce_columns(buf, pos, n, produces_columns, end)
                produces_total += n
            if pos != end:
                raise InvalidLengthError(
                    f"MultiProduceRequest fields end at byte {pos}, its length says {end}", start
                )
            append_request_type(request_type)
            append_produces_offset(produces_total)
    except (IndexError, struct.error):
        raise TruncatedError("MultiProduceRequest ends before its fields do", start) from None
    return pos
