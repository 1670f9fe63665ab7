"""PartitionProduce v0: One topic-partition of a Multi-Produce request.

Since Kafka 0.6.0.

Generated from schemas/legacy/partition_produce_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.errors import InvalidLengthError, KafkaFormatError, TruncatedError

SCHEMA = "schemas/legacy/partition_produce_v0.yaml"
NAME = "PartitionProduce"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

TOPIC_OFFSET = 0
MIN_PARTITION_PRODUCE_SIZE = 10  # smallest encoded size


_S0 = struct.Struct(">i")
_new = tuple.__new__
_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")


# -- typed values ---------------------------------------------------------------


class PartitionProduce(NamedTuple):
    """One topic-partition of a Multi-Produce request.

    Fields:
        topic: Topic name (ASCII, not null terminated; it names a directory on the
            broker).
        partition: Partition to act on, numbered from 0.
        messages: MESSAGES: a message set of WireMessages back to back
            (kafkaspec.legacy.iter_wire_messages reads it).
    """

    topic: str | None = None
    partition: int | None = None
    messages: bytes | None = None


# -- fast codec -----------------------------------------------------------------


def decode_partition_produce_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[PartitionProduce], int]:
    """Decode ``count`` consecutive PartitionProduces from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_PARTITION_PRODUCE_SIZE:
        raise InvalidLengthError(
            f"{count} PartitionProduces cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, PartitionProduce
    try:
        for _ in range(count):
            start = pos

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > stop - pos:
                raise InvalidLengthError(
                    f"PartitionProduce topic length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"PartitionProduce topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition,) = _S0.unpack_from(buf, pos)
            pos += 4

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n > stop - pos:
                raise InvalidLengthError(
                    f"PartitionProduce messages length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                messages = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"PartitionProduce messages length {n} is negative", pos - 1
                )  # its length's last byte
            append(new(cls, (topic, partition, messages)))
    except (IndexError, struct.error):
        raise TruncatedError("PartitionProduce ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(
            f"PartitionProduce has a string that is not UTF-8: {exc.reason}", start
        ) from None
    if pos > stop:
        raise TruncatedError(f"PartitionProduce runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_partition_produce(buf, pos: int = 0) -> tuple[PartitionProduce, int]:
    """Decode one PartitionProduce at ``pos``; return it and the position after it."""
    items, pos = decode_partition_produce_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_partition_produce_array(items) -> bytes:
    """Encode a sequence of PartitionProduces back to back."""
    out = bytearray()
    for item in items:
        (topic, partition, messages) = item

        d2 = messages
        if d2 is None:
            raise ValueError("PartitionProduce messages cannot be null")
            d2 = b""
        else:
            p2 = _I32.pack(len(d2))

        p1 = _S0.pack(partition)

        d0 = topic.encode() if topic is not None else None
        if d0 is None:
            raise ValueError("PartitionProduce topic cannot be null")
            d0 = b""
        else:
            p0 = _I16.pack(len(d0))
        out += p0
        out += d0
        out += p1
        out += p2
        out += d2
    return bytes(out)


def encode_partition_produce(item) -> bytes:
    """Encode one PartitionProduce."""
    return encode_partition_produce_array((item,))


# -- columnar decoding ------------------------------------------------------------


class PartitionProduceColumns:
    """Decoded PartitionProduces as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "topic",
        "partition",
        "messages",
    )

    def __init__(self) -> None:
        self.topic: list = []
        self.partition: list = []
        self.messages: list = []

    def __len__(self) -> int:
        return len(self.topic)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.topic[n:]
        del self.partition[n:]
        del self.messages[n:]


def decode_partition_produce_columns(
    buf, pos: int, count: int, columns: PartitionProduceColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive PartitionProduces at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_partition_produce_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_PARTITION_PRODUCE_SIZE:
        raise InvalidLengthError(
            f"{count} PartitionProduces cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_topic = columns.topic.append
    append_partition = columns.partition.append
    append_messages = columns.messages.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            (n,) = _I16.unpack_from(buf, pos)
            pos += 2
            if n > stop - pos:
                raise InvalidLengthError(
                    f"PartitionProduce topic length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                topic = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"PartitionProduce topic length {n} is negative", pos - 1
                )  # its length's last byte

            (partition,) = _S0.unpack_from(buf, pos)
            pos += 4

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n > stop - pos:
                raise InvalidLengthError(
                    f"PartitionProduce messages length {n} runs past byte {stop}, the end of what holds it",
                    pos - 1,
                )
            if n >= 0:
                messages = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"PartitionProduce messages length {n} is negative", pos - 1
                )  # its length's last byte
            append_topic(topic)
            append_partition(partition)
            append_messages(messages)
    except (IndexError, struct.error):
        raise TruncatedError("PartitionProduce ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(
            f"PartitionProduce has a string that is not UTF-8: {exc.reason}", start
        ) from None
    if pos > stop:
        raise TruncatedError(f"PartitionProduce runs past byte {stop}, the end of what holds it", start)
    return pos
