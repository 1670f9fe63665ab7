"""Reading a log directory by ranges: the plan (:mod:`.plan`: which byte ranges of which segments hold
offsets [lo, hi) of a partition, one :class:`ReadRange` per task) and the range reader (:mod:`.read`: one
range as ``pyarrow.RecordBatch``es of the ``kafkalog`` columns). The layer above the log directories
that every Spark task and the pipeline run; Spark-free."""

from .plan import RangeSettings, ReadRange, plan_partition
from .read import (
    BYTES_PER_ARROW_RUN,
    ROWS_PER_ARROW_BATCH,
    RangeReport,
    RecordBatchBuilder,
    SkippedRange,
    Walk,
    int64_array,
    iter_entries,
    load_range,
    read_records,
    skip,
    unreadable_gap,
)

__all__ = [
    "BYTES_PER_ARROW_RUN",
    "ROWS_PER_ARROW_BATCH",
    "RangeReport",
    "RangeSettings",
    "ReadRange",
    "RecordBatchBuilder",
    "SkippedRange",
    "Walk",
    "int64_array",
    "iter_entries",
    "load_range",
    "plan_partition",
    "read_records",
    "skip",
    "unreadable_gap",
]
