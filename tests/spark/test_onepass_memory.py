"""A Python worker's memory over many pipeline tasks (no Spark needed): PySpark reuses its workers, so
what one task leaves behind adds up over the run (:func:`kafkaspec.spark.onepass.run_ranges` trims the
heap after each task), and a task's peak must not follow the size of its records (a decoded run ends at
:data:`kafkaspec.arrow.ranges.BYTES_PER_ARROW_RUN` bytes of batches)."""

from __future__ import annotations

import os

import kafkaspec
from kafkaspec.arrow.ranges import ReadRange, read_records
from kafkaspec.arrow.ranges import read as read_module
from kafkaspec.logdir import PartitionWriter
from kafkaspec.spark.options import ReadOptions
from kafkaspec.spark.planning import plan

MB = 1 << 20


def _big_records(root, records: int, size: int, per_batch: int = 50) -> None:
    """One partition of ``records`` records of ``size`` incompressible bytes, ``per_batch`` a batch."""
    with PartitionWriter(root, "big", 0) as w:
        for base in range(0, records, per_batch):
            batch = kafkaspec.build_batch(
                [kafkaspec.Record(key=None, value=os.urandom(size)) for _ in range(per_batch)],
                base_offset=base,
            )
            w.append_batch(batch)


def _ranges(root) -> list[ReadRange]:
    opts = ReadOptions.parse({"splitSize": "1g", "view": "batches"})
    return [t for t in plan(str(root), opts) if t.unused is None]


def test_a_run_of_big_records_ends_at_its_byte_bound(tmp_path, monkeypatch):
    bound = 2 * MB
    monkeypatch.setattr(read_module, "BYTES_PER_ARROW_RUN", bound)
    _big_records(tmp_path, records=2000, size=8192)  # 16 MB in 40 batches, far under 65,536 records
    (task,) = _ranges(tmp_path)
    out = list(read_records(task))
    assert sum(rb.num_rows for rb in out) == 2000
    assert len(out) >= 6, [rb.num_rows for rb in out]
    assert max(rb.nbytes for rb in out) <= 2 * bound, [rb.nbytes for rb in out]
