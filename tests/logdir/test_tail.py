"""PartitionTail: the end of a growing partition is the end of its last complete batch, read cheaply."""

from __future__ import annotations

import os

from kafkaspec import Record, logdir
from kafkaspec.logdir.kafka.tail import PartitionTail, end_position


def _part(root, topic="t", partition=0):
    return logdir.Partition(root / f"{topic}-{partition}")


def _records(n, tag=b"v"):
    return [Record(key=b"k", value=tag + b"%d" % i, timestamp=1_700_000_000_000 + i) for i in range(n)]


def test_a_batch_being_appended_is_not_visible_and_a_torn_tail_is_not_data(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "t", 0)
    w.append(_records(3))
    w.append(_records(2))
    w.segment.fh.flush()
    tail = PartitionTail()
    assert tail.look(_part(tmp_path)).end == 5
    seg_path = w.segment.path
    whole = seg_path.stat().st_size
    # half a batch written: what a broker's reader would not serve yet
    w.append(_records(4))
    w.segment.fh.flush()
    grown = seg_path.stat().st_size
    with open(seg_path, "r+b") as fh:
        data = fh.read()
        fh.truncate(whole + (grown - whole) // 2)
    assert tail.look(_part(tmp_path)).end == 5
    with open(seg_path, "r+b") as fh:  # the rest of it arrives
        fh.seek(0)
        fh.write(data)
    assert tail.look(_part(tmp_path)).end == 9
    w.close()


def test_later_looks_read_only_what_was_appended(tmp_path, monkeypatch):
    w = logdir.PartitionWriter(tmp_path, "t", 0, index_interval_bytes=64)
    for _ in range(200):
        w.append(_records(5))
    w.segment.fh.flush()
    tail = PartitionTail()
    assert tail.look(_part(tmp_path)).end == 1000
    reads = []
    real = os.pread
    monkeypatch.setattr(os, "pread", lambda fd, n, at: reads.append(at) or real(fd, n, at))
    w.append(_records(5))
    w.segment.fh.flush()
    assert tail.look(_part(tmp_path)).end == 1005
    assert len(reads) == 1, reads  # one block, at the end the previous look stopped at
    w.close()


def test_rolls_and_retention(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "t", 0, segment_bytes=400)
    for _ in range(10):
        w.append(_records(5))
    w.segment.fh.flush()
    tail = PartitionTail()
    segs = _part(tmp_path).segments()
    assert len(segs) > 2
    point = tail.look(_part(tmp_path))
    assert (point.log_start, point.end) == (0, 50)
    w.roll()
    w.append(_records(5))
    w.segment.fh.flush()
    for suffix in (".log", ".index", ".timeindex"):  # retention deletes the oldest segment
        segs[0].path.with_suffix(suffix).unlink(missing_ok=True)
    point = tail.look(_part(tmp_path))
    assert (point.log_start, point.end) == (segs[1].base_offset, 55)
    w.close()


def test_an_open_transaction_holds_back_the_stable_offset(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "t", 0)
    w.append(_records(2))
    w.append(_records(3), producer_id=5, producer_epoch=0, base_sequence=0, is_transactional=True)
    w.append(_records(2))
    w.segment.fh.flush()
    tail = PartitionTail(transactions=True)
    point = tail.look(_part(tmp_path))
    assert (point.end, point.stable) == (7, 2)
    w.append_control("abort", producer_id=5, producer_epoch=0)
    w.segment.fh.flush()
    point = tail.look(_part(tmp_path))
    assert (point.end, point.stable) == (8, 8)
    rc = tail.read_committed()
    assert [(t.producer_id, t.first_offset, t.last_offset) for t in rc_aborted(tail)] == [(5, 2, 7)]
    assert rc.open_transactions == {}
    # a fresh tail (a restarted driver) finds the same from the files alone
    assert PartitionTail(transactions=True).look(_part(tmp_path)) == point
    w.close()


def rc_aborted(tail):
    return tail.aborted()


def test_end_position_is_the_end_of_the_batch_holding_the_offset_before(tmp_path):
    with logdir.PartitionWriter(tmp_path, "t", 0, index_interval_bytes=64) as w:
        for _ in range(20):
            w.append(_records(3))
    seg = _part(tmp_path).segments()[0]
    batches = list(seg.iter_batches())
    for offset in (1, 3, 4, 30, 59, 60):
        holding = next(b for b in batches if b.last_offset >= offset - 1)
        assert end_position(seg, offset) == holding.position + holding.size, offset
