"""What one table run reads: per topic-partition, the offsets after the table's last commit up to the
partition's end now (its last stable offset under read_committed), as ``kafkalog`` Arrow batches.

The plan is made before anything is read, so the offsets a commit will store are known up front: a
commit says "the table holds every record of [.., ``hi``) of this partition", and the next run starts
there. Ranges are read by :func:`kafkaspec.arrow.ranges.read_records`, the reader of the pipeline's
tasks (control records never rows; aborted and open transactions left out under read_committed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import pyarrow as pa

from ..arrow.ranges import RangeSettings, ReadRange, Walk, plan_partition, read_records
from ..errors import DataLossError
from ..logdir import LogDir
from ..logdir.kafka.layout import Partition
from ..logdir.kafka.tail import PartitionTail
from .errors import TableError

#: committed next offsets: topic -> partition -> the first offset not in the table
Offsets = dict[str, dict[int, int]]


@dataclass
class Span:
    """Offsets [lo, hi) of one partition, and the ranges that hold them (lo None: from its start)."""

    topic: str
    partition: int
    lo: int | None
    hi: int
    ranges: list[ReadRange] = field(default_factory=list)


@dataclass
class LeftOut:
    """What a read_committed run did not append, in records: ``aborted``, of aborted transactions (never
    rows), counted from the batch heads the read walks anyway; ``held``, from a partition's last stable
    offset (its first open transaction's first offset) to its end, rows of a later run once the transaction
    ends, counted as offsets (the open transactions' markers and a compacted log's gaps included)."""

    aborted: int = 0
    held: int = 0
    #: (topic, partition) -> the offsets [committed, log start) that were gone from the log when the run
    #: planned (retention or DeleteRecords passed the table), passed over with ``fail_on_data_loss=False``
    gone: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)


#: Schema Registry's own topic (its ``kafkastore.topic`` default): the schemas ``--decode-values`` reads
SCHEMAS_TOPIC = "_schemas"


def internal(topic: str) -> bool:
    """Kafka's own topics (``__consumer_offsets``, ``__transaction_state``, ...) and Schema Registry's
    ``_schemas``: the cluster's bookkeeping, no table of records."""
    return topic.startswith("__") or topic == SCHEMAS_TOPIC


def plan(
    log_dir: LogDir,
    committed: Offsets,
    *,
    read_committed: bool = True,
    verify_crc: bool = True,
    topics: Iterable[str] | None = None,
    left_out: LeftOut | None = None,
    fail_on_data_loss: bool = True,
    table_of: Callable[[str], str] | None = None,
) -> list[Span]:
    """The spans a run appends: each partition's offsets from its committed next offset (None: its start)
    to its end now; partitions with nothing new are left out, found so from the end of their last segment
    alone (the last stable offset is never past the end): a run with nothing new reads no records.
    ``topics``: only these. ``left_out``: what waits behind an open transaction added to its ``held``.

    A committed offset below the partition's log start (the tail's, as the streaming source finds it: the
    first segment's, or a tiered partition's remote start; a compacted log keeps its start) means offsets
    the table never got are gone: refused as Spark's Kafka source does (``failOnDataLoss``), by one
    :class:`~kafkaspec.errors.DataLossError` naming every such partition (``table_of``: a topic's table,
    for the message), before anything is read; ``fail_on_data_loss=False`` appends from the log start
    instead, the offsets passed over in ``left_out.gone``."""
    wanted = None if topics is None else set(topics)
    settings = RangeSettings(verify_crc=verify_crc)
    spans = []
    gone: dict[tuple[str, int], tuple[int, int]] = {}
    for part in log_dir.partitions():
        if internal(part.topic) or (wanted is not None and part.topic not in wanted):
            continue
        lo = committed.get(part.topic, {}).get(part.partition)
        if lo is not None:
            start, end = _extent(part)
            if lo > end and part.segments():
                raise TableError(
                    f"{part.topic}-{part.partition}: the table's offsets say {lo} is the next to append, "
                    f"but the log ends at {end} (was the table written from a longer copy of the log, or "
                    f"the topic deleted and created again?): nothing appended, since every record up to "
                    f"{lo} would be passed over; write this log into a new table"
                )
            if lo < start:
                gone[(part.topic, part.partition)] = (lo, start)
                if fail_on_data_loss:
                    continue  # refused below, once every partition's gap is known
                lo = start
            if read_committed and lo >= end:
                continue  # nothing new, told from the last segment's tail without walking every transaction
        tail = PartitionTail(transactions=read_committed)
        point = tail.look(part)
        hi = point.stable if read_committed else point.end
        if left_out is not None:
            left_out.held += point.end - hi
        if lo is not None and lo >= hi:
            continue
        rc = tail.read_committed() if read_committed else None
        spans.append(Span(part.topic, part.partition, lo, hi, plan_partition(part, lo, hi, settings, rc)))
    if gone and fail_on_data_loss:
        raise DataLossError(_lost(gone, table_of or (lambda topic: topic)))
    if left_out is not None:
        left_out.gone.update(gone)
    return spans


def _extent(part: Partition) -> tuple[int, int]:
    """The partition's log start and end now, from its tail's look (its last segment's heads)."""
    point = PartitionTail().look(part)
    return point.log_start, point.end


def _lost(gone: dict[tuple[str, int], tuple[int, int]], table_of: Callable[[str], str]) -> str:
    """The refusal of a run whose committed offsets lie below the log start: one line, every partition."""
    said = "; ".join(
        f"table {table_of(topic)}: {topic}-{partition} committed next offset {lo}, but the log starts at "
        f"{start}: {start - lo:,} offsets ({lo} to {start - 1}) are gone"
        for (topic, partition), (lo, start) in sorted(gone.items())
    )
    return (
        f"{said} (retention or DeleteRecords removed them before the table read them): nothing appended; "
        "to append from the log start and pass over them, run again with --no-fail-on-data-loss "
        "(Python: fail_on_data_loss=False), or write this log into a new table"
    )


def span_batches(span: Span, left_out: LeftOut | None = None) -> Iterator[pa.RecordBatch]:
    """The span's records in offset order, as RecordBatches of :data:`kafkaspec.arrow.schema.SCHEMA`;
    ``left_out``: the aborted transactions' records added to its ``aborted``."""
    return range_batches(span.ranges, left_out)


def range_batches(ranges: Iterable[ReadRange], left_out: LeftOut | None = None) -> Iterator[pa.RecordBatch]:
    """The records of ``ranges`` (:func:`span_batches`); a range of a partition where a transaction was
    aborted is read with a :class:`~kafkaspec.arrow.ranges.Walk` (its batch heads, no second read), the
    others as they are."""
    for task in ranges:
        rc = task.read_committed
        walk = Walk() if left_out is not None and rc is not None and rc.aborts else None
        for rb in read_records(task, walk=walk):
            if rb.num_rows:
                yield rb
        if walk is not None and left_out is not None and rc is not None:
            lo = -1 if task.min_offset is None else task.min_offset
            hi = task.max_offset
            left_out.aborted += sum(
                e.records_count
                for e in walk.entries
                if e.is_transactional
                and not e.is_control
                and lo <= e.base_offset
                and (hi is None or e.base_offset < hi)
                and rc.aborted_at(e.producer_id, e.base_offset)
            )
