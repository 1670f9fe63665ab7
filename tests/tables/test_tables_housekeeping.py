"""``kafkaspec table compact|expire-snapshots``: fewer files and versions, the same rows, and the
committed offsets kept (the next run appends only what is new)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.tables import FORMATS, consumer_rows, referenced_files, table_rows, write_orders

from kafkaspec.tables import write_table


def _table(*args):
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "table", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_compact_then_expire_keeps_rows_and_offsets(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    for i in range(3):  # three runs, three small files
        write_orders(src, 4, tag=b"run%d" % i)
        write_table(str(src), str(dest), format=fmt, partition_by="")
    assert len(referenced_files(fmt, dest, "orders")) == 3
    done = _table("compact", dest, "--table", fmt)
    assert done.returncode == 0, done.stderr
    assert "orders: 3 data files -> 1" in done.stdout
    assert table_rows(fmt, dest, "orders") == consumer_rows(src)

    done = _table("expire-snapshots", dest, "--table", fmt, "--older-than-hours", "0")
    assert done.returncode == 0, done.stderr
    assert "orders: " in done.stdout and " 0 " not in done.stdout  # something expired
    assert table_rows(fmt, dest, "orders") == consumer_rows(src)

    assert write_table(str(src), str(dest), format=fmt).rows == 0  # the offsets survived both
    write_orders(src, 2, tag=b"after")
    assert write_table(str(src), str(dest), format=fmt).rows == 2
    assert table_rows(fmt, dest, "orders") == consumer_rows(src)


def test_housekeeping_of_no_tables_is_one_line(tmp_path):
    done = _table("compact", tmp_path / "nope", "--table", "delta")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
