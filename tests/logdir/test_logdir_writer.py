"""Directories written by PartitionWriter read back exactly and pass verification."""

from __future__ import annotations

from support.logdir import write_partition

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log, verify_path
from kafkaspec.logdir.kafka import files, indexes


def _read_all(path):
    log = open_log(path)
    out = [(r.offset, r.timestamp, r.key, r.value, r.headers) for _, r in log.partitions()[0].records()]
    log.close()
    return out


def test_read_back_exactly(small_partition):
    path, written = small_partition
    assert _read_all(path) == written
    assert verify_path(path) == []


def test_rolls_and_indexes(small_partition):
    path, _ = small_partition
    part = open_log(path).partitions()[0]
    segs = part.segments()
    assert len(segs) > 3
    prev_last = -1
    for seg in segs:
        assert seg.size <= 4000 or len(list(seg.iter_batches())) == 1
        batches = list(seg.iter_batches())
        assert batches[0].base_offset == seg.base_offset == prev_last + 1
        prev_last = batches[-1].last_offset
        starts = {b.position: b.last_offset for b in batches}
        entries = seg.index_entries()
        assert entries, "index interval 300 bytes must produce entries"
        for e in entries:
            assert starts[e.position] == e.offset
        # Kafka's rule: an entry once more than index_interval_bytes were written since the last one
        gaps = [b.position - a.position for a, b in zip(entries, entries[1:])]
        assert all(g > 300 for g in gaps)
        tentries = seg.time_index_entries()
        assert tentries[-1].timestamp == max(b.max_timestamp for b in batches)
        assert [t.timestamp for t in tentries] == sorted(t.timestamp for t in tentries)
    assert [e.epoch for e in part.leader_epochs()] == [0, 1, 2, 3, 4]
    assert part.metadata()["version"] == "0"


def test_split_ranges_cover_every_batch_once(small_partition):
    path, written = small_partition
    part = open_log(path).partitions()[0]
    offsets = []
    for seg in part.segments():
        ranges = seg.split(600)
        assert ranges[0][0] == 0 and ranges[-1][1] == seg.size
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
        for start, end in ranges:
            it = seg.iter_batches(start, end)
            offsets += [r.offset for b in it for r in b]
            assert it.partial is None
    assert offsets == [w[0] for w in written]


def test_explicit_offsets_gaps_and_empty_batches(tmp_path):
    with PartitionWriter(tmp_path, "c", 0) as w:
        w.append(
            [
                Record(key=b"a", value=b"1", offset=0, timestamp=5),
                Record(key=b"b", value=None, offset=7, timestamp=6),
            ],
            last_offset_delta=9,
        )
        w.append([], last_offset_delta=4, producer_id=3, producer_epoch=0, base_sequence=0)
        w.append([Record(key=b"c", value=b"3", timestamp=7)])
    part = open_log(tmp_path).partitions()[0]
    assert [(b.base_offset, b.last_offset, len(b)) for _, b in part.batches()] == [
        (0, 9, 2),
        (10, 14, 0),
        (15, 15, 1),
    ]
    assert [(r.offset, r.value) for _, r in part.records()] == [(0, b"1"), (7, None), (15, b"3")]
    assert verify_path(tmp_path) == []
    snap_offset, snap = part.snapshots()[-1]
    assert snap_offset == 16 and snap.producer_entries[0].producer_id == 3


def test_transactions_write_txnindex_and_markers(tmp_path):
    with PartitionWriter(tmp_path, "p", 0) as w:
        w.append(
            [Record(value=b"a", timestamp=1)],
            producer_id=9,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
        w.append_control("abort", producer_id=9, producer_epoch=0, coordinator_epoch=4)
        w.append(
            [Record(value=b"b", timestamp=2)],
            producer_id=9,
            producer_epoch=0,
            base_sequence=1,
            is_transactional=True,
        )
        w.append_control("commit", producer_id=9, producer_epoch=0, coordinator_epoch=4)
    seg = open_log(tmp_path).partitions()[0].segments()[0]
    assert seg.aborted_transactions() == [indexes.AbortedTxn(9, 0, 1, 2)]
    controls = [b.control for b in seg.iter_batches() if b.is_control]
    assert [(c.type_name, c.coordinator_epoch) for c in controls] == [("abort", 4), ("commit", 4)]
    assert verify_path(tmp_path) == []
    assert (tmp_path / "p-0" / files.LEADER_EPOCH_CHECKPOINT).read_text() == "0\n1\n0 0\n"


def test_other_partition_writes_are_independent(tmp_path):
    a = write_partition(tmp_path, partition=0, seed=3, batches=10)
    b = write_partition(tmp_path, partition=1, seed=4, batches=10)
    log = open_log(tmp_path)
    assert [p.partition for p in log.partitions()] == [0, 1]
    assert list(log.topics()) == ["t"]
    assert _read_all(tmp_path / "t-0") == a and _read_all(tmp_path / "t-1") == b
