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

The pass, by job: this module walks the paths, partitions and segments and gathers the problems
(:class:`~.problem.Problem`); :mod:`.scan` reads each segment's batches once; :mod:`.index_checks`
compares its indexes with what the scan saw; :mod:`.state_files` checks the checkpoints and
snapshots beside the segments; :mod:`.datadir` a data dir's own files.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from ...errors import KafkaFormatError, SkippedDirWarning
from ..detect import open_log
from ..kafka import files
from ..kafka.layout import NO_KAFKA_DATA, LogDir, Partition, known_segments
from ..kafka.names import offset_name_problem
from ..kafka.node_files import MetaProperties
from ..kafka.segment import Segment, readable_size
from ..kafka.transactions import TransactionScan
from ..store.fs import StoragePath
from ..store.publish import PUBLISHING, describe
from ..store.storage import RemotePath, is_uri, listdir
from ..tiered.encryption import PrivateKeys
from ..tiered.history import HistoryPartition
from ..tiered.remote_log_topic import RemoteLogMetadata
from .datadir import DATA_DIR_FILES, CorruptAt, Extent, check_data_dir, check_node
from .index_checks import check_offset_index, check_time_index, check_txn_index
from .problem import Problem
from .scan import Seen, check_source, readable_or_report, scan_log
from .state_files import check_small_files, check_snapshot_framing, check_stored_epochs, check_stored_snapshot


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
        transient = {}  # partitions there only as -delete/-future/-stray directories, and which
        for skipped in log.skipped:
            parsed = files.parse_transient_dir(skipped.path.name)
            if parsed is not None and str(skipped.path.parent) == str(root):
                transient[parsed[:2]] = parsed[2]
        found, meta = check_data_dir(root, here, transient)
        problems += [Problem(*f) for f in found]
        if meta is not None:
            metas.append((root, meta))
    return metas


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
    corrupt: CorruptAt | None = None
    for i, seg in enumerate(segs):
        if not readable_or_report(seg, problems):
            prev_last = prev_seg = None  # what it held is unknown: the next segment starts a new run
            seg.close()
            continue
        before = len(scan.aborted)
        seen = scan_log(seg, problems, deep, is_last=i == len(segs) - 1, scan=scan)
        seen.expected_aborts = scan.aborted[before:]
        if corrupt is None and seen.corrupt:
            corrupt = _first_corrupt(seg, seen, segs[i + 1 :])
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
        check_offset_index(seg, seen, problems)  # a tiered segment's indexes: from its .indexes bundle
        check_time_index(seg, seen, problems)
        check_txn_index(seg, seen, problems)
        check_stored_snapshot(seg, seen, problems)
        check_stored_epochs(seg, seen, problems)
        check_source(seg, part, seen, problems)
        if files.is_metadata_checkpoint(seg.path):
            check_snapshot_framing(seg, problems)
        seg.close()
        done += seg.size
        if progress:
            progress(done, total)
    if part._only is None:
        check_small_files(part, problems)
        if extents is not None and type(part) is Partition:  # a broker's partition, for its data dir
            end = max(segs[-1].base_offset, -1 if prev_last is None else prev_last + 1) if segs else 0
            extents[(str(part.path.parent), part.topic, part.partition)] = (
                Extent(segs[0].base_offset, end, corrupt) if segs else None
            )
    return done


def _first_corrupt(seg: Segment, seen: Seen, later: list[Segment]) -> CorruptAt:
    """Where the segment's first corrupt bytes start, and the offset after the whole batches before them
    (the segment's base offset when none is: what Kafka's recovery leaves as the log end)."""
    start = min(a for a, _ in seen.corrupt)
    before = [last for pos, (_, last) in seen.at_position.items() if pos < start]
    next_offset = max(before) + 1 if before else seg.base_offset
    return CorruptAt(str(seg.path), start, next_offset, later[0].base_offset if later else None, len(later))


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
            continue  # a segment: one that is no regular file is reported as it is read (readable_or_report)
        if not name.endswith(files.SNAPSHOT_SUFFIX) and files.offset_from_name(name) not in logs:
            problems.append(
                Problem(
                    str(p), None, "an index file without its segment (.log); a broker deletes it", "warning"
                )
            )
