"""What one table run reads: per topic-partition, the offsets after the table's last commit up to the
partition's end now (its last stable offset under read_committed), as ``kafkalog`` Arrow batches.

The plan is made before anything is read, so the offsets a commit will store are known up front: a
commit says "the table holds every record of [.., ``hi``) of this partition", and the next run starts
there. Ranges are read by :func:`kafkaspec.arrow.ranges.read_records`, the reader of the pipeline's
tasks (control records never rows; aborted and open transactions left out under read_committed).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import pyarrow as pa

from ..arrow.ranges import RangeSettings, ReadRange, plan_partition, read_records
from ..logdir import LogDir
from ..logdir.kafka.tail import PartitionTail

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
) -> list[Span]:
    """The spans a run appends: each partition's offsets from its committed next offset (None: its start)
    to its end now; partitions with nothing new are left out, found so from the end of their last segment
    alone (the last stable offset is never past the end): a run with nothing new reads no records.
    ``topics``: only these."""
    wanted = None if topics is None else set(topics)
    settings = RangeSettings(verify_crc=verify_crc)
    spans = []
    for part in log_dir.partitions():
        if internal(part.topic) or (wanted is not None and part.topic not in wanted):
            continue
        lo = committed.get(part.topic, {}).get(part.partition)
        if lo is not None and read_committed and lo >= PartitionTail().look(part).end:
            continue  # nothing new, told from the last segment's tail without walking every transaction
        tail = PartitionTail(transactions=read_committed)
        point = tail.look(part)
        hi = point.stable if read_committed else point.end
        if lo is not None and lo >= hi:
            continue
        rc = tail.read_committed() if read_committed else None
        spans.append(Span(part.topic, part.partition, lo, hi, plan_partition(part, lo, hi, settings, rc)))
    return spans


def span_batches(span: Span) -> Iterator[pa.RecordBatch]:
    """The span's records in offset order, as RecordBatches of :data:`kafkaspec.arrow.schema.SCHEMA`."""
    for task in span.ranges:
        for rb in read_records(task):
            if rb.num_rows:
                yield rb
