"""FetchPartition v10: One partition of a Fetch response version 10: its error code and offsets,
the aborted transactions in the fetched range, and its records (log entries
of any magic back to back; the broker may cut the last one short).

Since Kafka 2.1.0.

Generated from schemas/protocol/fetch_partition_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, TruncatedError

from .aborted_transaction_v10 import (
    AbortedTransactionColumns,
    decode_aborted_transaction_array,
    decode_aborted_transaction_columns,
    encode_aborted_transaction_array,
)

SCHEMA = "schemas/protocol/fetch_partition_v10.yaml"
NAME = "FetchPartition"
VERSION = 10
SINCE = "2.1.0"

# -- layout ------------------------------------------------------------------

PARTITION_INDEX_OFFSET = 0
PARTITION_INDEX_LENGTH = 4
ERROR_CODE_OFFSET = PARTITION_INDEX_OFFSET + PARTITION_INDEX_LENGTH
ERROR_CODE_LENGTH = 2
HIGH_WATERMARK_OFFSET = ERROR_CODE_OFFSET + ERROR_CODE_LENGTH
HIGH_WATERMARK_LENGTH = 8
LAST_STABLE_OFFSET_OFFSET = HIGH_WATERMARK_OFFSET + HIGH_WATERMARK_LENGTH
LAST_STABLE_OFFSET_LENGTH = 8
LOG_START_OFFSET_OFFSET = LAST_STABLE_OFFSET_OFFSET + LAST_STABLE_OFFSET_LENGTH
LOG_START_OFFSET_LENGTH = 8
ABORTED_TRANSACTIONS_OFFSET = LOG_START_OFFSET_OFFSET + LOG_START_OFFSET_LENGTH
FETCH_PARTITION_OVERHEAD = ABORTED_TRANSACTIONS_OFFSET  # bytes before the first variable-size field
MIN_FETCH_PARTITION_SIZE = 38  # smallest encoded size


_S0 = struct.Struct(">ihqqq")
_new = tuple.__new__
_I32 = struct.Struct(">i")
_NULL32 = _I32.pack(-1)  # a null length prefix


# -- typed values ---------------------------------------------------------------


class FetchPartition(NamedTuple):
    """One partition of a Fetch response version 10: its error code and offsets, the
    aborted transactions in the fetched range, and its records (log entries of any
    magic back to back; the broker may cut the last one short).

    Fields:
        partition_index: The partition index.
        error_code: The error code of this partition, 0 for none (Kafka's protocol error
            codes).
        high_watermark: The offset after the last committed record of the partition.
        last_stable_offset: The offset after the last decided transaction (records before it are
            committed or aborted).
        log_start_offset: The partition's first offset still in the log.
        aborted_transactions: The aborted transactions in the fetched range (read_committed
            fetches); null (count -1) for read_uncommitted.
        records: The records: log entries of any magic back to back, an int32 size
            first (-1: null); the last entry may be cut off at the fetch's size
            limit.
    """

    partition_index: int | None = None
    error_code: int | None = None
    high_watermark: int | None = None
    last_stable_offset: int | None = None
    log_start_offset: int | None = None
    aborted_transactions: Sequence | None = ()
    records: bytes | None = None


# -- fast codec -----------------------------------------------------------------


def decode_fetch_partition_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[FetchPartition], int]:
    """Decode ``count`` consecutive FetchPartitions from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_PARTITION_SIZE:
        raise InvalidLengthError(
            f"{count} FetchPartitions cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, FetchPartition
    try:
        for _ in range(count):
            start = pos

            (partition_index, error_code, high_watermark, last_stable_offset, log_start_offset) = (
                _S0.unpack_from(buf, pos)
            )
            pos += FETCH_PARTITION_OVERHEAD

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n == 0:
                aborted_transactions = []
            elif n == -1:
                aborted_transactions = None
            else:
                aborted_transactions, pos = decode_aborted_transaction_array(buf, pos, n, stop)

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n > stop - pos:
                raise InvalidLengthError(
                    f"FetchPartition records length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                records = buf[pos : pos + n]
                pos += n
            elif n == -1:
                records = None
            else:
                raise InvalidLengthError(
                    f"FetchPartition records length {n} is negative", pos - 1
                )  # its length's last byte
            append(
                new(
                    cls,
                    (
                        partition_index,
                        error_code,
                        high_watermark,
                        last_stable_offset,
                        log_start_offset,
                        aborted_transactions,
                        records,
                    ),
                )
            )
    except (IndexError, struct.error):
        raise TruncatedError("FetchPartition ends before its fields do", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchPartition runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_fetch_partition(buf, pos: int = 0) -> tuple[FetchPartition, int]:
    """Decode one FetchPartition at ``pos``; return it and the position after it."""
    items, pos = decode_fetch_partition_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_fetch_partition_array(items) -> bytes:
    """Encode a sequence of FetchPartitions back to back."""
    out = bytearray()
    for item in items:
        (
            partition_index,
            error_code,
            high_watermark,
            last_stable_offset,
            log_start_offset,
            aborted_transactions,
            records,
        ) = item

        d2 = records
        if d2 is None:
            p2 = _NULL32
            d2 = b""
        else:
            p2 = _I32.pack(len(d2))

        if aborted_transactions is None:
            d1 = b""
            p1 = _NULL32
        elif aborted_transactions:
            d1 = encode_aborted_transaction_array(aborted_transactions)
            p1 = _I32.pack(len(aborted_transactions))
        else:
            d1 = b""
            p1 = _I32.pack(0)

        p0 = _S0.pack(partition_index, error_code, high_watermark, last_stable_offset, log_start_offset)
        out += p0
        out += p1
        out += d1
        out += p2
        out += d2
    return bytes(out)


def encode_fetch_partition(item) -> bytes:
    """Encode one FetchPartition."""
    return encode_fetch_partition_array((item,))


# -- columnar decoding ------------------------------------------------------------


class FetchPartitionColumns:
    """Decoded FetchPartitions as one list per field (columns, ready for Arrow).

    ``aborted_transactions_offsets`` holds the boundaries of each item's aborted_transactions in
    ``aborted_transactions`` (a :class:`AbortedTransactionColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "partition_index",
        "error_code",
        "high_watermark",
        "last_stable_offset",
        "log_start_offset",
        "aborted_transactions_offsets",
        "aborted_transactions",
        "records",
    )

    def __init__(self) -> None:
        self.partition_index: list = []
        self.error_code: list = []
        self.high_watermark: list = []
        self.last_stable_offset: list = []
        self.log_start_offset: list = []
        self.aborted_transactions_offsets: list[int] = [0]
        self.aborted_transactions = AbortedTransactionColumns()
        self.records: list = []

    def __len__(self) -> int:
        return len(self.partition_index)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.partition_index[n:]
        del self.error_code[n:]
        del self.high_watermark[n:]
        del self.last_stable_offset[n:]
        del self.log_start_offset[n:]
        del self.aborted_transactions_offsets[n + 1 :]
        self.aborted_transactions.truncate(self.aborted_transactions_offsets[-1])
        del self.records[n:]


def decode_fetch_partition_columns(
    buf, pos: int, count: int, columns: FetchPartitionColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive FetchPartitions at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_fetch_partition_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_PARTITION_SIZE:
        raise InvalidLengthError(
            f"{count} FetchPartitions cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_partition_index = columns.partition_index.append
    append_error_code = columns.error_code.append
    append_high_watermark = columns.high_watermark.append
    append_last_stable_offset = columns.last_stable_offset.append
    append_log_start_offset = columns.log_start_offset.append
    aborted_transactions_columns = columns.aborted_transactions
    append_aborted_transactions_offset = columns.aborted_transactions_offsets.append
    aborted_transactions_total = columns.aborted_transactions_offsets[-1]
    append_records = columns.records.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (partition_index, error_code, high_watermark, last_stable_offset, log_start_offset) = (
                _S0.unpack_from(buf, pos)
            )
            pos += FETCH_PARTITION_OVERHEAD

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n:
                pos = decode_aborted_transaction_columns(buf, pos, n, aborted_transactions_columns, stop)
                aborted_transactions_total += n

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n > stop - pos:
                raise InvalidLengthError(
                    f"FetchPartition records length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                records = buf[pos : pos + n]
                pos += n
            elif n == -1:
                records = None
            else:
                raise InvalidLengthError(
                    f"FetchPartition records length {n} is negative", pos - 1
                )  # its length's last byte
            append_partition_index(partition_index)
            append_error_code(error_code)
            append_high_watermark(high_watermark)
            append_last_stable_offset(last_stable_offset)
            append_log_start_offset(log_start_offset)
            append_aborted_transactions_offset(aborted_transactions_total)
            append_records(records)
    except (IndexError, struct.error):
        raise TruncatedError("FetchPartition ends before its fields do", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchPartition runs past byte {stop}, the end of what holds it", start)
    return pos
