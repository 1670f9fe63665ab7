"""PartitionFetch v0: One topic-partition of a Multi-Fetch request.

Since Kafka 0.6.0.

Generated from schemas/legacy/partition_fetch_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, KafkaFormatError, TruncatedError

SCHEMA = "schemas/legacy/partition_fetch_v0.yaml"
NAME = "PartitionFetch"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

TOPIC_OFFSET = 0
MIN_PARTITION_FETCH_SIZE = 18  # smallest encoded size


_S0 = struct.Struct(">iqi")
_new = tuple.__new__
_I16 = struct.Struct(">h")


# -- typed values ---------------------------------------------------------------


class PartitionFetch(NamedTuple):
    """One topic-partition of a Multi-Fetch request.

    Fields:
        topic: Topic name (ASCII, not null terminated; it names a directory on the
            broker).
        partition: Partition to act on, numbered from 0.
        offset: Byte offset in the partition's log to start from.
        max_size: Maximum number of bytes of messages to return.
    """

    topic: str | None = None
    partition: int | None = None
    offset: int | None = None
    max_size: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_partition_fetch_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[PartitionFetch], int]:
    """Decode ``count`` consecutive PartitionFetchs from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_PARTITION_FETCH_SIZE:
        raise InvalidLengthError(
            f"{count} PartitionFetchs cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, PartitionFetch
    try:
        for _ in range(count):
            start = pos

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > stop - pos:
                raise InvalidLengthError(
                    f"PartitionFetch topic length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"PartitionFetch topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition, offset, max_size) = _S0.unpack_from(buf, pos)
            pos += 16
            append(new(cls, (topic, partition, offset, max_size)))
    except (IndexError, struct.error):
        raise TruncatedError("PartitionFetch ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(
            f"PartitionFetch has a string that is not UTF-8: {exc.reason}", start
        ) from None
    if pos > stop:
        raise TruncatedError(f"PartitionFetch runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_partition_fetch(buf, pos: int = 0) -> tuple[PartitionFetch, int]:
    """Decode one PartitionFetch at ``pos``; return it and the position after it."""
    items, pos = decode_partition_fetch_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_partition_fetch_array(items) -> bytes:
    """Encode a sequence of PartitionFetchs back to back."""
    out = bytearray()
    for item in items:
        (topic, partition, offset, max_size) = item

        p1 = _S0.pack(partition, offset, max_size)

        d0 = topic.encode() if topic is not None else None
        if d0 is None:
            raise ValueError("PartitionFetch topic cannot be null")
            d0 = b""
        else:
            p0 = _I16.pack(len(d0))
        out += p0
        out += d0
        out += p1
    return bytes(out)


def encode_partition_fetch(item) -> bytes:
    """Encode one PartitionFetch."""
    return encode_partition_fetch_array((item,))


# -- columnar decoding ------------------------------------------------------------


class PartitionFetchColumns:
    """Decoded PartitionFetchs as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "topic",
        "partition",
        "offset",
        "max_size",
    )

    def __init__(self) -> None:
        self.topic: list = []
        self.partition: list = []
        self.offset: list = []
        self.max_size: list = []

    def __len__(self) -> int:
        return len(self.topic)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.topic[n:]
        del self.partition[n:]
        del self.offset[n:]
        del self.max_size[n:]


def decode_partition_fetch_columns(
    buf, pos: int, count: int, columns: PartitionFetchColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive PartitionFetchs at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_partition_fetch_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_PARTITION_FETCH_SIZE:
        raise InvalidLengthError(
            f"{count} PartitionFetchs cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_topic = columns.topic.append
    append_partition = columns.partition.append
    append_offset = columns.offset.append
    append_max_size = columns.max_size.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > stop - pos:
                raise InvalidLengthError(
                    f"PartitionFetch topic length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"PartitionFetch topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition, offset, max_size) = _S0.unpack_from(buf, pos)
            pos += 16
            append_topic(topic)
            append_partition(partition)
            append_offset(offset)
            append_max_size(max_size)
    except (IndexError, struct.error):
        raise TruncatedError("PartitionFetch ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(
            f"PartitionFetch has a string that is not UTF-8: {exc.reason}", start
        ) from None
    if pos > stop:
        raise TruncatedError(f"PartitionFetch runs past byte {stop}, the end of what holds it", start)
    return pos
