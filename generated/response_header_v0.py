"""ResponseHeader v0: The 6-byte header every 0.7 response begins with. RESPONSE_LENGTH covers the
whole response, so the response structures repeat these fields and compute
it.

Since Kafka 0.6.0.

Generated from schemas/legacy/response_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/legacy/response_header_v0.yaml"
NAME = "ResponseHeader"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

RESPONSE_LENGTH_OFFSET = 0
RESPONSE_LENGTH_LENGTH = 4
ERROR_CODE_OFFSET = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH
ERROR_CODE_LENGTH = 2
RESPONSE_HEADER_SIZE = ERROR_CODE_OFFSET + ERROR_CODE_LENGTH


_S0 = struct.Struct(">ih")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">h")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class ResponseHeader(NamedTuple):
    """The 6-byte header every 0.7 response begins with. RESPONSE_LENGTH covers the
    whole response, so the response structures repeat these fields and compute it.

    Fields:
        response_length: Length in bytes of the entire response, excluding this field.
        error_code: ERROR_CODE (see the ErrorCode enum).
    """

    response_length: int | None = None
    error_code: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_response_header_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[ResponseHeader], int]:
    """Decode ``count`` consecutive ResponseHeaders from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // RESPONSE_HEADER_SIZE:
        raise InvalidLengthError(
            f"{count} ResponseHeaders cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, ResponseHeader
    try:
        for _ in range(count):
            start = pos

            (response_length, error_code) = _S0.unpack_from(buf, pos)
            pos += RESPONSE_HEADER_SIZE
            append(new(cls, (response_length, error_code)))
    except (IndexError, struct.error):
        raise TruncatedError("ResponseHeader ends before its fields do", start) from None
    return items, pos


def decode_response_header(buf, pos: int = 0) -> tuple[ResponseHeader, int]:
    """Decode one ResponseHeader at ``pos``; return it and the position after it."""
    items, pos = decode_response_header_array(bytes(buf), pos, 1)
    return items[0], pos


def response_header_column_parts(items) -> list:
    """:func:`response_header_parts_of_columns` of ``items``, a sequence of item tuples."""
    return response_header_parts_of_columns(transpose(items, 2))


def response_header_parts_of_columns(cols) -> list:
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
    return parts


def _encode_response_header_columns(cols) -> bytes:
    """Encode column by column (:func:`response_header_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*response_header_parts_of_columns(cols))))


def encode_response_header_array(items) -> bytes:
    """Encode a sequence of ResponseHeaders back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 2:
        try:
            return _encode_response_header_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_response_header_columns(transpose(items, 2))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (response_length, error_code) = item

        p0 = _S0.pack(response_length, error_code)
        out += p0
    return bytes(out)


def encode_response_header(item) -> bytes:
    """Encode one ResponseHeader."""
    return encode_response_header_array((item,))


# -- columnar decoding ------------------------------------------------------------


class ResponseHeaderColumns:
    """Decoded ResponseHeaders as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "response_length",
        "error_code",
    )

    def __init__(self) -> None:
        self.response_length: list = []
        self.error_code: list = []

    def __len__(self) -> int:
        return len(self.response_length)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.response_length[n:]
        del self.error_code[n:]


def decode_response_header_columns(
    buf, pos: int, count: int, columns: ResponseHeaderColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive ResponseHeaders at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_response_header_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // RESPONSE_HEADER_SIZE:
        raise InvalidLengthError(
            f"{count} ResponseHeaders cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_response_length = columns.response_length.append
    append_error_code = columns.error_code.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (response_length, error_code) = _S0.unpack_from(buf, pos)
            pos += RESPONSE_HEADER_SIZE
            append_response_length(response_length)
            append_error_code(error_code)
    except (IndexError, struct.error):
        raise TruncatedError("ResponseHeader ends before its fields do", start) from None
    return pos
