"""One log segment: a ``.log`` file and its index files.
One module because it is one class, :class:`Segment`, which every layout's segment (tiered too) extends.

The ``.log`` is read into memory, not mapped: a broker may truncate or delete a
segment while it is read, and a mapping then kills the reader with SIGBUS; a read
gives the bytes that were there (a cut batch is a reported partial tail). Byte
ranges let several readers (Spark tasks) share one large segment;
:meth:`Segment.split` cuts it at offset-index positions, which are always batch
starts, and :meth:`Segment.read_range` reads just one range.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, cast

from kafkaspec.generated import record_batch_v2 as v2

from ...entry import ENTRY_HEAD, LOG_OVERHEAD, MIN_ENTRY_LENGTH, MIN_LENGTH, LogBatch
from ...errors import KafkaFormatError
from ...records import DEFAULT_MAX_DECOMPRESSED, Batch, BatchIterator, OnCorrupt
from ...recovery import entry_is_valid
from ..store import ranged
from ..store.fs import RangeReader, StoragePath, getter, local_entry_problem, reads_are_requests, storage_path
from ..store.ranged import Get
from . import indexes
from .files import (
    INDEX_SUFFIX,
    LOG_SUFFIX,
    TIME_INDEX_SUFFIX,
    TXN_INDEX_SUFFIX,
    offset_from_name,
    read_index_file,
    read_regular,
)
from .indexes import AbortedTxn, IndexEntry, TimeIndexEntry
from .transactions import TransactionalData, TransactionMarker, marker_at
from .window import Batches, WindowedBatches

_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")
#: the attribute bits of a transactional data batch (transactional, not control)
_TRANSACTIONAL_DATA = v2.IS_TRANSACTIONAL_MASK | v2.IS_CONTROL_MASK


#: a v2 head's last offset delta and producer id, the timestamps between them passed over
_DELTA_AND_PRODUCER = struct.Struct(f">i{v2.PRODUCER_ID_OFFSET - v2.LAST_OFFSET_DELTA_OFFSET - 4}xq")
_HEAD_BLOCK = 1 << 20  # bytes read at a time when walking batch heads


class _WalkFailed(Exception):
    """A batch head that does not parse: the head walk gives up at this position."""


class StoredIndex(NamedTuple):
    """Where one index of a segment is stored, for a check that reports positions in it: a file of its
    own, or a range of a tiered segment's ``.indexes`` bundle (a finding then names the bundle, at the
    byte in it, and says which index)."""

    source: str  # the file or object a finding names
    base: int  # where the index starts in ``source``
    label: str  # what a finding's message starts with ("" for a file of its own)
    size: int  # the index's size in bytes
    read: Callable[[int, int], bytes]  # bytes [a, b) of the index


class Scanned(NamedTuple):
    """What a scan of a segment's batches found, for the segment's own checks of what its metadata
    states (:meth:`Segment.source_findings`; offsets None: no batch read)."""

    first_offset: int | None
    last_offset: int | None
    max_timestamp: int
    bases: list[int]
    epochs: list[int]  # partition leader epochs of the batches (-1: a legacy message)
    complete: bool  # the scan read every batch


#: a broker's segment's index files by the kind a tiered manifest names them by
_INDEX_SUFFIXES = {"offset": INDEX_SUFFIX, "timestamp": TIME_INDEX_SUFFIX, "transaction": TXN_INDEX_SUFFIX}


class Segment:
    """A segment of a partition log, named by its base offset.

    Open lazily: the file is read on first use and released by :meth:`close`
    (or when used as a context manager). Offsets in index entries are absolute.
    """

    layout = "kafka"  # or "tiered" (kafkaspec.logdir.tiered.segment)
    #: whether its offsets run without gaps between batches (no compaction: tiered storage's segments)
    contiguous = False

    def __init__(self, path: str | StoragePath, base_offset: int | None = None):
        self.path: StoragePath = storage_path(path)
        if base_offset is None:
            base_offset = offset_from_name(self.path)
        self.base_offset = 0 if base_offset is None else base_offset
        #: the first offset its partition reads from it: its base offset, or above it in a tiered partition
        #: whose live lineage serves the offsets before from an earlier segment (``tiered_lineage``)
        self.served_from = self.base_offset
        #: its last offset when known without reading it (a tiered manifest's endOffset), else None
        self.end_offset: int | None = None
        self._data: bytes | None = None
        self._index: list[IndexEntry] | None = None
        self._time_index: list[TimeIndexEntry] | None = None
        #: why the ``.log`` cannot be read, found when its partition listed it (:meth:`unreadable`)
        self._gap: KafkaFormatError | None = None

    # -- files -----------------------------------------------------------------
    def _sibling(self, suffix: str) -> StoragePath:
        name = self.path.name
        stem = name[: -len(LOG_SUFFIX)] if name.endswith(LOG_SUFFIX) else name
        return self.path.with_name(stem + suffix)

    @property
    def index_path(self) -> StoragePath:
        return self._sibling(INDEX_SUFFIX)

    @property
    def time_index_path(self) -> StoragePath:
        return self._sibling(TIME_INDEX_SUFFIX)

    @property
    def txn_index_path(self) -> StoragePath:
        return self._sibling(TXN_INDEX_SUFFIX)

    @classmethod
    def listed(cls, path: StoragePath, base_offset: int) -> Segment:
        """The segment of a ``.log`` entry its partition's directory lists. An entry that is no regular
        file (a dangling symbolic link, a FIFO, a directory) is a segment all the same, one that cannot
        be read (:meth:`unreadable`): each reader reports it where it reports a corrupt segment, so no
        reader skips its offsets in silence. Nothing is opened here."""
        seg = cls(path, base_offset)
        seg._gap = local_entry_problem(path)
        return seg

    @property
    def size(self) -> int:
        """Size of the ``.log`` file in bytes (0 for one that cannot be read: none of it is read)."""
        if self._gap is not None:
            return 0
        return self.path.stat().st_size

    @property
    def data(self) -> bytes:
        """The ``.log`` bytes as they were when first read (``b""`` for an empty file).

        Not a regular file (a FIFO, a device), or one that cannot be opened, is a
        :class:`KafkaFormatError` naming it.
        """
        if self._data is None:
            self._data = self._read(0, None)
        return self._data

    def read_range(self, start: int, end: int) -> bytes:
        """Bytes [start, end) of the ``.log`` (fewer at its end), read without the rest of the file."""
        if self._data is not None:
            return self._data[start:end]
        return self._read(start, end)

    def _read(self, start: int, end: int | None) -> bytes:
        if self._gap is not None:
            raise self._gap
        try:
            return read_regular(self.path, start, end)
        except FileNotFoundError:  # deleted since it was listed (retention): the caller decides what that is
            raise
        except OSError as exc:
            raise _cannot_read(exc, self.path) from None

    def close(self) -> None:
        """Release the file's bytes (batches read earlier keep what they use alive)."""
        self._data = None

    def __enter__(self) -> Segment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- indexes -----------------------------------------------------------------
    def index_entries(self) -> list[IndexEntry]:
        """Offset-index entries (absolute offset, position); [] without an ``.index`` file."""
        if self._index is None:
            p = self.index_path
            self._index = (
                indexes.parse_offset_index(
                    read_index_file(
                        p, indexes.OFFSET_ENTRY_SIZE, self.index_limit(indexes.OFFSET_ENTRY_SIZE)
                    ),
                    self.base_offset,
                )
                if p.exists()
                else []
            )
        return self._index

    def index_limit(self, entry_size: int) -> int:
        """Bytes of an index worth reading: one entry per possible batch of the ``.log`` (none is shorter
        than the smallest Message v0), plus one; two at least, since a preallocated index with no entry yet
        is known by its first two entries being zeros. More is garbage (reported by verify), never read."""
        return max(self.size // (LOG_OVERHEAD + MIN_ENTRY_LENGTH) + 1, 2) * entry_size

    def time_index_entries(self) -> list[TimeIndexEntry]:
        """Time-index entries (timestamp, absolute offset); [] without a ``.timeindex`` file."""
        if self._time_index is None:
            p = self.time_index_path
            self._time_index = (
                indexes.parse_time_index(
                    read_index_file(p, indexes.TIME_ENTRY_SIZE, self.index_limit(indexes.TIME_ENTRY_SIZE)),
                    self.base_offset,
                )
                if p.exists()
                else []
            )
        return self._time_index

    def aborted_transactions(self) -> list[AbortedTxn] | None:
        """Entries of the ``.txnindex``; None when the segment has none."""
        p = self.txn_index_path
        return indexes.parse_txn_index(read_regular(p), str(p)) if p.exists() else None

    # -- what a verifier asks of every kind of segment ---------------------------------
    # A verifier checks every segment the same way and never asks which kind it holds: where each
    # kind keeps its indexes and what else it states about itself are answered here and overridden
    # by the kinds that differ (kafkaspec.logdir.tiered.segment).

    def unreadable(self) -> KafkaFormatError | None:
        """Why nothing of the segment can be read, found before reading its batches (None: it can be
        read; a broker's segment: its directory entry is no regular file, a tiered one: its manifest)."""
        return self._gap

    def stored_index(self, kind: str) -> StoredIndex | None:
        """Where its ``kind`` index is (``offset``, ``timestamp``, ``transaction``; a tiered segment's
        bundle also holds ``producerSnapshot`` and ``leaderEpoch``), or None when it has none: a
        broker's segment keeps each in a file beside its ``.log``."""
        suffix = _INDEX_SUFFIXES.get(kind)
        if suffix is None:
            return None
        path = self._sibling(suffix)
        if not path.exists():
            return None
        return StoredIndex(str(path), 0, "", path.stat().st_size, lambda a, b: read_regular(path, a, b))

    def missing_index(self, kind: str) -> tuple[str, str]:
        """For an index it lacks (:meth:`stored_index` None): what a finding names, and how it says the
        index is not there (a broker's segment: the file's own path, "missing")."""
        return str(self._sibling(_INDEX_SUFFIXES[kind])), "missing"

    def source_findings(
        self, scanned: Scanned, topic: str, partition: int, topic_id: str
    ) -> list[tuple[str, str]]:
        """What the segment states about itself besides its batches and indexes, checked against them
        and against ``scanned``: ``(object, message)`` findings. A broker's segment states nothing
        more; a tiered one has its manifest."""
        return []

    # -- reading -----------------------------------------------------------------
    def iter_batches(
        self,
        start: int = 0,
        end: int | None = None,
        *,
        verify: bool = True,
        on_corrupt: OnCorrupt = "raise",
        check_records: bool = True,
    ) -> Batches:
        """The batches its partition reads from this segment: those of :meth:`iter_stored_batches`, from
        :attr:`served_from` (a tiered partition's live lineage, or a partition's whole history, serves
        the offsets before it from an earlier segment: ``RemoteLogManager`` reads on at the end offset
        plus one)."""
        if self.served_from <= self.base_offset:
            return self.iter_stored_batches(
                start, end, verify=verify, on_corrupt=on_corrupt, check_records=check_records
            )
        start = max(start, self.position_for_offset(self.served_from))
        it = self.iter_stored_batches(
            start, end, verify=verify, on_corrupt=on_corrupt, check_records=check_records
        )
        return cast(
            Batches, _ServedFrom(it, self)
        )  # the same iterator, batches below served_from passed over

    def iter_stored_batches(
        self,
        start: int = 0,
        end: int | None = None,
        *,
        verify: bool = True,
        on_corrupt: OnCorrupt = "raise",
        check_records: bool = True,
    ) -> Batches:
        """Every batch starting in [start, end) of the ``.log`` (``start`` must be a batch start).

        The iterator's ``partial`` reports a trailing incomplete batch; error
        positions are byte positions in the file. ``on_corrupt="skip"`` resumes
        after corrupt entries and lists them in the iterator's ``skipped``.
        An object-store segment not yet read whole is read through a window of bounded
        size (:mod:`kafkaspec.logdir.kafka.window`), with the same results.
        """
        if self._data is None and self._windowed():
            get, size, piece = self._ranged()
            return WindowedBatches(
                get,
                start,
                size if end is None else min(end, size),
                verify=verify,
                on_corrupt=on_corrupt,
                check_records=check_records,
                piece=piece,
            )
        data = self.data
        size = len(data)
        end = size if end is None else min(end, size)
        return BatchIterator(
            data, verify=verify, start=start, end=end, on_corrupt=on_corrupt, check_records=check_records
        )

    def _windowed(self) -> bool:
        """Whether scans read through a window rather than the whole file (an object-store segment)."""
        return reads_are_requests(self.path)

    def _ranged(self) -> tuple[Get, int, int]:
        """``(get, size, piece)``: a ranged read of the ``.log``, its size, and the piece size to read it in."""
        get, size = getter(self.path)
        return get, size, ranged.READ_PIECE

    def transactional_batches(self) -> Iterator[LogBatch | TransactionalData | TransactionMarker]:
        """The transactional v2 batches of the ``.log``, read head by head: the first data batch of each
        transaction as its :class:`~kafkaspec.logdir.kafka.transactions.TransactionalData` (producer and first
        offset, all a transaction scan needs of it: the rest until the producer's next control batch are
        passed over), each end-transaction marker as a broker writes it as its
        :class:`~kafkaspec.logdir.kafka.transactions.TransactionMarker` (read at fixed positions), any
        other control batch whole and decoded.

        Heads are read a block at a time and only control batches are read whole (no CRC is checked),
        so a scan for transaction markers never holds the whole file in memory. A head that does not parse (a bad magic or length)
        raises :class:`_WalkFailed`; the caller (``logdir.layout``) then reads the segment with
        ``on_corrupt="skip"`` from the start instead, so each batch comes from one path only.
        Batches below :attr:`served_from` are passed over, as every reader does: a partition's whole
        history reads those offsets from its tiered copy, and a marker there is one transaction's end,
        not two.
        """
        floor = self.served_from
        if self._gap is not None:
            raise self._gap
        try:
            reader = RangeReader(self.path)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise _cannot_read(exc, self.path) from None
        size = reader.size

        def pread(n: int, at: int) -> bytes:
            return reader.read(at, n)

        begun: set[int] = set()  # producers whose transaction's first data batch was given, no marker since
        try:
            block, block_at = b"", 0
            pos = 0
            while pos < size:
                if pos + v2.RECORD_BATCH_OVERHEAD > block_at + len(block):
                    block, block_at = pread(_HEAD_BLOCK, pos), pos
                    if len(block) < v2.RECORD_BATCH_OVERHEAD:
                        break  # a partial tail (or entries too short for a v2 head: the fallback decides)
                rel = pos - block_at
                base_offset, length, _, magic = ENTRY_HEAD.unpack_from(block, rel)
                minimum = MIN_LENGTH.get(magic)
                if minimum is None or length < minimum:
                    raise _WalkFailed(pos)
                end = pos + LOG_OVERHEAD + length
                if end > size:
                    break  # a partial tail: no complete batch follows
                if magic == 2:
                    attributes = block[rel + v2.ATTRIBUTES_OFFSET + 1]
                    if attributes & _TRANSACTIONAL_DATA == v2.IS_TRANSACTIONAL_MASK:
                        last_delta, pid = _DELTA_AND_PRODUCER.unpack_from(
                            block, rel + v2.LAST_OFFSET_DELTA_OFFSET
                        )
                        if base_offset + last_delta >= floor:
                            if pid not in begun:
                                begun.add(pid)
                                yield TransactionalData(pid, base_offset)
                    elif attributes & v2.IS_TRANSACTIONAL_MASK:
                        marker = marker_at(block, rel) if end <= block_at + len(block) else None
                        begun.discard(
                            _I64.unpack_from(block, rel + v2.PRODUCER_ID_OFFSET)[0]
                            if marker is None
                            else marker.producer_id
                        )
                        if marker is not None:
                            if marker.last_offset >= floor:
                                yield marker
                            pos = end
                            continue
                        raw = (
                            block[rel : rel + LOG_OVERHEAD + length]
                            if end <= block_at + len(block)
                            else pread(LOG_OVERHEAD + length, pos)
                        )
                        try:
                            if attributes & v2.IS_CONTROL_MASK:
                                batch: LogBatch = next(BatchIterator(raw, verify=False))
                            else:
                                batch = Batch(
                                    v2.decode_record_batch_head(raw, 0),
                                    raw,
                                    0,
                                    len(raw),
                                    DEFAULT_MAX_DECOMPRESSED,
                                )
                        except KafkaFormatError:
                            raise _WalkFailed(pos) from None
                        if batch.last_offset >= floor:
                            yield batch
                pos = end
        finally:
            reader.close()

    def __iter__(self) -> Iterator:
        return iter(self.iter_batches())

    def split(self, target_bytes: int) -> list[tuple[int, int]]:
        """Cut the segment into byte ranges of about ``target_bytes`` at index positions.

        Every range starts at a batch start, so ``iter_batches(start, end)`` over
        the ranges yields each batch exactly once. Without an index: one range; a segment no larger than
        ``target_bytes`` is one range without its index read (a partition of many small segments is
        planned without opening each index).
        """
        size = self.size
        if size <= target_bytes:
            return [(0, size)]
        cuts = [0]
        try:
            entries = self.index_entries()
        except KafkaFormatError:  # an unreadable index: one range (verify reports the index)
            entries = []
        for entry in entries:
            if (
                entry.position - cuts[-1] >= target_bytes
                and entry.position < size
                and self._looks_like_entry(entry.position, size)
            ):
                cuts.append(entry.position)
        return [(a, b) for a, b in zip(cuts, cuts[1:] + [size]) if b > a] or [(0, size)]

    def _looks_like_entry(self, position: int, size: int) -> bool:
        """A cheap check that a (possibly corrupt) index position starts a log entry."""
        if position + ENTRY_HEAD.size > size:
            return False
        head = self.read_range(position, position + ENTRY_HEAD.size)  # a planner reads heads, not the log
        if len(head) < ENTRY_HEAD.size:
            return False
        _, length, _, magic = ENTRY_HEAD.unpack_from(head)
        return magic in MIN_LENGTH and length > 0 and position + LOG_OVERHEAD + length <= size

    def position_for_offset(self, offset: int) -> int:
        """A batch start at or before the batch holding ``offset`` (from the offset index).

        An index entry is used only when a valid entry (length, magic, CRC) starts at its
        position and holds its offset; otherwise the previous entry is tried, and the
        segment start is the last resort, so a damaged or stale index costs a longer scan,
        never skipped records.
        """
        try:
            entries = self.index_entries()
        except KafkaFormatError:  # an unreadable index (a FIFO, a device): scan, verify reports it
            return 0
        i = bisect.bisect_right(entries, offset, key=lambda e: e.offset) - 1
        while i >= 0:
            if self._entry_names_batch(entries[i]):
                return entries[i].position
            i -= 1
        return 0

    def _entry_names_batch(self, entry: IndexEntry) -> bool:
        """Whether the index entry points at a valid batch holding its offset (its last offset since
        Kafka 0.11, its first before; a legacy wrapper's offset is its last inner offset)."""
        pos = entry.position
        if pos < 0:
            return False
        head = self.read_range(pos, pos + ENTRY_HEAD.size)  # then that one entry, not the whole segment
        if len(head) < ENTRY_HEAD.size:
            return False
        base, length, _, magic = ENTRY_HEAD.unpack(head)
        raw = self.read_range(pos, pos + LOG_OVERHEAD + max(length, 0))
        if not entry_is_valid(raw, 0, len(raw)):
            return False
        if magic == 2:
            return base <= entry.offset <= base + _I32.unpack_from(raw, v2.LAST_OFFSET_DELTA_OFFSET)[0]
        return entry.offset <= base

    def find_offset(self, offset: int, *, verify: bool = True) -> LogBatch | None:
        """The first batch whose last offset is >= ``offset``, or None; reads one index interval at most."""
        start = self.position_for_offset(offset)
        end = self._interval_end(offset) if self._windowed() and self._data is None else None
        for batch in self.iter_batches(start, end, verify=verify):
            if batch.last_offset >= offset:
                return batch
        return None

    def _interval_end(self, offset: int) -> int | None:
        """The end of the batch named by the first index entry at or after ``offset``: the batch
        holding ``offset`` ends by there (None: no such entry, read to the end of the segment)."""
        try:
            entries = self.index_entries()
        except KafkaFormatError:
            return None
        j = bisect.bisect_left(entries, offset, key=lambda e: e.offset)
        if j >= len(entries):
            return None
        pos = entries[j].position
        head = self.read_range(pos, pos + ENTRY_HEAD.size) if pos >= 0 else b""
        if len(head) < ENTRY_HEAD.size:
            return None
        length = ENTRY_HEAD.unpack(head)[1]
        return pos + LOG_OVERHEAD + length if length > 0 else None

    def position_for_timestamp(self, timestamp: int) -> int:
        """A batch start at or before the first batch whose max timestamp is >= ``timestamp``."""
        try:
            entries = self.time_index_entries()
        except KafkaFormatError:  # an unreadable index: scan from the start, verify reports it
            return 0
        entry = indexes.floor_timestamp_below(entries, timestamp)
        return self.position_for_offset(entry.offset) if entry else 0

    def find_timestamp(self, timestamp: int, *, verify: bool = True) -> LogBatch | None:
        """The first batch whose max timestamp is >= ``timestamp``, or None."""
        for batch in self.iter_batches(self.position_for_timestamp(timestamp), verify=verify):
            if batch_max_timestamp(batch) >= timestamp:
                return batch
        return None

    def max_timestamp(self) -> int:
        """The largest batch max timestamp in the segment (from a scan of the batch headers)."""
        best = -1
        for batch in self.iter_batches(verify=False):
            best = max(best, batch_max_timestamp(batch))
        return best

    def __repr__(self) -> str:
        return f"Segment({str(self.path)!r}, base_offset={self.base_offset})"


class _ServedFrom:
    """A segment's batch iterator without the batches below the offset its partition reads it from (its
    ``partial``, ``skipped`` and ``close`` are the iterator's). A batch that holds that offset and ones
    below it is an error: the segment before ends inside it, so the two copies disagree on batches
    (replicas hold the same batches, so this is not a copy of the same log)."""

    def __init__(self, it: Batches, seg: Segment):
        self._it, self._seg = it, seg

    def __iter__(self) -> _ServedFrom:
        return self

    def __next__(self) -> LogBatch:
        floor = self._seg.served_from
        while True:
            batch = next(self._it)
            if batch.last_offset < floor:
                continue
            if batch.base_offset < floor:
                raise KafkaFormatError(
                    f"the batch at byte {batch.position} holds offsets {batch.base_offset}..{batch.last_offset}, but "
                    f"its partition reads this segment from offset {floor} (the segment before it ends at "
                    f"{floor - 1}): the two copies cut their batches differently",
                    batch.position,
                    str(self._seg.path),
                )
            return batch

    def __getattr__(self, name: str) -> Any:
        return getattr(self._it, name)


def _cannot_read(exc: OSError, path: StoragePath) -> KafkaFormatError:
    """A segment that is listed but cannot be opened (no permission, an I/O error): the data's problem,
    reported as a segment that cannot be read, not the command's."""
    return KafkaFormatError(f"cannot be read: {(exc.strerror or str(exc)).lower()}", None, str(path))


def readable_size(seg: Segment) -> int:
    """The segment's size for a progress total; 0 when it cannot be told (a tiered segment whose manifest
    does not parse): reading the segment reports why, and one such segment never stops the others."""
    try:
        return seg.size
    except (KafkaFormatError, OSError):
        return 0


def batch_max_timestamp(batch: LogBatch) -> int:
    """A batch's max timestamp for any magic (a legacy message's own timestamp; -1 for magic 0)."""
    return batch.max_timestamp
