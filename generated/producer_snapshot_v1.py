"""ProducerSnapshot v1: A producer-state snapshot (`<offset>.snapshot` in a partition directory):
the broker's table of active producer ids as of the offset in the file name,
written on segment roll and clean shutdown so that restarts need not reread
the whole log.

Since Kafka 0.11.0.

Generated from schemas/logdir/producer_snapshot_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.crc import crc32c
from kafkaspec.errors import CorruptRecordError, InvalidLengthError, InvalidMagicError, TruncatedError

from .producer_snapshot_entry_v1 import (
    ProducerSnapshotEntryColumns,
    decode_producer_snapshot_entry_array,
    decode_producer_snapshot_entry_columns,
    encode_producer_snapshot_entry_array,
)

SCHEMA = "schemas/logdir/producer_snapshot_v1.yaml"
NAME = "ProducerSnapshot"
VERSION = 1
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

VERSION_OFFSET = 0
VERSION_LENGTH = 2
CRC_OFFSET = VERSION_OFFSET + VERSION_LENGTH
CRC_LENGTH = 4
PRODUCER_ENTRIES_OFFSET = CRC_OFFSET + CRC_LENGTH
PRODUCER_SNAPSHOT_OVERHEAD = PRODUCER_ENTRIES_OFFSET  # bytes before the first variable-size field
MIN_PRODUCER_SNAPSHOT_SIZE = 10  # smallest encoded size


_S0 = struct.Struct(">hI")
_new = tuple.__new__
_I32 = struct.Struct(">i")


# -- typed values ---------------------------------------------------------------


class ProducerSnapshot(NamedTuple):
    """A producer-state snapshot (`<offset>.snapshot` in a partition directory): the
    broker's table of active producer ids as of the offset in the file name, written
    on segment roll and clean shutdown so that restarts need not reread the whole
    log.

    Fields:
        version: Snapshot file format version; 1 is the only version Kafka has
            written.
        crc: CRC-32C of everything after this field (the entry count and the
            entries) up to the end of the file.
        producer_entries: The active producers, an int32 count followed by the entries.
    """

    version: int = 1
    crc: int | None = None
    producer_entries: Sequence = ()


# -- fast codec -----------------------------------------------------------------


def decode_producer_snapshot_array(
    buf, pos: int, count: int, stop: int | None = None, *, verify: bool = True
) -> tuple[list[ProducerSnapshot], int]:
    """Decode ``count`` consecutive ProducerSnapshots from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_PRODUCER_SNAPSHOT_SIZE:
        raise InvalidLengthError(
            f"{count} ProducerSnapshots cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, ProducerSnapshot
    try:
        for _ in range(count):
            start = pos

            (version, crc) = _S0.unpack_from(buf, pos)
            pos += PRODUCER_SNAPSHOT_OVERHEAD
            if version != 1:
                raise InvalidMagicError(
                    f"ProducerSnapshot version is {version}, expected 1", start + VERSION_OFFSET
                )
            if verify:
                actual = crc32c(memoryview(buf)[start + PRODUCER_ENTRIES_OFFSET : len(buf)])
                if actual != crc:
                    raise CorruptRecordError(
                        f"ProducerSnapshot crc is {crc:#010x}, CRC32C of bytes {start + PRODUCER_ENTRIES_OFFSET}..{len(buf)} is {actual:#010x}",
                        start,
                    )

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n == 0:
                producer_entries = []
            else:
                producer_entries, pos = decode_producer_snapshot_entry_array(buf, pos, n, stop)
            append(new(cls, (version, crc, producer_entries)))
    except (IndexError, struct.error):
        raise TruncatedError("ProducerSnapshot ends before its fields do", start) from None
    return items, pos


def decode_producer_snapshot(buf, pos: int = 0) -> tuple[ProducerSnapshot, int]:
    """Decode one ProducerSnapshot at ``pos``; return it and the position after it."""
    items, pos = decode_producer_snapshot_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_producer_snapshot_array(items) -> bytes:
    """Encode a sequence of ProducerSnapshots back to back."""
    out = bytearray()
    for item in items:
        (_, _, producer_entries) = item

        if producer_entries:
            d1 = encode_producer_snapshot_entry_array(producer_entries)
            p1 = _I32.pack(len(producer_entries))
        else:
            d1 = b""
            p1 = _I32.pack(0)

        s0 = b"".join((p1, d1))
        p0 = _S0.pack(1, crc32c(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_producer_snapshot(item) -> bytes:
    """Encode one ProducerSnapshot."""
    return encode_producer_snapshot_array((item,))


# -- columnar decoding ------------------------------------------------------------


class ProducerSnapshotColumns:
    """Decoded ProducerSnapshots as one list per field (columns, ready for Arrow).

    ``producer_entries_offsets`` holds the boundaries of each item's producer_entries in
    ``producer_entries`` (a :class:`ProducerSnapshotEntryColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "version",
        "crc",
        "producer_entries_offsets",
        "producer_entries",
    )

    def __init__(self) -> None:
        self.version: list = []
        self.crc: list = []
        self.producer_entries_offsets: list[int] = [0]
        self.producer_entries = ProducerSnapshotEntryColumns()

    def __len__(self) -> int:
        return len(self.version)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.version[n:]
        del self.crc[n:]
        del self.producer_entries_offsets[n + 1 :]
        self.producer_entries.truncate(self.producer_entries_offsets[-1])


def decode_producer_snapshot_columns(
    buf,
    pos: int,
    count: int,
    columns: ProducerSnapshotColumns,
    stop: int | None = None,
    *,
    verify: bool = True,
) -> int:
    """Decode ``count`` consecutive ProducerSnapshots at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_producer_snapshot_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_PRODUCER_SNAPSHOT_SIZE:
        raise InvalidLengthError(
            f"{count} ProducerSnapshots cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    append_version = columns.version.append
    append_crc = columns.crc.append
    producer_entries_columns = columns.producer_entries
    append_producer_entries_offset = columns.producer_entries_offsets.append
    producer_entries_total = columns.producer_entries_offsets[-1]
    start = pos
    try:
        for _ in range(count):
            start = pos

            (version, crc) = _S0.unpack_from(buf, pos)
            pos += PRODUCER_SNAPSHOT_OVERHEAD
            if version != 1:
                raise InvalidMagicError(
                    f"ProducerSnapshot version is {version}, expected 1", start + VERSION_OFFSET
                )
            if verify:
                actual = crc32c(memoryview(buf)[start + PRODUCER_ENTRIES_OFFSET : len(buf)])
                if actual != crc:
                    raise CorruptRecordError(
                        f"ProducerSnapshot crc is {crc:#010x}, CRC32C of bytes {start + PRODUCER_ENTRIES_OFFSET}..{len(buf)} is {actual:#010x}",
                        start,
                    )

            (n,) = _I32.unpack_from(buf, pos)
            pos += 4
            if n:
                pos = decode_producer_snapshot_entry_columns(buf, pos, n, producer_entries_columns, stop)
                producer_entries_total += n
            append_version(version)
            append_crc(crc)
            append_producer_entries_offset(producer_entries_total)
    except (IndexError, struct.error):
        raise TruncatedError("ProducerSnapshot ends before its fields do", start) from None
    return pos
