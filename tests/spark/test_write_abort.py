"""A failed Spark ``kafkalog`` job leaves OUT as it was (issue 30, item 6b), through a real Spark session:
Spark calls the writer's abort after a failed task or a refused commit, and neither leaves a partition
folder, a staging folder or a changed file in OUT. (The commit's refusals without Spark, and on object
stores: tests/storage/test_kafkalog_write_abort.py.)"""

from __future__ import annotations

import shutil

import pytest
from pyspark.sql import functions as F

from kafkaspec import logdir


def _tree(out) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_refused_commit_and_a_failed_task_leave_out_as_it_was(spark, synth_dir, tmp_path):
    out = tmp_path / "out"  # before the job: a canary and a copy of one partition, sorted after others
    shutil.copytree(synth_dir / "payments-0", out / "payments-0")
    (out / "canary.txt").write_text("keep me")
    before = _tree(out)
    df = (
        spark.read.format("kafkalog")
        .option("includeControl", "true")
        .option("splitSize", "1m")
        .load(str(synth_dir))
    )
    with pytest.raises(Exception, match="already holds a log"):  # append over an existing partition: refused
        df.write.format("kafkalog").mode("append").save(str(out))
    assert _tree(out) == before  # before the fix: the partitions sorted before payments-0 were in OUT
    failing = df.withColumn("topic", F.when(F.col("offset") == 5, F.lit(None)).otherwise(F.col("topic")))
    with pytest.raises(Exception, match="must not be null"):  # a task fails after staging some rows
        failing.write.format("kafkalog").option("preserveBatches", "false").mode("overwrite").save(str(out))
    assert _tree(out) == before
    assert sorted(p.name for p in out.iterdir()) == ["canary.txt", "payments-0"]
    assert logdir.verify(out) == []
