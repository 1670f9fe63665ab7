"""The streaming source's settled-partition skip (``spark/streaming.py``, ``SETTLED_NS``) never passes over
a partition whose files changed, however the change hides from size and modification time.

A trigger does not look again at a partition whose directory and last segment have the stamp they had
at its last look. An operator's restore keeps sizes and modification times: ``cp -p`` / ``rsync -a`` of
a backup (a new file, or one rewritten in place, its mtime restored), and a writer may rewrite a segment
within one tick of the clock the times are kept in. Each case here changes the last segment's records
without changing its size or mtime, and the next trigger must look at the partition again (its tail
reads it and says the log went back: ``DataLossError``), never keep the old point in silence. The stamp
holds the inode and the change time (``st_ctime``, which no user call can set back), which is what
catches these. The stream reader is driven as Spark's driver calls it (test_stream_idle_cost.py).
"""

from __future__ import annotations

import os
import shutil
import time

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable

from kafkaspec import Record, logdir
from kafkaspec.logdir.kafka import tail as tail_module
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.stream import reader as streaming
from kafkaspec.spark.stream.reader import DataLossError, KafkaLogStreamReader

pytestmark = pytest.mark.hostile


def _write(directory, values: list[bytes]) -> None:
    with logdir.PartitionWriter(directory, "t", 0) as w:
        w.append([Record(key=b"k", value=v, timestamp=1_700_000_000_000) for v in values])


def _settle() -> None:
    time.sleep(streaming.SETTLED_NS / 1e9 + 0.2)


class Looks:
    """PartitionTail.look calls, counted."""

    def __init__(self, monkeypatch):
        self.count = 0
        look = tail_module.PartitionTail.look

        def counted(tail, *args, **kwargs):
            self.count += 1
            return look(tail, *args, **kwargs)

        monkeypatch.setattr(tail_module.PartitionTail, "look", counted)


def _started(root, monkeypatch):
    """A reader that has read the partition (settled), and the end it reached; the look counter."""
    reader = KafkaLogStreamReader(str(root), ReadOptions.parse({}))
    _settle()
    start = reader.initialOffset()
    end = reader.latestOffset(start, ReadAllAvailable())
    looks = Looks(monkeypatch)
    assert reader.latestOffset(end, ReadAllAvailable()) == end and looks.count == 0  # settled: skipped
    return reader, end, looks


def _relook(reader, end, looks) -> None:
    """The next trigger looks at the partition again and says it went back (not the old point in silence)."""
    with pytest.raises(DataLossError):
        reader.latestOffset(end, ReadAllAvailable())
    assert looks.count >= 1


def _same_size_other_records(segment, tmp_path) -> None:
    """Rewrite ``segment`` in place with other records of the same size (another history of the
    partition: same offsets, other values), its mtime set back."""
    other = tmp_path / "other"
    _write(other, [b"new-%d" % i for i in range(10)])
    data = (other / "t-0" / segment.name).read_bytes()
    st = os.stat(segment)
    assert len(data) == st.st_size and data != segment.read_bytes()
    with open(segment, "r+b") as fh:  # in place, as cp -p onto an existing file writes
        fh.write(data)
    os.utime(segment, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(segment).st_mtime_ns == st.st_mtime_ns


def test_a_partition_replaced_by_a_backup_copy_with_restored_times_is_looked_at(tmp_path, monkeypatch):
    root = tmp_path / "data"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    _write(root, [b"old-%d" % i for i in range(10)])
    backup = tmp_path / "backup"
    shutil.copytree(root, backup)  # copy2: times kept, as cp -p / rsync -a
    _same_size_other_records(backup / "t-0" / "00000000000000000000.log", tmp_path)
    reader, end, looks = _started(root, monkeypatch)
    shutil.rmtree(root / "t-0")
    shutil.copytree(backup / "t-0", root / "t-0")  # the restore: same names, sizes and mtimes
    _settle()  # even once the restored files are old enough to be stamped
    _relook(reader, end, looks)
    assert canary.read_text() == "keep"


def test_a_segment_rewritten_in_place_with_its_mtime_set_back_is_looked_at(tmp_path, monkeypatch):
    root = tmp_path / "data"
    _write(root, [b"old-%d" % i for i in range(10)])
    reader, end, looks = _started(root, monkeypatch)
    _same_size_other_records(root / "t-0" / "00000000000000000000.log", tmp_path)
    _settle()
    _relook(reader, end, looks)


def test_a_rewrite_within_the_tick_of_the_look_is_looked_at(tmp_path, monkeypatch):
    """The segment is rewritten right after the look (within a tick of a coarse clock: the same mtime):
    the stamp taken at that look is no stamp (changed too recently to stand for the contents)."""
    root = tmp_path / "data"
    _write(root, [b"old-%d" % i for i in range(10)])
    reader = KafkaLogStreamReader(str(root), ReadOptions.parse({}))
    start = reader.initialOffset()
    end = reader.latestOffset(start, ReadAllAvailable())  # at once: nothing is settled yet
    looks = Looks(monkeypatch)
    _same_size_other_records(root / "t-0" / "00000000000000000000.log", tmp_path)
    _relook(reader, end, looks)
