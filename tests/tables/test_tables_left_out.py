"""What a read_committed table run leaves out, counted in its result and summary (issue 43 item 3): the
records of aborted transactions (never rows), and those held behind an open transaction (from the last
stable offset on: rows of a later run, once it ends), by either engine: the Spark-free run and the
tasks' run of the Spark path (here in this process, as :mod:`test_tables_task_files` runs them)."""

from __future__ import annotations

import pytest
from support.tables import FORMATS, close_open, write_orders, write_transactions
from test_tables_task_files import _shipped

from kafkaspec.tables import format_run, write_table
from kafkaspec.tables.files import write_table_tasks


def _local(src, dest, fmt, **kw):
    return write_table(str(src), str(dest), format=fmt, **kw)


def _tasks(src, dest, fmt, **kw):
    return write_table_tasks(src, dest, _shipped, format=fmt, **kw)


@pytest.mark.parametrize("engine", [_local, _tasks], ids=["local", "tasks"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_aborted_and_held_records_are_counted_per_run(engine, fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    # offsets 0 aborted, 1 its marker, 2 committed, 3 its marker, 4 open (pid 9), 5 after it
    write_transactions(src, open_pid=9)
    write_orders(src, 3, topic="pay")
    first = engine(src, dest, fmt)
    assert (first.rows, first.aborted, first.held) == (1 + 3, 1, 2)
    assert "aborted 1 left out, 2 held behind an open transaction" in format_run(first)

    waiting = engine(src, dest, fmt)  # the transaction still open: nothing new, the same two wait
    assert (waiting.rows, waiting.aborted, waiting.held) == (0, 0, 2)

    close_open(src, 9)
    write_transactions(src)  # another aborted (pid 7) and committed (pid 8) transaction
    second = engine(src, dest, fmt)
    assert (second.rows, second.aborted, second.held) == (2 + 1, 1, 0)
    assert "aborted 1 left out, 0 held behind an open transaction" in format_run(second)


@pytest.mark.parametrize("fmt", FORMATS)
def test_read_uncommitted_leaves_nothing_out(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_transactions(src, open_pid=9)
    run = write_table(str(src), str(dest), format=fmt, read_committed=False)
    assert (run.rows, run.aborted, run.held) == (4, 0, 0)
    assert "held behind" not in format_run(run)
