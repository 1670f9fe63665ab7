"""Where one batch lies, and whether the log still holds it there: a :class:`BatchMark` and :func:`holds`.

A reader that stops and starts again (a Spark stream restarted from its checkpoint) keeps a mark of the
batch holding its last offset; a later look (:class:`~.tail.PartitionTail`) reads that one head back. A
log can go back (a follower truncated after a leader change, a partition deleted and created again) and
leave other records at offsets a reader already saw: other bytes where the mark was. Kafka's cleaner also
moves and rewrites batches of a compacted topic, keeping their offsets: when the head is not where it
was, the batch now holding its offsets is looked up once and judged by one rule (:func:`was_compacted`): a
compacted one is followed, anything else is a log that went back. The tail's live look and its restart
check both judge by this rule, stated here once.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafkaspec.generated import record_batch_v2 as v2

from ...entry import ENTRY_HEAD, LOG_OVERHEAD, MIN_LENGTH
from ..store.fs import RangeReader
from .segment import Segment

#: the most bytes of a head a :class:`BatchMark` keeps: a v2 head through its last offset delta, what a
#: walk of heads needs
MARK_HEAD = v2.LAST_OFFSET_DELTA_OFFSET + 4
_BLOCK = 64 << 10  # bytes read at a time when walking heads below an offset (an index interval is a few KB)


@dataclass(frozen=True)
class BatchMark:
    """Where one batch lies (its segment's base offset, its byte position) and its first bytes (offsets,
    length, leader epoch, magic, CRC): what tells later, with one read, that the log still holds it there.
    A rewrite in place (truncated and grown again, deleted and recreated) puts other bytes there: a new
    leader epoch, other records (a CRC), or another length."""

    segment: int
    position: int
    head: bytes

    @property
    def first_offset(self) -> int:
        """Its base offset (a legacy entry's offset, which is its last: a wrapper's inner offsets are not
        in the head)."""
        return int.from_bytes(self.head[:8], "big", signed=True)

    @property
    def last_offset(self) -> int:
        if len(self.head) >= MARK_HEAD and self.head[ENTRY_HEAD.size - 1] == 2:
            return self.first_offset + int.from_bytes(
                self.head[v2.LAST_OFFSET_DELTA_OFFSET : MARK_HEAD], "big", signed=True
            )
        return self.first_offset


def holds(segs: list[Segment], mark: BatchMark) -> bool:
    """Whether the log (its segments ``segs``) still holds the marked batch: where it was, byte for byte (one
    read of its head), or compacted (:func:`was_compacted`, looked at only when those bytes differ). True also
    when nothing can be told: its segment deleted from the start (retention; the log start says what went)
    or meanwhile, or tiered (never rewritten in place)."""
    return relocated(segs, mark)[0]


def relocated(segs: list[Segment], mark: BatchMark) -> tuple[bool, BatchMark | None]:
    """:func:`holds`, and where the batch is now: ``mark`` itself when its head is where it was or nothing
    can be told, else what :func:`was_compacted` found."""
    bases = [s.base_offset for s in segs]
    if not bases or mark.segment < bases[0]:
        return True, mark
    if mark.segment in bases:  # else cut back, rewritten, or merged into an earlier one by the cleaner
        seg = segs[bases.index(mark.segment)]
        if seg.layout != "kafka":
            return True, mark
        try:
            with RangeReader(seg.path) as reader:
                if reader.read_span(mark.position, mark.position + len(mark.head)) == mark.head:
                    return True, mark
        except FileNotFoundError:
            return True, mark
    return was_compacted(segs, mark)


def was_compacted(segs: list[Segment], mark: BatchMark) -> tuple[bool, BatchMark | None]:
    """Whether the marked batch, no longer where it was, was only compacted, and the batch now holding its
    last offset (or the last one before it; None when its segment has none): Kafka's cleaner rewrites a
    closed segment (merging it into an earlier one, batches moving up) and keeps of a batch whose records it
    thins its base and last offsets and leader epoch (v2), dropping a batch it empties. So: a segment
    follows the batch's offsets (the active one, which the cleaner never touches, is later), and the batch
    now holding the mark's last offset has the mark's offsets, epoch and magic 2 and is no longer, or no
    batch holds any of its offsets. A log cut back and grown again holds those offsets afresh (in batches
    from the first offset cut, under a new leader's epoch), a recreated one from offset 0, and one only cut
    back has no segment after them. ``mark`` itself is returned when nothing can be told (its segment
    deleted meanwhile)."""
    below = [s for s in segs if s.base_offset <= mark.last_offset]
    if not below:
        return True, mark
    if below[-1].layout != "kafka" or below[-1] is segs[-1]:
        return False, None
    try:
        now = mark_below(below[-1], mark.last_offset + 1)
    except FileNotFoundError:
        return True, mark
    if now is None or now.last_offset < mark.first_offset:
        return True, now
    if len(now.head) < MARK_HEAD or len(mark.head) < MARK_HEAD:
        return False, now
    was_offset, was_length, was_epoch, was_magic = ENTRY_HEAD.unpack_from(mark.head)
    is_offset, is_length, is_epoch, is_magic = ENTRY_HEAD.unpack_from(now.head)
    return (
        was_magic == is_magic == 2
        and (was_offset, was_epoch) == (is_offset, is_epoch)
        and now.last_offset == mark.last_offset
        and is_length <= was_length
    ), now


def mark_length(mark: BatchMark) -> int:
    """The marked batch's length field (its bytes after the offset and the length)."""
    return int(ENTRY_HEAD.unpack_from(mark.head)[1])


def mark_below(seg: Segment, offset: int) -> BatchMark | None:
    """The batch of ``seg`` holding ``offset - 1``, or the last one starting below ``offset``: its heads walked
    from the offset index's floor, a block at a time (one request for an object: an index interval is a
    few kilobytes); from the segment's start when no batch head is found there (an index not cut back
    with its log)."""
    floor = seg.position_for_offset(offset - 1)
    found = _walk_below(seg, offset, floor)
    return _walk_below(seg, offset, 0) if found is None and floor > 0 else found


def _walk_below(seg: Segment, offset: int, pos: int) -> BatchMark | None:
    found = None
    with RangeReader(seg.path) as reader:
        block, block_at = b"", pos
        while True:
            if pos + MARK_HEAD > block_at + len(block):
                block, block_at = reader.read_span(pos, pos + _BLOCK), pos
            rel = pos - block_at
            if len(block) - rel < ENTRY_HEAD.size:
                break
            first, length, _, magic = ENTRY_HEAD.unpack_from(block, rel)
            if magic not in MIN_LENGTH or length < MIN_LENGTH[magic]:
                break
            end = pos + LOG_OVERHEAD + length
            if first >= offset:
                break
            mark = BatchMark(seg.base_offset, pos, block[rel : rel + min(MARK_HEAD, end - pos)])
            if len(mark.head) < min(MARK_HEAD, end - pos):
                break
            found = mark
            if mark.last_offset >= offset - 1:
                break
            pos = end
    return found
