"""The ``kafkalog`` writer and offsets no file can be named by (issue 39, item 4).

Rows at offsets [-5, 0] were written as ``t-0/-0000000000000000005.log`` and the write succeeded;
readers showed nothing and exit 0. Rows at 0 and 2^63-1 wrote ``09223372036854775808.snapshot``.
An offset outside 0..2^63-2 is refused before anything is written, naming the row (topic,
partition, offset). The executor side is driven here without Spark, then once through a session.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from pyspark.sql.types import BinaryType, IntegerType, LongType, StringType, StructField, StructType

from kafkaspec.logdir import InvariantError
from kafkaspec.spark.write.batches import BatchStager
from kafkaspec.spark.write.writer import KafkaLogWriter

pytestmark = pytest.mark.hostile

TOP = (1 << 63) - 1
SCHEMA = StructType(
    [
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("key", BinaryType()),
        StructField("value", BinaryType()),
        StructField("offset", LongType()),
    ]
)
CASES = [([-5, 0], -5), ([0, TOP], TOP)]


def _rows(offsets: list[int]) -> pa.RecordBatch:
    n = len(offsets)
    return pa.RecordBatch.from_arrays(
        [
            pa.array(["t"] * n),
            pa.array([0] * n, pa.int32()),
            pa.array([b"k"] * n),
            pa.array([b"v"] * n),
            pa.array(offsets, pa.int64()),
        ],
        names=["topic", "partition", "key", "value", "offset"],
    )


def _no_bad_name(root) -> None:
    bad = [p for p in root.rglob("*") if p.name.startswith("-") or p.name.startswith("0922337203685477580")]
    assert bad == []


@pytest.mark.parametrize("per_batch", ["1", "500"])
@pytest.mark.parametrize(("offsets", "refused"), CASES)
def test_the_executor_refuses_the_row(offsets, refused, per_batch, tmp_path):
    out = tmp_path / "out"
    (tmp_path / "canary").write_text("keep")
    writer = KafkaLogWriter(str(out), {"recordsPerBatch": per_batch}, SCHEMA, True)
    with pytest.raises(
        InvariantError, match=rf"kafkalog write: t-0 offset {refused}: an offset is a number"
    ) as info:
        writer.write(iter([_rows(offsets)]))
    assert "\n" not in str(info.value)
    writer.abort([])
    _no_bad_name(tmp_path)
    assert not (out / "t-0").exists() and (tmp_path / "canary").read_text() == "keep"


@pytest.mark.parametrize(("offset", "shown"), [(-5, "-5"), (TOP, str(TOP))])
def test_the_batch_preserving_stager_refuses_the_row(offset, shown, tmp_path):
    stager = BatchStager(tmp_path / "task", "t", 0, compression=None, segment_bytes=1 << 20)
    with pytest.raises(InvariantError, match=rf"kafkalog write: t-0 offset {shown}: an offset is a number"):
        stager.add(offset, 0, b"k", b"v", [], (None,) * 11)
    assert not (tmp_path / "task").exists()


@pytest.mark.spark
def test_a_spark_write_of_such_rows_fails_in_one_line_and_writes_nothing(spark, tmp_path):
    canary = tmp_path / "canary"
    canary.write_text("keep")
    out = tmp_path / "out"
    for offsets, refused in CASES:
        rows = [("t", 0, b"k", b"v", o) for o in offsets]
        df = spark.createDataFrame(rows, "topic string, partition int, key binary, value binary, offset long")
        with pytest.raises(Exception) as info:
            df.coalesce(1).write.format("kafkalog").mode("overwrite").save(str(out))
        text = str(info.value)
        assert type(info.value).__name__ == "PythonException", type(info.value)
        assert (
            text.strip()
            .splitlines()[-1]
            .endswith(
                f"kafkalog write: t-0 offset {refused}: an offset is a number "
                f"from 0 to {TOP - 1} (the next offset must fit in an int64)"
            )
        )
        assert "at org.apache" not in text
    _no_bad_name(tmp_path)
    assert canary.read_text() == "keep" and not (out / "t-0").exists()
