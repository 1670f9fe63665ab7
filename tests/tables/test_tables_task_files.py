"""Tables whose data files are written by tasks and committed once by the driver
(:mod:`kafkaspec.tables.files`, the Spark path's table side), here with the tasks run in this process,
each task and its result through pickle as Spark ships them: the same rows, offsets and re-runs as the
Spark-free path, either path continuing the other; upsert tables merged by the driver; typed values
refused in one line."""

from __future__ import annotations

import os
import pickle

import pytest
from support.tables import (
    FORMATS,
    close_open,
    consumer_rows,
    table_arrow,
    table_rows,
    write_orders,
    write_transactions,
)
from test_tables_default_mode import _metadata, _profiles

from kafkaspec.errors import UsageError
from kafkaspec.tables import write_table
from kafkaspec.tables.files import write_table_tasks


def _shipped(fn, tasks):
    """Run ``tasks`` as Spark's executors would: each task and each result pickled on the way."""
    return [pickle.loads(pickle.dumps(fn(pickle.loads(pickle.dumps(t))))) for t in tasks]


def _all_rows(fmt, dest, names):
    return sorted(row for name in names for row in table_rows(fmt, dest, name))


@pytest.mark.parametrize("fmt", FORMATS)
def test_backfill_then_incremental_equals_a_read_committed_read(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 5)
    write_orders(src, 3, topic="pay", partition=1)
    write_transactions(src, topic="pay", partition=0, open_pid=9)
    first = write_table_tasks(src, dest, _shipped, format=fmt)
    assert first.rows == 5 + 3 + 1  # the open transaction and what follows it wait
    assert _all_rows(fmt, dest, ("orders", "pay")) == [r for r in consumer_rows(src) if r[3] != b"after-open"]
    close_open(src, 9, topic="pay")
    write_orders(src, 4, tag=b"b")
    second = write_table_tasks(src, dest, _shipped, format=fmt)
    assert second.rows == 4 + 2
    assert _all_rows(fmt, dest, ("orders", "pay")) == consumer_rows(src)
    again = write_table_tasks(src, dest, _shipped, format=fmt)
    assert again.rows == 0 and sorted(again.unchanged) == ["orders", "pay"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_either_path_continues_the_other(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 5)
    write_table(str(src), str(dest), format=fmt)
    write_orders(src, 3, tag=b"b")
    assert write_table_tasks(src, dest, _shipped, format=fmt).rows == 3
    write_orders(src, 2, tag=b"c")
    assert write_table(str(src), str(dest), format=fmt).rows == 2
    assert table_rows(fmt, dest, "orders") == consumer_rows(src)


@pytest.mark.parametrize("fmt", FORMATS)
def test_single_layout_and_partitions_by_topic_and_day(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    write_orders(src, 2, topic="pay", start_ts=1_700_000_000_000 + 3 * 86_400_000)
    run = write_table_tasks(src, dest, _shipped, format=fmt, layout="single")
    assert [c.name for c in run.commits] == ["records"] and run.rows == 5
    assert table_rows(fmt, dest, "records") == consumer_rows(src)
    data = [
        os.path.relpath(os.path.join(r, f), dest)
        for r, _, fs in os.walk(dest)
        for f in fs
        if f.endswith(".parquet")
    ]
    assert len(data) == 2  # one file per (topic, day), written by one task
    assert all("topic=" in path and "timestamp_day=" in path for path in data), data


@pytest.mark.parametrize("fmt", FORMATS)
def test_typed_values_are_refused_before_anything_is_written(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    with pytest.raises(UsageError, match="--decode-values"):
        write_table_tasks(src, dest, _shipped, format=fmt, decode_values=True)
    assert not dest.exists()


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_compacted_topic_is_upserted_by_the_driver_the_others_by_tasks(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _metadata(src, (2, "profiles", "cleanup.policy", "compact"))
    _profiles(src)
    write_orders(src, 3)
    run = write_table_tasks(src, dest, _shipped, format=fmt)
    assert run.modes["profiles"] == ("upsert", "cleanup.policy=compact")
    assert run.modes["orders"] == ("append", "cleanup.policy=delete")
    profiles = table_arrow(fmt, dest, "profiles")
    assert list(zip(profiles.column("key").to_pylist(), profiles.column("value").to_pylist())) == [
        (b"a", b"2")
    ]
    assert table_rows(fmt, dest, "orders") == [r for r in consumer_rows(src) if r[0] == "orders"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_partitioning_and_hourly_partitions(fmt, tmp_path):
    src = tmp_path / "logs"
    write_orders(src, 3)
    write_orders(src, 2, tag=b"b", start_ts=1_700_000_000_000 + 7_200_000)
    for by, files in (("", 1), ("hour(timestamp)", 2)):
        dest = tmp_path / f"lake-{files}"
        assert write_table_tasks(src, dest, _shipped, format=fmt, partition_by=by).rows == 5
        assert table_rows(fmt, dest, "orders") == consumer_rows(src)
        data = [f for _, _, fs in os.walk(dest) for f in fs if f.endswith(".parquet")]
        assert len(data) == files, data


@pytest.mark.parametrize("fmt", FORMATS)
def test_topics_choose_the_tables_as_without_spark(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 5)
    write_orders(src, 3, topic="pay", partition=1)
    run = write_table_tasks(src, dest, _shipped, format=fmt, topics="pay")
    assert {c.name for c in run.commits} == {"pay"} and run.rows == 3
    assert not (dest / "orders").exists()


@pytest.mark.hostile
def test_a_delta_tasks_store_settings_travel_whole_and_its_keys_print_nowhere(monkeypatch):
    """The driver's store settings go with each Delta task to the executors (pickled), the keys among
    them, but a task's repr, as Spark's logs and our errors may show it, holds no key."""
    from kafkaspec.logdir.store.clients import StorageOptions
    from kafkaspec.tables.files import FileTarget, FileTask

    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIA-key-id-7f3c")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t/\n\x1b[31m-key")
    task = FileTask(FileTarget("delta", "t", None, "s3://b/lake/t", (), 1 << 20, StorageOptions.from_env()))
    back = pickle.loads(pickle.dumps(task))
    assert back.target.store == task.target.store
    assert back.target.store.secret_key == "s3cr3t/\n\x1b[31m-key"
    assert back.target.store.endpoint == "http://127.0.0.1:9"
    shown = repr(back)
    assert "s3cr3t" not in shown and "AKIA-key-id-7f3c" not in shown
