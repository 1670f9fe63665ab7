"""Following a growing log under hostile bytes: a bad head, a length that claims gigabytes, many open
transactions; the walk is linear in the heads and a later look reads only what is new."""

from __future__ import annotations

import struct

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable
from support.timing import assert_linear, best_cpu_times

from kafkaspec import Record, logdir
from kafkaspec.logdir.kafka.tail import PartitionTail
from kafkaspec.spark.read.options import MARKS_KEY, ReadOptions
from kafkaspec.spark.stream.reader import KafkaLogStreamReader

pytestmark = pytest.mark.hostile


def _plain(offset):
    """A streaming offset's offsets, without the batch marks beside them."""
    return {t: parts for t, parts in offset.items() if t != MARKS_KEY}


def _grow(root, batches, **kw):
    w = logdir.PartitionWriter(root, "t", 0, **kw)
    for i in range(batches):
        w.append([Record(key=None, value=b"v%d" % i, timestamp=i)])
    w.segment.fh.flush()
    return w


def test_a_head_that_claims_gigabytes_is_not_visible_and_nothing_after_it_is_invented(tmp_path):
    w = _grow(tmp_path, 3)
    with open(w.segment.path, "ab") as fh:  # base offset 3, length 2^31-1: a batch "being appended" forever
        fh.write(struct.pack(">qiib", 3, 2**31 - 1, 0, 2) + bytes(100))
    canary = tmp_path / "canary"
    canary.write_text("keep")
    reader = KafkaLogStreamReader(str(tmp_path), ReadOptions.parse({}))
    start = reader.initialOffset()
    assert _plain(reader.latestOffset(start, ReadAllAvailable())) == {"t": {"0": 3}}
    assert canary.read_text() == "keep"
    w.segment.fh.close()


def test_a_bad_head_in_the_active_segment_stops_the_follow_there(tmp_path, caplog):
    w = _grow(tmp_path, 3)
    size = w.segment.path.stat().st_size
    with open(w.segment.path, "ab") as fh:  # a magic no Kafka wrote
        fh.write(struct.pack(">qiib", 3, 80, 0, 9) + bytes(80))
    tail = PartitionTail()
    point = tail.look(logdir.Partition(tmp_path / "t-0"))
    assert point.end == 3
    assert f"no batch head at byte {size}" in caplog.text
    w.segment.fh.close()


def test_the_first_look_is_linear_in_the_heads_of_the_active_segment(tmp_path):
    small, large = _grow(tmp_path / "s", 1500), _grow(tmp_path / "l", 6000)

    def look(root):
        return lambda: PartitionTail().look(logdir.Partition(root / "t-0"))

    assert_linear(look(tmp_path / "s"), look(tmp_path / "l"), what="first look at an active segment")
    small.close()
    large.close()


def test_a_later_look_costs_the_new_batches_not_the_log(tmp_path):
    """After the first look, the same append costs the same on a log 4x as long (the bound: 8x)."""
    logs = {}
    for name, n in (("s", 1500), ("l", 6000)):
        w = _grow(tmp_path / name, n)
        tail = PartitionTail(transactions=True)
        part = logdir.Partition(tmp_path / name / "t-0")
        tail.look(part)
        logs[name] = (w, tail, part)

    def append_and_look(name):
        def go():
            w, tail, part = logs[name]
            for i in range(50):
                w.append([Record(key=None, value=b"x", timestamp=i)])
            w.segment.fh.flush()
            tail.look(part)

        return go

    # both grow by the same 50 batches per round: the large log's looks must not cost 4x (best CPU times)
    t_small, t_large = best_cpu_times(append_and_look("s"), append_and_look("l"))
    assert t_large < 2 * t_small + 0.01, (t_small, t_large)
    for w, _, _ in logs.values():
        w.close()


def test_many_open_transactions_hold_back_at_the_oldest(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "t", 0)
    for pid in range(200):
        w.append(
            [Record(key=None, value=b"t", timestamp=1)],
            producer_id=pid,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
    for pid in range(1, 200):
        w.append_control("commit", producer_id=pid, producer_epoch=0)
    w.segment.fh.flush()
    point = PartitionTail(transactions=True).look(logdir.Partition(tmp_path / "t-0"))
    assert (point.stable, point.end) == (0, 399)
    w.append_control("abort", producer_id=0, producer_epoch=0)
    w.segment.fh.flush()
    point = PartitionTail(transactions=True).look(logdir.Partition(tmp_path / "t-0"))
    assert point.stable == point.end == 400
    w.close()
