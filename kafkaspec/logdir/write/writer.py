"""Writing a partition directory as a broker does. One module because the writer and the log invariants it
keeps are one job.

Batches are appended to the active segment; a segment rolls when the next batch
would push it past ``segment_bytes`` (or when :meth:`PartitionWriter.roll` says so,
as :func:`kafkaspec.logdir.copy` does to keep the source's segments). Every time
more than ``index_interval_bytes`` were appended since the last index entry, the
next batch gets an offset-index entry (its last offset, its start position) and
the time index gets (max timestamp so far, offset of that max) if the max grew,
as in Kafka's ``LogSegment.append``. A closed segment gets a final time-index
entry. Abort markers add entries to the segment's ``.txnindex``; a producer
snapshot is written at every roll and on close, ``leader-epoch-checkpoint``
(from the batches' leader epochs) and ``partition.metadata`` on close.

A partition that exists is continued, never emptied (``mode="append"``, the default): the next
offset is its log end offset, its ``leader-epoch-checkpoint`` and ``partition.metadata`` are kept
(an epoch entry is added only when the leader epoch grows), its producers' state is read back from
its newest producer snapshot (and the batches after it), and the batches written go to a new
segment at the log end offset; the segments already there are not touched. Opened and closed
without a write, the writer changes nothing. A partition it cannot continue (a torn or corrupt tail,
a segment name that is no offset, a different topic id, a lower leader epoch) is refused before
anything is written, in one line naming the partition. Replacing a partition takes
``mode="overwrite"`` (its data goes, its topic id stays: the broker's metadata knows the partition by
it); ``mode="create"`` refuses one that exists.

``append_batch(batch)`` takes raw bytes (the leader epoch is set to the
writer's) or a decoded :class:`kafkaspec.LogBatch`, which is written as it is
(its bytes, leader epoch included) or, given ``records=`` (a filtered subset)
or another ``compression=``, rebuilt with the batch's own base offset, last
offset delta, producer id/epoch/base sequence, transactional and control flags,
timestamp type, leader epoch and delete horizon (a batch left with no records
stays, empty, as Kafka's cleaner leaves one).

Kafka's invariants the writer keeps, and refuses input that breaks
(:class:`InvariantError`, naming the batch or row and what it breaks):

1. offsets strictly increase within a partition: a batch's base offset is above
   the previous batch's last offset, and a segment's base offset is not above its
   first batch's;
2. the last offset delta covers the batch: last offset >= base offset, and a
   rebuilt batch's records have strictly increasing offsets within
   [base offset, base offset + last offset delta];
3. base sequence + count: a producer's batches of one epoch carry increasing
   sequence ranges (base sequence .. base sequence + last offset delta, wrapping
   from 2147483647 to 0), never overlapping the previous batch's;
4. a control batch holds one control record (or none, as the cleaner leaves
   it), and an abort or commit marker is transactional;
5. leader epochs do not decrease (the ``leader-epoch-checkpoint`` is built from them).

Every append goes through both the writer and the invariants. Batch surgery (``rebuild_batch``,
``restamp_batch``: re-encoding or re-stamping one batch, which the Spark writer and ``copy`` use too) is
:mod:`kafkaspec.logdir.kafka.batch_surgery`'s.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import os
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import Record

from ...builder import build_batch, build_control_batch
from ...entry import LogBatch
from ...errors import KafkaFormatError
from ...records import iter_batches
from ..kafka import files, indexes

# InvariantError, rebuild_batch and restamp_batch stay importable from here, where they lived
from ..kafka.batch_surgery import InvariantError as InvariantError
from ..kafka.batch_surgery import check_control, rebuild_batch
from ..kafka.batch_surgery import restamp_batch as restamp_batch
from ..kafka.indexes import AbortedTxn
from ..kafka.names import MAX_OFFSET, offset_name_problem, offset_problem, partition_dir_name
from ..kafka.segment import Segment, batch_max_timestamp
from ..kafka.snapshot import ProducerSnapshotEntry, encode_snapshot, parse_snapshot
from ..store.fs import StoragePath
from ..store.location import Location
from ..store.storage import RemotePath, listdir

_I64 = struct.Struct(">q")
_I32 = struct.Struct(">i")
_U32 = struct.Struct(">I")
_TIMES = struct.Struct(">qq")
_PRODUCER = struct.Struct(">qhi")
_SEQUENCE_WRAP = 1 << 31
#: what a writer does with a partition that holds data already (see the module docstring)
MODES = ("append", "overwrite", "create")
_SMALL_FILES = (files.LEADER_EPOCH_CHECKPOINT, files.PARTITION_METADATA)


class ExistingPartitionError(KafkaFormatError):
    """A partition that exists and that the writer will not write: one it cannot continue (the message
    says why), or any, with ``mode="create"``. Raised before anything is written."""


class _ActiveSegment:
    def __init__(self, directory: Path, base_offset: int):
        self.base_offset = base_offset
        self.path = directory / files.offset_file_name(base_offset, files.LOG_SUFFIX)
        if self.path.is_file() and self.path.stat().st_size:  # a writer never truncates a segment with data
            raise InvariantError(f"{self.path}: a segment with data exists at base offset {base_offset}")
        try:  # a symbolic link is not followed: the writer writes only inside the partition
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            raise InvariantError(
                f"{self.path}: a symbolic link: the writer writes only files of its own"
            ) from None
        self.fh = os.fdopen(fd, "wb")
        self.size = 0
        self.bytes_since_index = 0
        self.index: list[tuple[int, int]] = []
        self.time_index: list[tuple[int, int]] = []
        self.aborted: list[AbortedTxn] = []
        self.max_ts = -1
        self.offset_of_max_ts = -1

    def maybe_time_entry(self) -> None:
        if self.max_ts >= 0 and (not self.time_index or self.max_ts > self.time_index[-1][0]):
            self.time_index.append((self.max_ts, self.offset_of_max_ts))

    def close(self) -> None:
        self.fh.close()
        self.maybe_time_entry()
        stem = self.path.with_suffix("")
        _put(Path(f"{stem}{files.INDEX_SUFFIX}"), indexes.encode_offset_index(self.index, self.base_offset))
        _put(
            Path(f"{stem}{files.TIME_INDEX_SUFFIX}"),
            indexes.encode_time_index(self.time_index, self.base_offset),
        )
        if self.aborted:
            _put(Path(f"{stem}{files.TXN_INDEX_SUFFIX}"), indexes.encode_txn_index(self.aborted))


def _topic_id_there(folder: Path) -> str | None:
    """The topic id of the partition an overwrite replaces: its identity, which a broker's metadata knows
    (Kafka treats a partition under another id as a stray, renames it ``-stray`` and starts it empty). A
    damaged ``partition.metadata`` gives none: the overwrite replaces it."""
    path = folder / files.PARTITION_METADATA
    if not path.is_file() or path.is_symlink():
        return None
    try:
        return files.parse_partition_metadata(files.read_text_file(path), str(path))["topic_id"]
    except (KafkaFormatError, KeyError, OSError, UnicodeDecodeError):
        return None


class PartitionWriter:
    """Write ``<directory>/<topic>-<partition>/`` from records or ready-made batches.

    ``topic`` must be a name Kafka allows and ``partition`` a number from 0 to 2147483647
    (:mod:`kafkaspec.logdir.kafka.names`): anything else is an :class:`~kafkaspec.logdir.kafka.names.InvalidTopicError`
    raised before the writer creates anything.

    ``mode`` says what to do with a partition that exists: ``"append"`` continues it (the module
    docstring says how; :class:`ExistingPartitionError` when it cannot), ``"overwrite"`` removes its
    segment, index, snapshot and small files first (no other file) and keeps its topic id unless
    ``topic_id`` names another (a broker knows the partition by it), ``"create"`` refuses it. An
    object-store destination is published whole, so it cannot be appended to: one that exists takes
    ``mode="overwrite"``. ``leader_epoch`` defaults to the partition's last one (0 for a new
    partition), ``start_offset`` to its log end offset (0); neither may go below them.

    Use as a context manager (or call :meth:`close`): index files and the small
    files are written when a segment closes.
    """

    def __init__(
        self,
        directory: str | Path | RemotePath,
        topic: str,
        partition: int,
        *,
        segment_bytes: int = 1 << 30,
        index_interval_bytes: int = 4096,
        leader_epoch: int | None = None,
        topic_id: str | None = None,
        start_offset: int | None = None,
        mode: str = "append",
    ):
        # the name is a path component: checked before anything is created (InvalidTopicError)
        name = partition_dir_name(topic, partition)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if start_offset is not None and offset_problem(start_offset):
            raise InvariantError(f"{name}: start offset {start_offset!r}: {offset_problem(start_offset)}")
        #: where the partition goes (:meth:`~kafkaspec.logdir.store.location.Location.output`): written in
        #: place in a local folder; in an object store written to a local staging folder (``path``) and
        #: published whole on close (never half-visible), an exception in a ``with`` block publishing nothing
        self._output = Location.of(directory).output(name)
        #: an object-store destination (None: the partition is written where it is seen)
        self.destination: StoragePath | None = self._output.destination if self._output.whole else None
        if self._output.whole and mode != "overwrite" and self._output.exists():
            raise ExistingPartitionError(
                f"partition {name} exists at {self._output.destination}: an object-store "
                "partition is published whole, so it cannot be appended to; "
                "pass mode='overwrite' to replace it"
            )
        self.path = self._output.open()
        self.topic, self.partition = topic, partition
        self.segment_bytes = segment_bytes
        self.index_interval_bytes = index_interval_bytes
        self.next_offset = 0
        self.bytes_written = 0
        self.batches_written = 0
        self.epochs: list[tuple[int, int]] = []
        self.producers: dict[int, list] = {}  # pid -> snapshot entry fields
        self.ongoing: dict[int, int] = {}  # pid -> first offset of its open transaction
        self.segment: _ActiveSegment | None = None
        self.closed = False
        #: a partition that existed and is continued: close() keeps what it need not change
        self.appending = False
        self._kept_epochs: list[tuple[int, int]] | None = None  # the checkpoint as it was read
        self._kept_metadata = False
        #: the partition directory's flock, held until close: one writer at a time (see :meth:`_lock`)
        self._lock_fd: int | None = None
        try:
            self._lock(name)
            existing = _kafka_files(self.path)
            if existing and mode == "create":
                raise ExistingPartitionError(
                    f"partition {name} exists at {_shown(self.path)} (mode='create' writes only a new one)"
                )
            if existing and mode == "overwrite":
                topic_id = topic_id or _topic_id_there(self.path)
                ours = [
                    p for p in existing if files.offset_from_name(p) is not None or p.name in _SMALL_FILES
                ]
                for p in ours:  # every one checked before any is removed
                    if p.is_dir() and not p.is_symlink():
                        raise ExistingPartitionError(
                            f"cannot overwrite partition {name} at {_shown(self.path)}: "
                            f"{_shown_name(p.name)} is a directory"
                        )
                for p in ours:
                    p.unlink()
            elif existing:
                self.appending = True
                self._continue(existing, topic_id)
            self.path.mkdir(parents=True, exist_ok=True)
        except BaseException:
            self._unlock()
            self._drop_local()
            raise
        last_epoch = self.epochs[-1][0] if self.epochs else None
        if leader_epoch is not None and last_epoch is not None and leader_epoch < last_epoch:
            raise ExistingPartitionError(
                f"cannot append to partition {name} at {_shown(self.path)}: leader epoch "
                f"{leader_epoch} is below its last leader epoch {last_epoch}"
            )
        self.leader_epoch = leader_epoch if leader_epoch is not None else (last_epoch or 0)
        if start_offset is not None:
            if start_offset < self.next_offset:
                raise ExistingPartitionError(
                    f"cannot append to partition {name} at {_shown(self.path)}: start "
                    f"offset {start_offset} is below its log end offset {self.next_offset}"
                )
            self.next_offset = start_offset
        if not self._kept_metadata:
            self.topic_id = topic_id or base64.urlsafe_b64encode(
                hashlib.sha256(topic.encode()).digest()[:16]
            ).decode().rstrip("=")

    def _lock(self, name: str) -> None:
        """Take the partition directory's ``flock`` (creating the directory), before anything is read: two
        writers of one partition would both continue it from the same log end offset and write the same
        segment, the second over the first's batches. The kernel releases it when the process ends."""
        import fcntl

        self.path.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise ExistingPartitionError(
                f"partition {name} at {_shown(self.path)} is being written by another "
                "writer (it holds the directory's lock); wait for it to close"
            ) from None
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the last descriptor releases the flock
            self._lock_fd = None

    # -- continuing a partition -----------------------------------------------------
    def _continue(self, existing: list[Path], topic_id: str | None) -> None:
        """Read what appending needs from the partition there: its log end offset (the last segment with a
        batch, read whole and checked), leader epochs, topic id and producers. Refuses (before anything is
        written) what it cannot continue."""

        def refuse(why: str) -> ExistingPartitionError:
            return ExistingPartitionError(
                f"cannot append to partition {self.topic}-{self.partition} at {_shown(self.path)}: {why}"
            )

        logs: list[tuple[int, Path]] = []
        for p in existing:
            if p.name in _SMALL_FILES:
                continue
            problem = offset_name_problem(p.name)
            if problem is not None:
                raise refuse(f"{_shown_name(p.name)}: {problem}")
            if p.name.endswith(files.LOG_SUFFIX):
                if not p.is_file():
                    raise refuse(f"{_shown_name(p.name)} is not a regular file")
                logs.append((files.offset_from_name(p) or 0, p))
        logs.sort()
        try:
            meta_path = self.path / files.PARTITION_METADATA
            if meta_path.exists():
                kept = files.parse_partition_metadata(files.read_text_file(meta_path), str(meta_path))[
                    "topic_id"
                ]
                if topic_id is not None and topic_id != kept:
                    raise refuse(f"its topic id is {kept}, not {topic_id}")
                self.topic_id, self._kept_metadata = kept, True
            epochs_path = self.path / files.LEADER_EPOCH_CHECKPOINT
            if epochs_path.exists():
                self.epochs = [
                    (e.epoch, e.start_offset)
                    for e in files.parse_leader_epoch_checkpoint(
                        files.read_text_file(epochs_path), str(epochs_path)
                    )
                ]
                self._kept_epochs = list(self.epochs)
            end = self._log_end(logs, refuse)
            active = self.path / files.offset_file_name(end, files.LOG_SUFFIX)
            if active.is_symlink():  # the next batch goes there: the writer writes only its own files
                raise refuse(f"{active.name}, where the next batch would go, is a symbolic link")
            self._replay(logs, end, have_epochs=self._kept_epochs is not None)
        except ExistingPartitionError:
            raise
        except (KafkaFormatError, OSError) as exc:
            raise refuse(" ".join(str(exc).split())) from None
        self.next_offset = end

    def _log_end(self, logs: list[tuple[int, Path]], refuse: Any) -> int:
        """The log end offset: after the last batch of the last segment holding one (that segment read
        whole, CRCs checked: a torn or corrupt tail refuses), or the last segment's base offset."""
        for base, path in reversed(logs):
            seg = Segment(path, base)
            try:
                batches = seg.iter_batches(verify=True)
                last = None
                for batch in batches:
                    last = batch
                if batches.partial is not None:
                    raise refuse(
                        f"{path.name} ends in a partial batch (it was not written completely; a broker "
                        "truncates it when it recovers the log)"
                    )
            finally:
                seg.close()
            if last is not None:
                return max(last.last_offset + 1, logs[-1][0])
        return logs[-1][0] if logs else 0

    def _replay(self, logs: list[tuple[int, Path]], end: int, have_epochs: bool) -> None:
        """The producers' state (and the leader epochs, when no checkpoint holds them): from the newest
        producer snapshot at or below ``end``, then the batches after it."""
        start = 0
        if have_epochs:
            snapshots = sorted(
                (o, p)
                for p in self.path.glob("*" + files.SNAPSHOT_SUFFIX)
                if (o := files.offset_from_name(p)) is not None and o <= end
            )
            if snapshots:
                start, path = snapshots[-1]
                for e in parse_snapshot(files.read_regular(path)).producer_entries:
                    state = [
                        e.producer_id,
                        e.epoch,
                        e.last_sequence,
                        e.last_offset,
                        e.offset_delta,
                        e.timestamp,
                        e.coordinator_epoch,
                        e.current_txn_first_offset,
                    ]
                    self.producers[e.producer_id] = state
                    if e.current_txn_first_offset is not None and e.current_txn_first_offset >= 0:
                        self.ongoing[e.producer_id] = e.current_txn_first_offset
        bases = [b for b, _ in logs]
        for i, (base, path) in enumerate(logs):
            if i + 1 < len(bases) and bases[i + 1] <= start:
                continue  # every offset of it is below the snapshot's
            seg = Segment(path, base)
            try:
                for batch in seg.iter_batches(verify=True):
                    if batch.base_offset < start or batch.magic != 2:
                        continue
                    epoch = batch.partition_leader_epoch
                    if epoch >= 0 and (not self.epochs or self.epochs[-1][0] < epoch):
                        self.epochs.append((epoch, batch.base_offset))
                    if batch.producer_id >= 0:
                        self._track_producer(batch, None)
            finally:
                seg.close()

    # -- appending ------------------------------------------------------------------
    def append(
        self,
        records: Sequence,
        *,
        compression: str = "none",
        magic: int = 2,
        producer_id: int = -1,
        producer_epoch: int = -1,
        base_sequence: int = -1,
        is_transactional: bool = False,
        timestamp_type: str = "create",
        log_append_time: int | None = None,
        last_offset_delta: int | None = None,
    ) -> tuple[int, int]:
        """Build one batch from ``records`` at the next offset; return its (base, last) offset.

        Records may carry explicit absolute offsets (>= the next offset, gaps allowed,
        as after compaction); otherwise they get consecutive ones.
        """
        records = list(records)
        for r in records:
            offset = getattr(r, "offset", None)
            if offset is not None and offset_problem(offset) is not None:
                raise InvariantError(
                    f"{self.topic}-{self.partition}: a record at offset {offset}: {offset_problem(offset)}"
                )
        kwargs: dict[str, Any] = dict(
            compression=compression,
            base_offset=self.next_offset,
            timestamp_type=timestamp_type,
            log_append_time=log_append_time,
        )
        if magic == 2:
            kwargs.update(
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                base_sequence=base_sequence,
                is_transactional=is_transactional,
                partition_leader_epoch=self.leader_epoch,
                last_offset_delta=last_offset_delta,
            )
        return self.append_batch(build_batch(records, magic=magic, **kwargs))

    def append_control(
        self,
        control_type: str = "commit",
        *,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int = 0,
        timestamp: int | None = None,
    ) -> tuple[int, int]:
        """Append an end-transaction marker (or another control record type).

        The timestamp defaults to the largest timestamp written so far (deterministic output).
        """
        if timestamp is None:
            timestamp = max(self.segment.max_ts if self.segment else -1, 0)
        return self.append_batch(
            build_control_batch(
                control_type,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                base_offset=self.next_offset,
                coordinator_epoch=coordinator_epoch,
                timestamp=timestamp,
                partition_leader_epoch=self.leader_epoch,
            )
        )

    def append_batch(
        self,
        batch: bytes | bytearray | LogBatch,
        *,
        records: Sequence[Record] | None = None,
        compression: str | None = None,
        where: str = "",
    ) -> tuple[int, int]:
        """Append one batch; return its (base, last) offset. Its base offset must be above the last offset
        written (see the invariants in the module docstring; :class:`InvariantError` otherwise).

        ``batch`` is either encoded bytes (any magic), appended as they are except that a v2 batch gets
        the writer's partition leader epoch (it is not under the CRC), or a decoded
        :class:`~kafkaspec.LogBatch`, kept whole: its bytes as they are when neither ``records`` nor
        another ``compression`` is given, otherwise rebuilt by :func:`rebuild_batch` with every
        batch-level field kept (``records`` may be a subset of its own, even empty for v2). A rebuilt
        legacy entry may come out as several messages (an uncompressed message set); the range they
        cover is returned. ``where`` names the batch in errors (e.g. the source file and position).
        """
        if self.closed:
            raise ValueError("writer is closed")
        if isinstance(batch, (bytes, bytearray, memoryview)):
            raw = batch if isinstance(batch, bytearray) else bytearray(batch)
            parsed = next(iter_batches(raw, verify=False))
            if parsed.end != len(raw):
                raise ValueError("append_batch takes exactly one batch")
            if parsed.magic == 2:
                _I32.pack_into(raw, v2.PARTITION_LEADER_EPOCH_OFFSET, self.leader_epoch)
                parsed = next(iter_batches(raw, verify=False))
            return self._append(parsed, raw, where)
        where = where or f"{self.topic}-{self.partition}: the batch at offset {batch.base_offset}"
        if records is None and (compression is None or compression == batch.compression):
            return self._append(batch, batch.raw(), where)
        data = rebuild_batch(batch, records, compression=compression, where=where)
        entries = list(iter_batches(data, verify=False))
        first = self._append(entries[0], entries[0].raw(), where)
        last = first
        for entry in entries[1:]:
            last = self._append(entry, entry.raw(), where)
        return first[0], last[1]

    def _append(self, batch: LogBatch, raw: bytes | bytearray, where: str) -> tuple[int, int]:
        self._check(batch, where or f"{self.topic}-{self.partition}: the batch at offset {batch.base_offset}")
        epoch = batch.partition_leader_epoch
        if batch.magic == 2 and epoch >= 0 and (not self.epochs or self.epochs[-1][0] < epoch):
            self.epochs.append((epoch, batch.base_offset))
        seg = self.segment
        size = len(raw)
        if seg is None or (seg.size and seg.size + size > self.segment_bytes):
            self._roll(batch.base_offset)
            seg = self.segment
            assert seg is not None
        last = batch.last_offset
        max_ts = batch_max_timestamp(batch)
        if max_ts > seg.max_ts:
            seg.max_ts, seg.offset_of_max_ts = max_ts, last
        if seg.bytes_since_index > self.index_interval_bytes:
            seg.index.append((last, seg.size))
            seg.maybe_time_entry()
            seg.bytes_since_index = 0
        seg.fh.write(raw)
        seg.size += size
        seg.bytes_since_index += size
        self.bytes_written += size
        self.batches_written += 1
        self.next_offset = last + 1
        if batch.magic == 2 and batch.producer_id >= 0:
            self._track_producer(batch, seg.aborted)
        return batch.base_offset, last

    def _check(self, batch: LogBatch, where: str) -> None:
        """Invariants 1-5 of the module docstring, from the batch's head (records only for a control batch)."""
        base, last = batch.base_offset, batch.last_offset
        for what, offset in (("base", base), ("last", max(base, last))):
            if offset_problem(offset) is not None:  # a file named by it would be no offset: readers skip it
                raise InvariantError(f"{where}: {what} offset {offset}: {offset_problem(offset)}")
        if base < self.next_offset:
            raise InvariantError(
                f"{where}: base offset {base} is not above the last offset written "
                f"({self.next_offset - 1}): offsets must strictly increase within a partition"
            )
        if self.segment is not None and not self.segment.size and base < self.segment.base_offset:
            raise InvariantError(
                f"{where}: base offset {base} is below its segment's base offset {self.segment.base_offset}"
            )
        if last < base:
            raise InvariantError(f"{where}: last offset delta {batch.last_offset_delta} is negative")
        if batch.magic != 2:
            return
        if batch.is_control:
            if batch.records_count > 1:
                raise InvariantError(
                    f"{where}: a control batch holds exactly one control record, not {batch.records_count}"
                )
            if batch.records_count:
                check_control(batch.is_transactional, batch.records, where)
        epoch = batch.partition_leader_epoch
        if epoch >= 0 and self.epochs and epoch < self.epochs[-1][0]:
            raise InvariantError(
                f"{where}: partition leader epoch {epoch} is below the epoch {self.epochs[-1][0]} "
                f"of earlier batches (from offset {self.epochs[-1][1]})"
            )
        pid, seq = batch.producer_id, batch.base_sequence
        state = self.producers.get(pid) if pid >= 0 else None
        if state is None or batch.is_control or seq < 0 or state[2] < 0 or batch.producer_epoch != state[1]:
            return
        prev = state[2]
        if not (seq > prev or seq == (prev + 1) % _SEQUENCE_WRAP):
            raise InvariantError(
                f"{where}: producer {pid} (epoch {batch.producer_epoch}) base sequence {seq} does not follow its "
                f"previous batch's last sequence {prev} (base sequence + last offset delta): sequence ranges "
                "must increase"
            )

    def _track_producer(self, batch: LogBatch, aborted: list[AbortedTxn] | None) -> None:
        pid = batch.producer_id
        state = self.producers.setdefault(pid, [pid, batch.producer_epoch, -1, -1, 0, -1, -1, -1])
        if state[1] != batch.producer_epoch:  # a new epoch, a marker's too (transaction version 2 bumps it at
            # each transaction's end): its sequences start afresh, as Kafka's ProducerStateEntry forgets the
            # last epoch's batches
            state[1], state[2:6] = batch.producer_epoch, [-1, -1, 0, -1]
        if batch.is_control:
            control = batch.control
            if control is not None and control.type in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
                first = self.ongoing.pop(pid, batch.base_offset)
                state[6] = control.coordinator_epoch if control.coordinator_epoch is not None else -1
                state[7] = -1
                if control.type == ControlRecordType.ABORT and aborted is not None:
                    lso = min(self.ongoing.values(), default=batch.base_offset + 1)
                    aborted.append(AbortedTxn(pid, first, batch.base_offset, lso))
            return
        if batch.base_sequence >= 0:
            state[2] = (batch.base_sequence + batch.last_offset_delta) % _SEQUENCE_WRAP
        state[3], state[4], state[5] = batch.last_offset, batch.last_offset_delta, batch_max_timestamp(batch)
        if batch.is_transactional:
            first = self.ongoing.setdefault(pid, batch.base_offset)
            state[7] = first

    def roll(self, base_offset: int | None = None) -> None:
        """Close the active segment now; the next batch starts a new one (as after an upgrade), named
        by ``base_offset`` (default: the next offset; not below it)."""
        if self.closed:
            raise ValueError("writer is closed")
        base = self.next_offset if base_offset is None else base_offset
        if not 0 <= base <= MAX_OFFSET:
            raise InvariantError(
                f"{self.topic}-{self.partition}: a segment at base offset {base} would be named "
                f"by no offset (a file name holds one from 0 to {MAX_OFFSET})"
            )
        if base < self.next_offset:
            raise InvariantError(
                f"{self.topic}-{self.partition}: a segment at base offset {base} would start "
                f"below the last offset written ({self.next_offset - 1})"
            )
        seg = self.segment
        if seg is not None and seg.size:
            self._roll(base)
        elif seg is not None and seg.base_offset != base:  # an empty active segment: rename it
            seg.fh.close()
            seg.path.unlink()
            self.segment = _ActiveSegment(self.path, base)
        elif seg is None and base_offset is not None:
            self.segment = _ActiveSegment(self.path, base)

    def _roll(self, base_offset: int) -> None:
        if self.segment is not None:
            self.segment.close()
            self._write_snapshot(base_offset)
        self.segment = _ActiveSegment(self.path, base_offset)

    def _write_snapshot(self, offset: int) -> None:
        entries = [ProducerSnapshotEntry(*s) for _, s in sorted(self.producers.items())]
        _put(self.path / files.offset_file_name(offset, files.SNAPSHOT_SUFFIX), encode_snapshot(entries))

    # -- finishing ------------------------------------------------------------------
    def close(self) -> None:
        """Close the active segment and write indexes, snapshot, checkpoint and metadata."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.appending and self.segment is None:  # nothing written: the partition stays as it was
                return
            if self.segment is None:
                self.segment = _ActiveSegment(self.path, self.next_offset)
            self.segment.close()
            self._write_snapshot(self.next_offset)
            if self.epochs != self._kept_epochs:
                _put(
                    self.path / files.LEADER_EPOCH_CHECKPOINT,
                    files.format_leader_epoch_checkpoint(self.epochs).encode(),
                )
            if not self._kept_metadata:
                _put(
                    self.path / files.PARTITION_METADATA,
                    files.format_partition_metadata(self.topic_id).encode(),
                )
            self._output.finish()  # published whole, where it is one: the local copy goes once it is
        finally:
            self._unlock()
            self._drop_local()

    def discard(self) -> None:
        """Stop without publishing (an object-store destination): nothing becomes visible."""
        self.closed = True
        if self.segment is not None:
            self.segment.fh.close()
        self._unlock()
        self._drop_local()

    def _drop_local(self) -> None:
        """Remove the local staging folder of a destination published whole (the one its output made,
        never one derived from the partition's path)."""
        self._output.discard()

    def __enter__(self) -> PartitionWriter:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None and self._output.whole:
            self.discard()
        else:
            self.close()


def _put(path: Path, data: bytes) -> None:
    """Write ``path`` whole by a rename over it: a symbolic link there (even a dangling one) is replaced,
    never followed, so the writer writes nothing outside the partition."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(temp, path)


def _kafka_files(path: Path) -> list[Path]:
    """The files of the partition directory ``path`` a writer writes or must read to continue it: segment,
    index and snapshot files (whatever their name: a misnamed one is reported by the caller) and the
    small files; [] when there is no such directory."""
    if not path.is_dir():
        return []
    return [
        p for p in listdir(path) if p.name.endswith(files.SEGMENT_FILE_SUFFIXES) or p.name in _SMALL_FILES
    ]


def _shown(path: StoragePath) -> str:
    text = str(path)
    return text if text.isprintable() else repr(text)


def _shown_name(name: str) -> str:
    return name if name.isprintable() and len(name) <= 80 else repr(name[:80])
