"""ProducerSnapshotEntry v1: The state of one producer id in a producer-state snapshot: what the broker
needs to keep deduplicating and fencing after a restart without rereading
the log.

Since Kafka 0.11.0.

Generated from schemas/logdir/producer_snapshot_entry_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/logdir/producer_snapshot_entry_v1.yaml"
NAME = "ProducerSnapshotEntry"
VERSION = 1
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

PRODUCER_ID_OFFSET = 0
PRODUCER_ID_LENGTH = 8
EPOCH_OFFSET = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH
EPOCH_LENGTH = 2
LAST_SEQUENCE_OFFSET = EPOCH_OFFSET + EPOCH_LENGTH
LAST_SEQUENCE_LENGTH = 4
LAST_OFFSET_OFFSET = LAST_SEQUENCE_OFFSET + LAST_SEQUENCE_LENGTH
LAST_OFFSET_LENGTH = 8
OFFSET_DELTA_OFFSET = LAST_OFFSET_OFFSET + LAST_OFFSET_LENGTH
OFFSET_DELTA_LENGTH = 4
TIMESTAMP_OFFSET = OFFSET_DELTA_OFFSET + OFFSET_DELTA_LENGTH
TIMESTAMP_LENGTH = 8
COORDINATOR_EPOCH_OFFSET = TIMESTAMP_OFFSET + TIMESTAMP_LENGTH
COORDINATOR_EPOCH_LENGTH = 4
CURRENT_TXN_FIRST_OFFSET_OFFSET = COORDINATOR_EPOCH_OFFSET + COORDINATOR_EPOCH_LENGTH
CURRENT_TXN_FIRST_OFFSET_LENGTH = 8
PRODUCER_SNAPSHOT_ENTRY_SIZE = CURRENT_TXN_FIRST_OFFSET_OFFSET + CURRENT_TXN_FIRST_OFFSET_LENGTH


_S0 = struct.Struct(">qhiqiqiq")
_S1 = struct.Struct(">q")
_S2 = struct.Struct(">h")
_S3 = struct.Struct(">i")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class ProducerSnapshotEntry(NamedTuple):
    """The state of one producer id in a producer-state snapshot: what the broker needs
    to keep deduplicating and fencing after a restart without rereading the log.

    Fields:
        producer_id: The producer id.
        epoch: Current epoch of the producer.
        last_sequence: Last sequence number the producer wrote.
        last_offset: Offset of the last record the producer wrote.
        offset_delta: Last sequence minus first sequence of the producer's last written
            batch.
        timestamp: Max timestamp of the producer's last written batch.
        coordinator_epoch: Epoch of the last transaction coordinator that sent this producer an
            end-transaction marker (-1 if none).
        current_txn_first_offset: First offset of the producer's ongoing transaction, -1 if there is
            none.
    """

    producer_id: int | None = None
    epoch: int | None = None
    last_sequence: int | None = None
    last_offset: int | None = None
    offset_delta: int | None = None
    timestamp: int | None = None
    coordinator_epoch: int | None = None
    current_txn_first_offset: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_producer_snapshot_entry_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[ProducerSnapshotEntry], int]:
    """Decode ``count`` consecutive ProducerSnapshotEntrys from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // PRODUCER_SNAPSHOT_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} ProducerSnapshotEntrys cannot fit in the {stop - pos} bytes left before byte {stop}",
            pos,
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, ProducerSnapshotEntry
    try:
        for _ in range(count):
            start = pos

            (
                producer_id,
                epoch,
                last_sequence,
                last_offset,
                offset_delta,
                timestamp,
                coordinator_epoch,
                current_txn_first_offset,
            ) = _S0.unpack_from(buf, pos)
            pos += PRODUCER_SNAPSHOT_ENTRY_SIZE
            append(
                new(
                    cls,
                    (
                        producer_id,
                        epoch,
                        last_sequence,
                        last_offset,
                        offset_delta,
                        timestamp,
                        coordinator_epoch,
                        current_txn_first_offset,
                    ),
                )
            )
    except (IndexError, struct.error):
        raise TruncatedError("ProducerSnapshotEntry ends before its fields do", start) from None
    return items, pos


def decode_producer_snapshot_entry(buf, pos: int = 0) -> tuple[ProducerSnapshotEntry, int]:
    """Decode one ProducerSnapshotEntry at ``pos``; return it and the position after it."""
    items, pos = decode_producer_snapshot_entry_array(bytes(buf), pos, 1)
    return items[0], pos


def producer_snapshot_entry_column_parts(items) -> list:
    """:func:`producer_snapshot_entry_parts_of_columns` of ``items``, a sequence of item tuples."""
    return producer_snapshot_entry_parts_of_columns(transpose(items, 8))


def producer_snapshot_entry_parts_of_columns(cols) -> list:
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
    parts.append(repeat(_S3.pack(None)) if col is None else map(_S3.pack, col))
    col = cols[3]
    parts.append(repeat(_S1.pack(None)) if col is None else map(_S1.pack, col))
    col = cols[4]
    parts.append(repeat(_S3.pack(None)) if col is None else map(_S3.pack, col))
    col = cols[5]
    parts.append(repeat(_S1.pack(None)) if col is None else map(_S1.pack, col))
    col = cols[6]
    parts.append(repeat(_S3.pack(None)) if col is None else map(_S3.pack, col))
    col = cols[7]
    parts.append(repeat(_S1.pack(None)) if col is None else map(_S1.pack, col))
    return parts


def _encode_producer_snapshot_entry_columns(cols) -> bytes:
    """Encode column by column (:func:`producer_snapshot_entry_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*producer_snapshot_entry_parts_of_columns(cols))))


def encode_producer_snapshot_entry_array(items) -> bytes:
    """Encode a sequence of ProducerSnapshotEntrys back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 8:
        try:
            return _encode_producer_snapshot_entry_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_producer_snapshot_entry_columns(transpose(items, 8))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (
            producer_id,
            epoch,
            last_sequence,
            last_offset,
            offset_delta,
            timestamp,
            coordinator_epoch,
            current_txn_first_offset,
        ) = item

        p0 = _S0.pack(
            producer_id,
            epoch,
            last_sequence,
            last_offset,
            offset_delta,
            timestamp,
            coordinator_epoch,
            current_txn_first_offset,
        )
        out += p0
    return bytes(out)


def encode_producer_snapshot_entry(item) -> bytes:
    """Encode one ProducerSnapshotEntry."""
    return encode_producer_snapshot_entry_array((item,))


# -- columnar decoding ------------------------------------------------------------


class ProducerSnapshotEntryColumns:
    """Decoded ProducerSnapshotEntrys as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "producer_id",
        "epoch",
        "last_sequence",
        "last_offset",
        "offset_delta",
        "timestamp",
        "coordinator_epoch",
        "current_txn_first_offset",
    )

    def __init__(self) -> None:
        self.producer_id: list = []
        self.epoch: list = []
        self.last_sequence: list = []
        self.last_offset: list = []
        self.offset_delta: list = []
        self.timestamp: list = []
        self.coordinator_epoch: list = []
        self.current_txn_first_offset: list = []

    def __len__(self) -> int:
        return len(self.producer_id)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.producer_id[n:]
        del self.epoch[n:]
        del self.last_sequence[n:]
        del self.last_offset[n:]
        del self.offset_delta[n:]
        del self.timestamp[n:]
        del self.coordinator_epoch[n:]
        del self.current_txn_first_offset[n:]


def decode_producer_snapshot_entry_columns(
    buf, pos: int, count: int, columns: ProducerSnapshotEntryColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive ProducerSnapshotEntrys at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_producer_snapshot_entry_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // PRODUCER_SNAPSHOT_ENTRY_SIZE:
        raise InvalidLengthError(
            f"{count} ProducerSnapshotEntrys cannot fit in the {stop - pos} bytes left before byte {stop}",
            pos,
        )
    append_producer_id = columns.producer_id.append
    append_epoch = columns.epoch.append
    append_last_sequence = columns.last_sequence.append
    append_last_offset = columns.last_offset.append
    append_offset_delta = columns.offset_delta.append
    append_timestamp = columns.timestamp.append
    append_coordinator_epoch = columns.coordinator_epoch.append
    append_current_txn_first_offset = columns.current_txn_first_offset.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (
                producer_id,
                epoch,
                last_sequence,
                last_offset,
                offset_delta,
                timestamp,
                coordinator_epoch,
                current_txn_first_offset,
            ) = _S0.unpack_from(buf, pos)
            pos += PRODUCER_SNAPSHOT_ENTRY_SIZE
            append_producer_id(producer_id)
            append_epoch(epoch)
            append_last_sequence(last_sequence)
            append_last_offset(last_offset)
            append_offset_delta(offset_delta)
            append_timestamp(timestamp)
            append_coordinator_epoch(coordinator_epoch)
            append_current_txn_first_offset(current_txn_first_offset)
    except (IndexError, struct.error):
        raise TruncatedError("ProducerSnapshotEntry ends before its fields do", start) from None
    return pos
