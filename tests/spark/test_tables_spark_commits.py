"""Issue 43 on Spark, the clauses no other test states: the driver commits each table in one transaction
per run (one Iceberg snapshot, one Delta version adding the rows with their offsets, however many
executors wrote files), and an upsert
on Spark equals the topic's last value per key (a tombstone deleting it) in both formats, after a
backfill and after a later run."""

from __future__ import annotations

import json
import os

import pytest
from support.tables import FORMATS, TS, iceberg_table, table_arrow, write_orders

from kafkaspec import Record, logdir
from kafkaspec.spark.run.tables import write_table

pytestmark = pytest.mark.spark


def _commits(fmt, dest, name):
    """The commits that added rows: Iceberg snapshots; Delta log versions holding ``add`` actions (a new
    table's empty first version, made before the tasks write, adds none), each with the offsets."""
    if fmt == "iceberg":
        return len(iceberg_table(dest, name).snapshots())
    log = os.path.join(str(dest), name, "_delta_log")
    adding = 0
    for f in sorted(os.listdir(log)):
        if f.endswith(".json"):
            actions = [json.loads(line) for line in open(os.path.join(log, f))]
            if any("add" in a for a in actions):
                adding += 1
                assert any("txn" in a for a in actions), f  # the rows and their offsets: one commit
    return adding


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_commit_per_table_per_run_however_many_tasks_wrote(spark, fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    for p in range(4):
        write_orders(src, 6, partition=p)
    run = write_table(spark, src, str(dest), format=fmt, target_file_mb=1)
    assert run.rows == 24 and [c.name for c in run.commits] == ["orders"]
    assert _commits(fmt, dest, "orders") == 1
    for p in range(4):
        write_orders(src, 2, tag=b"b", partition=p)
    assert write_table(spark, src, str(dest), format=fmt).rows == 8
    assert _commits(fmt, dest, "orders") == 2


def _write(root, items):
    with logdir.PartitionWriter(root, "profiles", 0) as w:
        for i, (key, value) in enumerate(items):
            w.append([Record(key=key, value=value, timestamp=TS + i)])


def _last_per_key(root):
    last = {}
    for part in logdir.open_log(str(root)).partitions():
        for _, r in part.records(read_committed=True):
            if r.key is not None:
                last[r.key] = r.value
    return {k: v for k, v in last.items() if v is not None}


def _table(fmt, dest):
    t = table_arrow(fmt, dest, "profiles")
    got = dict(zip(t.column("key").to_pylist(), t.column("value").to_pylist(), strict=True))
    assert len(got) == t.num_rows  # one row per key
    return got


@pytest.mark.parametrize("fmt", FORMATS)
def test_upsert_on_spark_equals_the_last_value_per_key_then_after_more(spark, fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _write(src, [(b"a", b"a1"), (b"b", b"b1"), (b"a", b"a2"), (b"c", b"c1"), (None, b"x"), (b"c", None)])
    write_table(spark, src, str(dest), format=fmt, mode="upsert")
    assert _table(fmt, dest) == _last_per_key(src) == {b"a": b"a2", b"b": b"b1"}
    _write(src, [(b"b", None), (b"a", b"a3"), (b"d", b"d1"), (b"c", b"c2")])
    assert write_table(spark, src, str(dest), format=fmt, mode="upsert").rows == 4
    assert _table(fmt, dest) == _last_per_key(src) == {b"a": b"a3", b"c": b"c2", b"d": b"d1"}
