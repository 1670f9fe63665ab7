"""OffsetIndexEntry v0: One entry of a segment's offset index (`<base offset>.index`), a sparse map
from offsets to byte positions in the `.log` file. The broker appends an
entry each time more than `index.interval.bytes` of batches were written
since the last one; an entry names the last offset of a batch and the
position where that batch starts. The file is an array of these 8-byte
entries; an active segment's index is preallocated and ends in zero-filled
entries, so a reader stops at the first zero entry after the first.

Since Kafka 0.8.0.

Generated from schemas/logdir/offset_index_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/logdir/offset_index_entry_v0.yaml"
NAME = "OffsetIndexEntry"
VERSION = 0
SINCE = "0.8.0"

# -- layout ------------------------------------------------------------------

RELATIVE_OFFSET_OFFSET = 0
RELATIVE_OFFSET_LENGTH = 4
POSITION_OFFSET = RELATIVE_OFFSET_OFFSET + RELATIVE_OFFSET_LENGTH
POSITION_LENGTH = 4
OFFSET_INDEX_ENTRY_SIZE = POSITION_OFFSET + POSITION_LENGTH


_S0 = struct.Struct(">ii")
_S1 = struct.Struct(">i")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class OffsetIndexEntry(NamedTuple):
    """One entry of a segment's offset index (`<base offset>.index`), a sparse map from
    offsets to byte positions in the `.log` file. The broker appends an entry each
    time more than `index.interval.bytes` of batches were written since the last
    one; an entry names the last offset of a batch and the position where that batch
    starts. The file is an array of these 8-byte entries; an active segment's index
    is preallocated and ends in zero-filled entries, so a reader stops at the first
    zero entry after the first.

    Fields:
        relative_offset: Last offset of the indexed batch minus the segment's base offset
            (from the file name).
        position: Byte position in the `.log` file where the indexed batch starts.
    """

    relative_offset: int | None = None
    position: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_offset_index_entry_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[OffsetIndexEntry], int]:
    """Decode ``count`` consecutive OffsetIndexEntrys from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // OFFSET_INDEX_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} OffsetIndexEntrys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, OffsetIndexEntry
    try:
        for _ in range(count):
            start = pos

            (relative_offset, position) = _S0.unpack_from(buf, pos)
            pos += OFFSET_INDEX_ENTRY_SIZE
            append(new(cls, (relative_offset, position)))
    except (IndexError, struct.error):
        raise TruncatedError("OffsetIndexEntry ends before its fields do", start) from None
    return items, pos


def decode_offset_index_entry(buf, pos: int = 0) -> tuple[OffsetIndexEntry, int]:
    """Decode one OffsetIndexEntry at ``pos``; return it and the position after it."""
    items, pos = decode_offset_index_entry_array(bytes(buf), pos, 1)
    return items[0], pos


def offset_index_entry_column_parts(items) -> list:
    """:func:`offset_index_entry_parts_of_columns` of ``items``, a sequence of item tuples."""
    return offset_index_entry_parts_of_columns(transpose(items, 2))


def offset_index_entry_parts_of_columns(cols) -> list:
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
    parts.append(repeat(_S1.pack(None)) if col is None else map(_S1.pack, col))
    return parts


def _encode_offset_index_entry_columns(cols) -> bytes:
    """Encode column by column (:func:`offset_index_entry_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*offset_index_entry_parts_of_columns(cols))))


def encode_offset_index_entry_array(items) -> bytes:
    """Encode a sequence of OffsetIndexEntrys back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 2:
        try:
            return _encode_offset_index_entry_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_offset_index_entry_columns(transpose(items, 2))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (relative_offset, position) = item

        p0 = _S0.pack(relative_offset, position)
        out += p0
    return bytes(out)


def encode_offset_index_entry(item) -> bytes:
    """Encode one OffsetIndexEntry."""
    return encode_offset_index_entry_array((item,))


# -- columnar decoding ------------------------------------------------------------


class OffsetIndexEntryColumns:
    """Decoded OffsetIndexEntrys as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "relative_offset",
        "position",
    )

    def __init__(self) -> None:
        self.relative_offset: list = []
        self.position: list = []

    def __len__(self) -> int:
        return len(self.relative_offset)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.relative_offset[n:]
        del self.position[n:]


def decode_offset_index_entry_columns(
    buf, pos: int, count: int, columns: OffsetIndexEntryColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive OffsetIndexEntrys at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_offset_index_entry_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // OFFSET_INDEX_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} OffsetIndexEntrys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_relative_offset = columns.relative_offset.append
    append_position = columns.position.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (relative_offset, position) = _S0.unpack_from(buf, pos)
            pos += OFFSET_INDEX_ENTRY_SIZE
            append_relative_offset(relative_offset)
            append_position(position)
    except (IndexError, struct.error):
        raise TruncatedError("OffsetIndexEntry ends before its fields do", start) from None
    return pos
