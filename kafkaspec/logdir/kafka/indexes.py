"""The three per-segment index files, decoded with the generated codecs.

- ``.index``: (relative offset int32, position int32) entries; each names the
  **last** offset of a batch and the byte position where that batch starts.
- ``.timeindex``: (timestamp int64, relative offset int32) entries; the running max
  timestamp of the segment and the last offset of the batch that reached it.
- ``.txnindex``: 34-byte aborted-transaction entries.

Offset and time indexes of an active segment are preallocated and zero-filled:
reading stops at the first all-zero entry after the first entry, and at the first entry too when
the second is all zeros as well (a running broker's active segment before its first entry: Kafka
indexes a batch only after ``index.interval.bytes``). Offsets here are
absolute (the segment base offset added). Lookups are binary searches.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import NamedTuple

from kafkaspec.generated import aborted_txn_entry_v0 as txn_codec
from kafkaspec.generated import offset_index_entry_v0 as offset_codec
from kafkaspec.generated import time_index_entry_v0 as time_codec

from ...entry import Buffer
from ...errors import InvalidMagicError

OFFSET_ENTRY_SIZE = offset_codec.OFFSET_INDEX_ENTRY_SIZE  # 8
TIME_ENTRY_SIZE = time_codec.TIME_INDEX_ENTRY_SIZE  # 12
TXN_ENTRY_SIZE = txn_codec.ABORTED_TXN_ENTRY_SIZE  # 34


class IndexEntry(NamedTuple):
    """An offset-index entry: the last offset of a batch and the position where that batch starts."""

    offset: int
    position: int


class TimeIndexEntry(NamedTuple):
    """A time-index entry: a max timestamp so far and the last offset of the batch that reached it."""

    timestamp: int
    offset: int


class AbortedTxn(NamedTuple):
    """An aborted transaction: the producer's records in [first_offset, last_offset] are dropped."""

    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int


def _bytes(data: Buffer) -> bytes:
    return data if isinstance(data, bytes) else bytes(data)


def used_length(data: bytes, entry_size: int) -> int:
    """How many bytes of an index hold entries: up to two entries past the first run of two zero
    entries (a preallocated tail), found without decoding, so zeros cost a byte search, not objects."""
    hit = data.find(bytes(2 * entry_size))
    return len(data) if hit < 0 else hit + 2 * entry_size


def parse_offset_index(data: Buffer, base_offset: int) -> list[IndexEntry]:
    """Entries of an ``.index`` file's bytes; trailing zero entries and a partial tail are ignored."""
    data = _bytes(data)
    data = data[: used_length(data, OFFSET_ENTRY_SIZE)]
    count = len(data) // OFFSET_ENTRY_SIZE
    raw, _ = offset_codec.decode_offset_index_entry_array(data, 0, count)
    out = []
    for i, (rel, pos) in enumerate(raw):
        if rel == 0 and pos == 0 and (i or _padding(raw)):
            break
        out.append(IndexEntry(base_offset + rel, pos))
    return out


def _padding(raw: list[tuple[int, int]]) -> bool:
    """The first two entries are both all zeros: a preallocated index with no entry yet."""
    return len(raw) > 1 and raw[0] == (0, 0) and raw[1] == (0, 0)


def parse_time_index(data: Buffer, base_offset: int) -> list[TimeIndexEntry]:
    """Entries of a ``.timeindex`` file's bytes; trailing zero entries and a partial tail are ignored."""
    data = _bytes(data)
    data = data[: used_length(data, TIME_ENTRY_SIZE)]
    count = len(data) // TIME_ENTRY_SIZE
    raw, _ = time_codec.decode_time_index_entry_array(data, 0, count)
    out = []
    for i, (ts, rel) in enumerate(raw):
        if ts == 0 and rel == 0 and (i or _padding(raw)):
            break
        out.append(TimeIndexEntry(ts, base_offset + rel))
    return out


def parse_txn_index(data: Buffer, source: str | None = None) -> list[AbortedTxn]:
    """Entries of a ``.txnindex`` file's bytes (a partial tail is ignored); ``source`` names the file
    in errors.

    Each entry starts with its version, which Kafka's TransactionIndex checks against
    ``AbortedTxn.json`` (version 0 only) as it reads: an entry of any other version is an error
    naming the entry and its byte, as Kafka refuses the index."""
    data = _bytes(data)
    count = len(data) // TXN_ENTRY_SIZE
    try:
        raw, _ = txn_codec.decode_aborted_txn_entry_array(data, 0, count)
    except InvalidMagicError as exc:
        at = (exc.position or 0) // TXN_ENTRY_SIZE * TXN_ENTRY_SIZE
        version = int.from_bytes(data[at : at + 2], "big", signed=True)
        raise InvalidMagicError(
            f"entry {at // TXN_ENTRY_SIZE}: aborted transaction version {version}; Kafka's "
            f"TransactionIndex reads version 0 only (AbortedTxn.json) and refuses the index",
            at,
            source,
        ) from None
    return [AbortedTxn(e.producer_id, e.first_offset, e.last_offset, e.last_stable_offset) for e in raw]


def encode_offset_index(entries: Iterable[tuple[int, int]], base_offset: int) -> bytes:
    return offset_codec.encode_offset_index_entry_array(
        [offset_codec.OffsetIndexEntry(o - base_offset, p) for o, p in entries]
    )


def encode_time_index(entries: Iterable[tuple[int, int]], base_offset: int) -> bytes:
    return time_codec.encode_time_index_entry_array(
        [time_codec.TimeIndexEntry(t, o - base_offset) for t, o in entries]
    )


def encode_txn_index(entries: Iterable[AbortedTxn]) -> bytes:
    return txn_codec.encode_aborted_txn_entry_array([txn_codec.AbortedTxnEntry(0, *e) for e in entries])


def floor_offset(entries: list[IndexEntry], offset: int) -> IndexEntry | None:
    """The last entry whose offset is <= ``offset`` (None if every entry is above it)."""
    i = bisect.bisect_right(entries, offset, key=lambda e: e.offset)
    return entries[i - 1] if i else None


def floor_timestamp_below(entries: list[TimeIndexEntry], timestamp: int) -> TimeIndexEntry | None:
    """The last entry whose timestamp is strictly below ``timestamp``.

    Every batch up to that entry's offset has a max timestamp below ``timestamp``,
    so the first batch reaching ``timestamp`` lies after it.
    """
    i = bisect.bisect_left(entries, timestamp, key=lambda e: e.timestamp)
    return entries[i - 1] if i else None
