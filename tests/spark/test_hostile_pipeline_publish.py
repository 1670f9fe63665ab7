"""The incremental pipeline's publishing of a micro-batch to ``records/``, driven without Spark: a run
killed between any two of its renames, staging dirs of runs killed before their commit, an OUT that
Spark's file sink wrote (with the orphans of killed runs) adopted, and OUT's lock."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from kafkaspec.spark.run import incremental
from kafkaspec.spark.run.incremental import PUBLISHED, STAGING, OutputBusyError, OutputLock, recover

pytestmark = pytest.mark.hostile

OFFSETS = {"orders": {"0": 6, "1": 3}}


def _parquet(path: Path, offsets: range) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"offset": pa.array(list(offsets), pa.int64())}), path)
    return path.name


def _checkpoint(out: Path, batch: int, committed: bool) -> None:
    (out / "_checkpoint" / "offsets").mkdir(parents=True, exist_ok=True)
    (out / "_checkpoint" / "commits").mkdir(parents=True, exist_ok=True)
    (out / "_checkpoint" / "offsets" / str(batch)).write_text(
        'v1\n{"batchWatermarkMs":0}\n' + json.dumps(OFFSETS)
    )
    if committed:
        (out / "_checkpoint" / "commits" / str(batch)).write_text('v1\n{"nextBatchWatermarkMs":0}\n')


def _staged_batch(out: Path, batch: int) -> dict:
    """A micro-batch as _write_batch stages it: three files over two partitions."""
    staged = out / STAGING / f"batch-{batch}-0123456789ab"
    files = []
    for part, rng in (("0", range(0, 3)), ("0", range(3, 6)), ("1", range(0, 3))):
        rel = f"topic=orders/partition={part}/part-{len(files):05d}-{batch}.c000.snappy.parquet"
        _parquet(staged / rel, rng)
        files.append(rel)
    return {"batch": batch, "offsets": OFFSETS, "staging": staged.name, "files": files}


def _offsets(records: Path) -> list[tuple[int, int]]:
    if not records.exists() or not any(records.rglob("*.parquet")):
        return []
    t = ds.dataset(str(records), format="parquet", partitioning="hive").to_table()
    return sorted(zip(t.column("partition").to_pylist(), t.column("offset").to_pylist(), strict=True))


ALL = sorted([(0, o) for o in range(6)] + [(1, o) for o in range(3)])


@pytest.mark.parametrize("renames", [0, 1, 2, 3])
def test_killed_between_any_two_renames_records_hold_each_offset_at_most_once_and_recover_finishes(
    tmp_path, monkeypatch, renames
):
    out = tmp_path / "out"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    _checkpoint(out, 0, committed=False)
    manifest = _staged_batch(out, 0)
    (out / PUBLISHED).mkdir()
    incremental.write_json(out / PUBLISHED / "0.json", manifest)
    real, done = os.rename, []

    def dying(*args):
        if len(done) == renames:
            raise KeyboardInterrupt("killed")
        done.append(args)
        real(*args)

    monkeypatch.setattr(incremental.os, "rename", dying)
    if renames == 3:  # every file moved, killed before the staging dir is removed
        monkeypatch.setattr(incremental.shutil, "rmtree", lambda *a: dying(None, None))
    with pytest.raises(KeyboardInterrupt):
        incremental._publish(out, manifest)
    monkeypatch.undo()
    seen = _offsets(out / "records")
    assert len(seen) == len(set(seen)) and set(seen) <= set(ALL)

    assert recover(out) == 0
    assert _offsets(out / "records") == ALL
    assert not any((out / STAGING).iterdir()) and (out / PUBLISHED / "0.json").exists()

    class Replayed:  # Spark's replay of micro-batch 0 (not committed in the checkpoint): nothing is written
        @property
        def write(self):
            raise AssertionError("a published micro-batch was written again")

    incremental._write_batch(out, Replayed(), 0)
    assert _offsets(out / "records") == ALL
    _checkpoint(out, 0, committed=True)
    recover(out)
    assert not (out / PUBLISHED / "0.json").exists() and _offsets(out / "records") == ALL
    assert canary.read_text() == "keep"


def test_staging_dirs_of_runs_killed_before_their_commit_are_removed_and_nothing_else(tmp_path):
    out = tmp_path / "out"
    _checkpoint(out, 0, committed=False)
    _staged_batch(out, 0)  # no list in _published: never committed
    (out / STAGING / "canary").write_text("keep")
    (out / PUBLISHED).mkdir()
    (out / PUBLISHED / ".0.json.123.tmp").write_text('{"batch"')  # killed while writing its list
    assert recover(out) == 0
    assert sorted(p.name for p in (out / STAGING).iterdir()) == ["canary"]
    assert list((out / PUBLISHED).iterdir()) == [] and _offsets(out / "records") == []


def test_a_replayed_batch_whose_offsets_differ_from_its_published_list_is_refused(tmp_path):
    out = tmp_path / "out"
    _checkpoint(out, 0, committed=False)
    manifest = {**_staged_batch(out, 0), "offsets": {"orders": {"0": 2}}}
    (out / PUBLISHED).mkdir()
    incremental.write_json(out / PUBLISHED / "0.json", manifest)
    with pytest.raises(RuntimeError, match="other offsets"):
        incremental._write_batch(out, None, 0)


def test_a_published_list_naming_files_outside_out_is_refused(tmp_path):
    out = tmp_path / "out"
    (out / PUBLISHED).mkdir(parents=True)
    (out / PUBLISHED / "0.json").write_text(
        json.dumps(
            {
                "batch": 0,
                "offsets": None,
                "staging": "batch-0-0123456789ab",
                "files": ["../../victim.parquet"],
            }
        )
    )
    victim = tmp_path / "victim.parquet"
    victim.write_text("keep")
    with pytest.raises(ValueError, match="0.json: not a published"):
        recover(out)
    assert victim.read_text() == "keep"


def test_an_output_of_sparks_file_sink_is_adopted_its_orphans_removed(tmp_path):
    """As a killed file-sink run left it: batch 0 committed in both logs, batch 1 in the sink's log
    only (killed before the checkpoint's commit), orphans of killed attempts, one of 0 bytes."""
    out = tmp_path / "out"
    records = out / "records"
    _checkpoint(out, 0, committed=True)
    _checkpoint(out, 1, committed=False)
    log = records / "_spark_metadata"
    log.mkdir(parents=True)
    part0 = records / "topic=orders" / "partition=0"
    kept = [
        _parquet(part0 / "part-a.snappy.parquet", range(0, 3)),
        _parquet(part0 / "part-b.snappy.parquet", range(3, 6)),
    ]
    _parquet(part0 / "part-orphan.snappy.parquet", range(0, 3))
    (part0 / ".part-orphan.snappy.parquet.crc").write_bytes(b"crc")
    (part0 / "part-empty.snappy.parquet").write_bytes(b"")
    for batch, name in enumerate(kept):
        entry = {
            "path": f"file://{part0 / name}",
            "size": 1,
            "isDir": False,
            "modificationTime": 0,
            "blockReplication": 1,
            "blockSize": 1,
            "action": "add",
        }
        (log / str(batch)).write_text("v1\n" + json.dumps(entry) + "\n")
    with pytest.raises(pa.ArrowInvalid):
        ds.dataset(str(records), format="parquet", partitioning="hive").to_table()  # the 0-byte orphan

    assert recover(out) == 2
    assert not log.exists()
    assert _offsets(records) == [(0, o) for o in range(6)]
    assert sorted(p.name for p in part0.iterdir()) == sorted(kept)
    assert json.loads((out / PUBLISHED / "1.json").read_text())["files"] == [
        "topic=orders/partition=0/part-b.snappy.parquet"
    ]
    incremental._write_batch(
        out, None, 1
    )  # Spark's replay of batch 1: already in records/, not written again
    assert _offsets(records) == [(0, o) for o in range(6)]


def test_a_second_lock_on_out_is_refused_in_one_line_and_released_with_the_first(tmp_path):
    out = tmp_path / "out"
    with OutputLock(str(out)):
        with pytest.raises(OutputBusyError) as caught:
            OutputLock(str(out))
        assert str(out) in str(caught.value) and "\n" not in str(caught.value)
    with OutputLock(str(out)):
        pass


def test_a_lock_that_created_out_and_wrote_nothing_leaves_no_out(tmp_path):
    canary = tmp_path / "canary"
    canary.write_text("keep")
    with OutputLock(str(tmp_path / "new" / "out")):
        pass
    assert not (tmp_path / "new" / "out").exists() and canary.read_text() == "keep"


def test_a_log_of_the_file_sink_that_is_not_one_is_refused_naming_it(tmp_path):
    out = tmp_path / "out"
    log = out / "records" / "_spark_metadata"
    log.mkdir(parents=True)
    (log / "0").write_text('v1\n{"no path": 1}\n')
    kept = _parquet(out / "records" / "topic=orders" / "partition=0" / "part-x.parquet", range(3))
    with pytest.raises(ValueError, match=r"_spark_metadata/0: not a log of Spark's file sink"):
        recover(out)
    assert (out / "records" / "topic=orders" / "partition=0" / kept).exists()
