"""``logdir.copy`` and ``PartitionWriter.append_batch(batch)``: batch-preserving copies, redaction,
conversion, and the writer's refusals of input that breaks Kafka's log invariants."""

from __future__ import annotations

import collections

import pytest

from kafkaspec import Record, build_batch, build_control_batch, iter_batches
from kafkaspec.logdir import (
    InvariantError,
    PartitionWriter,
    copy,
    open_log,
    rebuild_batch,
    synth,
    verify,
)


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A small synth directory: every codec, magic 0/1, transactions, compaction, LogAppendTime."""
    path = tmp_path_factory.mktemp("src") / "logs"
    synth(path, size_mb=1.5, seed=11)
    return path


def _heads(path):
    """Every batch's header fields, per partition, in order (what dump --batches-only shows, minus the file)."""
    out = {}
    with open_log(path) as log:
        for part in log.partitions():
            out[part.name] = [
                (
                    seg.path.name,
                    b.position,
                    b.base_offset,
                    b.last_offset,
                    len(b),
                    b.magic,
                    b.compression,
                    b.producer_id,
                    b.producer_epoch,
                    b.base_sequence,
                    b.is_transactional,
                    b.is_control,
                    b.partition_leader_epoch,
                    b.timestamp_type,
                    b.has_delete_horizon,
                    b.base_timestamp,
                    b.crc,
                )
                for seg, b in part.batches()
            ]
    return out


def _committed(path, topic=None):
    with open_log(path) as log:
        return {
            p.name: [
                (r.offset, r.timestamp, r.key, r.value, r.headers) for _, r in p.records(read_committed=True)
            ]
            for p in log.partitions()
            if topic is None or p.topic == topic
        }


def _transactions(path):
    with open_log(path) as log:
        return {p.name: p.transactions() for p in log.partitions()}


def _files(path):
    return {p.relative_to(path): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_copy_unfiltered_is_the_same_directory(source, tmp_path):
    dst = tmp_path / "copy"
    report = copy(source, dst)
    assert verify(dst) == []
    assert _heads(dst) == _heads(source)
    assert _committed(dst) == _committed(source)
    assert _transactions(dst) == _transactions(source)
    src_files, dst_files = _files(source), _files(dst)
    # segments, indexes, txnindexes, snapshots, leader-epoch-checkpoint, partition.metadata, checkpoints:
    # byte for byte (the cleaner's checkpoint is not rebuilt: the copy's cleaner starts from the log start; and
    # the copy claims no clean shutdown of a broker that never ran on it)
    assert {str(p) for p in set(src_files) - set(dst_files)} == {
        "cleaner-offset-checkpoint",
        ".kafka_cleanshutdown",
    }
    assert dst_files == {p: src_files[p] for p in dst_files}
    assert any(p.suffix == ".txnindex" for p in dst_files) and any(p.suffix == ".snapshot" for p in dst_files)
    assert report.dropped_records == report.dropped_batches == report.emptied_batches == 0
    assert report.batches == sum(len(v) for v in _heads(source).values())


def test_redaction_keeps_every_transaction(source, tmp_path):
    with open_log(source) as log:
        keys = collections.Counter(
            r.key
            for p in log.partitions()
            if p.topic == "payments"
            for _, r in p.records(isolation_level="read_uncommitted")
        )
    key, count = keys.most_common(1)[0]
    dst = tmp_path / "redacted"
    report = copy(source, dst, where=lambda row: row.key != key)
    assert report.dropped_records == count > 0
    assert verify(dst) == []
    want = {name: [r for r in rows if r[2] != key] for name, rows in _committed(source).items()}
    assert _committed(dst) == want
    # every transaction keeps its state: the same aborted transactions (first offset, marker, LSO), none opened
    assert _transactions(dst) == _transactions(source)
    # batches keep their offsets and producer fields, only the record counts drop
    src, out = _heads(source), _heads(dst)
    for name in src:
        assert [h[2:4] + h[7:13] for h in out[name]] == [h[2:4] + h[7:13] for h in src[name]]


def test_emptied_batches_stay_plain_ones_go(tmp_path):
    src = tmp_path / "src"
    recs = [Record(key=b"x", value=b"v", timestamp=1000 + i) for i in range(3)]
    with PartitionWriter(src, "t", 0) as w:
        w.append(recs, producer_id=7, producer_epoch=0, base_sequence=0, is_transactional=True)  # 0..2
        w.append_control("commit", producer_id=7, producer_epoch=0)  # 3
        w.append(recs)  # 4..6, plain
        w.append(
            recs[:1] + [Record(key=b"keep", value=b"v", timestamp=5)],
            producer_id=8,
            producer_epoch=0,
            base_sequence=0,
        )  # 7..8
    dst = tmp_path / "dst"
    report = copy(src, dst, where=lambda row: row.key != b"x")
    assert (report.dropped_records, report.emptied_batches, report.dropped_batches) == (7, 1, 1)
    with open_log(dst) as log:
        batches = [b for _, b in log.partitions()[0].batches()]
    assert [(b.base_offset, b.last_offset, len(b), b.base_sequence, b.is_transactional) for b in batches] == [
        (0, 2, 0, 0, True),
        (3, 3, 1, -1, True),
        (7, 8, 1, 0, False),
    ]
    assert [r.offset for r in batches[2]] == [8]
    assert verify(dst) == []


def test_rebuild_keeps_every_batch_field(source):
    with open_log(source) as log:
        part = log.partition("users", 0)
        horizon = next(b for _, b in part.batches() if b.has_delete_horizon and len(b) > 1)
        recs = horizon.records[1:]
        (again,) = iter_batches(rebuild_batch(horizon, recs, compression="lz4"))
    assert again.compression == "lz4" and again.records == recs
    for name in (
        "base_offset",
        "last_offset",
        "base_sequence",
        "producer_id",
        "producer_epoch",
        "has_delete_horizon",
        "base_timestamp",
        "partition_leader_epoch",
        "is_transactional",
        "timestamp_type",
    ):
        assert getattr(again, name) == getattr(horizon, name), name


def test_recompress_keeps_batches(source, tmp_path):
    dst = tmp_path / "gz"
    copy(source, dst, compression="gzip", topics={"orders", "payments"})
    assert verify(dst) == []
    src, out = _heads(source), _heads(dst)
    assert set(out) == {n for n in src if n.startswith(("orders", "payments"))}
    for name, heads in out.items():
        assert [h[2:5] + h[7:13] for h in heads] == [h[2:5] + h[7:13] for h in src[name]]
        assert {h[6] for h in heads if not h[11]} == {"gzip"}
    assert _committed(dst) == {n: v for n, v in _committed(source).items() if n in out}


def test_down_conversion_to_magic_1_and_back(source, tmp_path):
    m1, back = tmp_path / "m1", tmp_path / "back"
    topics = {"payments", "users", "clicks", "audit"}
    report = copy(source, m1, to_magic=1, compression="lz4", topics=topics)
    assert verify(m1) == []
    with open_log(source) as log:
        parts = [p for p in log.partitions() if p.topic in topics]
        headers = sum(len(r.headers) for p in parts for _, b in p.batches() for r in b)
        markers = sum(b.is_control for p in parts for _, b in p.batches())
        aborted = sum(p.read_committed().is_aborted(b) for p in parts for _, b in p.batches())
    assert report.dropped_headers == headers > 0
    assert report.dropped_control_batches == markers > 0
    assert report.aborted_made_visible == aborted > 0
    with open_log(m1) as log:
        assert {b.magic for p in log.partitions() for _, b in p.batches()} == {1}
    copy(m1, back, to_magic=2)
    assert verify(back) == []

    def plain(path):
        with open_log(path) as log:
            return [
                (p.name, r.offset, r.timestamp, r.key, r.value)
                for p in log.partitions()
                if p.topic in topics - {"payments"}
                for _, r in p.records()
            ]

    assert plain(source) == plain(m1) == plain(back)


def test_zstd_cannot_go_to_magic_1(source, tmp_path):
    with pytest.raises(
        ValueError, match=r"orders-\d/\d+\.log at byte \d+: the batch is zstd-compressed, which magic 1"
    ):
        copy(source, tmp_path / "m1", to_magic=1)
    assert not (tmp_path / "m1").exists()  # nothing half-written is left


def test_copy_refuses_a_full_destination_and_itself(source, tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    with pytest.raises(FileExistsError, match="not an empty directory"):
        copy(source, tmp_path / "full")
    with pytest.raises(ValueError, match="lies inside the source"):
        copy(source, source / "inside")


# -- the invariants: each refusal names the batch and what it breaks ---------------------------------------


def _rec(offset=None, key=b"k", ts=1000):
    return Record(key=key, value=b"v", offset=offset, timestamp=ts)


def test_refuses_offsets_out_of_order(tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        w.append_batch(build_batch([_rec(), _rec()], base_offset=10))
        with pytest.raises(
            InvariantError,
            match=r"t-0: the batch at offset 5: base offset 5 is not above the last "
            r"offset written \(11\)",
        ):
            (late,) = iter_batches(build_batch([_rec()], base_offset=5))
            w.append_batch(late)


def test_refuses_records_beyond_the_last_offset_delta(tmp_path):
    (batch,) = iter_batches(build_batch([_rec(), _rec()], base_offset=0))
    with (
        PartitionWriter(tmp_path, "t", 0) as w,
        pytest.raises(InvariantError, match=r"record 1 offset 7 is beyond the batch's last offset 1"),
    ):
        w.append_batch(batch, records=[_rec(0), _rec(7)], where="src at byte 0")
    with pytest.raises(InvariantError, match=r"record 1 offset 0 is not above the previous record's 0"):
        rebuild_batch(batch, [_rec(0), _rec(0)])


def test_refuses_a_control_batch_of_two_records(tmp_path):
    marker = next(iter_batches(build_control_batch("commit", producer_id=1, producer_epoch=0))).records[0]
    two = build_batch(
        [marker, marker._replace(offset=1)],
        is_control=True,
        is_transactional=True,
        producer_id=1,
        producer_epoch=0,
    )
    with (
        PartitionWriter(tmp_path, "t", 0) as w,
        pytest.raises(InvariantError, match="a control batch holds exactly one control record, not 2"),
    ):
        w.append_batch(two)


def test_refuses_a_marker_outside_a_transaction(tmp_path):
    marker = next(iter_batches(build_control_batch("abort", producer_id=1, producer_epoch=0))).records[0]
    plain = build_batch([marker], is_control=True, producer_id=1, producer_epoch=0)
    with (
        PartitionWriter(tmp_path, "t", 0) as w,
        pytest.raises(InvariantError, match="an abort marker must be in a transactional batch"),
    ):
        w.append_batch(plain)


def test_refuses_overlapping_sequences(tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        w.append([_rec()] * 5, producer_id=7, producer_epoch=0, base_sequence=0)  # sequences 0..4
        w.append([_rec()], producer_id=7, producer_epoch=1, base_sequence=0)  # a new epoch starts over
        w.append([_rec()] * 2, producer_id=7, producer_epoch=1, base_sequence=1)
        with pytest.raises(
            InvariantError,
            match=r"producer 7 \(epoch 1\) base sequence 2 does not follow its "
            r"previous batch's last sequence 2",
        ):
            w.append([_rec()], producer_id=7, producer_epoch=1, base_sequence=2)
        w.append([_rec()], producer_id=7, producer_epoch=1, base_sequence=3)


def test_sequences_wrap(tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        w.append([_rec()] * 2, producer_id=7, producer_epoch=0, base_sequence=2**31 - 2)
        w.append([_rec()], producer_id=7, producer_epoch=0, base_sequence=0)
    assert verify(tmp_path) == []


def test_refuses_falling_leader_epochs_and_a_segment_past_its_batch(tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        (a,) = iter_batches(build_batch([_rec()], base_offset=0, partition_leader_epoch=3))
        (b,) = iter_batches(build_batch([_rec()], base_offset=1, partition_leader_epoch=2))
        w.append_batch(a)
        with pytest.raises(InvariantError, match="partition leader epoch 2 is below the epoch 3"):
            w.append_batch(b)
        w.roll(base_offset=10)
        with pytest.raises(InvariantError, match="base offset 5 is below its segment's base offset 10"):
            w.append_batch(next(iter_batches(build_batch([_rec()], base_offset=5, partition_leader_epoch=3))))
        with pytest.raises(InvariantError, match="would start below the last offset written"):
            w.roll(base_offset=0)


def test_zstd_recompression_leaves_legacy_entries_their_codec(source, tmp_path):
    dst = tmp_path / "zstd"
    copy(source, dst, compression="zstd", topics={"orders"})
    assert verify(dst) == []
    src, out = _heads(source), _heads(dst)
    for name, heads in out.items():
        legacy = [h for h in src[name] if h[5] < 2]
        assert legacy and [h for h in heads if h[5] < 2] == legacy  # the same entries, byte for byte (crc)
        assert {h[6] for h in heads if h[5] == 2} == {"zstd"}
