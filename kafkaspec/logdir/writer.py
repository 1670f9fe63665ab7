"""Writing a partition directory the way a broker does.

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

Why one module of this size: the writer and the invariants it checks are one job (every append
goes through both); ``rebuild_batch`` lives here because it builds what ``append_batch`` appends.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import struct
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import Record

from ..builder import build_batch, build_control_batch
from ..codec.crc import crc32c
from ..entry import LogBatch
from ..errors import KafkaFormatError
from ..records import iter_batches, parse_control_record
from . import files, indexes
from .indexes import AbortedTxn
from .names import partition_dir_name
from .publish import publish_partition
from .segment import batch_max_timestamp
from .snapshot import ProducerSnapshotEntry, encode_snapshot
from .storage import RemotePath, as_path, is_uri

_I64 = struct.Struct(">q")
_I32 = struct.Struct(">i")
_U32 = struct.Struct(">I")
_TIMES = struct.Struct(">qq")
_PRODUCER = struct.Struct(">qhi")
_SEQUENCE_WRAP = 1 << 31


class InvariantError(KafkaFormatError):
    """Input that would break one of Kafka's log invariants (see the module docstring); the message
    names the batch (or Spark row) at fault and the invariant."""


def rebuild_batch(batch: LogBatch, records: Sequence[Record] | None = None, *,
                  compression: str | None = None, where: str = "") -> bytes:
    """Encode ``batch`` again with ``records`` (default: its own) and ``compression`` (default: its
    own), keeping every batch-level field: base offset, last offset delta, producer id/epoch/base
    sequence, transactional and control flags, timestamp type, leader epoch and delete horizon.

    v2 only keeps everything; a legacy (magic 0/1) entry becomes the message(s) holding the
    records (at least one: a legacy wrapper cannot be empty). ``where`` names the batch in errors.
    """
    recs = list(batch.records if records is None else records)
    codec = batch.compression if compression is None else compression
    where = where or f"the batch at offset {batch.base_offset}"
    if batch.magic != 2:
        if not recs:
            raise InvariantError(f"{where}: a magic {batch.magic} entry cannot be empty (only RecordBatch v2 can)")
        _check_record_offsets(recs, recs[0].offset, recs[-1].offset, where)
        log_append = batch.timestamp_type == "log_append"
        return build_batch(recs, magic=batch.magic, compression=codec, base_offset=recs[0].offset,
                           timestamp_type=batch.timestamp_type,
                           log_append_time=batch.max_timestamp if log_append else None)
    last = batch.last_offset
    _check_record_offsets(recs, batch.base_offset, last, where)
    if batch.is_control:
        _check_control(batch.is_transactional, recs, where)
        codec = batch.compression  # markers stay as they are (Kafka writes them uncompressed)
    log_append = batch.timestamp_type == "log_append"
    if batch.has_delete_horizon or not recs:
        # base_timestamp is the delete horizon (or, emptied, the batch's time as the cleaner keeps it):
        # record timestamps are deltas from it, so encode with it directly
        base_ts = batch.base_timestamp if batch.has_delete_horizon else batch.max_timestamp
        attributes = (batch.attributes & ~0x7) | _codec_number(codec)
        return v2.encode_record_batch(
            base_offset=batch.base_offset, partition_leader_epoch=batch.partition_leader_epoch,
            attributes=attributes, last_offset_delta=batch.last_offset_delta, base_timestamp=base_ts,
            max_timestamp=batch.max_timestamp if (log_append or not recs) else max(r.timestamp for r in recs),
            producer_id=batch.producer_id, producer_epoch=batch.producer_epoch,
            base_sequence=batch.base_sequence, records=recs)
    return build_batch(recs, magic=2, compression=codec, base_offset=batch.base_offset,
                       producer_id=batch.producer_id, producer_epoch=batch.producer_epoch,
                       base_sequence=batch.base_sequence, is_transactional=batch.is_transactional,
                       is_control=batch.is_control, timestamp_type=batch.timestamp_type,
                       partition_leader_epoch=batch.partition_leader_epoch,
                       log_append_time=batch.max_timestamp if log_append else None,
                       last_offset_delta=batch.last_offset_delta)


def _codec_number(name: str) -> int:
    from ..codec.compression import codec_argument

    return codec_argument(name)


def _check_record_offsets(records: Sequence[Record], base: int, last: int, where: str) -> None:
    """Invariant 2: records in strictly increasing offset order, within [base, last]."""
    prev = base - 1
    for i, r in enumerate(records):
        o = r.offset
        if o is None or not prev < o <= last:
            what = "has no offset" if o is None else (
                f"offset {o} is not above the previous record's {prev}" if o <= prev else
                f"offset {o} is beyond the batch's last offset {last} (base offset {base} + last offset delta)")
            raise InvariantError(f"{where}: record {i} {what}")
        prev = o


def _check_control(transactional: bool, records: Sequence[Record], where: str) -> None:
    """Invariant 4: one control record (none after the cleaner); abort/commit markers are transactional."""
    if len(records) > 1:
        raise InvariantError(f"{where}: a control batch holds exactly one control record, not {len(records)}")
    if records:
        control = parse_control_record(records[0].key, records[0].value)
        if control.type in (ControlRecordType.ABORT, ControlRecordType.COMMIT) and not transactional:
            article = "an" if control.type_name[0] in "aeiou" else "a"
            raise InvariantError(f"{where}: {article} {control.type_name} marker must be in a transactional batch")


def restamp_batch(raw: bytearray, *, base_offset: int, timestamp_shift: int = 0,
                  producer: tuple[int, int, int] | None = None, attributes_or: int = 0) -> bytearray:
    """Re-use a v2 batch's bytes: set its base offset, shift its timestamps, set the producer fields.

    Record offsets and timestamps are deltas, so the records stay valid; the CRC
    (over attributes..end) is recomputed when anything it covers changed.
    ``producer`` is (producer_id, producer_epoch, base_sequence); ``attributes_or``
    sets attribute bits (e.g. 0x40, has_delete_horizon).
    """
    _I64.pack_into(raw, v2.BASE_OFFSET_OFFSET, base_offset)
    dirty = False
    if timestamp_shift:
        base_ts, max_ts = _TIMES.unpack_from(raw, v2.BASE_TIMESTAMP_OFFSET)
        _TIMES.pack_into(raw, v2.BASE_TIMESTAMP_OFFSET, base_ts + timestamp_shift, max_ts + timestamp_shift)
        dirty = True
    if attributes_or:
        raw[v2.ATTRIBUTES_OFFSET + 1] |= attributes_or & 0xFF
        raw[v2.ATTRIBUTES_OFFSET] |= attributes_or >> 8
        dirty = True
    if producer is not None:
        _PRODUCER.pack_into(raw, v2.PRODUCER_ID_OFFSET, *producer)
        dirty = True
    if dirty:
        _U32.pack_into(raw, v2.CRC_OFFSET, crc32c(memoryview(raw)[v2.ATTRIBUTES_OFFSET:]))
    return raw


class _ActiveSegment:
    def __init__(self, directory: Path, base_offset: int):
        self.base_offset = base_offset
        self.path = directory / files.offset_file_name(base_offset, files.LOG_SUFFIX)
        self.fh = open(self.path, "wb")  # closed in close()
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
        Path(f"{stem}{files.INDEX_SUFFIX}").write_bytes(indexes.encode_offset_index(self.index, self.base_offset))
        Path(f"{stem}{files.TIME_INDEX_SUFFIX}").write_bytes(
            indexes.encode_time_index(self.time_index, self.base_offset))
        if self.aborted:
            Path(f"{stem}{files.TXN_INDEX_SUFFIX}").write_bytes(indexes.encode_txn_index(self.aborted))


class PartitionWriter:
    """Write ``<directory>/<topic>-<partition>/`` from records or ready-made batches.

    ``topic`` must be a name Kafka allows and ``partition`` a number from 0 to 2147483647
    (:mod:`.names`): anything else is an :class:`~kafkaspec.logdir.names.InvalidTopicError`
    raised before the writer creates anything.

    Use as a context manager (or call :meth:`close`): index files and the small
    files are written when a segment closes.
    """

    def __init__(self, directory: str | Path | RemotePath, topic: str, partition: int, *,
                 segment_bytes: int = 1 << 30, index_interval_bytes: int = 4096,
                 leader_epoch: int = 0, topic_id: str | None = None, start_offset: int = 0):
        # the name is a path component: checked before anything is created (InvalidTopicError)
        name = partition_dir_name(topic, partition)
        #: an object-store destination: the partition is written to a local staging folder (``path``)
        #: and published on close (see logdir.publish: never half-visible); an exception in a ``with`` block
        #: publishes nothing
        self.destination: RemotePath | None = None
        #: the staging folder this writer made (mkdtemp's own path), the only folder it ever removes
        self._staging: Path | None = None
        if isinstance(directory, (str, RemotePath)) and is_uri(directory):
            dest = as_path(directory)
            assert isinstance(dest, RemotePath)
            self.destination = dest / name
            directory = self._staging = Path(tempfile.mkdtemp(prefix="kafkaspec-stage-"))
        if isinstance(directory, RemotePath):
            raise ValueError(f"{directory}: not an object-store URI this writer can publish to")
        self.path = Path(directory) / name
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except BaseException:
            self._drop_local()
            raise
        self.topic, self.partition = topic, partition
        self.segment_bytes = segment_bytes
        self.index_interval_bytes = index_interval_bytes
        self.leader_epoch = leader_epoch
        self.topic_id = topic_id or base64.urlsafe_b64encode(
            hashlib.sha256(topic.encode()).digest()[:16]).decode().rstrip("=")
        self.next_offset = start_offset
        self.bytes_written = 0
        self.batches_written = 0
        self.epochs: list[tuple[int, int]] = []
        self.producers: dict[int, list] = {}  # pid -> snapshot entry fields
        self.ongoing: dict[int, int] = {}  # pid -> first offset of its open transaction
        self.segment: _ActiveSegment | None = None
        self.closed = False

    # -- appending ------------------------------------------------------------------
    def append(self, records: Sequence, *, compression: str = "none", magic: int = 2,
               producer_id: int = -1, producer_epoch: int = -1, base_sequence: int = -1,
               is_transactional: bool = False, timestamp_type: str = "create",
               log_append_time: int | None = None, last_offset_delta: int | None = None) -> tuple[int, int]:
        """Build one batch from ``records`` at the next offset; return its (base, last) offset.

        Records may carry explicit absolute offsets (>= the next offset, gaps allowed,
        as after compaction); otherwise they get consecutive ones.
        """
        kwargs: dict[str, Any] = dict(compression=compression, base_offset=self.next_offset,
                                      timestamp_type=timestamp_type, log_append_time=log_append_time)
        if magic == 2:
            kwargs.update(producer_id=producer_id, producer_epoch=producer_epoch, base_sequence=base_sequence,
                          is_transactional=is_transactional, partition_leader_epoch=self.leader_epoch,
                          last_offset_delta=last_offset_delta)
        return self.append_batch(build_batch(list(records), magic=magic, **kwargs))

    def append_control(self, control_type: str = "commit", *, producer_id: int, producer_epoch: int,
                       coordinator_epoch: int = 0, timestamp: int | None = None) -> tuple[int, int]:
        """Append an end-transaction marker (or another control record type).

        The timestamp defaults to the largest timestamp written so far (deterministic output).
        """
        if timestamp is None:
            timestamp = max(self.segment.max_ts if self.segment else -1, 0)
        return self.append_batch(build_control_batch(
            control_type, producer_id=producer_id, producer_epoch=producer_epoch,
            base_offset=self.next_offset, coordinator_epoch=coordinator_epoch, timestamp=timestamp,
            partition_leader_epoch=self.leader_epoch))

    def append_batch(self, batch: bytes | bytearray | LogBatch, *, records: Sequence[Record] | None = None,
                     compression: str | None = None, where: str = "") -> tuple[int, int]:
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
            self._track_producer(batch, seg)
        return batch.base_offset, last

    def _check(self, batch: LogBatch, where: str) -> None:
        """Invariants 1-5 of the module docstring, from the batch's head (records only for a control batch)."""
        base, last = batch.base_offset, batch.last_offset
        if base < self.next_offset:
            raise InvariantError(f"{where}: base offset {base} is not above the last offset written "
                                 f"({self.next_offset - 1}): offsets must strictly increase within a partition")
        if self.segment is not None and not self.segment.size and base < self.segment.base_offset:
            raise InvariantError(f"{where}: base offset {base} is below its segment's base offset "
                                 f"{self.segment.base_offset}")
        if last < base:
            raise InvariantError(f"{where}: last offset delta {batch.last_offset_delta} is negative")
        if batch.magic != 2:
            return
        if batch.is_control:
            if batch.records_count > 1:
                raise InvariantError(f"{where}: a control batch holds exactly one control record, "
                                     f"not {batch.records_count}")
            if batch.records_count:
                _check_control(batch.is_transactional, batch.records, where)
        epoch = batch.partition_leader_epoch
        if epoch >= 0 and self.epochs and epoch < self.epochs[-1][0]:
            raise InvariantError(f"{where}: partition leader epoch {epoch} is below the epoch {self.epochs[-1][0]} "
                                 f"of earlier batches (from offset {self.epochs[-1][1]})")
        pid, seq = batch.producer_id, batch.base_sequence
        state = self.producers.get(pid) if pid >= 0 else None
        if state is None or batch.is_control or seq < 0 or state[2] < 0 or batch.producer_epoch != state[1]:
            return
        prev = state[2]
        if not (seq > prev or seq == (prev + 1) % _SEQUENCE_WRAP):
            raise InvariantError(
                f"{where}: producer {pid} (epoch {batch.producer_epoch}) base sequence {seq} does not follow its "
                f"previous batch's last sequence {prev} (base sequence + last offset delta): sequence ranges "
                "must increase")

    def _track_producer(self, batch: LogBatch, seg: _ActiveSegment) -> None:
        pid = batch.producer_id
        state = self.producers.setdefault(pid, [pid, batch.producer_epoch, -1, -1, 0, -1, -1, -1])
        state[1] = batch.producer_epoch
        if batch.is_control:
            control = batch.control
            if control is not None and control.type in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
                first = self.ongoing.pop(pid, batch.base_offset)
                state[6] = control.coordinator_epoch if control.coordinator_epoch is not None else -1
                state[7] = -1
                if control.type == ControlRecordType.ABORT:
                    lso = min(self.ongoing.values(), default=batch.base_offset + 1)
                    seg.aborted.append(AbortedTxn(pid, first, batch.base_offset, lso))
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
        if base < self.next_offset:
            raise InvariantError(f"{self.topic}-{self.partition}: a segment at base offset {base} would start "
                                 f"below the last offset written ({self.next_offset - 1})")
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
        (self.path / files.offset_file_name(offset, files.SNAPSHOT_SUFFIX)).write_bytes(encode_snapshot(entries))

    # -- finishing ------------------------------------------------------------------
    def close(self) -> None:
        """Close the active segment and write indexes, snapshot, checkpoint and metadata."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.segment is None:
                self.segment = _ActiveSegment(self.path, self.next_offset)
            self.segment.close()
            self._write_snapshot(self.next_offset)
            (self.path / files.LEADER_EPOCH_CHECKPOINT).write_text(files.format_leader_epoch_checkpoint(self.epochs))
            (self.path / files.PARTITION_METADATA).write_text(files.format_partition_metadata(self.topic_id))
            if self.destination is not None:  # the local copy goes once the store holds a complete one
                publish_partition(self.path, self.destination, staged_hook=self._drop_local)
        finally:
            self._drop_local()

    def discard(self) -> None:
        """Stop without publishing (an object-store destination): nothing becomes visible."""
        self.closed = True
        if self.segment is not None:
            self.segment.fh.close()
        self._drop_local()

    def _drop_local(self) -> None:
        """Remove the staging folder by the path mkdtemp gave, never by one derived from the partition's."""
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)
            self._staging = None

    def __enter__(self) -> PartitionWriter:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None and self.destination is not None:
            self.discard()
        else:
            self.close()
