"""A table's committed offset below its partition's log start: retention (or DeleteRecords) removed
segments the table never read. The run used to read on from the log start, the offsets in between lost
with no word; now it is refused before any commit (a DataLossError naming the table, the partition, the
committed offset, the log start and how many offsets are gone), as Spark's Kafka source refuses with
``failOnDataLoss``, and ``fail_on_data_loss=False`` appends from the log start, saying what it passed
over. A compacted log keeps its log start: a first batch above it is no gap."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from support.retention import TS, retained, write_numbered
from support.tables import FORMATS, iceberg_table, table_rows

from kafkaspec import Record, logdir
from kafkaspec.errors import DataLossError
from kafkaspec.tables import format_run, write_table


def versions(fmt, dest, name):
    if fmt == "iceberg":
        return len(iceberg_table(dest, name).snapshots())
    from deltalake import DeltaTable

    return DeltaTable(os.path.join(str(dest), name)).version()


@pytest.fixture
def gap(tmp_path):
    """A table holding orders-0's offsets 0-9, and a copy of the log grown to 30 offsets whose first
    segments retention deleted (log start above 10); the canary beside the copy must survive."""
    src, copy = tmp_path / "logs", tmp_path / "retained"
    write_numbered(src, 0, 10)
    (tmp_path / "canary").write_text("stays")
    yield src, copy
    assert (tmp_path / "canary").read_text() == "stays"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_committed_offset_below_the_log_start_is_refused_then_passed_over_when_asked(fmt, gap, tmp_path):
    src, copy = gap
    lake = tmp_path / "lake"
    write_table(src, lake, format=fmt)
    write_numbered(src, 10, 20)
    start = retained(src, copy, 15)
    assert 10 < start <= 15
    before, version = table_rows(fmt, lake, "orders"), versions(fmt, lake, "orders")
    lost = start - 10
    with pytest.raises(DataLossError) as refused:
        write_table(copy, lake, format=fmt)
    said = str(refused.value)
    assert "table orders" in said and "orders-0" in said and "offset 10," in said, said
    assert f"starts at {start}" in said and f"{lost:,} offsets (10 to {start - 1})" in said, said
    assert "--no-fail-on-data-loss" in said and "fail_on_data_loss=False" in said, said
    assert table_rows(fmt, lake, "orders") == before and versions(fmt, lake, "orders") == version

    run = write_table(copy, lake, format=fmt, fail_on_data_loss=False)
    assert run.passed_over == {"orders": {0: lost}} and run.rows == 30 - start
    assert f"orders-0: {lost:,} (10 to {start - 1})" in format_run(run)
    offsets = [o for _, _, o, _ in table_rows(fmt, lake, "orders")]
    assert offsets == [*range(10), *range(start, 30)]
    again = write_table(copy, lake, format=fmt)  # the gap is behind the table now: nothing to refuse
    assert again.rows == 0 and again.passed_over == {} and again.unchanged == ["orders"]


def test_a_compacted_log_whose_first_batch_is_above_the_committed_offset_is_no_gap(tmp_path):
    src, compacted, lake = tmp_path / "logs", tmp_path / "compacted", tmp_path / "lake"
    write_numbered(src, 0, 3)
    write_table(src, lake, format="delta")
    with logdir.PartitionWriter(compacted, "orders", 0) as w:  # offsets 0-5 cleaned away, segment 0 kept
        w.append([Record(key=b"k%d" % i, value=b"v-%d" % i, timestamp=TS + i, offset=i) for i in (6, 8)])
        w.append([Record(key=b"k9", value=b"v-9", timestamp=TS + 9)])
    part = logdir.open_log(str(compacted)).partitions()[0]
    assert [s.base_offset for s in part.segments()] == [0]
    run = write_table(compacted, lake, format="delta")
    assert run.passed_over == {} and "passed over" not in format_run(run)
    assert [o for _, _, o, _ in table_rows("delta", lake, "orders")] == [0, 1, 2, 6, 8, 9]


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_gap_from_the_cli_is_one_line_exit_1_and_the_option_says_what_it_passed_over(gap, tmp_path):
    src, copy = gap
    lake = tmp_path / "lake"
    write_table(src, lake, format="delta")
    write_numbered(src, 10, 20)
    start = retained(src, copy, 15)
    before = table_rows("delta", lake, "orders")
    done = _cli(copy, "--table", "delta", lake)
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("kafkaspec")]
    assert done.returncode == 1 and "Traceback" not in done.stderr, (done.returncode, done.stderr)
    assert len(lines) == 1 and "orders-0" in lines[0] and f"starts at {start}" in lines[0], done.stderr
    assert table_rows("delta", lake, "orders") == before and done.stdout == ""

    done = _cli(copy, "--table", "delta", lake, "--no-fail-on-data-loss")
    assert done.returncode == 0, done.stderr
    said = [ln for ln in done.stdout.splitlines() if "passed over" in ln]
    assert len(said) == 1 and f"orders-0: {start - 10:,} (10 to {start - 1})" in said[0], done.stdout
    assert len(table_rows("delta", lake, "orders")) == 10 + 30 - start
