"""Kafka log directories: read, seek, filter, verify and write them.

Public API (stable; the Spark data source and the CLI use only this)::

    from kafkaspec import logdir

    log = logdir.open_log(path)          # data dir, <topic>-<partition> dir, or one .log file;
                                         # local or a URI (s3://bucket/prefix/, see logdir.storage);
                                         # Kafka's layout or tiered storage's (layout="kafka"/"tiered")
    log = logdir.open_log(local, tiered=prefix)   # a local log plus its tiered copy: each partition's whole
                                         # history, each offset once (logdir.history)
    with logdir.open_log(path) as log:   # releases every segment's bytes on exit
        ...
    log.unused_segments                  # [UnusedSegment(path, base_offset, reason)]: tiered copies no reader
                                         # serves (not in the live lineage, logdir.tiered_lineage)
    for part in log.partitions():        # Partition: .topic .partition .path .name (partition dirs at any depth)
    log.skipped                          # [SkippedDir(path, reason)]: directories the walk passed over (a symbolic
                                         # link, a directory reached twice, segments under a name Kafka would not
                                         # load); each also a kafkaspec.errors.SkippedDirWarning
        part.segments()                  # [Segment] by base offset (.deleted/.cleaned/.swap skipped)
        part.leader_epochs()             # [EpochEntry(epoch, start_offset)] or None
        part.metadata()                  # {"version": "0", "topic_id": ...} or None
        part.snapshots()                 # [(offset, ProducerSnapshot)]
        part.records(start_offset=None, end_offset=None, start_timestamp=None,
                     isolation_level="read_committed", include_control=False)   # -> (batch, record)
                                         # pairs; every reader's default: no aborted or open transaction
        part.to_arrow(isolation_level="read_committed", include_control=False)   # also to_arrow_batches,
                                         # and log.to_arrow_batches(...) for every partition
        part.batches(start_offset=None)  # -> (segment, batch) pairs from the batch holding start_offset
        part.offset_for_timestamp(ts)    # first offset with timestamp >= ts, or None
        part.transactions()              # ([AbortedTxn], {producer_id: first offset of an open txn}), from the markers
        rc = part.read_committed()       # ReadCommitted filter (picklable): rc.is_aborted(batch)

    seg = part.segments()[0]             # Segment: .path .base_offset .size (read lazily, never mapped)
    seg.index_entries()                  # [IndexEntry(offset, position)]: a batch's absolute last offset, its start
    seg.position_for_offset(o)           # a batch start at or before the batch holding o (index floor;
                                         # entries not naming a valid batch are passed over)
    seg.read_range(start, end)           # bytes of the .log, without reading the rest
    seg.time_index_entries()             # [TimeIndexEntry(timestamp, offset)]
    seg.aborted_transactions()           # [AbortedTxn] from .txnindex, or None
    seg.split(64 << 20)                  # [(start, end)] byte ranges cut at index positions
    seg.iter_batches(start, end, verify=True, on_corrupt="raise")   # an object-store segment: through a
                                         # bounded window (logdir.window), same batches and errors
                                         # BatchIterator over [start, end); .partial reports a torn tail,
                                         # on_corrupt="skip" resumes after corrupt entries (.skipped)
    logdir.iter_batches(seg, start, end) # the same, as a function
    seg.find_offset(o) / seg.find_timestamp(t)   # first batch with last_offset >= o / max_timestamp >= t
    seg.close()

    tail = logdir.tail.PartitionTail(transactions=True)   # a growing partition, followed (logdir.tail)
    tail.look(part)                      # TailPoint(log_start, end, stable): the end of the last complete batch
                                         # and the last stable offset, from the bytes appended since the last look
    problems = logdir.verify(path, deep=True, tiered=None)   # [Problem(path, position, message, severity)]
    problems = logdir.verify_paths([dir1, dir2])   # the log dirs of one node: their meta.properties agree
    with logdir.PartitionWriter(dir, "orders", 0, segment_bytes=..., index_interval_bytes=4096) as w:
                                         # a topic Kafka refuses (Topic.validate) or a partition outside
                                         # 0..2^31-1: InvalidTopicError, before anything is created
        w.append(records, compression="zstd", producer_id=..., is_transactional=...)
        w.append_control("commit", producer_id=..., producer_epoch=...)
        w.append_batch(batch, records=kept)   # a decoded batch: every batch field kept (bytes as is
                                         # when records/compression are not given); Kafka's invariants checked
        w.roll(base_offset=None)         # close the active segment now
    report = logdir.copy(src, dst, where=lambda row: row.key != b"k", topics=None, to_magic=None,
                         compression=None)   # -> CopyReport; batch for batch, markers always kept
    logdir.synth(out_dir, size_mb=50, seed=7, force=False)   # -> SynthReport; realistic sample data dir
    logdir.write_tiered(log_dir, "s3://bucket/tiered/", chunk_size=4 << 20, compression=True)
                                         # the tiered-storage layout (Aiven's plugin), see logdir.tiered

Records are yielded as in :func:`kafkaspec.iter_batches`: batches decode lazily;
``batch.position`` is the byte position in the segment file. A segment is read,
not mapped: a broker truncating or deleting it meanwhile cannot kill the reader
(SIGBUS), the reader keeps the bytes it read. Log files must be regular files: a
FIFO or a device at a log file's name is a :class:`kafkaspec.KafkaFormatError`,
never read. Errors are :class:`kafkaspec.KafkaFormatError` with the byte position
in the file.
"""

from __future__ import annotations

from ..records import OnCorrupt
from . import _moved
from .detect import open_log
from .kafka.batch_surgery import InvariantError, rebuild_batch, restamp_batch
from .kafka.files import EpochEntry, parse_leader_epoch_checkpoint, parse_partition_metadata
from .kafka.indexes import AbortedTxn, IndexEntry, TimeIndexEntry
from .kafka.layout import LogDir, Partition, SkippedDir, UnusedSegment
from .kafka.names import InvalidTopicError
from .kafka.segment import Segment, batch_max_timestamp
from .kafka.snapshot import ProducerSnapshot, ProducerSnapshotEntry, parse_snapshot
from .kafka.transactions import ReadCommitted
from .kafka.window import Batches, WindowedBatches
from .tiered.history import HistoryPartition
from .tiered.partition import TieredPartition
from .tiered.segment import TieredSegment, open_segment
from .tiered.writer import write_tiered
from .verify.verifier import Problem, verify_path, verify_paths
from .write.rewrite import CopyReport, Row, copy
from .write.synthesis import SynthReport, synth
from .write.writer import ExistingPartitionError, PartitionWriter

_moved.install()

verify = verify_path


def iter_batches(
    segment: Segment,
    start: int = 0,
    end: int | None = None,
    *,
    verify: bool = True,
    on_corrupt: OnCorrupt = "raise",
) -> Batches:
    """Batches of ``segment`` starting in the byte range [start, end) (a :class:`~kafkaspec.BatchIterator`)."""
    return segment.iter_batches(start, end, verify=verify, on_corrupt=on_corrupt)


__all__ = [
    "AbortedTxn",
    "CopyReport",
    "EpochEntry",
    "ExistingPartitionError",
    "InvalidTopicError",
    "InvariantError",
    "SkippedDir",
    "Row",
    "copy",
    "rebuild_batch",
    "IndexEntry",
    "LogDir",
    "Partition",
    "PartitionWriter",
    "Problem",
    "ProducerSnapshot",
    "ProducerSnapshotEntry",
    "ReadCommitted",
    "Segment",
    "TimeIndexEntry",
    "batch_max_timestamp",
    "iter_batches",
    "open_log",
    "parse_leader_epoch_checkpoint",
    "parse_partition_metadata",
    "parse_snapshot",
    "restamp_batch",
    "synth",
    "SynthReport",
    "verify",
    "verify_path",
    "verify_paths",
    "HistoryPartition",
    "TieredPartition",
    "TieredSegment",
    "UnusedSegment",
    "open_segment",
    "write_tiered",
    "Batches",
    "WindowedBatches",
]
