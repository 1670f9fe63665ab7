"""A Python worker's memory over many pipeline tasks (no Spark needed): PySpark reuses its workers, so
what one task leaves behind adds up over the run (:func:`kafkaspec.spark.run.onepass.run_ranges` trims the
heap after each task), and a task's peak must not follow the size of its records (a decoded run ends at
:data:`kafkaspec.arrow.ranges.BYTES_PER_ARROW_RUN` bytes of batches)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import kafkaspec
from kafkaspec.arrow.ranges import ReadRange, read_records
from kafkaspec.arrow.ranges import read as read_module
from kafkaspec.logdir import PartitionWriter
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan

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


#: a worker's heap after a task that freed much of it in pieces (as decompressed records and Parquet
#: pages are): freed memory pinned between small live blocks, which glibc keeps unless trimmed
_FRAGMENTED = """
import json, sys
from kafkaspec.spark.run.onepass import run_ranges
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan

def rss():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))

tasks = [t for t in plan(sys.argv[1], ReadOptions.parse({"view": "batches"})) if t.unused is None]
once = b"x" * 1_000_000
del once  # glibc's mmap threshold now above these pieces: they come from the heap
pieces = [b"%04d" % i * 75_000 for i in range(400)]
held = rss()
del pieces[::2]  # 60 MB freed in holes between live pieces
freed = rss()
run_ranges(0, tasks, sys.argv[2], True)
print(json.dumps({"held": held, "freed": freed, "after": rss()}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and glibc's heap")
def test_a_task_gives_back_the_heap_it_freed(tmp_path):
    _big_records(tmp_path / "in", records=100, size=1000)
    canary = tmp_path / "canary"
    canary.write_text("stays\n")
    out = subprocess.run(
        [sys.executable, "-c", _FRAGMENTED, str(tmp_path / "in"), str(tmp_path / "staging")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    m = json.loads(out.stdout)
    if m["held"] - m["freed"] > 30 * MB:  # another allocator (musl, a preloaded one): nothing to show
        pytest.skip(f"the freed pieces were given back at once: {m}")
    assert m["freed"] - m["after"] > 20 * MB, {k: v // MB for k, v in m.items()}  # a third of the 60 freed
    assert canary.exists()
