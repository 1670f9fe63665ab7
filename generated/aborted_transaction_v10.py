"""AbortedTransaction v10: One aborted transaction of a Fetch response partition (version 4 and later):
the producer and the first offset of the transaction.

Since Kafka 2.1.0.

Generated from schemas/protocol/aborted_transaction_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/protocol/aborted_transaction_v10.yaml"
NAME = "AbortedTransaction"
VERSION = 10
SINCE = "2.1.0"

# -- layout ------------------------------------------------------------------

PRODUCER_ID_OFFSET = 0
PRODUCER_ID_LENGTH = 8
FIRST_OFFSET_OFFSET = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH
FIRST_OFFSET_LENGTH = 8
ABORTED_TRANSACTION_SIZE = FIRST_OFFSET_OFFSET + FIRST_OFFSET_LENGTH


_S0 = struct.Struct(">qq")
_S1 = struct.Struct(">q")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class AbortedTransaction(NamedTuple):
    """One aborted transaction of a Fetch response partition (version 4 and later): the
    producer and the first offset of the transaction.

    Fields:
        producer_id: The producer id of the aborted transaction.
        first_offset: The first offset of the aborted transaction.
    """

    producer_id: int | None = None
    first_offset: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_aborted_transaction_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[AbortedTransaction], int]:
    """Decode ``count`` consecutive AbortedTransactions from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // ABORTED_TRANSACTION_SIZE:
        raise InvalidLengthError(
            f"{count} AbortedTransactions cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, AbortedTransaction
    try:
        for _ in range(count):
            start = pos

            (producer_id, first_offset) = _S0.unpack_from(buf, pos)
            pos += ABORTED_TRANSACTION_SIZE
            append(new(cls, (producer_id, first_offset)))
    except (IndexError, struct.error):
        raise TruncatedError("AbortedTransaction ends before its fields do", start) from None
    return items, pos


def decode_aborted_transaction(buf, pos: int = 0) -> tuple[AbortedTransaction, int]:
    """Decode one AbortedTransaction at ``pos``; return it and the position after it."""
    items, pos = decode_aborted_transaction_array(bytes(buf), pos, 1)
    return items[0], pos


def aborted_transaction_column_parts(items) -> list:
    """:func:`aborted_transaction_parts_of_columns` of ``items``, a sequence of item tuples."""
    return aborted_transaction_parts_of_columns(transpose(items, 2))


def aborted_transaction_parts_of_columns(cols) -> list:
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


def _encode_aborted_transaction_columns(cols) -> bytes:
    """Encode column by column (:func:`aborted_transaction_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*aborted_transaction_parts_of_columns(cols))))


def encode_aborted_transaction_array(items) -> bytes:
    """Encode a sequence of AbortedTransactions back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 2:
        try:
            return _encode_aborted_transaction_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_aborted_transaction_columns(transpose(items, 2))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (producer_id, first_offset) = item

        p0 = _S0.pack(producer_id, first_offset)
        out += p0
    return bytes(out)


def encode_aborted_transaction(item) -> bytes:
    """Encode one AbortedTransaction."""
    return encode_aborted_transaction_array((item,))


# -- columnar decoding ------------------------------------------------------------


class AbortedTransactionColumns:
    """Decoded AbortedTransactions as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "producer_id",
        "first_offset",
    )

    def __init__(self) -> None:
        self.producer_id: list = []
        self.first_offset: list = []

    def __len__(self) -> int:
        return len(self.producer_id)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.producer_id[n:]
        del self.first_offset[n:]


def decode_aborted_transaction_columns(
    buf, pos: int, count: int, columns: AbortedTransactionColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive AbortedTransactions at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_aborted_transaction_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // ABORTED_TRANSACTION_SIZE:
        raise InvalidLengthError(
            f"{count} AbortedTransactions cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_producer_id = columns.producer_id.append
    append_first_offset = columns.first_offset.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (producer_id, first_offset) = _S0.unpack_from(buf, pos)
            pos += ABORTED_TRANSACTION_SIZE
            append_producer_id(producer_id)
            append_first_offset(first_offset)
    except (IndexError, struct.error):
        raise TruncatedError("AbortedTransaction ends before its fields do", start) from None
    return pos
