"""FetchPartition v0: One partition of a Fetch response version 0: its error code, high watermark
and message set (log entries back to back; the broker may cut the last one
short).

Since Kafka 0.8.0.

Generated from schemas/protocol/fetch_partition_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/protocol/fetch_partition_v0.yaml"
NAME = "FetchPartition"
VERSION = 0
SINCE = "0.8.0"

# -- layout ------------------------------------------------------------------

PARTITION_OFFSET = 0
PARTITION_LENGTH = 4
ERROR_CODE_OFFSET = PARTITION_OFFSET + PARTITION_LENGTH
ERROR_CODE_LENGTH = 2
HIGH_WATERMARK_OFFSET = ERROR_CODE_OFFSET + ERROR_CODE_LENGTH
HIGH_WATERMARK_LENGTH = 8
MESSAGE_SET_OFFSET = HIGH_WATERMARK_OFFSET + HIGH_WATERMARK_LENGTH
FETCH_PARTITION_OVERHEAD = MESSAGE_SET_OFFSET  # bytes before the first variable-size field
MIN_FETCH_PARTITION_SIZE = 18  # smallest encoded size


_S0 = struct.Struct(">ihq")
_new = tuple.__new__
_I32 = struct.Struct(">i")


# -- typed values ---------------------------------------------------------------


class FetchPartition(NamedTuple):
    """One partition of a Fetch response version 0: its error code, high watermark and
    message set (log entries back to back; the broker may cut the last one short).

    Fields:
        partition: The partition index.
        error_code: The error code of this partition, 0 for none (Kafka's protocol error
            codes).
        high_watermark: The offset after the last committed message of the partition.
        message_set: The message set: log entries back to back, an int32 size first; the
            last entry may be cut off at the fetch's size limit.
    """

    partition: int | None = None
    error_code: int | None = None
    high_watermark: int | None = None
    message_set: bytes | None = None


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

            (partition, error_code, high_watermark) = _S0.unpack_from(buf, pos)
            pos += FETCH_PARTITION_OVERHEAD

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n > stop - pos:
                raise InvalidLengthError(
                    f"FetchPartition message_set length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                message_set = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"FetchPartition message_set length {n} is negative", pos - 1
                )  # its length's last byte
            append(new(cls, (partition, error_code, high_watermark, message_set)))
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
        (partition, error_code, high_watermark, message_set) = item

        d1 = message_set
        if d1 is None:
            raise ValueError("FetchPartition message_set cannot be null")
            d1 = b""
        else:
            p1 = _I32.pack(len(d1))

        p0 = _S0.pack(partition, error_code, high_watermark)
        out += p0
        out += p1
        out += d1
    return bytes(out)


def encode_fetch_partition(item) -> bytes:
    """Encode one FetchPartition."""
    return encode_fetch_partition_array((item,))


# -- columnar decoding ------------------------------------------------------------


class FetchPartitionColumns:
    """Decoded FetchPartitions as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "partition",
        "error_code",
        "high_watermark",
        "message_set",
    )

    def __init__(self) -> None:
        self.partition: list = []
        self.error_code: list = []
        self.high_watermark: list = []
        self.message_set: list = []

    def __len__(self) -> int:
        return len(self.partition)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.partition[n:]
        del self.error_code[n:]
        del self.high_watermark[n:]
        del self.message_set[n:]


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
    append_partition = columns.partition.append
    append_error_code = columns.error_code.append
    append_high_watermark = columns.high_watermark.append
    append_message_set = columns.message_set.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (partition, error_code, high_watermark) = _S0.unpack_from(buf, pos)
            pos += FETCH_PARTITION_OVERHEAD

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n > stop - pos:
                raise InvalidLengthError(
                    f"FetchPartition message_set length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                message_set = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"FetchPartition message_set length {n} is negative", pos - 1
                )  # its length's last byte
            append_partition(partition)
            append_error_code(error_code)
            append_high_watermark(high_watermark)
            append_message_set(message_set)
    except (IndexError, struct.error):
        raise TruncatedError("FetchPartition ends before its fields do", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchPartition runs past byte {stop}, the end of what holds it", start)
    return pos
