"""``--target-file-mb`` (issue 43's item 6) in both formats, as the data files' sizes on disk: a run of
incompressible values is cut into files near the target, and the default (128) keeps a small run in
one file, not one per batch."""

from __future__ import annotations

import os
import random

import pytest
from support.tables import FORMATS, TS, consumer_rows, referenced_files, table_rows

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table

MB = 1 << 20


def _random_orders(src, batches=40, per_batch=10, size=10_000):
    """About ``batches * per_batch * size`` bytes that do not compress (4 MB by default)."""
    rng = random.Random(5)
    with logdir.PartitionWriter(src, "orders", 0) as w:
        for i in range(batches):
            w.append(
                [Record(key=b"k", value=rng.randbytes(size), timestamp=TS + i) for _ in range(per_batch)]
            )


@pytest.mark.parametrize("fmt", FORMATS)
def test_files_near_the_target_size_and_one_file_by_default(fmt, tmp_path):
    src = tmp_path / "logs"
    _random_orders(src)
    write_table(str(src), str(tmp_path / "cut"), format=fmt, target_file_mb=1, partition_by="")
    sizes = [os.path.getsize(f) for f in referenced_files(fmt, tmp_path / "cut", "orders")]
    assert len(sizes) >= 3 and max(sizes) < 2 * MB, sizes
    assert table_rows(fmt, tmp_path / "cut", "orders") == consumer_rows(src)
    write_table(str(src), str(tmp_path / "whole"), format=fmt, partition_by="")
    assert len(referenced_files(fmt, tmp_path / "whole", "orders")) == 1
