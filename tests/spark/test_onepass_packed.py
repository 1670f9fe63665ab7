"""Many small ranges in one pipeline task (no Spark needed): a partition of many small segments, or many
small partitions, is planned as one range each; the pipeline packs them into a few tasks
(:func:`kafkaspec.spark.run.pipeline.packed`), each of which writes one records file per topic-partition and
one audit file (:func:`kafkaspec.spark.run.onepass.run_ranges`) with the rows a task per range writes."""

from __future__ import annotations

import pyarrow.parquet as pq

import kafkaspec
from kafkaspec.logdir import PartitionWriter
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.run.onepass import run_range, run_ranges
from kafkaspec.spark.run.pipeline import packed


def _many_segments(root, partitions: int = 2, segments: int = 30):
    """``partitions`` partitions of ``segments`` one-batch segments each."""
    for p in range(partitions):
        with PartitionWriter(root, "t", p, segment_bytes=1) as w:
            for i in range(segments):
                batch = kafkaspec.build_batch(
                    [
                        kafkaspec.Record(
                            key=b"k%d" % i, value=b"v%d-%d" % (p, i), timestamp=1_700_000_000_000 + i
                        )
                    ],
                    base_offset=i,
                )
                w.append_batch(batch)
    return root


def _tasks(root):
    return [t for t in plan(str(root), ReadOptions.parse({"view": "batches"})) if t.unused is None]


def test_small_ranges_pack_in_plan_order_and_a_big_one_stays_alone(tmp_path):
    tasks = _tasks(_many_segments(tmp_path / "d"))
    assert len(tasks) == 60
    size = max(t.end - t.start for t in tasks)
    groups = packed(tasks, 10 * size)
    assert [t for g in groups for t in g] == tasks  # nothing lost, nothing reordered
    assert 6 <= len(groups) <= 7 and all(sum(t.end - t.start for t in g) <= 10 * size for g in groups)
    assert packed(tasks, size // 2) == [[t] for t in tasks]  # a range at the size (or over) is alone


def test_a_packed_task_writes_a_file_per_partition_and_the_rows_of_a_task_per_range(tmp_path):
    tasks = _tasks(_many_segments(tmp_path / "d"))
    one = run_ranges(0, tasks, str(tmp_path / "one"), True)
    each = [run_range(i, t, str(tmp_path / "each"), True) for i, t in enumerate(tasks)]
    assert one.error is None and one.records == sum(r.records for r in each) == 60
    records = sorted(f for f in one.files if f.startswith("records/"))
    assert [f.split("/")[1:3] for f in records] == [["topic=t", "partition=0"], ["topic=t", "partition=1"]]
    assert len([f for f in one.files if f.startswith("batches/")]) == 1
    assert one.groups == _summed(r.groups for r in each)

    def read(result, rel):
        return pq.read_table(f"{result.staging}/{rel}").to_pylist()

    for p in (0, 1):
        packed_rows = read(one, next(f for f in records if f"partition={p}/" in f))
        alone = [
            row
            for r in each
            if r.files and r.files[0].split("/")[2] == f"partition={p}"
            for row in read(r, r.files[0])
        ]
        assert packed_rows == alone and [r["value"] for r in packed_rows] == [
            b"v%d-%d" % (p, i) for i in range(30)
        ]
    audit = read(one, next(f for f in one.files if f.startswith("batches/")))
    assert audit == [row for r in each for row in read(r, r.files[-1])]


def _summed(groups):
    out: dict = {}
    for g in groups:
        for key, counts in g.items():
            total = out.setdefault(key, [0, 0, 0])
            for i, c in enumerate(counts):
                total[i] += c
    return out
