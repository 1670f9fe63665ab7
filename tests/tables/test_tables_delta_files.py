"""Delta data files written by kafkaspec (:mod:`kafkaspec.tables.delta_files`), without Spark and by
tasks as on Spark: laid as delta-rs lays them (the partition columns in the folder names and the add
actions, not in the files) with the statistics Delta readers skip files by (row count, exact bounds
and null counts), so that a reader's filter on them finds every row it should."""

from __future__ import annotations

import datetime as dt
import json
import os
import pickle

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from support.tables import TS, consumer_rows, table_rows, write_orders

from kafkaspec.tables import delta as delta_sink
from kafkaspec.tables import write_table
from kafkaspec.tables.files import write_table_tasks


def _shipped(fn, tasks):
    return [pickle.loads(pickle.dumps(fn(pickle.loads(pickle.dumps(t))))) for t in tasks]


def _tasks(src, dest, **kw):
    return write_table_tasks(src, dest, _shipped, format="delta", **kw)


def _plain(src, dest, **kw):
    return write_table(str(src), str(dest), format="delta", **kw)


def _millis(text):
    """A timestamp bound of Delta's statistics (``2023-11-14T22:13:20.123Z``, the millisecond left out
    when 0)."""
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _adds(table):
    """The add actions of every version of the table's log."""
    log = os.path.join(table, "_delta_log")
    out = []
    for name in sorted(os.listdir(log)):
        if name.endswith(".json"):
            with open(os.path.join(log, name), encoding="utf-8") as f:
                out += [json.loads(line)["add"] for line in f if '"add"' in line]
    return out


@pytest.mark.parametrize("run", [_plain, _tasks])
def test_each_file_says_its_rows_bounds_and_nulls_and_holds_no_partition_column(run, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 6)
    write_orders(src, 4, topic="pay", partition=1, start_ts=TS + 86_400_000)
    write_orders(src, 3, topic="pay", partition=1, start_ts=TS + 2 * 86_400_000)
    run(src, dest, layout="single")
    adds = _adds(dest / "records")
    assert sorted(a["partitionValues"]["timestamp_day"] for a in adds) == [
        "2023-11-14",
        "2023-11-15",
        "2023-11-16",
    ]
    for add in adds:
        path = dest / "records" / add["path"]
        rows = pq.read_table(path)
        assert "topic" not in rows.column_names and "timestamp_day" not in rows.column_names
        assert add["path"].startswith(f"topic={add['partitionValues']['topic']}/")
        assert add["size"] == path.stat().st_size
        stats = json.loads(add["stats"])
        assert stats["numRecords"] == rows.num_rows
        for column in ("partition", "offset", "producerId", "timestampType"):
            bounds = pc.min_max(rows.column(column)).as_py()
            assert (stats["minValues"][column], stats["maxValues"][column]) == (bounds["min"], bounds["max"])
            assert stats["nullCount"][column] == 0
        low, high = pc.min_max(rows.column("timestamp")).as_py().values()
        assert _millis(stats["minValues"]["timestamp"]) == low.replace(
            microsecond=low.microsecond // 1000 * 1000
        )
        assert _millis(stats["maxValues"]["timestamp"]) == high.replace(
            microsecond=high.microsecond // 1000 * 1000
        )
        assert not {"key", "value", "headers"} & (set(stats["minValues"]) | set(stats["nullCount"]))
    assert sorted(table_rows("delta", dest, "records")) == consumer_rows(src)


def test_an_append_without_spark_writes_its_files_and_commits_once(tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("the records' files are written by kafkaspec, not by write_deltalake")

    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 5)
    monkeypatch.setattr(delta_sink, "write_deltalake", refused)
    assert _plain(src, dest, mode="append").rows == 5
    write_orders(src, 2, tag=b"b")
    assert _plain(src, dest, mode="append").rows == 2
    assert sorted(os.listdir(dest / "orders" / "_delta_log")) == [
        "00000000000000000000.json",
        "00000000000000000001.json",
    ]
    assert sorted(table_rows("delta", dest, "orders")) == consumer_rows(src)
    assert _plain(src, dest, mode="append").rows == 0
