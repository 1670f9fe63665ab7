"""The kafkalog stream reader driven directly, as Spark's driver and tasks call it (no JVM): offsets,
limits, new partitions, data loss and read_committed over a directory growing between triggers."""

from __future__ import annotations

import logging

import pyarrow as pa
import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows, ReadMinRows

from kafkaspec import Record, logdir
from kafkaspec.spark.read.options import MARKS_KEY, OptionError, ReadOptions
from kafkaspec.spark.stream.reader import DataLossError, KafkaLogStreamReader, prorate


def _plain(offset):
    """A streaming offset's offsets, without the batch marks beside them."""
    return {t: parts for t, parts in offset.items() if t != MARKS_KEY}


def _reader(path, **options):
    return KafkaLogStreamReader(str(path), ReadOptions.parse({k: str(v) for k, v in options.items()}))


def _rows(reader, start, end):
    """(topic, partition, offset, value) of a micro-batch, as its tasks read it."""
    out = []
    for p in reader.partitions(start, end):
        for b in reader.read(p):
            t = pa.Table.from_batches([b])
            out += zip(
                t["topic"].to_pylist(),
                t["partition"].to_pylist(),
                t["offset"].to_pylist(),
                t["value"].to_pylist(),
            )
    return out


def _run(reader, start, triggers):
    """Micro-batches as Spark runs them: latestOffset from the previous end, then read [start, end)."""
    rows = []
    for grow in triggers:
        grow()
        end = reader.latestOffset(start, reader.getDefaultReadLimit())
        rows += _rows(reader, start, end)
        start = end
    return rows, start


def _records(n, tag):
    return [Record(key=None, value=b"%s-%d" % (tag, i), timestamp=1_700_000_000_000 + i) for i in range(n)]


def _flush(w):
    w.segment.fh.flush()


def test_offsets_are_the_kafka_source_json_and_the_union_is_every_record_once(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "orders", 0, segment_bytes=600, index_interval_bytes=64)
    w.append(_records(5, b"a"))
    _flush(w)
    reader = _reader(tmp_path, splitSize="200")
    start = reader.initialOffset()
    assert _plain(start) == {"orders": {"0": 0}}

    def grow(n, tag, compression="none"):
        def go():
            w.append(_records(n, tag), compression=compression)
            _flush(w)

        return go

    rows, end = _run(
        reader,
        start,
        [lambda: None, grow(7, b"b", "zstd"), grow(3, b"c"), lambda: None, grow(40, b"d", "gzip")],
    )
    assert _plain(end) == {"orders": {"0": 55}}
    assert [r[2] for r in rows] == list(range(55))
    w.close()
    with logdir.open_log(tmp_path) as log:
        assert len(log.partitions()[0].segments()) >= 2  # rolled while followed
        assert [r[3] for r in rows] == [rec.value for _, rec in log.partitions()[0].records()]


def test_latest_and_explicit_starting_offsets(tmp_path):
    with logdir.PartitionWriter(tmp_path, "orders", 0) as w:
        w.append(_records(10, b"a"))
    with logdir.PartitionWriter(tmp_path, "orders", 1) as w:
        w.append(_records(4, b"b"))
    assert _plain(_reader(tmp_path, startingOffsets="latest").initialOffset()) == {
        "orders": {"0": 10, "1": 4}
    }
    start = _reader(tmp_path, startingOffsets='{"orders": {"0": 7, "1": -2}}').initialOffset()
    assert _plain(start) == {"orders": {"0": 7, "1": 0}}
    reader = _reader(tmp_path, startingOffsets='{"orders": {"0": 7}}')
    end = reader.latestOffset(reader.initialOffset(), ReadAllAvailable())
    assert sorted((p, o) for _, p, o, _ in _rows(reader, reader.initialOffset(), end)) == [
        (0, 7),
        (0, 8),
        (0, 9),
    ] + [(1, o) for o in range(4)]
    at = _reader(tmp_path, startingTimestamp=str(1_700_000_000_000 + 2)).initialOffset()
    assert _plain(at) == {"orders": {"0": 2, "1": 2}}


def test_max_offsets_per_trigger_is_shared_in_proportion(tmp_path):
    for p, n in ((0, 30), (1, 10)):
        with logdir.PartitionWriter(tmp_path, "t", p) as w:
            for _ in range(n // 5):
                w.append(_records(5, b"x"))
    reader = _reader(tmp_path, maxOffsetsPerTrigger=8)
    assert reader.getDefaultReadLimit() == ReadMaxRows(8)
    start = reader.initialOffset()
    end = reader.latestOffset(start, reader.getDefaultReadLimit())
    assert _plain(end) == {"t": {"0": 6, "1": 2}}
    rows, last = _run(reader, end, [lambda: None] * 6)
    assert _plain(last) == {"t": {"0": 30, "1": 10}}
    assert len(_rows(reader, start, end)) + len(rows) == 40
    # a trigger that asks for everything (availableNow) gets everything
    assert _plain(reader.latestOffset(start, ReadAllAvailable())) == {"t": {"0": 30, "1": 10}}
    assert prorate({("a", 0): 0, ("b", 0): 0}, {("a", 0): 100, ("b", 0): 1}, 10) == {("a", 0): 9, ("b", 0): 1}


def test_min_offsets_per_trigger_waits_no_longer_than_max_trigger_delay(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "t", 0)
    w.append(_records(3, b"x"))
    _flush(w)
    reader = _reader(tmp_path, minOffsetsPerTrigger=10, maxTriggerDelay="1h")
    assert reader.getDefaultReadLimit() == ReadMinRows(10)
    start = reader.initialOffset()
    assert reader.latestOffset(start, ReadMinRows(10)) == start  # 3 < 10: wait
    w.append(_records(8, b"y"))
    _flush(w)
    assert _plain(reader.latestOffset(start, ReadMinRows(10))) == {"t": {"0": 11}}
    now = _reader(tmp_path, minOffsetsPerTrigger=100, maxTriggerDelay="1h")
    now.prepareForTriggerAvailableNow()
    assert _plain(now.latestOffset(start, ReadMinRows(100))) == {
        "t": {"0": 11}
    }  # availableNow: what is there, now
    w.append(_records(2, b"z"))
    _flush(w)
    assert _plain(now.latestOffset(start, ReadMinRows(100))) == {"t": {"0": 11}}  # and nothing after
    impatient = _reader(tmp_path, minOffsetsPerTrigger=100, maxTriggerDelay="0ms")
    assert _plain(impatient.latestOffset(start, ReadMinRows(100))) == {"t": {"0": 13}}  # waited long enough
    w.close()


def test_new_partitions_and_new_topics_matching_the_pattern_are_picked_up(tmp_path):
    with logdir.PartitionWriter(tmp_path, "orders-eu", 0) as w:
        w.append(_records(2, b"a"))
    reader = _reader(tmp_path, subscribePattern="orders-.*")
    start = reader.initialOffset()
    with logdir.PartitionWriter(tmp_path, "orders-eu", 1) as w:
        w.append(_records(3, b"b"))
    with logdir.PartitionWriter(tmp_path, "orders-us", 0) as w:
        w.append(_records(4, b"c"))
    with logdir.PartitionWriter(tmp_path, "payments", 0) as w:
        w.append(_records(5, b"d"))
    end = reader.latestOffset(start, ReadAllAvailable())
    assert _plain(end) == {"orders-eu": {"0": 2, "1": 3}, "orders-us": {"0": 4}}
    rows = _rows(reader, start, end)
    assert sorted((t, p, o) for t, p, o, _ in rows) == sorted(
        [("orders-eu", 0, o) for o in range(2)]
        + [("orders-eu", 1, o) for o in range(3)]
        + [("orders-us", 0, o) for o in range(4)]
    )


def _retention(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "t", 0, segment_bytes=300)
    for _ in range(6):
        w.append(_records(5, b"x"))
    _flush(w)
    first = logdir.Partition(tmp_path / "t-0").segments()[0]
    for suffix in (".log", ".index", ".timeindex"):
        first.path.with_suffix(suffix).unlink(missing_ok=True)
    return w, logdir.Partition(tmp_path / "t-0").segments()[0].base_offset


def test_offsets_deleted_before_they_were_read_fail_the_query_naming_them(tmp_path):
    w, log_start = _retention(tmp_path)
    reader = _reader(tmp_path)
    with pytest.raises(
        DataLossError, match=rf"t-0 offsets 0 to {log_start - 1} were deleted .*failOnDataLoss"
    ):
        reader.latestOffset({"t": {"0": 0}}, ReadAllAvailable())
    w.close()


def test_fail_on_data_loss_false_skips_them_and_logs(tmp_path, caplog):
    w, log_start = _retention(tmp_path)
    reader = _reader(tmp_path, failOnDataLoss="false")
    with caplog.at_level(logging.WARNING, logger="kafkaspec.spark"):
        end = reader.latestOffset({"t": {"0": 0}}, ReadAllAvailable())
    assert f"t-0 offsets 0 to {log_start - 1} were deleted" in caplog.text
    assert [r[2] for r in _rows(reader, {"t": {"0": log_start}}, end)] == list(range(log_start, 30))
    w.close()


def test_a_segment_deleted_between_planning_and_reading_is_data_loss(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "t", 0, segment_bytes=300)
    for _ in range(6):
        w.append(_records(5, b"x"))
    _flush(w)
    reader = _reader(tmp_path)
    start = reader.initialOffset()
    end = reader.latestOffset(start, ReadAllAvailable())
    tasks = reader.partitions(start, end)
    first = logdir.Partition(tmp_path / "t-0").segments()[0]
    first.path.unlink()
    with pytest.raises(DataLossError, match=r"t-0 offsets from 0 below 30 .* were deleted"):
        list(reader.read(tasks[0]))
    lenient = _reader(tmp_path, failOnDataLoss="false")
    assert list(lenient.read(tasks[0])) == []
    w.close()


def test_read_committed_holds_back_offsets_after_an_open_transaction(tmp_path):
    w = logdir.PartitionWriter(tmp_path, "t", 0)
    w.append(_records(2, b"plain"))
    w.append(_records(3, b"txn"), producer_id=4, producer_epoch=0, base_sequence=0, is_transactional=True)
    w.append(_records(2, b"after"))
    _flush(w)
    committed = _reader(tmp_path, isolationLevel="read_committed")
    uncommitted = _reader(tmp_path, isolationLevel="read_uncommitted")
    start = committed.initialOffset()
    end = committed.latestOffset(start, ReadAllAvailable())
    assert _plain(end) == {"t": {"0": 2}}  # the last stable offset: the open transaction's first
    assert _plain(uncommitted.latestOffset(start, ReadAllAvailable())) == {"t": {"0": 7}}
    w.append_control("abort", producer_id=4, producer_epoch=0)
    w.append(_records(3, b"txn2"), producer_id=4, producer_epoch=0, base_sequence=3, is_transactional=True)
    w.append_control("commit", producer_id=4, producer_epoch=0)
    _flush(w)
    end2 = committed.latestOffset(end, ReadAllAvailable())
    assert _plain(end2) == {"t": {"0": 12}}
    values = [r[3] for r in _rows(committed, start, end) + _rows(committed, end, end2)]
    assert values == [b"plain-0", b"plain-1", b"after-0", b"after-1", b"txn2-0", b"txn2-1", b"txn2-2"]
    w.close()


def test_include_headers_false_leaves_the_column_out(tmp_path):
    with logdir.PartitionWriter(tmp_path, "t", 0) as w:
        w.append([Record(key=None, value=b"v", timestamp=1, headers=[("h", b"1")])])
    reader = _reader(tmp_path, includeHeaders="false")
    start = reader.initialOffset()
    batches = [b for p in reader.partitions(start, {"t": {"0": 1}}) for b in reader.read(p)]
    assert "headers" not in batches[0].schema.names and "value" in batches[0].schema.names
    from kafkaspec.spark.read.source import KafkaLogDataSource

    assert "headers" not in KafkaLogDataSource({"includeHeaders": "false"}).schema().fieldNames()
    assert "headers" in KafkaLogDataSource({}).schema().fieldNames()
    with pytest.raises(OptionError, match="endingOffsets and endingTimestamp are for batch reads"):
        _reader(tmp_path, endingOffsets='{"t": {"0": 1}}')
    with pytest.raises(OptionError, match="maxOffsetsPerTrigger"):
        ReadOptions.parse({"maxOffsetsPerTrigger": "0"})
    with pytest.raises(OptionError, match="duration"):
        ReadOptions.parse({"maxTriggerDelay": "soon"})
