"""MultiRequestHeader v0: The header of a 0.7 multi-request (Multi-Produce, Multi-Fetch): one request
for several topic-partitions.

Since Kafka 0.6.0.

Generated from schemas/legacy/multi_request_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/legacy/multi_request_header_v0.yaml"
NAME = "MultiRequestHeader"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

REQUEST_LENGTH_OFFSET = 0
REQUEST_LENGTH_LENGTH = 4
REQUEST_TYPE_OFFSET = REQUEST_LENGTH_OFFSET + REQUEST_LENGTH_LENGTH
REQUEST_TYPE_LENGTH = 2
TOPICPARTITION_COUNT_OFFSET = REQUEST_TYPE_OFFSET + REQUEST_TYPE_LENGTH
TOPICPARTITION_COUNT_LENGTH = 2
MULTI_REQUEST_HEADER_SIZE = TOPICPARTITION_COUNT_OFFSET + TOPICPARTITION_COUNT_LENGTH


_S0 = struct.Struct(">ihh")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">h")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class MultiRequestHeader(NamedTuple):
    """The header of a 0.7 multi-request (Multi-Produce, Multi-Fetch): one request for
    several topic-partitions.

    Fields:
        request_length: Length in bytes of the entire request, excluding this field.
        request_type: REQUEST_TYPE: 2 multi-fetch or 3 multi-produce.
        topicpartition_count: Number of unique topic-partition combinations in this request.
    """

    request_length: int | None = None
    request_type: int | None = None
    topicpartition_count: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_multi_request_header_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[MultiRequestHeader], int]:
    """Decode ``count`` consecutive MultiRequestHeaders from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MULTI_REQUEST_HEADER_SIZE:
        raise InvalidLengthError(
            f"{count} MultiRequestHeaders cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, MultiRequestHeader
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type, topicpartition_count) = _S0.unpack_from(buf, pos)
            pos += MULTI_REQUEST_HEADER_SIZE
            append(new(cls, (request_length, request_type, topicpartition_count)))
    except (IndexError, struct.error):
        raise TruncatedError("MultiRequestHeader ends before its fields do", start) from None
    return items, pos


def decode_multi_request_header(buf, pos: int = 0) -> tuple[MultiRequestHeader, int]:
    """Decode one MultiRequestHeader at ``pos``; return it and the position after it."""
    items, pos = decode_multi_request_header_array(bytes(buf), pos, 1)
    return items[0], pos


def multi_request_header_column_parts(items) -> list:
    """:func:`multi_request_header_parts_of_columns` of ``items``, a sequence of item tuples."""
    return multi_request_header_parts_of_columns(transpose(items, 3))


def multi_request_header_parts_of_columns(cols) -> list:
    """Encode items given as columns with C-level ``map`` calls: the common case, fast.

    ``cols[j]`` holds field ``j`` of every item; a column that is None holds the field's default
    for every item. Returns the parts: iterables that each yield one piece per item, in item order
    (an item's encoding is its pieces in part order). A value outside the common case (a null, a
    number beyond the varint tables) raises KeyError/TypeError/IndexError/AttributeError/ValueError,
    and the caller falls back to the general loop.
    """
    parts = []
    col = cols[0]
    parts.append(repeat(_S1.pack(None)) if col is None else map(_S1.pack, col))
    col = cols[1]
    parts.append(repeat(_S2.pack(None)) if col is None else map(_S2.pack, col))
    col = cols[2]
    parts.append(repeat(_S2.pack(None)) if col is None else map(_S2.pack, col))
    return parts


def _encode_multi_request_header_columns(cols) -> bytes:
    """Encode column by column (:func:`multi_request_header_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*multi_request_header_parts_of_columns(cols))))


def encode_multi_request_header_array(items) -> bytes:
    """Encode a sequence of MultiRequestHeaders back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 3:
        try:
            return _encode_multi_request_header_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_multi_request_header_columns(transpose(items, 3))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (request_length, request_type, topicpartition_count) = item

        p0 = _S0.pack(request_length, request_type, topicpartition_count)
        out += p0
    return bytes(out)


def encode_multi_request_header(item) -> bytes:
    """Encode one MultiRequestHeader."""
    return encode_multi_request_header_array((item,))


# -- columnar decoding ------------------------------------------------------------


class MultiRequestHeaderColumns:
    """Decoded MultiRequestHeaders as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "request_length",
        "request_type",
        "topicpartition_count",
    )

    def __init__(self) -> None:
        self.request_length: list = []
        self.request_type: list = []
        self.topicpartition_count: list = []

    def __len__(self) -> int:
        return len(self.request_length)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.request_length[n:]
        del self.request_type[n:]
        del self.topicpartition_count[n:]


def decode_multi_request_header_columns(
    buf, pos: int, count: int, columns: MultiRequestHeaderColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive MultiRequestHeaders at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_multi_request_header_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MULTI_REQUEST_HEADER_SIZE:
        raise InvalidLengthError(
            f"{count} MultiRequestHeaders cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_request_length = columns.request_length.append
    append_request_type = columns.request_type.append
    append_topicpartition_count = columns.topicpartition_count.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (request_length, request_type, topicpartition_count) = _S0.unpack_from(buf, pos)
            pos += MULTI_REQUEST_HEADER_SIZE
            append_request_length(request_length)
            append_request_type(request_type)
            append_topicpartition_count(topicpartition_count)
    except (IndexError, struct.error):
        raise TruncatedError("MultiRequestHeader ends before its fields do", start) from None
    return pos
