"""read_committed drops exactly the records of aborted (and open) transactions."""

from __future__ import annotations

import random

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, ReadCommitted, open_log
from kafkaspec.logdir.kafka.files import TXN_INDEX_SUFFIX


def _write(root, seed=5):
    """Two transactional producers interleaving, plain writes in between; return offsets per outcome."""
    rng = random.Random(seed)
    aborted, committed, plain = set(), set(), set()
    with PartitionWriter(root, "p", 0, segment_bytes=2500, index_interval_bytes=200) as w:
        pending = {1: [], 2: []}
        for step in range(120):
            pid = rng.choice([1, 2])
            action = rng.random()
            if action < 0.55:
                n = rng.randint(1, 4)
                base, last = w.append(
                    [Record(value=b"x%d" % step, timestamp=step)] * n,
                    producer_id=pid,
                    producer_epoch=0,
                    base_sequence=step * 10,
                    is_transactional=True,
                )
                pending[pid] += range(base, last + 1)
            elif action < 0.75:
                base, last = w.append([Record(value=b"plain", timestamp=step)])
                plain.update(range(base, last + 1))
            elif pending[pid]:
                kind = "abort" if rng.random() < 0.4 else "commit"
                w.append_control(kind, producer_id=pid, producer_epoch=0, timestamp=step)
                (aborted if kind == "abort" else committed).update(pending[pid])
                pending[pid] = []
        open_txn = set(pending[1]) | set(pending[2])
    return aborted, committed, plain, open_txn


def _below_stable(offsets: set[int], open_txn: set[int]) -> set[int]:
    """What read_committed returns of ``offsets``: those below the first offset of an open transaction."""
    return {o for o in offsets if not open_txn or o < min(open_txn)}


def test_read_committed_drops_exactly_aborted(tmp_path):
    aborted, committed, plain, open_txn = _write(tmp_path)
    assert aborted and committed
    part = open_log(tmp_path).partitions()[0]
    every = {r.offset for _, r in part.records(isolation_level="read_uncommitted")}
    assert every == aborted | committed | plain | open_txn
    visible = {r.offset for _, r in part.records(read_committed=True)}
    assert visible == _below_stable(committed | plain, open_txn)


def test_txnindex_and_marker_scan_agree(tmp_path):
    aborted, committed, plain, open_txn = _write(tmp_path, seed=8)
    part = open_log(tmp_path).partitions()[0]
    scanned, _ = part.transactions()  # the markers are scanned
    from_index = [t for s in part.segments() for t in (s.aborted_transactions() or [])]
    assert [(t.producer_id, t.first_offset, t.last_offset) for t in scanned] == [
        (t.producer_id, t.first_offset, t.last_offset) for t in from_index
    ]
    # with a .txnindex in every segment the markers are still what counts (the index is verify's to check)
    for seg in part.segments():
        if not seg.txn_index_path.exists():
            seg.txn_index_path.write_bytes(b"")
    part2 = open_log(tmp_path).partitions()[0]
    again, _ = part2.transactions()
    assert again == scanned
    visible = {r.offset for _, r in part2.records(read_committed=True)}
    assert visible == _below_stable(committed | plain, open_txn)  # open transactions hold back the rest


def test_control_records_hidden_unless_asked(tmp_path):
    with PartitionWriter(tmp_path, "p", 0) as w:
        w.append(
            [Record(value=b"a", timestamp=1)],
            producer_id=1,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
        w.append_control("commit", producer_id=1, producer_epoch=0)
    part = open_log(tmp_path).partitions()[0]
    assert [r.offset for _, r in part.records()] == [0]
    assert [r.offset for _, r in part.records(include_control=True)] == [0, 1]
    assert [r.offset for _, r in part.records(read_committed=True, include_control=True)] == [0, 1]


def test_filter_is_picklable(tmp_path):
    import pickle

    _write(tmp_path)
    rc = open_log(tmp_path).partitions()[0].read_committed()
    assert isinstance(pickle.loads(pickle.dumps(rc)), ReadCommitted)
    assert TXN_INDEX_SUFFIX == ".txnindex"
