"""Finding things in a log directory: a broker data dir, a partition dir or one segment file.
One module because :class:`Partition` and :class:`LogDir` use each other (a partition's values, its dir's).

:class:`Partition` and :class:`LogDir` are the public face every reader goes through (records, seeks,
transactions, Arrow, what was skipped and why), and their methods are thin: the work is in ``segment``,
``transactions``, ``arrow``, ``names`` and ``publish``. Choosing tiered-storage segments is
:mod:`kafkaspec.logdir.tiered`'s, a partition's whole history :mod:`kafkaspec.logdir.tiered.history`'s.
"""

from __future__ import annotations

import errno
import os
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import Record

from ...entry import LogBatch
from ...errors import KafkaFormatError, SkippedDirWarning, UnnamedPartitionWarning
from ..store.fs import StoragePath, check_entry, storage_path
from ..store.publish import PUBLISHING, STAGING, describe, is_publishing
from ..store.staging import is_staging_name
from ..store.storage import StorageOptions, listdir
from . import files, names
from .files import EpochEntry
from .indexes import AbortedTxn
from .misnamed import MisnamedSegment
from .segment import Segment, _WalkFailed, batch_max_timestamp
from .snapshot import ProducerSnapshot, parse_snapshot
from .transactions import (
    DEFAULT_ISOLATION_LEVEL,
    ReadCommitted,
    TransactionalData,
    TransactionMarker,
    TransactionScan,
    committed_only,
    select_batches,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from ...values.decoder import ValueDecoder

#: the topic of the KRaft metadata log, whose snapshots are the .checkpoint files
METADATA_TOPIC = "__cluster_metadata"


class SkippedDir(NamedTuple):
    """A directory a data dir's walk passed over: its path and why (one line)."""

    path: StoragePath
    reason: str

    def __str__(self) -> str:
        return f"{show_path(self.path)}: skipped: {self.reason}"


class UnusedSegment(NamedTuple):
    """A segment present in the folder that no reader serves: its object, base offset, and why not."""

    path: StoragePath
    base_offset: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: not served: {self.reason}"


class Partition:
    """A ``<topic>-<partition>`` directory: its segments in offset order and its small files."""

    layout = "kafka"  # or "tiered" (kafkaspec.logdir.tiered.segment)

    def __init__(
        self,
        path: str | StoragePath,
        topic: str | None = None,
        partition: int | None = None,
        only: StoragePath | None = None,
    ):
        self.path: StoragePath = storage_path(path)
        parsed = files.parse_partition_dir(self.path.name) or files.parse_transient_dir(self.path.name)
        self.topic = topic if topic is not None else (parsed[0] if parsed else self.path.name)
        self.partition = partition if partition is not None else (parsed[1] if parsed else -1)
        self._only = only
        self._segments: list[Segment] | None = None

    @property
    def name(self) -> str:
        return f"{self.topic}-{self.partition}"

    def segments(self) -> list[Segment]:
        """The ``.log`` segments, sorted by base offset (skipping .deleted/.cleaned/.swap files). An entry
        that is no regular file is one that cannot be read (:meth:`Segment.unreadable`), which reading it
        reports: its offsets are a gap, never skipped in silence."""
        if self._segments is None:
            if self._only is not None:
                self._segments = [Segment(self._only)]
            else:
                found = []
                for p in self.path.iterdir():
                    if p.name.endswith(files.LOG_SUFFIX):
                        base = files.offset_from_name(p)
                        if base is not None:
                            found.append(Segment.listed(p, base))
                        else:  # a name that is no offset: a segment that cannot be read, reported by readers
                            found.append(MisnamedSegment(p))
                self._segments = sorted(found, key=lambda s: s.base_offset)
        return self._segments

    def close(self) -> None:
        for s in self._segments or ():
            s.close()

    def unused_segments(self) -> list[UnusedSegment]:
        """Segments in the directory that readers leave out, with the reason (tiered storage's copies that
        are not in the live lineage); a broker's own partition directory has none."""
        return []

    def checkpoint_paths(self) -> list[StoragePath]:
        """The KRaft snapshot files (``<offset>-<epoch>.checkpoint``) of this directory, oldest first."""
        if self._only is not None:
            return []
        return sorted(
            (p for p in self.path.iterdir() if files.is_metadata_checkpoint(p) and p.is_file()),
            key=lambda p: p.name,
        )

    # -- small files ----------------------------------------------------------------
    def leader_epochs(self) -> list[EpochEntry] | None:
        p = self.path / files.LEADER_EPOCH_CHECKPOINT
        return files.parse_leader_epoch_checkpoint(files.read_text_file(p), str(p)) if p.exists() else None

    def metadata(self) -> dict[str, str] | None:
        p = self.path / files.PARTITION_METADATA
        return files.parse_partition_metadata(files.read_text_file(p), str(p)) if p.exists() else None

    def snapshot_paths(self) -> list[StoragePath]:
        return sorted(
            (p for p in self.path.glob("*" + files.SNAPSHOT_SUFFIX) if files.offset_from_name(p) is not None),
            key=lambda p: files.offset_from_name(p) or 0,
        )

    def snapshots(self) -> list[tuple[int, ProducerSnapshot]]:
        """(offset, decoded snapshot) for every producer snapshot, oldest first."""
        return [
            (files.offset_from_name(p) or 0, parse_snapshot(files.read_regular(p)))
            for p in self.snapshot_paths()
        ]

    # -- reading --------------------------------------------------------------------
    def batches(
        self, start_offset: int | None = None, *, verify: bool = True
    ) -> Iterator[tuple[Segment, LogBatch]]:
        """(segment, batch) pairs in offset order, from the batch holding ``start_offset``."""
        segs = self.segments()
        if start_offset is not None:
            first = 0
            for i, s in enumerate(segs):
                if s.base_offset <= start_offset:
                    first = i
            segs = segs[first:]
        for i, seg in enumerate(segs):
            start = seg.position_for_offset(start_offset) if (i == 0 and start_offset is not None) else 0
            try:
                for batch in seg.iter_batches(start, verify=verify):
                    if start_offset is not None and batch.last_offset < start_offset:
                        continue
                    yield seg, batch
            except KafkaFormatError as exc:  # a bad batch: named by its segment, as the Arrow readers do
                raise exc.at(0, str(seg.path)) from None
            finally:
                # a segment's bytes are read into memory: release them (batches still held keep theirs)
                seg.close()

    def offset_for_timestamp(self, timestamp: int) -> int | None:
        """Offset of the first record with timestamp >= ``timestamp`` (Kafka's ListOffsets), or None."""
        segs = self.segments()
        for i, seg in enumerate(segs):
            if seg.unreadable() is not None:  # its timestamps are unknown: reading from it reports it
                return seg.base_offset
            if i < len(segs) - 1:
                # a closed segment's last time-index entry is its max timestamp; without one, scan headers
                try:
                    entries = seg.time_index_entries()
                except KafkaFormatError:  # unreadable: scan the headers instead
                    entries = []
                seg_max = entries[-1].timestamp if entries else seg.max_timestamp()
                if seg_max < timestamp:
                    continue
            start = seg.position_for_timestamp(timestamp)
            for later in segs[i:]:
                if later.unreadable() is not None:
                    return later.base_offset
                try:
                    for batch in later.iter_batches(start):
                        if batch_max_timestamp(batch) >= timestamp:
                            for r in batch:
                                if r.timestamp >= timestamp:
                                    return r.offset
                finally:
                    later.close()
                start = 0
            return None
        return None

    def transactions(self) -> tuple[list[AbortedTxn], dict[int, int]]:
        """(aborted transactions, open transactions) of the whole partition, from its markers.

        The control batches are what a transaction's outcome is; the ``.txnindex``
        files are a broker's cache of them, and an emptied, stale or forged one would
        show aborted records as committed (or hide committed ones), so they are not
        read here (``verify`` checks them against the markers). The scan reads batch
        headers only, resumes after corrupt entries (reading reports those) and
        ignores a control batch whose record does not decode.
        """
        scan = TransactionScan()
        for s in self.segments():
            aborted, ongoing = len(scan.aborted), dict(scan.ongoing)
            try:
                _scan(scan, s.transactional_batches())
            except KafkaFormatError:  # not a regular file: reading the segment reports it
                continue
            except _WalkFailed:  # a head that does not parse: read the segment in recovery mode instead
                del scan.aborted[aborted:]
                scan.ongoing = ongoing
                it = s.iter_batches(verify=False, on_corrupt="skip", check_records=False)
                _scan(scan, it)
                s.close()
        return scan.aborted, dict(scan.ongoing)

    def read_committed(self) -> ReadCommitted:
        """The read_committed filter for this partition."""
        return ReadCommitted(*self.transactions())

    def records(
        self,
        start_offset: int | None = None,
        end_offset: int | None = None,
        *,
        start_timestamp: int | None = None,
        read_committed: bool | None = None,
        include_control: bool = False,
        verify: bool = True,
        isolation_level: str = DEFAULT_ISOLATION_LEVEL,
    ) -> Iterator[tuple[LogBatch, Record]]:
        """(batch, record) pairs in offset order.

        ``start_offset``/``end_offset`` (exclusive) select offsets; ``start_timestamp``
        starts at the first record with a timestamp >= it. Control records are
        skipped unless ``include_control``. ``isolation_level``: ``read_committed`` (the
        default of every reader) drops the records of aborted transactions and of
        transactions without a marker yet (as a consumer's last stable offset does);
        ``read_uncommitted`` keeps them. ``read_committed`` (a bool), when given, says
        the same in the older way.
        """
        committed = committed_only(isolation_level) if read_committed is None else read_committed
        if start_timestamp is not None:
            ts_offset = self.offset_for_timestamp(start_timestamp)
            if ts_offset is None:
                return
            start_offset = ts_offset if start_offset is None else max(start_offset, ts_offset)
        rc = self.read_committed() if committed else None
        batches = (batch for _, batch in self.batches(start_offset, verify=verify))
        for batch in select_batches(
            batches,
            start_offset=start_offset,
            end_offset=end_offset,
            include_control=include_control,
            read_committed=rc,
            look_past_end=False,
        ):
            for r in batch:
                if start_offset is not None and r.offset < start_offset:
                    continue
                if end_offset is not None and r.offset >= end_offset:
                    return
                yield batch, r

    def to_arrow(
        self,
        *,
        verify: bool = True,
        decode_values: bool = False,
        values: ValueDecoder | None = None,
        isolation_level: str = DEFAULT_ISOLATION_LEVEL,
        include_control: bool = False,
    ) -> pa.Table:
        """Every record as one ``pyarrow.Table`` of the ``kafkalog`` columns (:mod:`kafkaspec.arrow.partitions`:
        the columnar engine; needs numpy and pyarrow). ``decode_values``: ``value_decoded`` and
        ``value_error`` added, by ``values`` (a :class:`kafkaspec.values.ValueDecoder`), by default one
        with the schemas of the ``_schemas`` topic in this partition's data dir. ``isolation_level`` and
        ``include_control`` as :meth:`records`: by default no aborted or open transaction, no marker."""
        from ...arrow.partitions import partition_table

        return partition_table(
            self,
            verify=verify,
            values=self._values(decode_values, values),
            read_committed=committed_only(isolation_level),
            include_control=include_control,
        )

    def _values(self, decode_values: bool, values: ValueDecoder | None) -> ValueDecoder | None:
        if values is not None or not decode_values:
            return values
        from ...values import decoder

        return decoder(LogDir(self.path.parent))  # the data dir this partition's directory is in

    def to_arrow_batches(
        self,
        *,
        verify: bool = True,
        decode_values: bool = False,
        values: ValueDecoder | None = None,
        isolation_level: str = DEFAULT_ISOLATION_LEVEL,
        include_control: bool = False,
    ) -> Iterator[pa.RecordBatch]:
        """Every record, as ``pyarrow.RecordBatch``es of the ``kafkalog`` columns (about 65,536 rows each);
        ``decode_values``, ``isolation_level`` and ``include_control`` as :meth:`to_arrow`."""
        from ...arrow.partitions import partition_batches

        return partition_batches(
            self,
            verify=verify,
            values=self._values(decode_values, values),
            read_committed=committed_only(isolation_level),
            include_control=include_control,
        )

    def __repr__(self) -> str:
        return f"Partition({str(self.path)!r}, topic={self.topic!r}, partition={self.partition})"


#: what the commands and verify say of a path with nothing of Kafka's in it
NO_KAFKA_DATA = "no Kafka partition directory or segment (.log) file found here"


def no_kafka_data(path: object) -> FileNotFoundError:
    """The error for a path that holds no Kafka data: a usage problem (exit 2), not corrupt data."""
    return FileNotFoundError(errno.ENOENT, NO_KAFKA_DATA, str(path))


class LogDir:
    """A broker data directory (or a single partition directory or segment file, see :func:`open_kafka_log`)."""

    def __init__(self, path: str | StoragePath, partitions: list[Partition] | None = None):
        self.path: StoragePath = storage_path(path)
        self._partitions = partitions
        self._whole = partitions is None  # a data dir (not one partition or file opened alone)
        #: partition directories passed over because a writer is publishing them (logdir.publish)
        self.unpublished: list[StoragePath] = []
        #: staging dirs of rewrites that did not finish (logdir.staging), passed over: this directory
        #: is not a complete copy
        self.interrupted: list[StoragePath] = []
        #: directories the walk passed over, and why (see :meth:`partitions`)
        self.skipped: list[SkippedDir] = []

    @property
    def is_data_dir(self) -> bool:
        """Whether this is a whole data dir (not one partition directory or file opened alone)."""
        return self._whole

    def has_data(self) -> bool:
        """Whether the path holds anything of Kafka's: a partition, a snapshot, or an unfinished write."""
        return bool(self.partitions() or self.checkpoints() or self.unpublished or self.interrupted)

    def partitions(self) -> list[Partition]:
        """Every partition, sorted by (topic, partition); ``-delete``/``-future``/``-stray`` dirs
        skipped (and, like every directory passed over, listed in :attr:`skipped`).

        Partition directories are found at any depth (a backup may nest several data
        dirs). A directory holding ``.log`` files whose name is not ``<topic>-<partition>``
        with a topic Kafka allows (:mod:`.names`) is passed over, and so is a symbolic link
        to a directory (which could lead out of the tree, or back into it, and read a
        partition twice) and a directory already walked through another path (a bind
        mount): each is listed in :attr:`skipped` and announced as a :class:`SkippedDirWarning`.
        """
        if self._partitions is None:
            found: list[Partition] = []
            root = self.path
            seen = {_identity(root)} if isinstance(root, Path) else set()
            self._walk(root, found, depth=0, seen=seen)
            self._partitions = sorted(found, key=lambda p: (p.topic, p.partition, str(p.path)))
        return self._partitions

    def _walk(
        self, directory: StoragePath, found: list[Partition], depth: int, seen: set[tuple[int, int]]
    ) -> None:
        for p in listdir(directory):
            if isinstance(p, Path) and p.is_symlink():
                if p.is_dir():
                    self._skip(p, link_reason(p))
                continue
            if not p.is_dir() or p.name == STAGING:
                continue  # (a writer's staging: new versions not switched to yet, see logdir.publish)
            if files.is_skipped_dir(p.name):  # not part of the log: being deleted, moved, or stray
                transient = files.parse_transient_dir(p.name)
                what = (
                    files.TRANSIENT_KINDS[transient[2]]
                    if transient
                    else "not a partition directory of the log"
                )
                self._skip(p, f"{what}; its records are not read")
                continue
            if is_staging_name(p.name):
                self.interrupted.append(p)  # a rewrite's output not yet moved into place
                continue
            if isinstance(p, Path):
                identity = _identity(p)
                if identity in seen:
                    self._skip(p, "the same directory as one already read (a bind mount): read once")
                    continue
                seen.add(identity)
            parsed = files.parse_partition_dir(p.name)
            holds = parsed is not None or _holds_logs(p)
            if holds and is_publishing(p):
                self.unpublished.append(p)  # complete or not at all: not yet
            elif parsed is not None:
                found.append(Partition(p, *parsed))
            elif holds:
                why = names.parse_partition_dir_name(p.name)
                self._skip(
                    p, f"holds segments but is not a partition directory: {why}; Kafka would not load it"
                )
            elif depth < 4:
                self._walk(p, found, depth + 1, seen)

    def _skip(self, path: StoragePath, reason: str) -> None:
        self.skipped.append(SkippedDir(path, reason))
        warnings.warn(SkippedDirWarning(show_path(path), reason), stacklevel=2)

    def topics(self) -> dict[str, list[Partition]]:
        out: dict[str, list[Partition]] = {}
        for p in self.partitions():
            out.setdefault(p.topic, []).append(p)
        return out

    def partition(self, topic: str, partition: int) -> Partition:
        for p in self.partitions():
            if p.topic == topic and p.partition == partition:
                return p
        raise KeyError(f"{topic}-{partition}")

    def segments(self) -> list[Segment]:
        return [s for p in self.partitions() for s in p.segments()]

    @property
    def unused_segments(self) -> list[UnusedSegment]:
        """Every partition's segments that readers leave out, each with the reason (see
        :meth:`Partition.unused_segments`)."""
        return [u for p in self.partitions() for u in p.unused_segments()]

    def checkpoints(self) -> list[Partition]:
        """Every KRaft snapshot file, each as a one-file :class:`Partition` of ``__cluster_metadata``
        (read like a segment): the ``<offset>-<epoch>.checkpoint`` files of the partition
        directories, then any ``bootstrap.checkpoint`` in the data dir itself."""
        out = [
            Partition(p.path, p.topic, p.partition, only=c)
            for p in self.partitions()
            for c in p.checkpoint_paths()
        ]
        boot = self.path / files.BOOTSTRAP_CHECKPOINT
        if self._whole and boot.is_file():
            out.append(Partition(self.path, METADATA_TOPIC, -1, only=boot))
        return out

    def to_arrow_batches(
        self,
        *,
        verify: bool = True,
        decode_values: bool = False,
        values: ValueDecoder | None = None,
        isolation_level: str = DEFAULT_ISOLATION_LEVEL,
        include_control: bool = False,
    ) -> Iterator[pa.RecordBatch]:
        """Every partition's records, as ``pyarrow.RecordBatch``es of the ``kafkalog`` columns (see
        :meth:`Partition.to_arrow_batches`): ``duckdb.sql("... FROM reader")`` or ``polars.from_arrow``
        take them through ``pyarrow.RecordBatchReader.from_batches``. ``decode_values``: each topic's
        values decoded (``value_decoded``, a struct per topic, and ``value_error``) with the schemas of
        this directory's ``_schemas`` topic, or by ``values``. ``isolation_level`` and ``include_control``
        as :meth:`Partition.records`."""
        from ...arrow.partitions import logdir_batches

        committed = committed_only(isolation_level)
        if decode_values and values is None:
            from ...values import decoder

            values = decoder(self)
        return logdir_batches(
            self, verify=verify, values=values, read_committed=committed, include_control=include_control
        )

    def close(self) -> None:
        for p in self._partitions or ():
            p.close()

    def __enter__(self) -> LogDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"LogDir({str(self.path)!r})"


def open_kafka_log(path: str | StoragePath, *, storage: StorageOptions | None = None) -> LogDir:
    """Open a data dir, a ``<topic>-<partition>`` dir, or one ``.log`` file in Kafka's layout, as a
    :class:`LogDir` (the public :func:`~kafkaspec.logdir.detect.open_log` chooses the layout, then calls this).

    A directory holding ``.log`` files is one partition (named from the directory,
    partition -1 when the name is not ``<topic>-<partition>``); a directory of
    partition directories is a data dir. ``path`` may be an object-store URI
    (``s3://bucket/prefix/``, see :mod:`kafkaspec.logdir.store.storage`); ``storage`` overrides the
    environment's settings for it.
    """
    path = storage_path(path, storage)
    check_entry(path)
    if path.is_file():
        if files.is_metadata_checkpoint(path):
            parsed = files.parse_partition_dir(path.parent.name)
            return LogDir(path.parent, [Partition(path.parent, *(parsed or (METADATA_TOPIC, -1)), only=path)])
        if not path.name.endswith(files.LOG_SUFFIX):
            raise KafkaFormatError(
                f"{path.name} is not a segment (.log) or KRaft snapshot (.checkpoint) file", None, str(path)
            )
        return LogDir(path.parent, [_named(Partition(path.parent, only=path))])
    if _holds_logs(path) or files.parse_partition_dir(path.name):
        if is_publishing(path):
            raise KafkaFormatError(
                f"the partition is being published (it holds {PUBLISHING}): {describe(path)}",
                None,
                str(path / PUBLISHING),
            )
        return LogDir(path.parent, [_named(Partition(path))])
    return LogDir(path)


def _named(part: Partition) -> Partition:
    """``part``, with a notice when its folder's name gives no topic and partition (a bare segment copied
    into any folder): its records then carry the folder's name and partition -1."""
    if (
        part.partition == -1
        and not files.parse_partition_dir(part.path.name)
        and not files.parse_transient_dir(part.path.name)
    ):
        warnings.warn(UnnamedPartitionWarning(show_path(part.path), part.topic), stacklevel=3)
    return part


def known_segments(part: Partition) -> list[Segment]:
    """The partition's segments, or none when they cannot be told (tiered copies the rule cannot choose
    between): for progress totals and counts; reading the partition reports the error."""
    try:
        return part.segments()
    except KafkaFormatError:
        return []


def _scan(scan: TransactionScan, batches: Iterable[LogBatch | TransactionalData | TransactionMarker]) -> None:
    for batch in batches:
        try:
            scan.add(batch)
        except KafkaFormatError:  # a control batch whose record does not decode: no marker
            continue


def link_reason(path: Path) -> str:
    """Why the walk passes over ``path``, a symbolic link to a directory (one line)."""
    target = os.readlink(path)
    return (
        f"a symbolic link (to {target if target.isprintable() else repr(target)}): not followed, so that no "
        "directory is read twice or from outside the tree; open it by its own path to read it"
    )


def _identity(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_dev, st.st_ino


def show_path(path: StoragePath) -> str:
    """``path`` as text on one line: a directory name may hold a newline or a terminal escape."""
    text = str(path)
    return text if text.isprintable() else repr(text)


def _holds_logs(path: StoragePath) -> bool:
    return any(
        p.name.endswith(files.LOG_SUFFIX) and files.offset_from_name(p) is not None for p in path.iterdir()
    )


__all__ = [
    "LogDir",
    "Partition",
    "SkippedDir",
    "SkippedDirWarning",
    "Segment",
    "UnusedSegment",
    "known_segments",
    "open_kafka_log",
    "batch_max_timestamp",
    "ControlRecordType",
]
