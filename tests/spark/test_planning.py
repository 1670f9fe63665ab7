"""Split planning: every batch of every segment is read by exactly one range (no Spark needed)."""

from __future__ import annotations

from kafkaspec import logdir
from kafkaspec.arrow.ranges import RangeReport, iter_entries, load_range
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan


def _batch_positions(task):
    buf = load_range(task)
    return [
        (task.start + b.position, b.base_offset) for b in iter_entries(buf, task.start, task, RangeReport())
    ]


def test_small_splits_cover_every_batch_exactly_once(synth_dir):
    tasks = plan(str(synth_dir), ReadOptions.parse({"splitSize": "16k"}))
    by_segment: dict[str, list] = {}
    for t in tasks:
        by_segment.setdefault(t.path, []).append(t)
    assert len(tasks) > len(by_segment), "16k splits should cut some segments"
    with logdir.open_log(synth_dir) as log:
        for seg in log.segments():
            ranges = sorted(by_segment[str(seg.path)], key=lambda t: t.start)
            assert ranges[0].start == 0 and ranges[-1].end == seg.size
            assert all(a.end == b.start for a, b in zip(ranges, ranges[1:]))
            seen = [p for t in ranges for p in _batch_positions(t)]
            whole = [(b.position, b.base_offset) for b in seg.iter_batches()]
            assert seen == whole


def test_topic_selection_and_offsets_prune_tasks(synth_dir):
    everything = plan(str(synth_dir), ReadOptions.parse({}))
    orders = plan(str(synth_dir), ReadOptions.parse({"subscribe": "orders"}))
    assert {t.topic for t in orders} == {"orders"} and len(orders) < len(everything)
    late = plan(str(synth_dir), ReadOptions.parse({"subscribe": "orders", "startingOffsets": "latest"}))
    assert late == []
