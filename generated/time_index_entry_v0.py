"""TimeIndexEntry v0: One entry of a segment's time index (`<base offset>.timeindex`, KIP-33),
mapping a timestamp to an offset. Entries are appended at the same interval
as the offset index whenever the segment's max timestamp grows, so
timestamps increase through the file. A lookup for time T finds the last
entry with timestamp <= T, then the offset index gives the byte position.
Preallocated files end in zeros.

Since Kafka 0.10.1.

Generated from schemas/logdir/time_index_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/logdir/time_index_entry_v0.yaml"
NAME = "TimeIndexEntry"
VERSION = 0
SINCE = "0.10.1"

# -- layout ------------------------------------------------------------------

TIMESTAMP_OFFSET = 0
TIMESTAMP_LENGTH = 8
RELATIVE_OFFSET_OFFSET = TIMESTAMP_OFFSET + TIMESTAMP_LENGTH
RELATIVE_OFFSET_LENGTH = 4
TIME_INDEX_ENTRY_SIZE = RELATIVE_OFFSET_OFFSET + RELATIVE_OFFSET_LENGTH


_S0 = struct.Struct(">qi")
_S1 = struct.Struct(">q")
_S2 = struct.Struct(">i")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class TimeIndexEntry(NamedTuple):
    """One entry of a segment's time index (`<base offset>.timeindex`, KIP-33), mapping
    a timestamp to an offset. Entries are appended at the same interval as the
    offset index whenever the segment's max timestamp grows, so timestamps increase
    through the file. A lookup for time T finds the last entry with timestamp <= T,
    then the offset index gives the byte position. Preallocated files end in zeros.

    Fields:
        timestamp: Largest timestamp seen in the segment up to the indexed batch (its
            max_timestamp).
        relative_offset: Offset at which that timestamp was seen (the batch's last offset)
            minus the segment's base offset.
    """

    timestamp: int | None = None
    relative_offset: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_time_index_entry_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[TimeIndexEntry], int]:
    """Decode ``count`` consecutive TimeIndexEntrys from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // TIME_INDEX_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} TimeIndexEntrys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, TimeIndexEntry
    try:
        for _ in range(count):
            start = pos

            (timestamp, relative_offset) = _S0.unpack_from(buf, pos)
            pos += TIME_INDEX_ENTRY_SIZE
            append(new(cls, (timestamp, relative_offset)))
    except (IndexError, struct.error):
        raise TruncatedError("TimeIndexEntry ends before its fields do", start) from None
    return items, pos


def decode_time_index_entry(buf, pos: int = 0) -> tuple[TimeIndexEntry, int]:
    """Decode one TimeIndexEntry at ``pos``; return it and the position after it."""
    items, pos = decode_time_index_entry_array(bytes(buf), pos, 1)
    return items[0], pos


def time_index_entry_column_parts(items) -> list:
    """:func:`time_index_entry_parts_of_columns` of ``items``, a sequence of item tuples."""
    return time_index_entry_parts_of_columns(transpose(items, 2))


def time_index_entry_parts_of_columns(cols) -> list:
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


def _encode_time_index_entry_columns(cols) -> bytes:
    """Encode column by column (:func:`time_index_entry_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*time_index_entry_parts_of_columns(cols))))


def encode_time_index_entry_array(items) -> bytes:
    """Encode a sequence of TimeIndexEntrys back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 2:
        try:
            return _encode_time_index_entry_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_time_index_entry_columns(transpose(items, 2))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (timestamp, relative_offset) = item

        p0 = _S0.pack(timestamp, relative_offset)
        out += p0
    return bytes(out)


def encode_time_index_entry(item) -> bytes:
    """Encode one TimeIndexEntry."""
    return encode_time_index_entry_array((item,))


# -- columnar decoding ------------------------------------------------------------


class TimeIndexEntryColumns:
    """Decoded TimeIndexEntrys as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "timestamp",
        "relative_offset",
    )

    def __init__(self) -> None:
        self.timestamp: list = []
        self.relative_offset: list = []

    def __len__(self) -> int:
        return len(self.timestamp)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.timestamp[n:]
        del self.relative_offset[n:]


def decode_time_index_entry_columns(
    buf, pos: int, count: int, columns: TimeIndexEntryColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive TimeIndexEntrys at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_time_index_entry_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // TIME_INDEX_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} TimeIndexEntrys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_timestamp = columns.timestamp.append
    append_relative_offset = columns.relative_offset.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (timestamp, relative_offset) = _S0.unpack_from(buf, pos)
            pos += TIME_INDEX_ENTRY_SIZE
            append_timestamp(timestamp)
            append_relative_offset(relative_offset)
    except (IndexError, struct.error):
        raise TruncatedError("TimeIndexEntry ends before its fields do", start) from None
    return pos
