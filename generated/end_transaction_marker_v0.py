"""EndTransactionMarker v0: Value of an abort or commit control record (ControlRecordType 0 or 1).

Since Kafka 0.11.0.

Generated from schemas/end_txn_marker_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, fill_sparse, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/end_txn_marker_v0.yaml"
NAME = "EndTransactionMarker"
VERSION = 0
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

VERSION_OFFSET = 0
VERSION_LENGTH = 2
COORDINATOR_EPOCH_OFFSET = VERSION_OFFSET + VERSION_LENGTH
COORDINATOR_EPOCH_LENGTH = 4
END_TRANSACTION_MARKER_SIZE = COORDINATOR_EPOCH_OFFSET + COORDINATOR_EPOCH_LENGTH


_S0 = struct.Struct(">hi")
_S1 = struct.Struct(">h")
_S2 = struct.Struct(">i")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class EndTransactionMarker(NamedTuple):
    """Value of an abort or commit control record (ControlRecordType 0 or 1).

    Fields:
        version: Value schema version; currently 0.
        coordinator_epoch: Epoch of the transaction coordinator that wrote the marker; fences
            zombie coordinators.
    """

    version: int = 0
    coordinator_epoch: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_end_transaction_marker_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[EndTransactionMarker], int]:
    """Decode ``count`` consecutive EndTransactionMarkers from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // END_TRANSACTION_MARKER_SIZE:
        raise InvalidLengthError(
            f"{count} EndTransactionMarkers cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, EndTransactionMarker
    try:
        for _ in range(count):
            start = pos

            (version, coordinator_epoch) = _S0.unpack_from(buf, pos)
            pos += END_TRANSACTION_MARKER_SIZE
            append(new(cls, (version, coordinator_epoch)))
    except (IndexError, struct.error):
        raise TruncatedError("EndTransactionMarker ends before its fields do", start) from None
    return items, pos


def decode_end_transaction_marker(buf, pos: int = 0) -> tuple[EndTransactionMarker, int]:
    """Decode one EndTransactionMarker at ``pos``; return it and the position after it."""
    items, pos = decode_end_transaction_marker_array(bytes(buf), pos, 1)
    return items[0], pos


def end_transaction_marker_column_parts(items) -> list:
    """:func:`end_transaction_marker_parts_of_columns` of ``items``, a sequence of item tuples."""
    return end_transaction_marker_parts_of_columns(transpose(items, 2))


def end_transaction_marker_parts_of_columns(cols) -> list:
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
    return parts


def _encode_end_transaction_marker_columns(cols) -> bytes:
    """Encode column by column (:func:`end_transaction_marker_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*end_transaction_marker_parts_of_columns(cols))))


def encode_end_transaction_marker_array(items) -> bytes:
    """Encode a sequence of EndTransactionMarkers back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 2:
        try:
            return _encode_end_transaction_marker_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_end_transaction_marker_columns(transpose(items, 2))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (version, coordinator_epoch) = item

        p0 = _S0.pack(version, coordinator_epoch)
        out += p0
    return bytes(out)


def encode_end_transaction_marker(item) -> bytes:
    """Encode one EndTransactionMarker."""
    return encode_end_transaction_marker_array((item,))


# -- columnar decoding ------------------------------------------------------------


class EndTransactionMarkerColumns:
    """Decoded EndTransactionMarkers as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "version",
        "coordinator_epoch",
    )

    def __init__(self) -> None:
        self.version: list = []
        self.coordinator_epoch: list = []

    def __len__(self) -> int:
        return len(self.version)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.version[n:]
        del self.coordinator_epoch[n:]


def decode_end_transaction_marker_columns(
    buf, pos: int, count: int, columns: EndTransactionMarkerColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive EndTransactionMarkers at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_end_transaction_marker_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // END_TRANSACTION_MARKER_SIZE:
        raise InvalidLengthError(
            f"{count} EndTransactionMarkers cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    version_odd: list[tuple[int, int]] = []  # (index, value) of the items whose version is not 0
    append_coordinator_epoch = columns.coordinator_epoch.append
    start = pos
    try:
        for i in range(count):
            start = pos

            (version, coordinator_epoch) = _S0.unpack_from(buf, pos)
            pos += END_TRANSACTION_MARKER_SIZE
            if version != 0:
                version_odd.append((i, version))
            append_coordinator_epoch(coordinator_epoch)
    except (IndexError, struct.error):
        raise TruncatedError("EndTransactionMarker ends before its fields do", start) from None
    fill_sparse(columns.version, count, 0, version_odd)
    return pos
