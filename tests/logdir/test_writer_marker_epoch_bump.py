"""A transaction marker that bumps the producer epoch (transaction version 2, KIP-890: Kafka 4.0's
coordinator ends each transaction with the epoch bumped) starts the producer's sequences afresh:
the next batch of that epoch starts at sequence 0, as Kafka's own java-txn partitions show."""

from __future__ import annotations

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log
from kafkaspec.logdir.write.rewrite import copy


def _kafka_4_transactions(w: PartitionWriter) -> None:
    """What Kafka 4.0's Java producer and coordinator wrote: commit, abort, commit, each marker one
    epoch up and the next transaction from sequence 0."""
    for epoch, control in enumerate(("commit", "abort", "commit")):
        for seq in (0, 5):
            w.append(
                [Record(value=b"%d" % (seq + i), timestamp=1) for i in range(5)],
                producer_id=12,
                producer_epoch=epoch,
                base_sequence=seq,
                is_transactional=True,
            )
        w.append_control(control, producer_id=12, producer_epoch=epoch + 1)


def test_the_writer_takes_sequence_zero_after_a_marker_that_bumps_the_epoch(tmp_path):
    with PartitionWriter(tmp_path / "src", "java-txn", 0) as w:
        _kafka_4_transactions(w)
    part = open_log(tmp_path / "src").partitions()[0]
    assert len([r for _, r in part.records(read_committed=True)]) == 20
    _, snap = part.snapshots()[-1]
    entry = snap.producer_entries[0]
    # as Kafka's ProducerStateEntry after the marker: the new epoch, no batch of it yet
    assert (entry.producer_id, entry.epoch, entry.last_sequence) == (12, 3, -1)


def test_rewrite_copies_kafka_4_transactions(tmp_path):
    with PartitionWriter(tmp_path / "src", "java-txn", 0) as w:
        _kafka_4_transactions(w)
    copy(tmp_path / "src", tmp_path / "dst", where=lambda r: r.offset % 3 != 1)
    part = open_log(tmp_path / "dst").partitions()[0]
    assert [r.offset for _, r in part.records(read_committed=True)] == [
        o for o in (*range(0, 10), *range(22, 32)) if o % 3 != 1
    ]
