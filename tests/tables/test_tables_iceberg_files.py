"""Iceberg data files as the records stream in (:mod:`kafkaspec.tables.iceberg_files`): a batch whose
rows fall on several partition values is split among their files, each file holding only its
partition's rows, its entry's statistics those of its rows; a file is closed at the target size, and
when more partitions are written to than files may be open, the one left longest."""

from __future__ import annotations

import datetime as dt

import pyarrow.compute as pc
import pyarrow.parquet as pq
from support.tables import TS, consumer_rows, iceberg_table, table_rows

from kafkaspec import Record, logdir
from kafkaspec.tables import data_files, iceberg_files, write_table

DAY_MS = 86_400_000


def _across_days(root, n, *, topic="orders", days=3):
    """``n`` records in one batch (one append), their timestamps spread over ``days`` days."""
    with logdir.PartitionWriter(root, topic, 0) as w:
        w.append(
            [
                Record(key=b"k%d" % i, value=b"v%d" % i, timestamp=TS + i * days * DAY_MS // n)
                for i in range(n)
            ]
        )


def _files(dest, name):
    return [task.file for task in iceberg_table(dest, name).scan().plan_files()]


def test_a_batch_over_several_days_is_split_among_their_files(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _across_days(src, 300)
    _across_days(src, 30, topic="payments", days=1)
    write_table(str(src), str(dest), format="iceberg")
    assert table_rows("iceberg", dest, "orders") + table_rows("iceberg", dest, "payments") == consumer_rows(
        src
    )
    for name, days in (("orders", 3), ("payments", 1)):
        files = _files(dest, name)
        assert len({f.partition[0] for f in files}) in (days, days + 1)
        for f in files:
            rows = pq.read_table(f.file_path.removeprefix("file://"))
            assert rows.num_rows == f.record_count
            found = pc.unique(
                pc.cast(pc.cast(rows.column("timestamp"), "timestamp[us]"), "date32")
            ).to_pylist()
            assert found == [dt.date(1970, 1, 1) + dt.timedelta(days=f.partition[0])]
            offsets = rows.column("offset")
            assert (f.lower_bounds[5], f.upper_bounds[5]) == (
                pc.min(offsets).as_py().to_bytes(8, "little", signed=True),
                pc.max(offsets).as_py().to_bytes(8, "little", signed=True),
            )


def test_a_file_is_closed_at_the_target_size(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    with logdir.PartitionWriter(src, "orders", 0) as w:
        for i in range(40):
            w.append([Record(key=b"k", value=bytes([i]) * 60_000, timestamp=TS + j) for j in range(10)])
    write_table(str(src), str(dest), format="iceberg", target_file_mb=1, partition_by="")
    files = _files(dest, "orders")
    assert len(files) >= 10
    assert sum(f.record_count for f in files) == 400
    assert len(table_rows("iceberg", dest, "orders")) == 400


def test_no_more_files_open_than_the_bound(tmp_path, monkeypatch):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _across_days(src, 400, days=8)
    with logdir.PartitionWriter(src, "orders", 0) as w:  # the first days again: their files were closed
        w.append([Record(key=b"k", value=b"late%d" % i, timestamp=TS + i * DAY_MS // 2) for i in range(4)])
    opened = []
    new = iceberg_files.DataFiles._new

    def counted(self, values):
        opened.append(values)
        assert len(self._open) < 2
        return new(self, values)

    monkeypatch.setattr(data_files, "MAX_OPEN", 2)
    monkeypatch.setattr(iceberg_files.DataFiles, "_new", counted)
    write_table(str(src), str(dest), format="iceberg")
    assert table_rows("iceberg", dest, "orders") == consumer_rows(src)
    files = _files(dest, "orders")
    assert len(files) == len(opened) > len({f.partition[0] for f in files})
