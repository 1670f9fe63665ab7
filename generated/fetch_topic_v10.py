"""FetchTopic v10: One topic of a Fetch response version 10: its name and its partitions.

Since Kafka 2.1.0.

Generated from schemas/protocol/fetch_topic_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, KafkaFormatError, TruncatedError

from .fetch_partition_v10 import (
    FetchPartitionColumns,
    decode_fetch_partition_array,
    decode_fetch_partition_columns,
    encode_fetch_partition_array,
)

SCHEMA = "schemas/protocol/fetch_topic_v10.yaml"
NAME = "FetchTopic"
VERSION = 10
SINCE = "2.1.0"

# -- layout ------------------------------------------------------------------

TOPIC_OFFSET = 0
MIN_FETCH_TOPIC_SIZE = 6  # smallest encoded size


_new = tuple.__new__
_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")


# -- typed values ---------------------------------------------------------------


class FetchTopic(NamedTuple):
    """One topic of a Fetch response version 10: its name and its partitions.

    Fields:
        topic: The topic name.
        partitions: The partitions fetched, an int32 count followed by each partition.
    """

    topic: str | None = None
    partitions: Sequence = ()


# -- fast codec -----------------------------------------------------------------


def decode_fetch_topic_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[FetchTopic], int]:
    """Decode ``count`` consecutive FetchTopics from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_TOPIC_SIZE:
        raise InvalidLengthError(
            f"{count} FetchTopics cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, FetchTopic
    try:
        for _ in range(count):
            start = pos

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > stop - pos:
                raise InvalidLengthError(
                    f"FetchTopic topic length {n} runs past byte {stop}, the end of what holds it", pos - 1
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"FetchTopic topic length {n} is negative", pos - 1
                )  # its length's last byte

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n == 0:
                partitions = []
            else:
                partitions, pos = decode_fetch_partition_array(buf, pos, n, stop)
            append(new(cls, (topic, partitions)))
    except (IndexError, struct.error):
        raise TruncatedError("FetchTopic ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"FetchTopic has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchTopic runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_fetch_topic(buf, pos: int = 0) -> tuple[FetchTopic, int]:
    """Decode one FetchTopic at ``pos``; return it and the position after it."""
    items, pos = decode_fetch_topic_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_fetch_topic_array(items) -> bytes:
    """Encode a sequence of FetchTopics back to back."""
    out = bytearray()
    for item in items:
        (topic, partitions) = item

        if partitions:
            d1 = encode_fetch_partition_array(partitions)
            p1 = _I32.pack(len(partitions))
        else:
            d1 = b""
            p1 = _I32.pack(0)

        d0 = topic.encode() if topic is not None else None
        if d0 is None:
            raise ValueError("FetchTopic topic cannot be null")
            d0 = b""
        else:
            p0 = _I16.pack(len(d0))
        out += p0
        out += d0
        out += p1
        out += d1
    return bytes(out)


def encode_fetch_topic(item) -> bytes:
    """Encode one FetchTopic."""
    return encode_fetch_topic_array((item,))


# -- columnar decoding ------------------------------------------------------------


class FetchTopicColumns:
    """Decoded FetchTopics as one list per field (columns, ready for Arrow).

    ``partitions_offsets`` holds the boundaries of each item's partitions in
    ``partitions`` (a :class:`FetchPartitionColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "topic",
        "partitions_offsets",
        "partitions",
    )

    def __init__(self) -> None:
        self.topic: list = []
        self.partitions_offsets: list[int] = [0]
        self.partitions = FetchPartitionColumns()

    def __len__(self) -> int:
        return len(self.topic)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.topic[n:]
        del self.partitions_offsets[n + 1 :]
        self.partitions.truncate(self.partitions_offsets[-1])


def decode_fetch_topic_columns(
    buf, pos: int, count: int, columns: FetchTopicColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive FetchTopics at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_fetch_topic_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_TOPIC_SIZE:
        raise InvalidLengthError(
            f"{count} FetchTopics cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_topic = columns.topic.append
    partitions_columns = columns.partitions
    append_partitions_offset = columns.partitions_offsets.append
    partitions_total = columns.partitions_offsets[-1]
    start = pos
    try:
        for _ in range(count):
            start = pos

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > stop - pos:
                raise InvalidLengthError(
                    f"FetchTopic topic length {n} runs past byte {stop}, the end of what holds it", pos - 1
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"FetchTopic topic length {n} is negative", pos - 1
                )  # its length's last byte

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n:
                pos = decode_fetch_partition_columns(buf, pos, n, partitions_columns, stop)
                partitions_total += n
            append_topic(topic)
            append_partitions_offset(partitions_total)
    except (IndexError, struct.error):
        raise TruncatedError("FetchTopic ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"FetchTopic has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchTopic runs past byte {stop}, the end of what holds it", start)
    return pos
