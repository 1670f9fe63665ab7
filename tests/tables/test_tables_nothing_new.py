"""A run with nothing new reads no record data: a table holding a partition's end is told from the
partition's last batch heads alone, so the run costs the same on a table of any size."""

from __future__ import annotations

import pytest
from support.tables import FORMATS, TS, write_transactions

from kafkaspec import Record, logdir
from kafkaspec.logdir.store import fs
from kafkaspec.tables import write_table

SEGMENT = 32 << 10


def _orders(root, n, *, topic="orders", partition=0):
    """``n`` records appended to one partition in segments of :data:`SEGMENT` bytes."""
    with logdir.PartitionWriter(root, topic, partition, segment_bytes=SEGMENT) as w:
        for i in range(n):
            w.append([Record(key=b"k%d" % i, value=b"v" * 100, timestamp=TS + i)])


def _bytes_read(monkeypatch):
    read = [0]
    plain = fs.RangeReader.read

    def counted(self, at, n):
        out = plain(self, at, n)
        read[0] += len(out)
        return out

    monkeypatch.setattr(fs.RangeReader, "read", counted)
    return read


@pytest.mark.parametrize("fmt", FORMATS)
def test_nothing_new_reads_only_the_last_segment_tail(fmt, tmp_path, monkeypatch):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_transactions(src)  # transactions in the first segment: read_committed has them to consider
    _orders(src, 3000)
    _orders(src, 1500, topic="payments", partition=1)
    log_bytes = sum(p.stat().st_size for p in src.rglob("*.log"))
    assert log_bytes > 20 * SEGMENT

    first = write_table(str(src), str(dest), format=fmt)
    assert {c.name: c.rows for c in first.commits} == {"orders": 3001, "payments": 1500}

    read = _bytes_read(monkeypatch)
    again = write_table(str(src), str(dest), format=fmt)
    assert again.commits == [] and sorted(again.unchanged) == ["orders", "payments"]
    assert read[0] <= 2 * 2 * SEGMENT, f"{read[0]:,} bytes read of {log_bytes:,}"
