"""Following a growing partition: its log start, its end and its last stable offset, cheaply, again and again.

A broker (or :class:`~kafkaspec.logdir.PartitionWriter`) appends batches to the active
segment while a reader looks. What a follower may read is the end of the last *complete*
batch: a batch being appended is not yet visible, and a torn tail left by a crash is not
data. :class:`PartitionTail` walks batch heads only (the 12-byte entry head plus the v2
attributes and last offset delta), and only the bytes appended since its last look: the
first look walks the active segment from its last offset-index entry (the whole partition
when it tracks transactions, since a transaction may have opened in any segment), every
later look starts where the previous one stopped. A closed segment's index is used; the
active one's is not needed (a broker preallocates it, ``PartitionWriter`` writes it at the
roll).

A log can also go back (a follower truncated after a leader change, a partition deleted and created
again) or be compacted. Each look first checks that the last batch head it saw is still where it was,
and that its segment is still the last or followed by later ones: if not, the partition is walked
afresh and the look says so (``TailPoint.rewound``: the end the tail had reached), even when the log
has since grown past it; a batch Kafka's cleaner only compacted is followed. A reader restarted from its
own record of where it got to hands the :class:`~.marks.BatchMark` it kept (:meth:`PartitionTail.mark`)
to its first look (``expect``). Both checks judge by one rule, :mod:`.marks`' (:func:`~.marks.holds`).

Transactions (``transactions=True``) are followed from their batches' heads and their
markers, as :meth:`~kafkaspec.logdir.Partition.transactions` does: the last stable offset
is the first offset of the oldest transaction without a marker (Kafka's LSO), or the end.

Object-store segments are never half-visible (:mod:`kafkaspec.logdir.store.publish`), so the same walk applies. A
tiered-storage segment is published whole by its manifest and never changes: it is taken in once,
its end from the manifest (``Segment.end_offset``) or, when that does not say, and for its
transactions, from its batches read through its chunks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from kafkaspec.generated import record_batch_v2 as v2

from ...entry import ENTRY_HEAD, LOG_OVERHEAD, MIN_LENGTH
from ...errors import KafkaFormatError
from ...records import DEFAULT_MAX_DECOMPRESSED, Batch, BatchIterator
from ..store.fs import RangeReader, reads_are_requests
from .indexes import AbortedTxn
from .layout import Partition
from .marks import MARK_HEAD, BatchMark, holds, mark_below, mark_length, relocated, was_compacted
from .segment import Segment
from .transactions import ReadCommitted, TransactionScan

log = logging.getLogger("kafkaspec.logdir")

_LOCAL_BLOCK = 64 << 10  # bytes read at a time from a local file when walking heads
_REMOTE_BLOCK = 1 << 20  # from an object store (one request each)
_HEAD = MARK_HEAD  # bytes of a v2 head the walk needs (through the last offset delta)


@dataclass(frozen=True)
class TailPoint:
    """One look at a partition: offsets [log_start, end) exist; a read_committed reader sees [.., stable).
    ``rewound``: the log went back since the last look (truncated or rewritten in place), which had
    reached this offset; None when it did not."""

    log_start: int
    end: int
    stable: int
    rewound: int | None = None


class _Reader:
    """Block reads of one segment's ``.log`` (a local file or an object)."""

    def __init__(self, seg: Segment):
        self.path = seg.path
        self._reader = RangeReader(self.path)
        self.size = self._reader.size
        self.block = _REMOTE_BLOCK if reads_are_requests(self.path) else _LOCAL_BLOCK

    def read(self, at: int, n: int) -> bytes:
        return self._reader.read(at, n)

    def close(self) -> None:
        self._reader.close()


class PartitionTail:
    """The moving end of one partition (module docstring); keep one per partition and call :meth:`look`."""

    def __init__(self, *, transactions: bool = False):
        self.transactions = transactions
        self.scan = TransactionScan()
        self._segment: int | None = None  # base offset of the segment the last look ended in
        self._position = 0  # the end of its last complete batch
        self._next = 0  # the offset after the last complete batch seen
        #: the last complete batch seen: its segment's base offset, where it starts, and its first bytes
        #: (offsets, length, epoch, magic, CRC), to tell at the next look whether it is still there
        self._last: tuple[int, int, bytes] | None = None
        self._tiered_seen: set[int] = set()  # tiered segments (immutable once published) already taken in
        self._segs: list[Segment] = []  # the segments at the last look
        self._marked: tuple[int, BatchMark | None] | None = None  # the last mark made: (offset, mark)

    def look(self, part: Partition, *, expect: BatchMark | None = None) -> TailPoint:
        """Where the partition starts and ends now (reads only what was appended since the last look).
        ``expect``: a batch an earlier reader saw (:meth:`mark`); when it is no longer there, the look says
        ``rewound`` (the offset after that batch, or the end this tail had reached if further)."""
        segs = self._segs = part.segments()
        if not segs:
            return TailPoint(self._next, self._next, self._next)
        log_start = max(segs[0].served_from, segs[0].base_offset)
        bases = [s.base_offset for s in segs]
        before, rewound = self._next, False
        if expect is not None and not holds(segs, expect):
            before, rewound = max(before, expect.last_offset + 1), True
        elif self._segment is not None and self._segment not in bases:
            # retention deletes from the start, truncation from the end (a log may have grown and rolled past it
            # again), the cleaner merges a closed segment into the one before
            rewound = self._segment > bases[-1] or not self._last_held(segs)
        elif self._segment is not None:
            rewound = not self._same_last_head(segs, bases)
            for seg in segs[bases.index(self._segment) :]:
                if rewound:
                    break
                continued = seg.base_offset == self._segment
                rewound = not self._walk(seg, self._position if continued else 0, check=continued)
        if self._segment is None or self._segment not in bases or rewound:
            self._cold_start(segs)
        last = segs[-1]
        end = max(self._next, last.base_offset)  # an empty active segment: its name is the next offset
        stable = min(self.scan.ongoing.values(), default=end) if self.transactions else end
        return TailPoint(min(log_start, end), end, min(stable, end), before if rewound else None)

    def mark(self, offset: int) -> BatchMark | None:
        """The batch holding ``offset - 1`` as of the last look (the last one that starts below ``offset``
        when none holds it), to hand to a later tail's first look: the last head seen when it is that one
        (no read), else found from the offset index's floor. None when no batch lies below ``offset`` or
        it is in a tiered segment (published whole, never rewritten in place)."""
        if self._marked is not None and self._marked[0] == offset:
            return self._marked[1]
        found = None
        if self._last is not None:
            seen = BatchMark(*self._last)
            if seen.first_offset < offset <= seen.last_offset + 1:
                found = seen
        if found is None:
            below = [s for s in self._segs if s.base_offset < offset]
            if below and below[-1].layout == "kafka":
                try:
                    found = mark_below(below[-1], offset)
                except (
                    OSError,
                    KafkaFormatError,
                ) as exc:  # deleted meanwhile: the next look says what happened
                    log.warning(
                        "kafkalog: %s: no batch head found below offset %d: %s", below[-1].path, offset, exc
                    )
        self._marked = (offset, found)
        return found

    def _same_last_head(self, segs: list[Segment], bases: list[int]) -> bool:
        """Whether the last batch head seen is still there, when it lies in a segment before the one the
        last look ended in (an empty segment just rolled); in that one, the walk checks it as it reads.
        Still there: in place byte for byte, or as Kafka's cleaner left it (:func:`holds`' rule), and then
        the batch as it is now is the head remembered (:meth:`_follow_compaction`)."""
        if self._last is None or self._last[0] == self._segment:
            return True  # nothing seen yet, or checked by the walk
        return self._last_held(segs)

    def _last_held(self, segs: list[Segment]) -> bool:
        """Whether the log still holds the last batch seen (:func:`holds`), following it when compacted."""
        if self._last is None:
            return True
        mark = BatchMark(*self._last)
        try:
            held, now = relocated(segs, mark)
        except (
            OSError,
            KafkaFormatError,
        ) as exc:  # deleted or replaced meanwhile: the next look says what happened
            log.warning(
                "kafkalog: %s: the batch head last seen (segment %d, byte %d) not read back: %s",
                segs[-1].path.parent,
                mark.segment,
                mark.position,
                exc,
            )
            return True
        if held and now is not mark:
            self._follow_compaction(mark, now)
        return held

    def _compacted_since(self) -> bool:
        """The last batch head seen, in the segment the walk continues in, is no longer where it was (that
        segment rolled and was cleaned since the last look, or the log went back): whether it was only
        compacted (:func:`~.marks.was_compacted`), and if so follow it there."""
        assert self._last is not None
        mark = BatchMark(*self._last)
        try:
            compacted, now = was_compacted(self._segs, mark)
        except (
            OSError,
            KafkaFormatError,
        ) as exc:  # not where it was and not found: walked afresh, as a log gone back
            log.warning(
                "kafkalog: %s: the batch head last seen (segment %d, byte %d) not found again: %s",
                self._segs[-1].path.parent,
                mark.segment,
                mark.position,
                exc,
            )
            return False
        if compacted and now is not mark:
            self._follow_compaction(mark, now)
        return compacted

    def _follow_compaction(self, mark: BatchMark, now: BatchMark | None) -> None:
        """Remember the batch the cleaner left in place of ``mark`` (None: none is left below its offsets in
        its segment) so the next look reads one head again, and when ``mark`` lay in the segment the walk
        continues in, continue after that batch (nothing before it is new: its offsets are below the end)."""
        self._last = None if now is None else (now.segment, now.position, now.head)
        if mark.segment == self._segment:
            self._position = (
                now.position + LOG_OVERHEAD + mark_length(now)
                if now is not None and now.segment == self._segment
                else 0
            )

    def read_committed(self) -> ReadCommitted:
        """The aborted transactions seen so far (and the open ones): the filter for offsets below the LSO."""
        return ReadCommitted(list(self.scan.aborted), dict(self.scan.ongoing))

    def aborted(self) -> list[AbortedTxn]:
        return list(self.scan.aborted)

    def _cold_start(self, segs: list[Segment]) -> None:
        self.scan = TransactionScan()
        self._marked = None
        self._tiered_seen.clear()
        self._next = segs[0].base_offset
        self._last = None
        if self.transactions:  # an open transaction may have begun in any segment: walk every head once
            for seg in segs:
                self._walk(seg, 0)
            return
        last = segs[-1]
        start = 0
        try:
            entries = last.index_entries()
        except KafkaFormatError:
            entries = []
        if entries:
            start = last.position_for_offset(entries[-1].offset)
        self._walk(last, start)

    def _walk(self, seg: Segment, position: int, *, check: bool = False) -> bool:
        """Walk the heads of ``seg`` from ``position`` to its last complete batch. ``check``: ``seg`` is the one
        the last look ended in; first make sure it was not cut back or rewritten (False, nothing walked, if it
        was): no shorter than ``position``, and the last batch head seen in it still there (read in the same
        block as what follows it, so a look costs one read when nothing else changed)."""
        if seg.layout == "tiered":  # published whole and never changed: taken in once
            if seg.base_offset not in self._tiered_seen:
                self._tiered_seen.add(seg.base_offset)
                self._tiered(seg)
            self._segment, self._position = seg.base_offset, 0
            return True
        gap = seg.unreadable()
        try:
            if (
                gap is not None
            ):  # listed as no regular file: where it ends is unknown, so the tail stops before it
                raise gap
            reader = _Reader(seg)
        except (OSError, KafkaFormatError) as exc:  # deleted meanwhile, or not a regular file
            log.warning(
                "kafkalog: %s: not followed: %s",
                seg.path,
                exc.reason if isinstance(exc, KafkaFormatError) else exc,
            )
            return True
        try:
            pos = position
            block, block_at = b"", 0
            if check and self._last is not None and self._last[0] == seg.base_offset:
                _, at, head = self._last
                if reader.size >= position:
                    block, block_at = reader.read(at, reader.block), at
                if reader.size < position or block[: len(head)] != head:  # cut back, rewritten or compacted
                    if not self._compacted_since():
                        return False
                    pos, block = self._position, b""
            elif check and reader.size < position:
                return False
            while pos + LOG_OVERHEAD + 5 <= reader.size:
                if pos + _HEAD > block_at + len(block):
                    block, block_at = reader.read(pos, reader.block), pos
                rel = pos - block_at
                if len(block) - rel < ENTRY_HEAD.size:
                    break
                offset, length, _, magic = ENTRY_HEAD.unpack_from(block, rel)
                minimum = MIN_LENGTH.get(magic)
                if minimum is None or length < minimum:
                    log.warning("kafkalog: %s: no batch head at byte %d: followed up to there", seg.path, pos)
                    break
                end = pos + LOG_OVERHEAD + length
                if end > reader.size:
                    break  # being appended (or a torn tail): not visible
                if magic == 2:
                    if len(block) - rel < _HEAD:
                        block, block_at = reader.read(pos, reader.block), pos
                        rel = 0
                    attributes = block[rel + v2.ATTRIBUTES_OFFSET + 1]
                    delta = int.from_bytes(
                        block[rel + v2.LAST_OFFSET_DELTA_OFFSET : rel + _HEAD], "big", signed=True
                    )
                    last = offset + delta
                    if self.transactions and attributes & v2.IS_TRANSACTIONAL_MASK:
                        self._transactional(reader, pos, end, attributes)
                else:
                    last = offset  # a legacy entry's offset is its last (a wrapper's last inner offset)
                self._next = max(self._next, last + 1)
                if len(block) - rel < _HEAD:
                    block, block_at = reader.read(pos, reader.block), pos
                    rel = 0
                self._last = (seg.base_offset, pos, block[rel : rel + min(_HEAD, end - pos)])
                pos = end
            self._segment, self._position = seg.base_offset, pos
            return True
        finally:
            reader.close()

    def _tiered(self, seg: Segment) -> None:
        """A tiered segment: its end from its manifest when that says it, else from its batches (read through
        its chunks), and its transactions from its batches (only the offsets it serves: an earlier segment
        of the lineage serves the rest)."""
        if seg.end_offset is not None and not self.transactions:
            if seg.size > 0:  # an empty segment's manifest names its base offset: no data there
                self._next = max(self._next, seg.end_offset + 1)
            return
        try:
            for batch in seg.iter_batches(verify=False, on_corrupt="skip"):
                if batch.last_offset < seg.served_from:
                    continue
                self._next = max(self._next, batch.last_offset + 1)
                if self.transactions and batch.is_transactional:
                    self.scan.add(batch)
        except (OSError, KafkaFormatError) as exc:
            log.warning("kafkalog: %s: not followed: %s", seg.path, exc)
        finally:
            seg.close()

    def _transactional(self, reader: _Reader, pos: int, end: int, attributes: int) -> None:
        raw = reader.read(pos, end - pos)
        try:
            if attributes & v2.IS_CONTROL_MASK:
                self.scan.add(next(BatchIterator(raw, verify=False)))
            else:
                self.scan.add(
                    Batch(v2.decode_record_batch_head(raw, 0), raw, 0, len(raw), DEFAULT_MAX_DECOMPRESSED)
                )
        except (KafkaFormatError, StopIteration) as exc:
            log.warning(
                "kafkalog: %s at byte %d: transactional batch not understood: %s", reader.path, pos, exc
            )


def end_position(seg: Segment, offset: int) -> int:
    """The byte position in ``seg`` where the batch holding ``offset - 1`` ends (every batch before it too):
    where a read of offsets below ``offset`` may stop. Walks heads from the offset index's floor."""
    start = seg.position_for_offset(offset - 1)
    reader = _Reader(seg)
    try:
        pos = start
        while pos + LOG_OVERHEAD <= reader.size:
            head = reader.read(pos, _HEAD)
            if len(head) < ENTRY_HEAD.size:
                break
            base, length, _, magic = ENTRY_HEAD.unpack_from(head)
            if magic not in MIN_LENGTH or length < MIN_LENGTH[magic]:
                break
            end = pos + LOG_OVERHEAD + length
            if end > reader.size:
                break
            last = (
                base + int.from_bytes(head[v2.LAST_OFFSET_DELTA_OFFSET : _HEAD], "big", signed=True)
                if magic == 2 and len(head) >= _HEAD
                else base
            )
            pos = end
            if last >= offset - 1:
                break
        return pos
    finally:
        reader.close()


__all__ = ["MARK_HEAD", "BatchMark", "PartitionTail", "TailPoint", "end_position", "holds"]
