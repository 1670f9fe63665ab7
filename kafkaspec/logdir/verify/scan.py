"""The segment scan of ``kafkaspec verify``: one read of each segment's batches.

Batch CRCs and (``deep``) record decoding, resuming after corrupt entries; offsets increasing within
the segment and from its name; a torn batch at the end of the last segment (a write in progress) a
warning, not an error. What the scan learns (:class:`Seen`: where each batch starts, its offsets, max
timestamp and epoch, the abort markers) is what the index and state-file checks compare against
(:mod:`.index_checks`, :mod:`.state_files`); what the segment states about itself (a tiered
manifest) is compared here (:func:`check_source`).
"""

from __future__ import annotations

from kafkaspec.generated.enums import ControlRecordType

from ...entry import Skipped
from ...errors import KafkaFormatError
from ...records import OnCorrupt
from ...recovery import RULE_WORDS
from ..kafka.indexes import AbortedTxn
from ..kafka.layout import Partition
from ..kafka.segment import Scanned, Segment, batch_max_timestamp
from ..kafka.transactions import TransactionScan
from ..tiered.partition import TieredPartition
from .problem import Problem


class Seen:
    """What the log scan learned about a segment's batches, for checking its indexes."""

    def __init__(self) -> None:
        self.at_position: dict[int, tuple[int, int]] = {}  # position -> (base offset, last offset)
        self.lasts: list[int] = []  # last offsets of the batches, in order
        self.bases: list[int] = []
        self.max_timestamps: list[int] = []
        self.epochs: list[int] = []  # partition leader epochs of the batches (-1: a legacy message)
        self.aborts: set[tuple[int, int]] = set()  # (producer id, marker offset)
        self.complete = True  # the scan reached the end of the log
        self.first_offset: int | None = None
        self.last_offset: int | None = None
        self.torn_at: int | None = None  # position of a partial batch at the end of the last segment
        self.corrupt: list[tuple[int, int]] = []  # byte ranges skipped as corrupt (already reported)
        self.expected_aborts: list[AbortedTxn] = []  # what the .txnindex must hold, from the markers
        self.partition_first: int | None = None  # the first offset of the partition seen so far


def readable_or_report(seg: Segment, problems: list[Problem]) -> bool:
    """Whether the segment can be read (a tiered one: its manifest parses and fits its objects); if
    not, one problem naming why: nothing else of the segment can be read, and the partition's other
    segments are verified."""
    exc = seg.unreadable()
    if exc is None:
        return True
    problems.append(
        Problem(
            exc.source or str(seg.path),
            exc.position,
            f"{exc.reason}; the segment {seg.path.name} cannot be read",
        )
    )
    return False


def scan_log(
    seg: Segment, problems: list[Problem], deep: bool, is_last: bool, scan: TransactionScan | None = None
) -> Seen:
    """Read the whole log; with ``deep``, decode every record and resume after corrupt entries."""
    seen = Seen()
    src = str(seg.path)
    try:
        mode: OnCorrupt = "skip" if deep else "raise"
        # every batch of the file or object, also those below where its partition reads it from
        it = seg.iter_stored_batches(verify=True, on_corrupt=mode)
    except KafkaFormatError as exc:  # not a regular file
        seen.complete = False
        problems.append(Problem(src, exc.position, exc.reason))
        return seen
    prev = None
    reported = 0
    contiguous = seg.contiguous  # no compaction in tiered storage: no gaps between batches
    floor = seg.served_from
    try:
        for batch in it:
            skipped_here = reported < len(it.skipped)  # a gap after skipped bytes is already reported
            while reported < len(it.skipped):  # corrupt entries skipped before this batch
                _report_skip(src, it.skipped[reported], problems, seen)
                reported += 1
            pos, last = batch.position, batch.last_offset
            if seen.first_offset is None:
                seen.first_offset = batch.base_offset
                if batch.base_offset < seg.base_offset:
                    problems.append(
                        Problem(
                            src,
                            pos,
                            f"batch base offset {batch.base_offset} is below the "
                            f"segment's base offset {seg.base_offset}",
                        )
                    )
                elif contiguous and batch.base_offset > seg.base_offset and not skipped_here:
                    problems.append(
                        Problem(
                            src,
                            pos,
                            f"offsets {seg.base_offset}..{batch.base_offset - 1} are "
                            f"missing: the segment is named by offset {seg.base_offset} but its "
                            f"first batch starts at {batch.base_offset}",
                        )
                    )
            if prev is not None and batch.base_offset <= prev:
                problems.append(
                    Problem(
                        src,
                        pos,
                        f"batch base offset {batch.base_offset} does not follow "
                        f"the previous batch's last offset {prev}",
                    )
                )
            elif prev is not None and contiguous and batch.base_offset > prev + 1 and not skipped_here:
                problems.append(
                    Problem(
                        src,
                        pos,
                        f"offsets {prev + 1}..{batch.base_offset - 1} are missing: the "
                        f"batch at byte {pos} starts at offset {batch.base_offset}, the one before "
                        f"it ends at {prev} (tiered storage holds no compacted topic: its offsets "
                        "have no gaps)",
                    )
                )
            if last < batch.base_offset:
                problems.append(
                    Problem(src, pos, f"last offset {last} is below base offset {batch.base_offset}")
                )
            prev = seen.last_offset = last
            max_ts = batch_max_timestamp(batch)
            seen.at_position[pos] = (batch.base_offset, last)
            seen.lasts.append(last)
            seen.bases.append(batch.base_offset)
            seen.max_timestamps.append(max_ts)
            seen.epochs.append(batch.partition_leader_epoch if batch.magic == 2 else -1)
            if batch.is_control and batch.is_transactional:
                try:
                    control = batch.control
                    if control is not None and control.type == ControlRecordType.ABORT:
                        seen.aborts.add((batch.producer_id, batch.base_offset))
                except KafkaFormatError as exc:
                    problems.append(Problem(src, pos, f"control batch at {pos}: {exc.reason}"))
                    continue
            if batch.base_offset < floor <= last:
                problems.append(
                    Problem(
                        src,
                        pos,
                        f"the batch at byte {pos} holds offsets {batch.base_offset}..{last}, "
                        f"but the live lineage serves this segment from offset {floor} (the segment "
                        "before it ends inside the batch): the two uploads cut their batches "
                        "differently",
                    )
                )
            if scan is not None and last >= floor:  # what the partition serves: no marker twice
                scan.add(batch)
    except KafkaFormatError as exc:
        seen.complete = False
        problems.append(Problem(src, exc.position, f"{exc.reason}; the rest of the segment cannot be read"))
        return seen
    for skipped in it.skipped[reported:]:
        _report_skip(src, skipped, problems, seen)
    if it.partial is not None:
        part = it.partial
        need = f" of {part.needed}" if part.needed else ""
        message = f"segment ends in a partial batch ({part.size}{need} bytes)"
        if is_last:
            seen.torn_at = part.position
            problems.append(
                Problem(
                    src,
                    part.position,
                    f"{message}; a write in progress, or a torn tail: when the broker next starts after "
                    f"an unclean shutdown, Kafka's recovery truncates the segment to byte {part.position} "
                    f"({part.size} bytes dropped)",
                    "warning",
                )
            )
        else:
            problems.append(Problem(src, part.position, message + " but it is not the last segment"))
    return seen


def _report_skip(src: str, skipped: Skipped, problems: list[Problem], seen: Seen) -> None:
    seen.corrupt.append((skipped.start, skipped.end))
    problems.append(
        Problem(
            src,
            skipped.start,
            f"corrupt entry: {skipped.reason}; bytes {skipped.start}.."
            f"{skipped.end} skipped ({RULE_WORDS[skipped.rule]})",
        )
    )


def in_corrupt(seen: Seen, position: int) -> bool:
    return any(a <= position < b for a, b in seen.corrupt)


def check_source(seg: Segment, part: Partition, seen: Seen, problems: list[Problem]) -> None:
    """What the segment states about itself against the batches (a tiered manifest: ``tiered_checks``)."""
    scanned = Scanned(
        seen.first_offset,
        seen.last_offset,
        max(seen.max_timestamps, default=-1),
        seen.bases,
        seen.epochs,
        seen.complete and not seen.corrupt and seen.torn_at is None,
    )
    topic_id = part.topic_id if isinstance(part, TieredPartition) else ""
    for source, message in seg.source_findings(scanned, part.topic, part.partition, topic_id):
        problems.append(Problem(source, None, message))
