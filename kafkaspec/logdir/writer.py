"""Writing a partition directory the way a broker does.

Batches are appended to the active segment; a segment rolls when the next batch
would push it past ``segment_bytes``. Every time more than
``index_interval_bytes`` were appended since the last index entry, the next
batch gets an offset-index entry (its last offset, its start position) and the
time index gets (max timestamp so far, offset of that max) if the max grew, as
in Kafka's ``LogSegment.append``. A closed segment gets a final time-index entry.
Abort markers add entries to the segment's ``.txnindex``; producer snapshots,
``leader-epoch-checkpoint`` and ``partition.metadata`` are written on close.
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

from ..builder import build_batch, build_control_batch
from ..crc import crc32c
from ..entry import LogBatch
from ..records import iter_batches
from . import files, indexes
from .indexes import AbortedTxn
from .segment import batch_max_timestamp
from .snapshot import ProducerSnapshotEntry, encode_snapshot
from .storage import RemotePath, as_path, is_uri, publish_partition

_I64 = struct.Struct(">q")
_I32 = struct.Struct(">i")
_U32 = struct.Struct(">I")
_TIMES = struct.Struct(">qq")
_PRODUCER = struct.Struct(">qhi")


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
        self.fh = open(self.path, "wb")  # noqa: SIM115 - closed in close()
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

    Use as a context manager (or call :meth:`close`): index files and the small
    files are written when a segment closes.
    """

    def __init__(self, directory: str | Path | RemotePath, topic: str, partition: int, *,
                 segment_bytes: int = 1 << 30, index_interval_bytes: int = 4096,
                 leader_epoch: int = 0, topic_id: str | None = None, start_offset: int = 0):
        #: an object-store destination: the partition is written to a local staging folder (``path``)
        #: and published on close (see storage.publish_partition); an exception in a ``with`` block
        #: publishes nothing
        self.destination: RemotePath | None = None
        if isinstance(directory, (str, RemotePath)) and is_uri(directory):
            dest = as_path(directory)
            assert isinstance(dest, RemotePath)
            self.destination = dest / f"{topic}-{partition}"
            directory = tempfile.mkdtemp(prefix="kafkaspec-stage-")
        if isinstance(directory, RemotePath):
            raise ValueError(f"{directory}: not an object-store URI this writer can publish to")
        self.path = Path(directory) / f"{topic}-{partition}"
        self.path.mkdir(parents=True, exist_ok=True)
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

    def append_batch(self, raw: bytes | bytearray) -> tuple[int, int]:
        """Append one encoded batch (any magic) as is; its base offset must be >= the next offset.

        For v2 the partition leader epoch is set to the writer's (it is not under the CRC).
        """
        if self.closed:
            raise ValueError("writer is closed")
        raw = bytearray(raw) if not isinstance(raw, bytearray) else raw
        it = iter_batches(raw, verify=False)
        batch = next(it)
        if batch.end != len(raw):
            raise ValueError("append_batch takes exactly one batch")
        if batch.base_offset < self.next_offset:
            raise ValueError(f"batch base offset {batch.base_offset} is below the next offset {self.next_offset}")
        if batch.magic == 2:
            _I32.pack_into(raw, v2.PARTITION_LEADER_EPOCH_OFFSET, self.leader_epoch)
            if not self.epochs or self.epochs[-1][0] < self.leader_epoch:
                self.epochs.append((self.leader_epoch, batch.base_offset))
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
            state[2] = batch.base_sequence + batch.last_offset_delta
        state[3], state[4], state[5] = batch.last_offset, batch.last_offset_delta, batch_max_timestamp(batch)
        if batch.is_transactional:
            first = self.ongoing.setdefault(pid, batch.base_offset)
            state[7] = first

    def roll(self) -> None:
        """Close the active segment now; the next batch starts a new one (as after an upgrade)."""
        if self.segment is not None and self.segment.size:
            self._roll(self.next_offset)

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
        if self.segment is None:
            self.segment = _ActiveSegment(self.path, self.next_offset)
        self.segment.close()
        self._write_snapshot(self.next_offset)
        (self.path / files.LEADER_EPOCH_CHECKPOINT).write_text(files.format_leader_epoch_checkpoint(self.epochs))
        (self.path / files.PARTITION_METADATA).write_text(files.format_partition_metadata(self.topic_id))
        if self.destination is not None:
            try:
                publish_partition(self.path, self.destination)
            finally:
                shutil.rmtree(self.path.parent, ignore_errors=True)

    def discard(self) -> None:
        """Stop without publishing (an object-store destination): nothing becomes visible."""
        self.closed = True
        if self.segment is not None:
            self.segment.fh.close()
        if self.destination is not None:
            shutil.rmtree(self.path.parent, ignore_errors=True)

    def __enter__(self) -> PartitionWriter:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None and self.destination is not None:
            self.discard()
        else:
            self.close()
