"""``Segment.split``: the byte ranges a planner cuts a segment into. A segment no larger than the split
size is one range and its index is not read (a partition of 100,000 one-batch segments opened each
index for nothing); a larger one is cut at its index positions as before."""

from __future__ import annotations

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log
from kafkaspec.logdir.kafka.segment import Segment


def _partition(tmp_path, batches: int):
    with PartitionWriter(tmp_path, "t", 0, index_interval_bytes=1) as w:
        for i in range(batches):
            w.append([Record(key=None, value=b"x" * 100, timestamp=i)])
    (seg,) = open_log(tmp_path).partitions()[0].segments()
    return seg


def test_a_small_segment_is_one_range_without_its_index(tmp_path, monkeypatch):
    (tmp_path / "canary").write_text("stays")
    seg = _partition(tmp_path, 20)
    assert len(seg.index_entries()) > 1
    read: list[Segment] = []
    real = Segment.index_entries

    def counted(self):
        read.append(self)
        return real(self)

    monkeypatch.setattr(Segment, "index_entries", counted)
    assert seg.split(seg.size) == [(0, seg.size)]
    assert seg.split(seg.size * 10) == [(0, seg.size)]
    assert read == []
    ranges = seg.split(seg.size // 4)
    assert read == [seg] and len(ranges) > 1
    assert ranges[0][0] == 0 and ranges[-1][1] == seg.size
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    assert (tmp_path / "canary").read_text() == "stays"
