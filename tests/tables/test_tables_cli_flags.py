"""``kafkaspec pipeline --table`` flags issue 43 names that only the Python API's tests used:
``--table-layout single`` (one table, ``records``) and ``--incremental`` (a re-run reads the offsets
back from the table and appends only the new, as without it)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.tables import FORMATS, consumer_rows, table_rows, write_orders


def _cli(*args):
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("fmt", FORMATS)
def test_single_layout_and_incremental_from_the_cli(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    write_orders(src, 2, topic="payments")
    args = (src, "--table", fmt, dest, "--table-layout", "single", "--incremental")
    assert "records: 5 rows" in _cli(*args)
    assert table_rows(fmt, dest, "records") == consumer_rows(src)
    assert "nothing new: records" in _cli(*args)
    write_orders(src, 4, tag=b"b", topic="payments")
    assert "records: 4 rows" in _cli(*args)
    assert table_rows(fmt, dest, "records") == consumer_rows(src)
    assert sorted(p.name for p in dest.iterdir() if not p.name.startswith(".")) == (
        ["catalog.db", "kafka"] if fmt == "iceberg" else ["records"]
    )
