"""The index cross-checks of ``kafkaspec verify``: each index of a segment against the batches it names.

Like Kafka's ``DumpLogSegments --verify-index-only`` / ``--index-sanity-check``: offset-index entries
at batch starts naming an offset of that batch (its last offset since Kafka 0.11, its first before),
time-index entries naming an offset of a batch and that batch's max timestamp, in non-decreasing
order, index files of whole entries that point inside the log, and ``.txnindex`` entries and abort
markers matching both ways (a read_committed reader trusts the markers, a broker serves from the
index). A tiered segment's indexes come from its ``.indexes`` bundle and go through the same checks
(:class:`IndexFile` names the bundle and the byte in it). What an index holds is read by
:mod:`kafkaspec.logdir.kafka.indexes`; only the comparing with the scan (:class:`~.scan.Seen`) is here.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import TypeVar

from ...errors import KafkaFormatError
from ..kafka import indexes
from ..kafka.segment import Segment, StoredIndex
from .problem import Problem
from .scan import Seen, in_corrupt

E = TypeVar("E")


class IndexFile:
    """One index to check, where the segment stores it (:class:`~kafkaspec.logdir.kafka.segment.StoredIndex`): problems name
    its file, or its bundle at the byte in it and which index."""

    def __init__(self, where: StoredIndex):
        self.src, self.base, self.label, self.size, self.read = where

    def problem(self, at: int | None, message: str, severity: str = "error") -> Problem:
        return Problem(self.src, None if at is None else self.base + at, self.label + message, severity)


def _index(seg: Segment, kind: str) -> IndexFile | None:
    """The ``kind`` index of ``seg`` (``offset``, ``timestamp``, ``transaction``, and in a bundle also
    ``producerSnapshot``, ``leaderEpoch``), or None when it has none."""
    where = seg.stored_index(kind)
    return None if where is None else IndexFile(where)


def index_or_report(seg: Segment, kind: str, problems: list[Problem]) -> IndexFile | None:
    try:
        return _index(seg, kind)
    except KafkaFormatError as exc:  # an unreadable manifest or bundle
        problems.append(Problem(exc.source or str(seg.path), exc.position, exc.reason))
        return None


def index_error(f: IndexFile, exc: KafkaFormatError) -> Problem:
    """An index that does not parse: named as the index (in its bundle), or as what the error names."""
    if exc.source in (None, f.src):
        return f.problem(exc.position, exc.reason)
    return Problem(exc.source, exc.position, exc.reason)


def _whole_entries(f: IndexFile, entry: int, problems: list[Problem]) -> None:
    extra = f.size % entry
    if extra:
        problems.append(
            f.problem(
                f.size - extra,
                f"file size {f.size} is not a multiple of the "
                f"{entry}-byte entry size: the index is truncated or has trailing bytes",
            )
        )


def _beyond_limit(seg: Segment, f: IndexFile, entries: int, entry: int, problems: list[Problem]) -> None:
    limit = seg.index_limit(entry)
    if (
        entries * entry >= limit and f.size > limit and any(f.read(limit, limit + 2 * entry))
    ):  # zeros there: a preallocated tail
        problems.append(
            f.problem(
                limit,
                f"more entries than {seg.path.name} ({seg.size} bytes) can have "
                f"batches: the rest of the file ({f.size - limit} bytes) is not read",
            )
        )


def _opened(
    seg: Segment, kind: str, read: Callable[[], list[E]], entry: int, problems: list[Problem]
) -> tuple[IndexFile, list[E]] | None:
    """The ``kind`` index of ``seg`` and its entries (``read``), its size checked against its ``entry``
    size and the segment's batches; None when it is missing or does not parse (a problem said)."""
    f = index_or_report(seg, kind, problems)
    if f is None:
        return None
    try:
        entries = read()
    except KafkaFormatError as exc:
        problems.append(index_error(f, exc))
        return None
    _whole_entries(f, entry, problems)
    _beyond_limit(seg, f, len(entries), entry, problems)
    return f, entries


def check_offset_index(seg: Segment, seen: Seen, problems: list[Problem]) -> None:
    opened = _opened(seg, "offset", seg.index_entries, indexes.OFFSET_ENTRY_SIZE, problems)
    if opened is None:
        return
    f, entries = opened
    log_size = seg.size
    prev = None
    for i, entry in enumerate(entries):
        at = i * indexes.OFFSET_ENTRY_SIZE
        if entry.offset < seg.base_offset:
            problems.append(
                f.problem(at, f"entry {i}: offset {entry.offset} is below the segment's base offset")
            )
        if prev is not None and (entry.offset <= prev.offset or entry.position <= prev.position):
            problems.append(
                f.problem(
                    at,
                    f"entry {i} (offset {entry.offset}, position {entry.position}) does "
                    f"not follow entry {i - 1} (offset {prev.offset}, position {prev.position})",
                )
            )
        prev = entry
        if entry.position >= log_size or entry.position < 0:
            problems.append(
                f.problem(
                    at,
                    f"entry {i}: position {entry.position} is past the end of "
                    f"{seg.path.name} ({log_size} bytes)",
                )
            )
            continue
        found = seen.at_position.get(entry.position)
        if found is None and seen.torn_at is not None and entry.position >= seen.torn_at:
            problems.append(
                f.problem(
                    at,
                    f"entry {i}: position {entry.position} is in the partial batch at the end of the log",
                    "warning",
                )
            )
        elif found is None:
            if seen.complete and not in_corrupt(seen, entry.position):
                problems.append(
                    f.problem(at, f"entry {i}: position {entry.position} is not the start of a batch")
                )
        elif not found[0] <= entry.offset <= found[1]:
            # Kafka >= 0.11 indexes a batch's last offset; older brokers its first: both name the batch
            problems.append(
                f.problem(
                    at,
                    f"entry {i}: index offset {entry.offset} but the batch at position "
                    f"{entry.position} holds offsets {found[0]}..{found[1]} (ends at offset {found[1]})",
                )
            )


def check_time_index(seg: Segment, seen: Seen, problems: list[Problem]) -> None:
    opened = _opened(seg, "timestamp", seg.time_index_entries, indexes.TIME_ENTRY_SIZE, problems)
    if opened is None:
        return
    f, entries = opened
    prev = None
    for i, entry in enumerate(entries):
        at = i * indexes.TIME_ENTRY_SIZE
        if prev is not None and entry.timestamp < prev.timestamp:
            problems.append(
                f.problem(
                    at,
                    f"entry {i}: timestamp {entry.timestamp} is smaller than the "
                    f"previous entry's {prev.timestamp}",
                )
            )
        if prev is not None and entry.offset < prev.offset:
            problems.append(
                f.problem(
                    at, f"entry {i}: offset {entry.offset} is smaller than the previous entry's {prev.offset}"
                )
            )
        prev = entry
        k = bisect.bisect_left(seen.lasts, entry.offset)
        found = k < len(seen.lasts) and seen.bases[k] <= entry.offset
        if not found and seen.torn_at is not None and entry.offset > (seen.last_offset or -1):
            problems.append(
                f.problem(
                    at,
                    f"entry {i}: offset {entry.offset} is in the partial batch at the end of the log",
                    "warning",
                )
            )
        elif not found:
            if seen.complete and not seen.corrupt:
                problems.append(
                    f.problem(at, f"entry {i}: offset {entry.offset} is in no batch of {seg.path.name}")
                )
        elif seen.max_timestamps[k] != entry.timestamp:
            problems.append(
                f.problem(
                    at,
                    f"entry {i}: timestamp {entry.timestamp} but the batch holding "
                    f"offset {entry.offset} has max timestamp {seen.max_timestamps[k]}",
                )
            )


def check_txn_index(seg: Segment, seen: Seen, problems: list[Problem]) -> None:
    """The ``.txnindex`` against the abort markers of the segment, both ways: an entry without its
    marker, a marker without its entry (an emptied or missing index), a first offset that disagrees."""
    expected = {(t.producer_id, t.last_offset): t for t in seen.expected_aborts}
    try:
        f = _index(seg, "transaction")
    except KafkaFormatError as exc:
        problems.append(Problem(exc.source or str(seg.path), exc.position, exc.reason))
        return
    if f is None:
        if seen.aborts:
            where, missing = seg.missing_index("transaction")
            problems.append(
                Problem(
                    where,
                    None,
                    f"{missing}, but {seg.path.name} holds {len(seen.aborts)} abort markers (first: producer "
                    f"{min(seen.aborts)[0]} at offset {min(seen.aborts)[1]})",
                )
            )
        return
    try:
        entries = seg.aborted_transactions() or []
    except KafkaFormatError as exc:
        problems.append(index_error(f, exc))
        return
    _whole_entries(f, indexes.TXN_ENTRY_SIZE, problems)
    indexed = set()
    for i, t in enumerate(entries):
        at = i * indexes.TXN_ENTRY_SIZE
        key = (t.producer_id, t.last_offset)
        indexed.add(key)
        if t.first_offset > t.last_offset:
            problems.append(
                f.problem(
                    at, f"entry {i}: first offset {t.first_offset} is after last offset {t.last_offset}"
                )
            )
        if key not in seen.aborts:
            if seen.complete and not seen.corrupt:
                problems.append(
                    f.problem(
                        at,
                        f"entry {i}: no abort marker of producer {t.producer_id} at offset "
                        f"{t.last_offset} in {seg.path.name}",
                    )
                )
            continue
        want = expected.get(key)
        if want is None or want.first_offset == t.first_offset:
            continue
        unseen_start = want.first_offset == want.last_offset and (
            seen.partition_first is None or t.first_offset < seen.partition_first
        )
        if not unseen_start:  # the transaction's first batch is in the log, and it is elsewhere
            problems.append(
                f.problem(
                    at,
                    f"entry {i}: first offset {t.first_offset} but the aborted "
                    f"transaction of producer {t.producer_id} starts at offset {want.first_offset}",
                )
            )
    for pid, marker in sorted(seen.aborts - indexed):
        problems.append(
            f.problem(
                None,
                f"no entry for the abort marker of producer {pid} at offset {marker} "
                f"in {seg.path.name}: a read_committed fetch would return the aborted records",
            )
        )
