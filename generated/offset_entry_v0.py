"""OffsetEntry v0: One offset in an Offsets response.

Since Kafka 0.6.0.

Generated from schemas/legacy/offset_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/legacy/offset_entry_v0.yaml"
NAME = "OffsetEntry"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

OFFSET_OFFSET = 0
OFFSET_LENGTH = 8
OFFSET_ENTRY_SIZE = OFFSET_OFFSET + OFFSET_LENGTH


_S0 = struct.Struct(">q")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class OffsetEntry(NamedTuple):
    """One offset in an Offsets response.

    Fields:
        offset: A byte offset in the partition's log.
    """

    offset: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_offset_entry_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[OffsetEntry], int]:
    """Decode ``count`` consecutive OffsetEntrys from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // OFFSET_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} OffsetEntrys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, OffsetEntry
    try:
        for _ in range(count):
            start = pos

            (offset,) = _S0.unpack_from(buf, pos)
            pos += OFFSET_ENTRY_SIZE
            append(new(cls, (offset,)))
    except (IndexError, struct.error):
        raise TruncatedError("OffsetEntry ends before its fields do", start) from None
    return items, pos


def decode_offset_entry(buf, pos: int = 0) -> tuple[OffsetEntry, int]:
    """Decode one OffsetEntry at ``pos``; return it and the position after it."""
    items, pos = decode_offset_entry_array(bytes(buf), pos, 1)
    return items[0], pos


def offset_entry_column_parts(items) -> list:
    """:func:`offset_entry_parts_of_columns` of ``items``, a sequence of item tuples."""
    return offset_entry_parts_of_columns(transpose(items, 1))


def offset_entry_parts_of_columns(cols) -> list:
    """Encode items given as columns with C-level ``map`` calls: the common case, fast.

    ``cols[j]`` holds field ``j`` of every item; a column that is None holds the field's default
    for every item. Returns the parts: iterables that each yield one piece per item, in item order
    (an item's encoding is its pieces in part order). A value outside the common case (a null, a
    number beyond the varint tables) raises KeyError/TypeError/IndexError/AttributeError/ValueError,
    and the caller falls back to the general loop.
    """
    parts = []
    col = cols[0]
    parts.append(repeat(_S0.pack(None)) if col is None else map(_S0.pack, col))
    return parts


def _encode_offset_entry_columns(cols) -> bytes:
    """Encode column by column (:func:`offset_entry_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*offset_entry_parts_of_columns(cols))))


def encode_offset_entry_array(items) -> bytes:
    """Encode a sequence of OffsetEntrys back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 1:
        try:
            return _encode_offset_entry_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_offset_entry_columns(transpose(items, 1))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (offset,) = item

        p0 = _S0.pack(offset)
        out += p0
    return bytes(out)


def encode_offset_entry(item) -> bytes:
    """Encode one OffsetEntry."""
    return encode_offset_entry_array((item,))


# -- columnar decoding ------------------------------------------------------------


class OffsetEntryColumns:
    """Decoded OffsetEntrys as one list per field (columns, ready for Arrow)."""

    __slots__ = ("offset",)

    def __init__(self) -> None:
        self.offset: list = []

    def __len__(self) -> int:
        return len(self.offset)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.offset[n:]


def decode_offset_entry_columns(
    buf, pos: int, count: int, columns: OffsetEntryColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive OffsetEntrys at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_offset_entry_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // OFFSET_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} OffsetEntrys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_offset = columns.offset.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (offset,) = _S0.unpack_from(buf, pos)
            pos += OFFSET_ENTRY_SIZE
            append_offset(offset)
    except (IndexError, struct.error):
        raise TruncatedError("OffsetEntry ends before its fields do", start) from None
    return pos
