"""The kafkalog source over Kafka's LocalTieredStorage layout, and with the ``tiered`` option (a local log
plus its tiered copy): the same rows as the log they copy, each offset once."""

from __future__ import annotations

import pytest
from support.local_tiered import copy_fileset, write_local_tiered
from support.spark import source_rows

from kafkaspec import logdir

pytestmark = pytest.mark.spark


def test_spark_reads_local_tiered_storage_and_a_whole_history(spark, local_logs, tmp_path):
    lt = tmp_path / "lt"
    for (topic, partition), folder in write_local_tiered(local_logs, lt).items():
        copy_fileset(folder, 0, f"again/{topic}/{partition}")  # a re-upload: read once
    expected = source_rows(spark, local_logs)
    assert source_rows(spark, lt, {"splitSize": "1k"}) == expected
    local, remote = tmp_path / "data", tmp_path / "remote"
    import shutil

    shutil.copytree(local_logs, local)
    logdir.write_tiered(local, remote, chunk_size=700)
    for part in local.iterdir():
        for seg in sorted(part.glob("*.log"))[:2]:  # local retention: the first segments only remote
            for p in part.glob(seg.name[:20] + ".*"):
                p.unlink()
    assert source_rows(spark, local) != expected
    assert source_rows(spark, local, {"tiered": str(remote), "splitSize": "1k"}) == expected
