"""The verification pass: every problem in a log directory, with file and byte position.

Like Kafka's ``DumpLogSegments --verify-index-only`` / ``--index-sanity-check``
plus a full read: batch CRCs and (``deep``) record decoding, offsets increasing
within and across segments, offset-index entries at batch starts naming an
offset of that batch (its last offset since Kafka 0.11, its first before),
time-index entries naming an offset of a batch and that batch's max timestamp,
in non-decreasing order, index files of whole entries that point
inside the log, ``.txnindex`` entries and abort markers matching both ways (a
read_committed reader trusts the markers, a broker serves from the index),
producer snapshot CRCs, and the checkpoint and metadata text files. Every log
file must be a regular file named by a 20-digit offset (a FIFO or device is
reported, never read; a misnamed segment would stop a broker loading the log),
and a directory holding no segment is no partition. A torn batch at the end of
the last segment (a write in progress) is a warning, not an error.

Why one module of this size: its one job is the verification pass, and its checks are cross
checks (index entries against the batches they name, the transaction index against the abort
markers, snapshots and epochs against the batches), so they share one walk over each segment and
one report; a tiered segment's ``.indexes`` bundle goes through the same checks. What a file
holds is read by ``files``, ``indexes`` and ``snapshot``; only the comparing is here.
"""

from __future__ import annotations

import bisect
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from kafkaspec.generated.enums import ControlRecordType

from ...entry import Skipped
from ...errors import KafkaFormatError, SkippedDirWarning
from ...records import OnCorrupt
from ...recovery import RULE_WORDS
from ..detect import open_log
from ..kafka import files, indexes, node_files
from ..kafka.indexes import AbortedTxn
from ..kafka.layout import NO_KAFKA_DATA, LogDir, Partition, known_segments
from ..kafka.names import offset_name_problem
from ..kafka.node_files import MetaProperties
from ..kafka.segment import Scanned, Segment, StoredIndex, batch_max_timestamp, readable_size
from ..kafka.snapshot import parse_snapshot
from ..kafka.transactions import TransactionScan
from ..store.fs import StoragePath
from ..store.publish import PUBLISHING, describe
from ..store.storage import RemotePath, is_uri, listdir
from ..tiered.encryption import PrivateKeys
from ..tiered.history import HistoryPartition
from ..tiered.partition import TieredPartition
from ..tiered.remote_log_topic import RemoteLogMetadata
from .datadir import DATA_DIR_FILES, Extent, check_data_dir, check_node


class Problem(NamedTuple):
    """One finding: the file, the byte position in it (None if not applicable), what is wrong."""

    path: str
    position: int | None
    message: str
    severity: str = "error"  # "error", "warning" or "note" (a fact worth knowing, not a problem)

    def __str__(self) -> str:
        where = self.path if self.position is None else f"{self.path} at byte {self.position}"
        return f"{self.severity}: {where}: {self.message}"


def verify_path(
    path: str | StoragePath,
    *,
    deep: bool = True,
    progress: Callable[[int, int], None] | None = None,
    tiered: str | Path | RemotePath | None = None,
    remote_log_metadata: str | Path | RemotePath | RemoteLogMetadata | None = None,
    metas: list[tuple[StoragePath, MetaProperties]] | None = None,
    notes: bool = False,
    keys: PrivateKeys | None = None,
) -> list[Problem]:
    """Verify a data dir, a partition dir or one segment; return every problem found. With ``tiered``,
    the local log plus its tiered copy there, as each partition's whole history (``logdir.history``):
    the remote and local segments must meet without a gap or an overlap. ``remote_log_metadata``: as for
    :func:`~kafkaspec.logdir.open_log`; each tiered partition says which source chose its segments. A
    data dir's own files (``meta.properties``, the offset checkpoints, ``.kafka_cleanshutdown``) are
    checked against its partitions (``datadir_checks``); ``metas`` collects its ``meta.properties`` for
    :func:`verify_paths`. With ``notes``, facts that are no problem are listed too (severity ``note``: a
    data dir whose last shutdown was not clean, one without ``meta.properties``). ``keys``: the private
    keys of encrypted tiered segments (as for :func:`~kafkaspec.logdir.open_log`)."""
    problems: list[Problem] = []
    with warnings.catch_warnings(record=True) as caught:  # directories passed over: reported as problems
        warnings.simplefilter("always", SkippedDirWarning)
        log = open_log(path, tiered=tiered, remote_log_metadata=remote_log_metadata, keys=keys)
        parts = log.partitions() + log.checkpoints()
    for w in caught:
        if isinstance(w.message, SkippedDirWarning):
            problems.append(
                Problem(
                    w.message.path, None, f"not read: {w.message.reason}", _skipped_severity(w.message.path)
                )
            )
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    total = sum(readable_size(s) for p in parts for s in known_segments(p)) or 1
    done = 0
    for p in log.unpublished:
        problems.append(Problem(str(p / PUBLISHING), None, describe(p)))
    for p in log.interrupted:
        problems.append(
            Problem(
                str(p),
                None,
                "the staging dir of a rewrite that did not finish (killed, or failed "
                "while moving its output in): this directory is not a complete copy; the staged "
                "output is not read (run the rewrite again, or remove the directory)",
            )
        )
    if not parts and not log.unpublished and not log.interrupted:
        problems.append(Problem(str(path), None, NO_KAFKA_DATA))
    extents: dict[tuple[str, str, int], Extent | None] = {}  # (data dir, topic, partition); None: no segment
    for part in parts:
        if isinstance(part, HistoryPartition):
            part.gap_is_error = False  # the gap is reported below, with both sides' segments checked
        try:
            part.segments()
        except KafkaFormatError as exc:  # its segments cannot be chosen (tiered copies that disagree)
            problems.append(Problem(exc.source or str(part.path), exc.position, exc.reason))
            continue
        for unused in part.unused_segments():
            problems.append(Problem(str(unused.path), None, f"not served: {unused.reason}", "warning"))
        try:
            done = _verify_partition(part, problems, deep, progress, done, total, extents)
        finally:
            part.close()
    if tiered is None:  # (with a tiered copy, its partitions' logs start in remote storage)
        found = _check_data_dirs(log, extents, problems)
        if metas is not None:
            metas += found
    return problems if notes else [p for p in problems if p.severity != "note"]


def verify_paths(
    paths: list[str | Path | RemotePath],
    *,
    deep: bool = True,
    progress: Callable[[int, int], None] | None = None,
    notes: bool = False,
    remote_log_metadata: str | Path | RemotePath | RemoteLogMetadata | None = None,
    keys: PrivateKeys | None = None,
) -> list[Problem]:
    """Verify several log dirs of one node (as a broker's ``log.dirs``): each as :func:`verify_path`,
    then their ``meta.properties`` together: one cluster id, one node id, no directory id twice.
    ValueError when one directory is given twice (under two spellings too): it is not two log dirs."""
    same_directory_twice(paths)
    problems: list[Problem] = []
    metas: list[tuple[StoragePath, MetaProperties]] = []
    for path in paths:
        problems += verify_path(
            path,
            deep=deep,
            progress=progress,
            metas=metas,
            notes=notes,
            remote_log_metadata=remote_log_metadata,
            keys=keys,
        )
    problems += [Problem(*f) for f in check_node(metas)]
    return problems


def same_directory_twice(paths: Sequence[str | Path | RemotePath]) -> None:
    """ValueError naming two of ``paths`` that are one directory (a local path by what it resolves to,
    an object-store URI by its text without a trailing slash)."""
    seen: dict[str, str | Path | RemotePath] = {}
    for path in paths:
        key = (
            str(path).rstrip("/") if is_uri(path) else str(Path(str(path)).resolve())
        )  # a RemotePath is one too
        if key in seen:
            raise ValueError(f"{seen[key]} and {path} are the same directory: give each log dir once")
        seen[key] = path


def _skipped_severity(path: str) -> str:
    """A note for a directory a running broker is deleting (``-delete``, after every topic deletion) or
    moving to another log dir (``-future``): its state, not a problem. A warning for any other directory
    passed over (``-stray``: one an operator must remove; a link, a misnamed partition...)."""
    parsed = files.parse_transient_dir(path.rstrip("/").rsplit("/", 1)[-1])
    return "note" if parsed is not None and parsed[2] in ("delete", "future") else "warning"


def _data_dirs(log: LogDir) -> list[StoragePath]:
    """The broker data dirs of ``log``: the directories holding its partition directories, and its
    path itself when it holds a data dir's own files (none when ``log`` is one partition or file)."""
    if not log.is_data_dir:
        return []
    dirs = {str(p.path.parent): p.path.parent for p in log.partitions() if p.layout == "kafka"}
    if any((log.path / name).exists() for name in DATA_DIR_FILES):
        dirs.setdefault(str(log.path), log.path)
    return [dirs[k] for k in sorted(dirs)]


def _check_data_dirs(
    log: LogDir, extents: dict[tuple[str, str, int], Extent | None], problems: list[Problem]
) -> list[tuple[StoragePath, MetaProperties]]:
    metas = []
    for root in _data_dirs(log):
        here = {(topic, partition): v for (d, topic, partition), v in extents.items() if d == str(root)}
        transient = []  # partitions there only as -delete/-future/-stray directories
        for skipped in log.skipped:
            parsed = files.parse_transient_dir(skipped.path.name)
            if parsed is not None and str(skipped.path.parent) == str(root):
                transient.append(parsed[:2])
        found, meta = check_data_dir(root, here, transient)
        problems += [Problem(*f) for f in found]
        if meta is not None:
            metas.append((root, meta))
    return metas


class _Seen:
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


def _verify_partition(
    part: Partition,
    problems: list[Problem],
    deep: bool,
    progress: Callable[[int, int], None] | None,
    done: int,
    total: int,
    extents: dict[tuple[str, str, int], Extent | None] | None = None,
) -> int:
    prev_last: int | None = None
    prev_seg: Segment | None = None
    first_offset: int | None = None
    segs = part.segments()
    kafka_layout = part.layout == "kafka"  # tiered storage: no index files or listing rules of a broker's
    if part._only is None and kafka_layout:
        _check_directory(part.local if isinstance(part, HistoryPartition) else part, problems)
    scan = TransactionScan()
    for i, seg in enumerate(segs):
        if not _readable_or_report(seg, problems):
            prev_last = prev_seg = None  # what it held is unknown: the next segment starts a new run
            seg.close()
            continue
        before = len(scan.aborted)
        seen = _scan_log(seg, problems, deep, is_last=i == len(segs) - 1, scan=scan)
        seen.expected_aborts = scan.aborted[before:]
        if seen.first_offset is not None:
            first = seen.first_offset
            if seg.served_from > seg.base_offset:
                first = max(first, seg.served_from)  # what the partition reads of it (its lineage's choice)
            if prev_last is not None and first <= prev_last:
                problems.append(
                    Problem(
                        str(seg.path),
                        0,
                        f"first offset {first} is not above the previous segment's last offset {prev_last}",
                    )
                )
            elif (
                prev_last is not None
                and (not kafka_layout or (prev_seg is not None and prev_seg.contiguous))
                and first > prev_last + 1
                and prev_seg
            ):  # tiered topics are never compacted: no gaps
                problems.append(
                    Problem(
                        str(seg.path),
                        0,
                        f"offsets {prev_last + 1}..{first - 1} are "
                        f"missing: {prev_seg.path.name} ends at offset {prev_last} and this segment "
                        f"starts at {first} (tiered storage holds no compacted topic: "
                        "its offsets have no gaps)",
                    )
                )
            prev_last = seen.last_offset
            prev_seg = seg
        if seen.first_offset is not None and first_offset is None:
            first_offset = seen.first_offset
        seen.partition_first = first_offset
        _check_offset_index(seg, seen, problems)  # a tiered segment's indexes: from its .indexes bundle
        _check_time_index(seg, seen, problems)
        _check_txn_index(seg, seen, problems)
        _check_stored_snapshot(seg, seen, problems)
        _check_stored_epochs(seg, seen, problems)
        _check_source(seg, part, seen, problems)
        if files.is_metadata_checkpoint(seg.path):
            _check_snapshot_framing(seg, problems)
        seg.close()
        done += seg.size
        if progress:
            progress(done, total)
    if part._only is None:
        _check_small_files(part, problems)
        if extents is not None and type(part) is Partition:  # a broker's partition, for its data dir
            end = max(segs[-1].base_offset, -1 if prev_last is None else prev_last + 1) if segs else 0
            extents[(str(part.path.parent), part.topic, part.partition)] = (
                Extent(segs[0].base_offset, end) if segs else None
            )
    return done


def _readable_or_report(seg: Segment, problems: list[Problem]) -> bool:
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


def _check_source(seg: Segment, part: Partition, seen: _Seen, problems: list[Problem]) -> None:
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


def _scan_log(
    seg: Segment, problems: list[Problem], deep: bool, is_last: bool, scan: TransactionScan | None = None
) -> _Seen:
    """Read the whole log; with ``deep``, decode every record and resume after corrupt entries."""
    seen = _Seen()
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
                Problem(src, part.position, message + "; a write in progress or a torn tail", "warning")
            )
        else:
            problems.append(Problem(src, part.position, message + " but it is not the last segment"))
    return seen


class _IndexFile:
    """One index to check, where the segment stores it (:class:`~kafkaspec.logdir.kafka.segment.StoredIndex`): problems name
    its file, or its bundle at the byte in it and which index."""

    def __init__(self, where: StoredIndex):
        self.src, self.base, self.label, self.size, self.read = where

    def problem(self, at: int | None, message: str, severity: str = "error") -> Problem:
        return Problem(self.src, None if at is None else self.base + at, self.label + message, severity)


def _index(seg: Segment, kind: str) -> _IndexFile | None:
    """The ``kind`` index of ``seg`` (``offset``, ``timestamp``, ``transaction``, and in a bundle also
    ``producerSnapshot``, ``leaderEpoch``), or None when it has none."""
    where = seg.stored_index(kind)
    return None if where is None else _IndexFile(where)


def _report_skip(src: str, skipped: Skipped, problems: list[Problem], seen: _Seen) -> None:
    seen.corrupt.append((skipped.start, skipped.end))
    problems.append(
        Problem(
            src,
            skipped.start,
            f"corrupt entry: {skipped.reason}; bytes {skipped.start}.."
            f"{skipped.end} skipped ({RULE_WORDS[skipped.rule]})",
        )
    )


def _in_corrupt(seen: _Seen, position: int) -> bool:
    return any(a <= position < b for a, b in seen.corrupt)


def _beyond_limit(seg: Segment, f: _IndexFile, entries: int, entry: int, problems: list[Problem]) -> None:
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


def _whole_entries(f: _IndexFile, entry: int, problems: list[Problem]) -> None:
    extra = f.size % entry
    if extra:
        problems.append(
            f.problem(
                f.size - extra,
                f"file size {f.size} is not a multiple of the "
                f"{entry}-byte entry size: the index is truncated or has trailing bytes",
            )
        )


def _index_or_report(seg: Segment, kind: str, problems: list[Problem]) -> _IndexFile | None:
    try:
        return _index(seg, kind)
    except KafkaFormatError as exc:  # an unreadable manifest or bundle
        problems.append(Problem(exc.source or str(seg.path), exc.position, exc.reason))
        return None


def _index_error(f: _IndexFile, exc: KafkaFormatError) -> Problem:
    """An index that does not parse: named as the index (in its bundle), or as what the error names."""
    if exc.source in (None, f.src):
        return f.problem(exc.position, exc.reason)
    return Problem(exc.source, exc.position, exc.reason)


def _check_offset_index(seg: Segment, seen: _Seen, problems: list[Problem]) -> None:
    f = _index_or_report(seg, "offset", problems)
    if f is None:
        return
    try:
        entries = seg.index_entries()
    except KafkaFormatError as exc:
        problems.append(_index_error(f, exc))
        return
    log_size = seg.size
    prev = None
    _whole_entries(f, indexes.OFFSET_ENTRY_SIZE, problems)
    _beyond_limit(seg, f, len(entries), indexes.OFFSET_ENTRY_SIZE, problems)
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
            if seen.complete and not _in_corrupt(seen, entry.position):
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


def _check_time_index(seg: Segment, seen: _Seen, problems: list[Problem]) -> None:
    f = _index_or_report(seg, "timestamp", problems)
    if f is None:
        return
    try:
        entries = seg.time_index_entries()
    except KafkaFormatError as exc:
        problems.append(_index_error(f, exc))
        return
    _whole_entries(f, indexes.TIME_ENTRY_SIZE, problems)
    _beyond_limit(seg, f, len(entries), indexes.TIME_ENTRY_SIZE, problems)
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


def _check_txn_index(seg: Segment, seen: _Seen, problems: list[Problem]) -> None:
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
        problems.append(_index_error(f, exc))
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


def _check_stored_snapshot(seg: Segment, seen: _Seen, problems: list[Problem]) -> None:
    """The producer snapshot stored with the segment (in a tiered segment's bundle; a broker's segment
    has none of its own): its CRC, and no producer state past the segment's last offset (the plugin
    uploads the state the broker had for this segment)."""
    f = _index_or_report(seg, "producerSnapshot", problems)
    if f is None or f.size == 0:
        return
    try:
        snapshot = parse_snapshot(f.read(0, f.size))
    except KafkaFormatError as exc:
        problems.append(_index_error(f, exc))
        return
    if seen.last_offset is None or not seen.complete:
        return
    for e in snapshot.producer_entries:
        if e.last_offset > seen.last_offset:
            problems.append(
                f.problem(
                    None,
                    f"producer {e.producer_id}'s last offset {e.last_offset} is past "
                    f"{seg.path.name}'s last offset {seen.last_offset}",
                )
            )


def _check_stored_epochs(seg: Segment, seen: _Seen, problems: list[Problem]) -> None:
    """The leader-epoch checkpoint stored with the segment (in a tiered segment's bundle; a broker's
    segment has none of its own): it parses, its epochs and start offsets increase, and each v2 batch carries the epoch the checkpoint gives its offset (the first batch that
    does not is reported, with the count)."""
    f = _index_or_report(seg, "leaderEpoch", problems)
    if f is None:
        return
    try:
        epochs = files.parse_leader_epoch_checkpoint(f.read(0, f.size).decode("utf-8", "replace"), f.src)
    except KafkaFormatError as exc:
        problems.append(f.problem(exc.position, exc.reason))
        return
    for a, b in zip(epochs, epochs[1:]):
        if b.epoch <= a.epoch or b.start_offset < a.start_offset:
            problems.append(f.problem(None, f"epoch entry {tuple(b)} does not follow {tuple(a)}"))
            return
    if seen.first_offset is not None and seen.last_offset is not None and seen.complete and not seen.corrupt:
        bases = set(seen.bases)
        for e in epochs:
            if seen.first_offset <= e.start_offset <= seen.last_offset and e.start_offset not in bases:
                problems.append(
                    f.problem(
                        None,
                        f"epoch {e.epoch} starts at offset {e.start_offset}, but no batch of "
                        f"{seg.path.name} starts there (a leader's first batch does)",
                    )
                )
    starts = [e.start_offset for e in epochs]
    wrong = []
    for base, epoch in zip(seen.bases, seen.epochs):
        k = bisect.bisect_right(starts, base) - 1
        if epoch >= 0 and k >= 0 and epochs[k].epoch != epoch:
            wrong.append((base, epoch, epochs[k]))
    if wrong:
        base, epoch, entry = wrong[0]
        problems.append(
            f.problem(
                None,
                f"the batch at offset {base} has leader epoch {epoch}, but the checkpoint "
                f"gives epoch {entry.epoch} from offset {entry.start_offset}"
                + (f" ({len(wrong)} batches disagree)" if len(wrong) > 1 else ""),
            )
        )


def _check_snapshot_framing(seg: Segment, problems: list[Problem]) -> None:
    """A KRaft snapshot (.checkpoint) opens with a SNAPSHOT_HEADER control record and closes with a
    SNAPSHOT_FOOTER one; without the footer it was not written completely."""
    types: list[int | None] = []
    for batch in seg.iter_batches(verify=False, on_corrupt="skip"):
        control = None
        if batch.is_control:
            try:
                control = batch.control
            except KafkaFormatError:  # reported by the record scan
                pass
        types.append(None if control is None else control.type)
    path = str(seg.path)
    if not types or types[0] != ControlRecordType.SNAPSHOT_HEADER:
        problems.append(
            Problem(
                path, 0, "a KRaft snapshot starts with a SNAPSHOT_HEADER control record; this one does not"
            )
        )
    if not types or types[-1] != ControlRecordType.SNAPSHOT_FOOTER:
        problems.append(
            Problem(
                path,
                None,
                "the KRaft snapshot does not end with a SNAPSHOT_FOOTER control record: "
                "it was not written completely",
            )
        )


def _check_small_files(part: Partition, problems: list[Problem]) -> None:
    if isinstance(part, TieredPartition):  # no such files: the checkpoint is in each segment's bundle
        return
    epochs_path = part.path / files.LEADER_EPOCH_CHECKPOINT
    try:
        epochs = part.leader_epochs()
    except KafkaFormatError as exc:
        problems.append(Problem(str(epochs_path), exc.position, exc.reason))
    else:
        for a, b in zip(epochs or [], (epochs or [])[1:]):
            if b.epoch <= a.epoch or b.start_offset < a.start_offset:
                problems.append(Problem(str(epochs_path), None, f"epoch entry {b} does not follow {a}"))
    try:
        part.metadata()
    except KafkaFormatError as exc:
        problems.append(Problem(str(part.path / files.PARTITION_METADATA), exc.position, exc.reason))
    quorum = part.path / node_files.QUORUM_STATE  # a KRaft voter's election state, in __cluster_metadata-0
    if quorum.exists():
        try:
            node_files.parse_quorum_state(files.read_text_file(quorum, node_files.MAX_SIZE), str(quorum))
        except KafkaFormatError as exc:
            problems.append(Problem(exc.source or str(quorum), exc.position, exc.reason))
    for path in part.snapshot_paths():
        try:
            parse_snapshot(files.read_regular(path))
        except KafkaFormatError as exc:
            problems.append(Problem(str(path), exc.position, exc.reason))


def _check_directory(part: Partition, problems: list[Problem]) -> None:
    """The partition directory's own listing: log files that are not regular files, are misnamed, or
    belong to no segment; and a directory with no segment at all."""
    logs = {files.offset_from_name(s.path) for s in part.segments()}
    misnamed = {s.path.name for s in part.segments() if s.base_offset < 0}  # reported as they are read
    if not logs and not part.checkpoint_paths():  # a metadata partition may hold only KRaft snapshots
        problems.append(
            Problem(str(part.path), None, "holds no segment (.log) file: not a Kafka partition directory")
        )
    for p in listdir(part.path):
        name = p.name
        if files.is_skipped_file(name) or not name.endswith(files.SEGMENT_FILE_SUFFIXES) or name in misnamed:
            continue
        problem = offset_name_problem(name)
        if problem is not None:  # not a 20-digit offset, or one past int64
            problems.append(Problem(str(p), None, f"{problem}; a broker refuses to load the log"))
            continue
        if name.endswith(files.LOG_SUFFIX):
            continue  # a segment: one that is no regular file is reported as it is read (_readable_or_report)
        if not name.endswith(files.SNAPSHOT_SUFFIX) and files.offset_from_name(name) not in logs:
            problems.append(
                Problem(
                    str(p), None, "an index file without its segment (.log); a broker deletes it", "warning"
                )
            )
