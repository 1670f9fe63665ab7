"""The kafkalog source's ``tiered`` option: a local data dir plus its tiered copy, read as each partition's
whole history (``open_log(local, tiered=)``), planned on the driver and read by the executors' code;
and a whole history whose tiered copy is in Kafka's LocalTieredStorage layout. Written under the test's
tmp_path, beside a canary file that must survive."""

from __future__ import annotations

import pyarrow as pa
from support.local_tiered import write_local_tiered
from support.logdir import write_partition

from kafkaspec import logdir
from kafkaspec.arrow.ranges import read_records
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan


def _broker(tmp_path, keep_from: int = 3):
    local = tmp_path / "data"
    write_partition(local, topic="t", partition=0, batches=70, seed=5, segment_bytes=1500)
    write_partition(local, topic="t", partition=1, batches=50, seed=6, segment_bytes=1500)
    with logdir.open_log(local) as log:
        expected = [
            (p.topic, p.partition, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()
        ]
    remote, lt = tmp_path / "remote", tmp_path / "lt"
    logdir.write_tiered(local, remote, chunk_size=600)
    write_local_tiered(local, lt)
    for part in ("t-0", "t-1"):
        for seg in sorted((local / part).glob("*.log"))[:keep_from]:
            for p in (local / part).glob(seg.name[:20] + ".*"):
                p.unlink()
    (tmp_path / "canary").write_text("keep")
    return local, remote, lt, expected


def _source_rows(path, options) -> list[tuple]:
    """What the source's tasks return (planned on the driver, each range read as an executor does)."""
    rows = []
    for task in plan(str(path), ReadOptions.parse(options)):
        if task.end <= task.start:
            continue
        for batch in read_records(task):
            t = pa.Table.from_batches([batch])
            rows += zip(
                t["topic"].to_pylist(),
                t["partition"].to_pylist(),
                t["offset"].to_pylist(),
                t["key"].to_pylist(),
                t["value"].to_pylist(),
                strict=True,
            )
    return sorted(rows, key=lambda r: r[:3])


def test_the_tiered_option_reads_the_whole_history(tmp_path):
    local, remote, _, expected = _broker(tmp_path)
    assert len(_source_rows(local, {})) < len(expected)  # the local log alone lost its start
    assert _source_rows(local, {"tiered": str(remote)}) == expected
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_local_tiered_copy_is_a_history_too(tmp_path):
    local, _, lt, expected = _broker(tmp_path)
    with logdir.open_log(local, tiered=lt) as log:
        got = [
            (p.topic, p.partition, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()
        ]
        assert {s.layout for p in log.partitions() for s in p.segments()} == {"local-tiered", "kafka"}
    assert got == expected
    assert logdir.verify(local, tiered=lt) == []
    assert _source_rows(lt, {}) == expected  # the LocalTieredStorage copy alone, through the source
    assert _source_rows(local, {"tiered": str(lt)}) == expected
