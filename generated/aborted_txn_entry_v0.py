"""AbortedTxnEntry v0: One entry of a segment's transaction index (`<base offset>.txnindex`): an
aborted transaction whose abort marker lies in the segment. read_committed
consumers use it to drop the aborted records without scanning for markers.
Entries are 34 bytes, appended in the order the abort markers were written;
the file is not preallocated.

Since Kafka 0.11.0.

Generated from schemas/logdir/aborted_txn_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.errors import InvalidLengthError, InvalidMagicError, TruncatedError

SCHEMA = "schemas/logdir/aborted_txn_entry_v0.yaml"
NAME = "AbortedTxnEntry"
VERSION = 0
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

VERSION_OFFSET = 0
VERSION_LENGTH = 2
PRODUCER_ID_OFFSET = VERSION_OFFSET + VERSION_LENGTH
PRODUCER_ID_LENGTH = 8
FIRST_OFFSET_OFFSET = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH
FIRST_OFFSET_LENGTH = 8
LAST_OFFSET_OFFSET = FIRST_OFFSET_OFFSET + FIRST_OFFSET_LENGTH
LAST_OFFSET_LENGTH = 8
LAST_STABLE_OFFSET_OFFSET = LAST_OFFSET_OFFSET + LAST_OFFSET_LENGTH
LAST_STABLE_OFFSET_LENGTH = 8
ABORTED_TXN_ENTRY_SIZE = LAST_STABLE_OFFSET_OFFSET + LAST_STABLE_OFFSET_LENGTH


_S0 = struct.Struct(">hqqqq")
_S1 = struct.Struct(">h")
_S2 = struct.Struct(">q")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class AbortedTxnEntry(NamedTuple):
    """One entry of a segment's transaction index (`<base offset>.txnindex`): an
    aborted transaction whose abort marker lies in the segment. read_committed
    consumers use it to drop the aborted records without scanning for markers.
    Entries are 34 bytes, appended in the order the abort markers were written; the
    file is not preallocated.

    Fields:
        version: Entry format version; currently 0.
        producer_id: Producer id of the aborted transaction.
        first_offset: First offset of the aborted transaction (may lie in an earlier
            segment).
        last_offset: Offset of the abort marker (the control record that ended the
            transaction).
        last_stable_offset: The partition's last stable offset when the abort marker was
            written.
    """

    version: int = 0
    producer_id: int | None = None
    first_offset: int | None = None
    last_offset: int | None = None
    last_stable_offset: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_aborted_txn_entry_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[AbortedTxnEntry], int]:
    """Decode ``count`` consecutive AbortedTxnEntrys from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // ABORTED_TXN_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} AbortedTxnEntrys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, AbortedTxnEntry
    try:
        for _ in range(count):
            start = pos

            (version, producer_id, first_offset, last_offset, last_stable_offset) = _S0.unpack_from(buf, pos)
            pos += ABORTED_TXN_ENTRY_SIZE
            if version != 0:
                raise InvalidMagicError(
                    f"AbortedTxnEntry version is {version}, expected 0", start + VERSION_OFFSET
                )
            append(new(cls, (version, producer_id, first_offset, last_offset, last_stable_offset)))
    except (IndexError, struct.error):
        raise TruncatedError("AbortedTxnEntry ends before its fields do", start) from None
    return items, pos


def decode_aborted_txn_entry(buf, pos: int = 0) -> tuple[AbortedTxnEntry, int]:
    """Decode one AbortedTxnEntry at ``pos``; return it and the position after it."""
    items, pos = decode_aborted_txn_entry_array(bytes(buf), pos, 1)
    return items[0], pos


def aborted_txn_entry_column_parts(items) -> list:
    """:func:`aborted_txn_entry_parts_of_columns` of ``items``, a sequence of item tuples."""
    return aborted_txn_entry_parts_of_columns(transpose(items, 5))


def aborted_txn_entry_parts_of_columns(cols) -> list:
    """Encode items given as columns with C-level ``map`` calls: the common case, fast.

    ``cols[j]`` holds field ``j`` of every item; a column that is None holds the field's default
    for every item. Returns the parts: iterables that each yield one piece per item, in item order
    (an item's encoding is its pieces in part order). A value outside the common case (a null, a
    number beyond the varint tables) raises KeyError/TypeError/IndexError/AttributeError/ValueError,
    and the caller falls back to the general loop.
    """
    parts = []
    col = cols[0]
    parts.append(repeat(_S1.pack(0)) if col is None else map(_S1.pack, col))
    col = cols[1]
    parts.append(repeat(_S2.pack(None)) if col is None else map(_S2.pack, col))
    col = cols[2]
    parts.append(repeat(_S2.pack(None)) if col is None else map(_S2.pack, col))
    col = cols[3]
    parts.append(repeat(_S2.pack(None)) if col is None else map(_S2.pack, col))
    col = cols[4]
    parts.append(repeat(_S2.pack(None)) if col is None else map(_S2.pack, col))
    return parts


def _encode_aborted_txn_entry_columns(cols) -> bytes:
    """Encode column by column (:func:`aborted_txn_entry_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*aborted_txn_entry_parts_of_columns(cols))))


def encode_aborted_txn_entry_array(items) -> bytes:
    """Encode a sequence of AbortedTxnEntrys back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 5:
        try:
            return _encode_aborted_txn_entry_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_aborted_txn_entry_columns(transpose(items, 5))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (_, producer_id, first_offset, last_offset, last_stable_offset) = item

        p0 = _S0.pack(0, producer_id, first_offset, last_offset, last_stable_offset)
        out += p0
    return bytes(out)


def encode_aborted_txn_entry(item) -> bytes:
    """Encode one AbortedTxnEntry."""
    return encode_aborted_txn_entry_array((item,))


# -- columnar decoding ------------------------------------------------------------


class AbortedTxnEntryColumns:
    """Decoded AbortedTxnEntrys as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "version",
        "producer_id",
        "first_offset",
        "last_offset",
        "last_stable_offset",
    )

    def __init__(self) -> None:
        self.version: list = []
        self.producer_id: list = []
        self.first_offset: list = []
        self.last_offset: list = []
        self.last_stable_offset: list = []

    def __len__(self) -> int:
        return len(self.version)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.version[n:]
        del self.producer_id[n:]
        del self.first_offset[n:]
        del self.last_offset[n:]
        del self.last_stable_offset[n:]


def decode_aborted_txn_entry_columns(
    buf, pos: int, count: int, columns: AbortedTxnEntryColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive AbortedTxnEntrys at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_aborted_txn_entry_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // ABORTED_TXN_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} AbortedTxnEntrys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_version = columns.version.append
    append_producer_id = columns.producer_id.append
    append_first_offset = columns.first_offset.append
    append_last_offset = columns.last_offset.append
    append_last_stable_offset = columns.last_stable_offset.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (version, producer_id, first_offset, last_offset, last_stable_offset) = _S0.unpack_from(buf, pos)
            pos += ABORTED_TXN_ENTRY_SIZE
            if version != 0:
                raise InvalidMagicError(
                    f"AbortedTxnEntry version is {version}, expected 0", start + VERSION_OFFSET
                )
            append_version(version)
            append_producer_id(producer_id)
            append_first_offset(first_offset)
            append_last_offset(last_offset)
            append_last_stable_offset(last_stable_offset)
    except (IndexError, struct.error):
        raise TruncatedError("AbortedTxnEntry ends before its fields do", start) from None
    return pos
