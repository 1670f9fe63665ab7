"""The kafkalog writer's executor side, driven directly with Arrow batches (no Spark session):
in-order rows stream out a batch at a time, out-of-order rows are sorted, bad rows are refused."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from pyspark.sql.types import BinaryType, IntegerType, LongType, StringType, StructField, StructType
from support.spark import runtime_rows

from kafkaspec.logdir import PartitionWriter
from kafkaspec.spark.write.writer import STAGING, KafkaLogWriter

SCHEMA = StructType(
    [
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("key", BinaryType()),
        StructField("value", BinaryType()),
    ]
)


def arrow(rows) -> pa.RecordBatch:
    topic, partition, offset, key, value = zip(*rows, strict=True) if rows else ([],) * 5
    return pa.RecordBatch.from_arrays(
        [
            pa.array(topic, pa.string()),
            pa.array(partition, pa.int32()),
            pa.array(offset, pa.int64()),
            pa.array(key, pa.binary()),
            pa.array(value, pa.binary()),
        ],
        names=["topic", "partition", "offset", "key", "value"],
    )


def rows(topic, partition, offsets):
    return [(topic, partition, o, b"k%d" % o, b"v%d" % o) for o in offsets]


def write(path: Path, batches, per_batch: int = 4):
    w = KafkaLogWriter(str(path), {"recordsPerBatch": str(per_batch)}, SCHEMA, overwrite=False)
    w.commit([w.write(iter(batches))])


def logged(path: Path) -> list[tuple]:
    return [(t, p, o, k, v) for t, p, o, _, k, v, _ in runtime_rows(path)]


def test_in_order_rows_are_written_while_the_input_is_still_being_read(tmp_path, monkeypatch):
    appended, seen = [], []
    real = PartitionWriter.append_batch

    def append_batch(self, batch, *args, **kwargs):
        appended.append(len(batch))
        return real(self, batch, *args, **kwargs)

    monkeypatch.setattr(PartitionWriter, "append_batch", append_batch)

    def batches():
        yield arrow(rows("t", 0, range(0, 8)))
        seen.append(len(appended))  # both full batches of 4 have gone to the staged log by now
        yield arrow(rows("t", 0, range(8, 10)) + rows("u", 3, [5, 9]))

    write(tmp_path, batches())
    assert seen == [2]
    assert len(appended) == 4
    assert logged(tmp_path) == rows("t", 0, range(10)) + rows("u", 3, [5, 9])
    assert not (tmp_path / STAGING).exists()


def test_out_of_order_rows_are_merged_with_what_was_written_and_sorted(tmp_path):
    order = [0, 1, 2, 3, 4, 5, 20, 7, 6, 9, 30, 8]
    write(tmp_path, [arrow(rows("t", 0, order[:6])), arrow(rows("t", 0, order[6:]))], per_batch=2)
    assert logged(tmp_path) == rows("t", 0, sorted(order))


def test_duplicate_offsets_are_refused(tmp_path):
    with pytest.raises(ValueError, match="offset 3 appears twice in t-0"):
        write(tmp_path, [arrow(rows("t", 0, [1, 2, 3, 4, 3]))])


def test_offsets_null_in_some_rows_only_are_refused(tmp_path):
    with pytest.raises(ValueError, match="offset is null in some rows of t-0 and set in others"):
        write(tmp_path, [arrow(rows("t", 0, [1, 2]) + [("t", 0, None, b"k", b"v")])])


def test_null_topic_is_refused(tmp_path):
    with pytest.raises(ValueError, match="topic and partition must not be null"):
        write(tmp_path, [arrow([(None, 0, 1, b"k", b"v")])])
