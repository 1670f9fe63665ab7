"""The kafkalog writer's batch-preserving mode, driven directly with the reader's Arrow batches (no Spark
session: the planner and the columnar reader make exactly what a kafkalog read hands to the writer)."""

from __future__ import annotations

import os
import re

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from kafkaspec import logdir
from kafkaspec.arrow.ranges import read_records
from kafkaspec.logdir import InvariantError
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.read.schema import RECORD_COLUMNS, struct_type
from kafkaspec.spark.write.writer import KafkaLogWriter


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    path = tmp_path_factory.mktemp("bsrc") / "logs"
    logdir.synth(path, size_mb=1.5, seed=3)
    return path


def write(src, dst, options=None, change=None, writer_options=None):
    """Plan and read ``src`` as the kafkalog source would, pass every task's batches through ``change``,
    and write them with the kafkalog writer, one write() per task, then commit."""
    opts = {"includeControl": "true", "isolationLevel": "read_uncommitted", **(options or {})}
    w = KafkaLogWriter(str(dst), writer_options or {}, struct_type(RECORD_COLUMNS), overwrite=True)
    os.makedirs(dst, exist_ok=True)

    def rows(task):
        for rb in read_records(task):
            yield change(rb) if change else rb

    w.commit([w.write(rows(t)) for t in plan(str(src), ReadOptions.parse(opts))])


def _files(path):
    return {p.relative_to(path): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def _committed(path):
    with logdir.open_log(path) as log:
        return {
            p.name: [
                (r.offset, r.timestamp, r.key, r.value, r.headers) for _, r in p.records(read_committed=True)
            ]
            for p in log.partitions()
        }


def _transactions(path):
    with logdir.open_log(path) as log:
        return {p.name: p.transactions() for p in log.partitions()}


@pytest.mark.parametrize("split", ["64m", "48k"])
def test_unchanged_rows_give_the_same_directory(source, tmp_path, split):
    """Whole segments or split into ranges (several tasks per segment): segments, indexes, txnindexes,
    snapshots, leader-epoch checkpoints and partition.metadata come out byte for byte."""
    write(source, tmp_path / "out", {"splitSize": split})
    assert logdir.verify(tmp_path / "out") == []
    src, out = _files(source), _files(tmp_path / "out")
    left = {"meta.properties", ".kafka_cleanshutdown", "cleaner-offset-checkpoint"}
    assert {str(p) for p in set(src) - set(out)} == left & {str(p) for p in src}
    assert out == {p: src[p] for p in out}


def test_redaction_keeps_every_transaction(source, tmp_path):
    with logdir.open_log(source) as log:
        key = next(r.key for p in log.partitions() if p.topic == "payments" for _, r in p.records())

    def drop(rb):
        return rb.filter(pc.invert(pc.fill_null(pc.equal(rb.column("key"), key), False)))

    write(source, tmp_path / "out", {"splitSize": "48k"}, change=drop)
    assert logdir.verify(tmp_path / "out") == []
    assert _committed(tmp_path / "out") == {
        n: [r for r in rows if r[2] != key] for n, rows in _committed(source).items()
    }
    assert _transactions(tmp_path / "out") == _transactions(source)


def test_recompression_keeps_batches(source, tmp_path):
    write(source, tmp_path / "out", {"subscribe": "orders"}, writer_options={"compression": "lz4"})
    assert logdir.verify(tmp_path / "out") == []
    with logdir.open_log(source) as a, logdir.open_log(tmp_path / "out") as b:
        orders = [p for p in a.partitions() if p.topic == "orders"]
        for pa_, pb in zip(orders, b.partitions(), strict=True):
            x = [
                (s.base_offset, s.last_offset, len(s), s.producer_id, s.base_sequence, s.magic)
                for _, s in pa_.batches()
            ]
            y = [
                (s.base_offset, s.last_offset, len(s), s.producer_id, s.base_sequence, s.magic)
                for _, s in pb.batches()
            ]
            assert x == y
            assert {s.compression for _, s in pb.batches()} == {"lz4"}
    assert _committed(tmp_path / "out") == {
        n: v for n, v in _committed(source).items() if n.startswith("orders")
    }


def test_markers_without_rows_are_copied_from_the_source(source, tmp_path, caplog):
    """Read without includeControl (the default): the transactions' batches have rows, their markers none.
    Each marker is put back from the source segment, so every transaction keeps its outcome, and a warning
    names the markers so copied."""
    with caplog.at_level("WARNING", logger="kafkaspec.spark"):
        write(source, tmp_path / "out", {"includeControl": "false", "subscribe": "payments"})
    assert logdir.verify(tmp_path / "out") == []
    assert _transactions(tmp_path / "out") == {
        n: t for n, t in _transactions(source).items() if n.startswith("payments")
    }
    assert _committed(tmp_path / "out") == {
        n: v for n, v in _committed(source).items() if n.startswith("payments")
    }
    warned = [r.getMessage() for r in caplog.records]
    assert any(
        re.search(
            r"payments-\d: \d+ transaction markers? had no row .*includeControl.*copied from the "
            r"source: producer \d+ at offset \d+",
            m,
        )
        for m in warned
    ), warned


def _set(rb, name, index, value):
    """``rb`` with row ``index`` of column ``name`` set to ``value``."""
    column = rb.column(name).to_pylist()
    column[index] = value
    i = rb.schema.get_field_index(name)
    return rb.set_column(i, rb.schema.field(i), pa.array(column, rb.schema.field(i).type))


def test_conflicting_batch_columns_are_refused_naming_the_row(source, tmp_path):
    first = {}

    def change(rb):
        if not first:
            offsets = rb.column("offset").to_pylist()
            positions = rb.column("batchPosition").to_pylist()
            i = next(i for i in range(1, len(positions)) if positions[i] == positions[i - 1])
            first["offset"] = offsets[i]
            return _set(rb, "producerEpoch", i, 99)
        return rb

    with pytest.raises(InvariantError) as info:
        write(source, tmp_path / "out", {"subscribe": "orders", "assign": '{"orders": [1]}'}, change=change)
    assert re.search(
        rf"orders-1 offset {first['offset']}: producerEpoch is 99, but -?\d+ in the row at offset \d+ "
        r"of the same batch \(.*orders-1/0+\.log at byte \d+\): one batch has one value",
        str(info.value),
    )


def test_rows_out_of_order_are_refused(source, tmp_path):
    def change(rb):
        return rb.take(pa.array(list(range(rb.num_rows))[::-1]))

    with pytest.raises(
        InvariantError,
        match=r"kafkalog write: clicks-0 offset \d+ comes after offset \d+: rows of a "
        "topic-partition must arrive in offset order",
    ):
        write(source, tmp_path / "out", {"subscribe": "clicks", "assign": '{"clicks": [0]}'}, change=change)


def test_a_control_row_without_a_batch_is_refused(source, tmp_path):
    def change(rb):
        control = rb.column("isControl").to_pylist()
        if True not in control:
            return rb
        return _set(rb, "producerId", control.index(True), None)

    with pytest.raises(
        InvariantError,
        match=r"kafkalog write: payments-0 offset \d+: the control row has no batch "
        r"\(producerId null\)",
    ):
        write(source, tmp_path / "out", {"assign": '{"payments": [0]}'}, change=change)


def test_rows_of_another_batch_are_refused(source, tmp_path):
    """A row naming another batch than its own: its columns disagree with that batch's head."""

    def change(rb):
        return _set(rb, "batchPosition", 0, 0) if rb.column("batchPosition")[0].as_py() else rb

    with pytest.raises(
        InvariantError,
        match=r"kafkalog write: users-0 rows from offset \d+ \(.*users-0/0+\.log at byte 0\)"
        r": baseSequence is \d+ but the source batch has 0: the rows do not "
        "belong to that batch",
    ):
        write(
            source,
            tmp_path / "out",
            {"assign": '{"users": [0]}', "startingOffsets": '{"users": {"0": 500}}'},
            change=change,
        )


def test_rows_without_the_source_fall_back_only_when_asked(tmp_path):
    names = [
        "topic",
        "partition",
        "offset",
        "value",
        "magic",
        "compression",
        "producerId",
        "producerEpoch",
        "baseSequence",
        "isTransactional",
        "isControl",
        "partitionLeaderEpoch",
        "timestampType",
        "segment",
        "batchPosition",
    ]
    schema = struct_type([c for c in RECORD_COLUMNS if c[0] in names])
    row = dict(
        topic="t",
        partition=0,
        offset=0,
        value=b"v",
        magic=2,
        compression="none",
        producerId=-1,
        producerEpoch=-1,
        baseSequence=-1,
        isTransactional=False,
        isControl=False,
        partitionLeaderEpoch=0,
        timestampType=0,
        segment=str(tmp_path / "gone" / "00000000000000000000.log"),
        batchPosition=0,
    )
    batches = pa.Table.from_pylist([row]).select(names).to_batches()
    w = KafkaLogWriter(str(tmp_path / "o"), {}, schema, overwrite=True)
    assert w.preserve
    with pytest.raises(
        InvariantError, match="is not readable here: a batch-preserving write reads each batch's head"
    ):
        w.write(iter(batches))
    plain = KafkaLogWriter(str(tmp_path / "o"), {"preserveBatches": "false"}, schema, overwrite=True)
    plain.commit([plain.write(iter(batches))])
    with logdir.open_log(tmp_path / "o") as log:
        assert [r.value for _, r in log.partitions()[0].records()] == [b"v"]


def test_writing_over_the_source_is_refused(tmp_path):
    src = tmp_path / "logs"
    logdir.synth(src, size_mb=0.2, seed=1)
    before = _files(src)
    with pytest.raises(ValueError, match="holds the source segment .* write somewhere else"):
        write(src, src, {"subscribe": "clicks"})
    assert _files(src) == before


def test_corrupt_entries_skipped_by_the_read_stay_out(tmp_path):
    """A corrupt producer batch has no rows (the read skipped it): it is not put back, not even emptied."""
    src = tmp_path / "logs"
    logdir.synth(src, size_mb=0.3, seed=2)
    with logdir.open_log(src / "orders-1") as log:
        seg, victim = next(
            (s, b) for s, b in log.partitions()[0].batches() if b.magic == 2 and b.producer_id >= 0
        )
    data = bytearray(seg.path.read_bytes())
    data[victim.end - 1] ^= 0xFF  # a record byte: the CRC no longer holds, the framing does
    seg.path.write_bytes(bytes(data))
    write(src, tmp_path / "out", {"assign": '{"orders": [1]}', "corruptionPolicy": "skip"})
    assert logdir.verify(tmp_path / "out") == []
    with logdir.open_log(tmp_path / "out") as log:
        bases = [b.base_offset for _, b in log.partitions()[0].batches()]
    assert victim.base_offset not in bases and victim.last_offset + 1 in bases


def test_preserve_batches_needs_the_offset_and_batch_columns(tmp_path):
    names = ("topic", "partition", "value", "magic", "segment")
    schema = struct_type([c for c in RECORD_COLUMNS if c[0] in names])
    assert not KafkaLogWriter(str(tmp_path), {}, schema, overwrite=False).preserve
    with pytest.raises(
        ValueError,
        match=r"preserveBatches needs the batch columns of a kafkalog read; missing "
        r"\['offset', 'compression', 'producerId'",
    ):
        KafkaLogWriter(str(tmp_path), {"preserveBatches": "true"}, schema, overwrite=False)


@pytest.fixture
def split_transaction(tmp_path):
    """Producer 7's transaction starts in the first segment; its commit marker is in the second."""
    from kafkaspec import Record

    src = tmp_path / "logs"
    recs = [Record(key=b"k", value=b"v%d" % i, timestamp=1000 + i) for i in range(3)]
    with logdir.PartitionWriter(src, "tx", 0) as w:
        w.append(recs)  # 0..2
        w.append(recs, producer_id=7, producer_epoch=0, base_sequence=0, is_transactional=True)  # 3..5
        w.roll()
        w.append(recs)  # 6..8
        w.append_control("commit", producer_id=7, producer_epoch=0)  # 9
        w.append(recs)  # 10..12
    return src


def test_a_marker_beyond_the_rows_is_refused(split_transaction, tmp_path):
    with pytest.raises(
        InvariantError,
        match=r"tx-0: .*00000000000000000006\.log at byte \d+: the commit marker of "
        r"producer 7 at offset 9 is beyond the rows written, but its "
        "transaction's batches have rows",
    ):
        write(split_transaction, tmp_path / "out", {"endingOffsets": '{"tx": {"0": 6}}'})


def test_an_emptied_transaction_gets_its_marker_back(split_transaction, tmp_path):
    """Rows of the transaction and of the whole second segment filtered out: the transaction's batch stays,
    emptied, and so its marker must come back from the later segment, or the transaction would hang."""

    def keep_first_plain(rb):
        return rb.filter(pc.less(rb.column("offset"), 3))

    write(split_transaction, tmp_path / "out", change=keep_first_plain)
    assert logdir.verify(tmp_path / "out") == []
    with logdir.open_log(tmp_path / "out") as log:
        part = log.partitions()[0]
        batches = [(b.base_offset, b.last_offset, len(b), b.is_control) for _, b in part.batches()]
        assert part.transactions() == ([], {})
    assert batches == [(0, 2, 3, False), (3, 5, 0, False), (9, 9, 1, True)]
