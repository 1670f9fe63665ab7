"""``kafkaspec table summary``: per table and topic, the rows, partitions and offsets the tables hold,
read back by Polars (what ``make demo`` prints at its end)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.tables import FORMATS, write_orders

from kafkaspec.tables import write_table


@pytest.mark.parametrize("fmt", FORMATS)
def test_summary_counts_rows_partitions_and_offsets_per_topic(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 7, partition=0)
    write_orders(src, 3, partition=1)
    write_orders(src, 4, topic="payments")
    write_table(str(src), str(dest), format=fmt)
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "table", "summary", str(dest), "--table", fmt],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "orders: 10 rows in 2 partitions, offsets 0..6",
        "payments: 4 rows in 1 partition, offsets 0..3",
    ]
