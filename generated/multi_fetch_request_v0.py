"""MultiFetchRequest v0: MULTIFETCH (type 2): several FETCH requests chained together after a multi-
request header.

Since Kafka 0.6.0.

Generated from schemas/legacy/multi_fetch_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, InvalidMagicError, TruncatedError

from .partition_fetch_v0 import (
    PartitionFetchColumns,
    decode_partition_fetch_array,
    decode_partition_fetch_columns,
    encode_partition_fetch_array,
)

SCHEMA = "schemas/legacy/multi_fetch_request_v0.yaml"
NAME = "MultiFetchRequest"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

REQUEST_LENGTH_OFFSET = 0
REQUEST_LENGTH_LENGTH = 4
REQUEST_TYPE_OFFSET = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH
REQUEST_TYPE_LENGTH = 2
TOPICPARTITION_COUNT_OFFSET = REQUEST_TYPE_OFFSET + REQUEST_TYPE_LENGTH
TOPICPARTITION_COUNT_LENGTH = 2
FETCHES_OFFSET = TOPICPARTITION_COUNT_OFFSET + TOPICPARTITION_COUNT_LENGTH
MULTI_FETCH_REQUEST_OVERHEAD = FETCHES_OFFSET  # bytes before the first variable-size field
MIN_MULTI_FETCH_REQUEST_SIZE = 8  # smallest encoded size
REQUEST_LENGTH_END = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH  # request_length counts from here
MIN_REQUEST_LENGTH = (
    MULTI_FETCH_REQUEST_OVERHEAD - REQUEST_LENGTH_END
)  # the fixed-width fields request_length covers


_S0 = struct.Struct(">ihh")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">hh")
_new = tuple.__new__


# -- typed values ---------------------------------------------------------------


class MultiFetchRequest(NamedTuple):
    """MULTIFETCH (type 2): several FETCH requests chained together after a multi-
    request header.

    Fields:
        request_type: REQUEST_TYPE; 2 for this request (see the RequestType enum).
        fetches: One fetch per topic-partition.
    """

    request_type: int = 2
    fetches: Sequence = ()


# -- fast codec -----------------------------------------------------------------


def decode_multi_fetch_request_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[MultiFetchRequest], int]:
    """Decode ``count`` consecutive MultiFetchRequests from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_MULTI_FETCH_REQUEST_SIZE:
        raise InvalidLengthError(
            f"{count} MultiFetchRequests cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, MultiFetchRequest
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type, topicpartition_count) = _S0.unpack_from(buf, pos)
            pos += MULTI_FETCH_REQUEST_OVERHEAD
            end = start + REQUEST_LENGTH_END + request_length
            # shorter than the fixed fields it covers: they would be read past the end
            if request_length < MIN_REQUEST_LENGTH:
                raise InvalidLengthError(
                    f"MultiFetchRequest request_length is {request_length}, less than the {MIN_REQUEST_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"MultiFetchRequest needs {end - start} bytes, {len(buf) - start} present", start
                )
            if request_type != 2:
                raise InvalidMagicError(
                    f"MultiFetchRequest request_type is {request_type}, expected 2",
                    start + REQUEST_TYPE_OFFSET,
                )
            if topicpartition_count < 0:
                raise InvalidLengthError(
                    f"MultiFetchRequest topicpartition_count {topicpartition_count} is negative",
                    start + TOPICPARTITION_COUNT_OFFSET,
                )

            n = topicpartition_count
            if n == 0:
                fetches = []
            else:
                fetches, pos = decode_partition_fetch_array(buf, pos, n, end)
            if pos != end:
                raise InvalidLengthError(
                    f"MultiFetchRequest fields end at byte {pos}, its length says {end}", start
                )
            append(new(cls, (request_type, fetches)))
    except (IndexError, struct.error):
        raise TruncatedError("MultiFetchRequest ends before its fields do", start) from None
    return items, pos


def decode_multi_fetch_request(buf, pos: int = 0) -> tuple[MultiFetchRequest, int]:
    """Decode one MultiFetchRequest at ``pos``; return it and the position after it."""
    items, pos = decode_multi_fetch_request_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_multi_fetch_request_array(items) -> bytes:
    """Encode a sequence of MultiFetchRequests back to back."""
    out = bytearray()
    for item in items:
        (_, fetches) = item

        if fetches:
            d2 = encode_partition_fetch_array(fetches)
        else:
            d2 = b""

        p1 = _S2.pack(2, len(fetches))

        s0 = b"".join((p1, d2))
        p0 = _S1.pack(len(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_multi_fetch_request(item) -> bytes:
    """Encode one MultiFetchRequest."""
    return encode_multi_fetch_request_array((item,))


# -- columnar decoding ------------------------------------------------------------


class MultiFetchRequestColumns:
    """Decoded MultiFetchRequests as one list per field (columns, ready for Arrow).

    ``fetches_offsets`` holds the boundaries of each item's fetches in
    ``fetches`` (a :class:`PartitionFetchColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "request_type",
        "fetches_offsets",
        "fetches",
    )

    def __init__(self) -> None:
        self.request_type: list = []
        self.fetches_offsets: list[int] = [0]
        self.fetches = PartitionFetchColumns()

    def __len__(self) -> int:
        return len(self.request_type)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.request_type[n:]
        del self.fetches_offsets[n + 1 :]
        self.fetches.truncate(self.fetches_offsets[-1])


def decode_multi_fetch_request_columns(
    buf, pos: int, count: int, columns: MultiFetchRequestColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive MultiFetchRequests at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_multi_fetch_request_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_MULTI_FETCH_REQUEST_SIZE:
        raise InvalidLengthError(
            f"{count} MultiFetchRequests cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_request_type = columns.request_type.append
    fetches_columns = columns.fetches
    append_fetches_offset = columns.fetches_offsets.append
    fetches_total = columns.fetches_offsets[-1]
    start = pos
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type, topicpartition_count) = _S0.unpack_from(buf, pos)
            pos += MULTI_FETCH_REQUEST_OVERHEAD
            end = start + REQUEST_LENGTH_END + request_length
            # shorter than the fixed fields it covers: they would be read past the end
            if request_length < MIN_REQUEST_LENGTH:
                raise InvalidLengthError(
                    f"MultiFetchRequest request_length is {request_length}, less than the {MIN_REQUEST_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"MultiFetchRequest needs {end - start} bytes, {len(buf) - start} present", start
                )
            if request_type != 2:
                raise InvalidMagicError(
                    f"MultiFetchRequest request_type is {request_type}, expected 2",
                    start + REQUEST_TYPE_OFFSET,
                )
            if topicpartition_count < 0:
                raise InvalidLengthError(
                    f"MultiFetchRequest topicpartition_count {topicpartition_count} is negative",
                    start + TOPICPARTITION_COUNT_OFFSET,
                )

            n = topicpartition_count
            if n:
                pos = decode_partition_fetch_columns(buf, pos, n, fetches_columns, end)
                fetches_total += n
            if pos != end:
                raise InvalidLengthError(
                    f"MultiFetchRequest fields end at byte {pos}, its length says {end}", start
                )
            append_request_type(request_type)
            append_fetches_offset(fetches_total)
    except (IndexError, struct.error):
        raise TruncatedError("MultiFetchRequest ends before its fields do", start) from None
    return pos
