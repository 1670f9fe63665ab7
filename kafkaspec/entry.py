"""What every log entry is, whatever its format: the batch interface and the shared entry framing.

The bottom layer of the reading path (``entry`` -> ``message_set`` -> ``recovery``
-> ``records`` -> ``builder`` -> ``conversion``): it imports no other reading module.

Every log entry (a RecordBatch v2 or a Message v0/v1) starts the same way: an
int64 offset, an int32 length (of the bytes after it), four more bytes (v2:
the partition leader epoch; v0/v1: the CRC), then the magic byte at
``MAGIC_OFFSET`` (16), which chooses the layout (``kafkaspec.generated.log_entry``).
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Iterator
from typing import Any, NamedTuple, Protocol, runtime_checkable

from kafkaspec.generated import log_entry, message_v0, message_v1
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.record_v2 import Record

from .codec.compression import DEFAULT_MAX_DECOMPRESSED
from .codec.compression import Buffer as BytesLike

#: offset (int64) and length (int32) before the bytes that the length counts: Kafka's LOG_OVERHEAD
LOG_OVERHEAD = v2.PARTITION_LEADER_EPOCH_OFFSET
#: where the magic byte sits in every entry format
MAGIC_OFFSET = log_entry.DISCRIMINATOR_OFFSET
#: the framing every entry shares: offset, length, 4 bytes (leader epoch or CRC), magic
ENTRY_HEAD = struct.Struct(">qiib")
assert ENTRY_HEAD.size == MAGIC_OFFSET + 1
#: smallest length field for each magic. v2: the fixed-width fields after it; v0/v1: those plus the
#: key and value length prefixes (the generated MIN_MESSAGE_SIZE counts the fixed-width fields only)
_KEY_AND_VALUE_PREFIXES = 2 * 4  # two int32 lengths
MIN_LENGTH = {
    0: message_v0.MIN_MESSAGE_SIZE + _KEY_AND_VALUE_PREFIXES,
    1: message_v1.MIN_MESSAGE_SIZE + _KEY_AND_VALUE_PREFIXES,
    2: v2.MIN_BATCH_LENGTH,
}
#: smallest length field of any entry: a Message v0 after its length (crc, magic, attributes, key and value lengths)
MIN_ENTRY_LENGTH = min(MIN_LENGTH.values())
#: what the readers accept: any bytes-like object, or a file mapped with mmap
Buffer = BytesLike | mmap.mmap
#: the ranges of the signed integers the formats store
INT8 = (-(1 << 7), (1 << 7) - 1)
INT16 = (-(1 << 15), (1 << 15) - 1)
INT32 = (-(1 << 31), (1 << 31) - 1)
INT64 = (-(1 << 63), (1 << 63) - 1)
#: base offsets beyond which base + an int32 offset delta may leave int64
NEAR_INT64 = INT64[1] - INT32[1]
#: batch.timestamp_type for attribute bit 3
TIMESTAMP_TYPES = ("create", "log_append")


class Partial(NamedTuple):
    """Bytes at the end of the input that do not hold a complete entry."""

    position: int
    size: int
    needed: int | None  # total size the entry announces, when its header was readable


class Skipped(NamedTuple):
    """A byte range that recovery mode (``on_corrupt="skip"``) skipped, and why."""

    start: int
    end: int
    reason: str
    #: how the end was found (:mod:`kafkaspec.recovery`): "length" (the corrupt entry's length field was
    #: intact: its own CRC holds, or it leads to the end or to a valid entry) or "scan" (the bytes were
    #: scanned for the next valid entry; the end of the data when none was found)
    rule: str = "scan"


class ControlRecord(NamedTuple):
    """The decoded control record of a control batch."""

    version: int
    type: int
    type_name: str
    coordinator_epoch: int | None  # for abort/commit markers
    value: bytes | None  # the raw value
    #: the value of a KRaft control type (2-6), decoded by its schema (schemas/messages/):
    #: a ``kafkaspec.payloads.Decoded``; None for abort/commit markers and unknown types
    decoded: Any = None


@runtime_checkable
class LogBatch(Protocol):
    """One entry of a log, as :func:`kafkaspec.iter_batches` yields it, whatever its magic.

    Implemented by :class:`kafkaspec.Batch` (RecordBatch v2) and
    :class:`kafkaspec.LegacyBatch` (one shallow Message v0/v1: a plain message,
    or a compressed wrapper whose inner messages are its records). Fields the
    legacy formats lack read as Kafka's "none" values: producer_id,
    producer_epoch, base_sequence and partition_leader_epoch -1,
    is_transactional, is_control and has_delete_horizon False, control None.
    """

    @property
    def magic(self) -> int:
        """The message format: 0, 1 or 2."""

    @property
    def base_offset(self) -> int:
        """Offset of the first record (a legacy wrapper decompresses to know it)."""

    @property
    def last_offset(self) -> int:
        """Offset of the last record (kept even when compaction removed that record)."""

    @property
    def last_offset_delta(self) -> int:
        """last_offset - base_offset."""

    @property
    def attributes(self) -> int:
        """The attribute bits: 0-2 codec, 3 timestamp type (magic 1, 2); v2 only: 4 transactional,
        5 control, 6 delete horizon."""

    @property
    def crc(self) -> int:
        """The stored checksum (v2: CRC-32C of attributes..end; v0/v1: CRC-32 of magic..end)."""

    @property
    def compression(self) -> str:
        """The codec: "none", "gzip", "snappy", "lz4", "zstd" (or the number of an unknown one)."""

    @property
    def timestamp_type(self) -> str:
        """ "create" or "log_append" (magic 0: always "create")."""

    @property
    def base_timestamp(self) -> int:
        """v2: the first record's timestamp (the delete horizon when has_delete_horizon); legacy: the message's."""

    @property
    def max_timestamp(self) -> int:
        """The largest record timestamp (under LogAppendTime: the broker's append time; magic 0: -1)."""

    @property
    def producer_id(self) -> int: ...

    @property
    def producer_epoch(self) -> int: ...

    @property
    def base_sequence(self) -> int: ...

    @property
    def partition_leader_epoch(self) -> int: ...

    @property
    def is_transactional(self) -> bool: ...

    @property
    def is_control(self) -> bool: ...

    @property
    def has_delete_horizon(self) -> bool: ...

    @property
    def control(self) -> ControlRecord | None:
        """The control record of a control batch; None for data batches."""

    @property
    def records_count(self) -> int:
        """How many records the batch holds."""

    @property
    def records(self) -> list[Record]:
        """The records with absolute offsets and timestamps, decoded (and decompressed) on first use."""

    @property
    def position(self) -> int:
        """Byte position of the entry in the buffer it was read from."""

    @property
    def end(self) -> int:
        """Byte position just after the entry."""

    @property
    def size(self) -> int:
        """Bytes the entry occupies, log overhead included."""

    def raw(self) -> bytes:
        """The entry's bytes, exactly as stored."""

    def __iter__(self) -> Iterator[Record]: ...

    def __len__(self) -> int: ...


class BufferedEntry:
    """A log entry (v2 batch or legacy message) viewed in place; records are decoded on first use."""

    __slots__ = ("head", "_buf", "position", "end", "_records", "max_decompressed")

    def __init__(
        self, head: Any, buf: Any, position: int, end: int, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED
    ):
        self.head = head
        self._buf = buf
        self.position = position
        self.end = end
        self._records: list[Record] | None = None
        self.max_decompressed = max_decompressed

    @property
    def size(self) -> int:
        """Bytes the entry occupies, log overhead included."""
        return self.end - self.position

    def raw(self) -> bytes:
        """The entry's bytes, exactly as stored."""
        return bytes(self._buf[self.position : self.end])
