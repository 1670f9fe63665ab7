"""The ``kafkalog`` writer's batch-preserving mode: rows of a ``kafkalog`` read back into their batches.

A ``kafkalog`` read gives every record its batch's columns (``magic``, ``compression``,
``producerId``, ``producerEpoch``, ``baseSequence``, ``isTransactional``, ``isControl``,
``partitionLeaderEpoch``, ``timestampType``) and where that batch is (``segment``,
``batchPosition``). When a DataFrame written with ``format("kafkalog")`` has those
columns, the writer puts each batch's rows back into that batch:

- on the executors (:class:`BatchStager`), rows of one topic-partition arrive in offset
  order with each batch's rows together, as a read gives them; every row of a batch must
  carry the same batch columns, and they must agree with the source batch's head, which
  is read back from ``segment`` at ``batchPosition`` (its base offset, last offset delta
  and delete horizon are not columns). A batch whose rows are exactly its records is
  copied byte for byte; one that lost rows (or gets ``compression``: data batches only, and
  not zstd for magic 0/1, which keep their codec) is rebuilt with every batch field kept
  (:func:`kafkaspec.logdir.rebuild_batch`);
- on the driver (:func:`commit_partition`), the source segments the rows came from are
  walked batch by batch (heads only) and the partition is written in their order, through
  one :class:`kafkaspec.logdir.PartitionWriter`, so segments, indexes, ``.txnindex``,
  producer snapshots and ``leader-epoch-checkpoint`` come out as a broker writes them.
  Batches that have no row are put back as :func:`kafkaspec.logdir.copy` keeps them: an
  empty source batch as it is, a producer's batch emptied, a transaction marker when
  its transaction is in the copy (from a later segment too, so that no transaction is left
  hanging); a plain batch whose rows were all filtered out stays out, and so does a corrupt
  entry (which a ``corruptionPolicy=skip`` read skipped).

Refused, naming the row (topic-partition and offset) or the batch: rows out of offset
order, rows of one batch whose batch columns differ, a row (control or not) with no
batch (a null batch column), batch columns that disagree with the source batch, and a
transaction whose marker lies beyond the rows written (its outcome would be lost). A marker
that has no row while its transaction's batches do (the read hid control rows, as it does by
default) is copied from the source segment, and a warning names each one so copied.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kafkaspec.generated.record_v2 import Record

from ...entry import LogBatch
from ...errors import KafkaFormatError
from ...logdir import InvariantError, PartitionWriter, open_log
from ...logdir.kafka import files
from ...logdir.kafka.names import check_topic_partition, offset_problem, partition_dir_name
from ...logdir.kafka.segment import Segment
from ...logdir.store.fs import StoragePath
from ...logdir.store.storage import StorageOptions, as_path, is_uri, parse_uri
from ...logdir.write.rewrite import output_codec, update_offset_checkpoints
from ...records import iter_batches

log = logging.getLogger("kafkaspec.spark")

#: the batch columns, in the order rows carry them (timestampType is a Kafka-source column)
BATCH_COLUMNS = (
    "magic",
    "compression",
    "producerId",
    "producerEpoch",
    "baseSequence",
    "isTransactional",
    "isControl",
    "partitionLeaderEpoch",
    "timestampType",
    "segment",
    "batchPosition",
)
_HEAD_COLUMNS = BATCH_COLUMNS[:9]
_LENGTH_END = 12  # base offset (8) + batch length (4)


def head_values(batch: LogBatch) -> tuple:
    """A batch's values of the head columns, as a ``kafkalog`` read gives them."""
    ts_type = -1 if batch.magic == 0 else (1 if batch.timestamp_type == "log_append" else 0)
    return (
        batch.magic,
        batch.compression,
        batch.producer_id,
        batch.producer_epoch,
        batch.base_sequence,
        batch.is_transactional,
        batch.is_control,
        batch.partition_leader_epoch,
        ts_type,
    )


def read_source_batch(segment: str, position: int, storage: StorageOptions | None = None) -> LogBatch:
    """The batch at ``position`` of the segment file ``segment`` (its bytes only; CRC checked); a
    segment URI is read with ``storage`` (the writer's object-store settings) or the environment's."""
    path = (
        parse_uri(segment, storage, fresh=False) if is_uri(segment) else None
    )  # listings kept: one per task
    if not (path.is_file() if path is not None else os.path.isfile(segment)):
        raise InvariantError(
            f"the source segment {segment} (column segment) is not readable here: a "
            "batch-preserving write reads each batch's head back from it (drop the batch "
            "columns, or set preserveBatches to false, to write fresh batches)"
        )
    head = files.read_regular(path or segment, position, position + _LENGTH_END)
    if len(head) < _LENGTH_END:
        raise InvariantError(f"{segment} has no batch at byte {position} (column batchPosition)")
    length = int.from_bytes(head[8:12], "big", signed=True)
    data = files.read_regular(path or segment, position, position + _LENGTH_END + max(length, 0))
    try:
        return next(iter_batches(data))
    except (StopIteration, KafkaFormatError) as exc:
        raise InvariantError(
            f"{segment} at byte {position} (column batchPosition) holds no whole batch: {exc}",
            position,
            segment,
        ) from None


def _records_equal(batch: LogBatch, rows: list[Record]) -> bool:
    records = batch.records
    if len(records) != len(rows):
        return False
    return all(
        a.offset == b.offset
        and a.timestamp == b.timestamp
        and a.key == b.key
        and a.value == b.value
        and [tuple(h) for h in a.headers or ()] == [tuple(h) for h in b.headers or ()]
        for a, b in zip(records, rows)
    )


class BatchStager:
    """One task's rows of one topic-partition, put back into their batches in a staging directory."""

    def __init__(
        self,
        task_dir: Path,
        topic: str,
        partition: int,
        *,
        compression: str | None,
        segment_bytes: int,
        storage: StorageOptions | None = None,
    ):
        check_topic_partition(topic, partition, "kafkalog write")  # a row's topic: a path component
        self.task_dir, self.topic, self.partition = task_dir, topic, partition
        self.storage = storage  # object-store settings for source segments named by URI
        self.compression, self.segment_bytes = compression, segment_bytes
        self.name = f"{topic}-{partition}"
        self.key: tuple[str, int] | None = None  # (segment, position) of the batch being collected
        self.columns: tuple | None = None  # its batch columns, from its first row
        self.first_row: int | None = None  # the offset of its first row
        self.rows: list[Record] = []
        self.last: int | None = None  # the last offset taken
        self.writer: PartitionWriter | None = None
        self.sources: list[tuple[str, int, int]] = []  # (segment, position, entries written) per batch
        self.first: int | None = None

    def add(
        self,
        offset: int | None,
        timestamp: int | None,
        key: bytes | None,
        value: bytes | None,
        headers: list[tuple[str, bytes | None]],
        columns: tuple,
    ) -> None:
        """Take one row; ``columns`` are its values of :data:`BATCH_COLUMNS`."""
        row = f"kafkalog write: {self.name} offset {offset}"
        if offset is None:
            raise InvariantError(f"{row}: a batch-preserving write needs the offset of every row")
        problem = offset_problem(offset)
        if problem is not None:
            raise InvariantError(f"{row}: {problem}")
        if None in columns:
            kind = "control row" if columns[6] else "row"
            missing = ", ".join(n for n, v in zip(BATCH_COLUMNS, columns) if v is None)
            raise InvariantError(
                f"{row}: the {kind} has no batch ({missing} null); rows written back into their "
                "batches need every batch column of a kafkalog read"
            )
        if self.last is not None and offset <= self.last:
            raise InvariantError(
                f"{row} comes after offset {self.last}: rows of a topic-partition must arrive in "
                "offset order, each batch's rows together (as a kafkalog read gives them; "
                "sortWithinPartitions('topic', 'partition', 'offset') restores it)"
            )
        self.last = offset
        where = (columns[9], columns[10])
        if where != self.key:
            self.flush()
            self.key, self.columns, self.first_row = where, columns, offset
        elif columns != self.columns:
            assert self.columns is not None
            name, mine, theirs = next(
                (n, a, b) for n, a, b in zip(BATCH_COLUMNS, columns, self.columns) if a != b
            )
            raise InvariantError(
                f"{row}: {name} is {mine!r}, but {theirs!r} in the row at offset {self.first_row} "
                f"of the same batch ({where[0]} at byte {where[1]}): one batch has one value"
            )
        self.rows.append(
            Record(
                attributes=0,
                timestamp=-1 if timestamp is None else timestamp,
                offset=offset,
                key=key,
                value=value,
                headers=headers,
            )
        )

    def flush(self) -> None:
        """Write the batch collected so far."""
        if self.key is None:
            return
        segment, position = self.key
        rows, self.rows, self.key = self.rows, [], None
        batch = read_source_batch(segment, position, self.storage)
        where = (
            f"kafkalog write: {self.name} rows from offset {self.first_row} ({segment} at byte {position})"
        )
        assert self.columns is not None
        for name, mine, theirs in zip(_HEAD_COLUMNS, self.columns, head_values(batch)):
            if mine != theirs:
                raise InvariantError(
                    f"{where}: {name} is {mine!r} but the source batch has {theirs!r}: the rows "
                    "do not belong to that batch (or the source changed since it was read)"
                )
        if self.writer is None:
            self.writer = PartitionWriter(
                self.task_dir / uuid.uuid4().hex, self.topic, self.partition, segment_bytes=self.segment_bytes
            )
        before = self.writer.batches_written
        codec = output_codec(batch, self.compression)
        same = _records_equal(batch, rows)
        self.writer.append_batch(batch, records=None if same else rows, compression=codec, where=where)
        self.sources.append((segment, position, self.writer.batches_written - before))
        if self.first is None:
            self.first = batch.base_offset

    def close(self) -> tuple[str, int, int, list[tuple[str, int, int]]]:
        """Finish; return (staged directory, first offset, last offset, sources)."""
        self.flush()
        assert self.writer is not None and self.first is not None
        self.writer.close()
        return str(self.writer.path), self.first, self.writer.next_offset - 1, self.sources


def _staged(
    pieces: list[Any], storage: StorageOptions | None = None
) -> Iterator[tuple[str, int, list[LogBatch]]]:
    """(segment, position, entries) for every staged batch of ``pieces``, in order."""
    for piece in pieces:
        with open_log(piece.path, storage=storage) as staged:
            entries = (b for part in staged.partitions() for _, b in part.batches(verify=False))
            for segment, position, n in piece.sources:
                yield segment, position, [next(entries) for _ in range(n)]


def commit_partition(
    root: Path,
    topic: str,
    partition: int,
    pieces: list[Any],
    segment_bytes: int,
    storage: StorageOptions | None = None,
) -> None:
    """Write ``root/<topic>-<partition>`` from the staged pieces (sorted, not overlapping) and the source
    segments they name, as the module docstring says; ``storage`` reads those named by URI."""
    name = partition_dir_name(topic, partition, "kafkalog write")
    segments = sorted(
        {s for p in pieces for s, _, _ in p.sources}, key=lambda s: (files.offset_from_name(s) or 0, s)
    )
    meta_path = as_path(segments[0], storage).parent / files.PARTITION_METADATA  # a local path or a URI
    topic_id = None
    if meta_path.is_file():
        topic_id = files.parse_partition_metadata(files.read_text_file(meta_path), str(meta_path)).get(
            "topic_id"
        )
    staged = _staged(pieces, storage)
    pending = next(staged, None)
    with_rows: set[int] = set()  # producers whose open transaction has rows in the copy
    copied: list[str] = []  # the markers that had no row, put back from the source
    in_copy: set[int] = set()  # producers whose open transaction has batches in the copy (rows or emptied)
    with PartitionWriter(root, topic, partition, segment_bytes=segment_bytes, topic_id=topic_id) as w:
        for seg_path in segments:
            seg = Segment(as_path(seg_path, storage))
            w.roll(base_offset=max(seg.base_offset, w.next_offset))
            try:
                for b in seg.iter_batches(on_corrupt="skip"):  # as a corruptionPolicy=skip read left it
                    at = f"kafkalog write: {name}: {seg_path} at byte {b.position}"
                    pid = b.producer_id
                    if pending is not None and (pending[0], pending[1]) == (seg_path, b.position):
                        for entry in pending[2]:
                            w.append_batch(entry, where=at)
                        pending = next(staged, None)
                        if b.is_transactional and not b.is_control:
                            with_rows.add(pid)
                            in_copy.add(pid)
                    else:
                        _put_back(w, b, at, with_rows, in_copy, copied)
                    if b.is_control and b.is_transactional:
                        with_rows.discard(pid)
                        in_copy.discard(pid)
            finally:
                seg.close()
        if pending is not None:
            raise InvariantError(
                f"kafkalog write: {name}: the batch at {pending[0]} byte {pending[1]} is not "
                "among that segment's batches (the source changed since it was read)"
            )
        _close_transactions(w, name, as_path(segments[-1], storage), with_rows, in_copy)
        start = files.offset_from_name(segments[0]) or 0
        update_offset_checkpoints(root, {(topic, partition): (start, w.next_offset)})
    if copied:
        shown = ", ".join(copied[:10]) + (f", and {len(copied) - 10} more" if len(copied) > 10 else "")
        log.warning(
            "kafkalog write: %s: %d transaction marker%s had no row (read without includeControl, or "
            "filtered out) while %s transaction's batches had rows: copied from the source: %s",
            name,
            len(copied),
            "s" if len(copied) > 1 else "",
            "their" if len(copied) > 1 else "its",
            shown,
        )


def _close_transactions(
    w: PartitionWriter, name: str, last: StoragePath, with_rows: set[int], in_copy: set[int]
) -> None:
    """Transactions still open after the last segment the rows came from: their markers, in the source's
    later segments, are refused when the transaction has rows (its outcome would be lost) and put back
    otherwise (emptied batches of a transaction without its marker would leave it hanging, blocking
    read_committed consumers at its first offset)."""
    still = with_rows | in_copy
    after = files.offset_from_name(last)
    later = sorted(
        (
            p
            for p in last.parent.glob("*" + files.LOG_SUFFIX)
            if (files.offset_from_name(p) or -1) > (after if after is not None else 1 << 63)
        ),
        key=lambda p: files.offset_from_name(p) or 0,
    )
    for path in later:
        if not still:
            return
        seg = Segment(path)
        rolled = False
        try:
            for b in seg.iter_batches(on_corrupt="skip"):
                pid = b.producer_id
                if not (b.is_control and b.is_transactional and b.records_count and pid in still):
                    continue
                at = f"kafkalog write: {name}: {path} at byte {b.position}"
                if pid in with_rows:
                    control = b.control
                    kind = control.type_name if control is not None else "control"
                    raise InvariantError(
                        f"{at}: the {kind} marker of producer {pid} at offset {b.base_offset} is "
                        "beyond the rows written, but its transaction's batches have rows: the "
                        "transaction's outcome would be lost (include the rows up to its marker)"
                    )
                if not rolled:
                    w.roll(base_offset=max(seg.base_offset, w.next_offset))
                    rolled = True
                w.append_batch(b, where=at)
                still.discard(pid)
                if not still:
                    return
        finally:
            seg.close()


def _put_back(
    w: PartitionWriter, b: LogBatch, at: str, with_rows: set[int], in_copy: set[int], copied: list[str]
) -> None:
    """A source batch no row came from: back as it was, emptied, or left out (module docstring)."""
    pid = b.producer_id
    if b.is_control and b.is_transactional and b.records_count:
        if pid in with_rows:
            copied.append(f"producer {pid} at offset {b.base_offset}")
        if pid in in_copy:
            w.append_batch(b, where=at)
        return
    if b.records_count == 0 or b.is_control:
        w.append_batch(b, where=at)  # an empty batch (no rows ever), or a control record of another kind
    elif b.magic == 2 and pid >= 0:
        w.append_batch(b, records=[], where=at)  # a producer's sequence range and transaction membership
        if b.is_transactional:
            in_copy.add(pid)
