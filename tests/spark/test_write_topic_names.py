"""Issue 30 item 1, in a Spark job: a ``kafkalog`` write whose rows carry a topic Kafka refuses fails with
one line naming the topic and the rule (the Python worker's error, not a Java stack), and writes
nothing outside (or inside) the destination. The executor and driver sides without a session are
tests/logdir/test_topic_names.py."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

CANARY = b"must survive"
LINE = (
    "kafkaspec.errors.InvalidTopicError: kafkalog write: topic {topic} is illegal: it holds '/' at "
    "character 2; a topic name holds only ASCII letters, digits, '.', '_' and '-'"
)


def _fails_with_one_line(write, topic: str) -> None:
    with pytest.raises(Exception) as info:
        write()
    text = str(info.value)
    assert type(info.value).__name__ == "PythonException", type(info.value)
    assert "at org.apache" not in text and "py4j" not in text.lower(), text
    lines = text.strip().splitlines()
    assert lines[-1] == LINE.format(topic=repr(topic)), text
    assert len(lines) <= 5, text  # the worker's header, our one raising frame, our line: no decoder traceback


def test_plain_write_of_a_row_with_a_bad_topic_fails_in_one_line(spark, tmp_path):
    canary = tmp_path / "canary"
    canary.write_bytes(CANARY)
    out = tmp_path / "out"
    rows = [("ok", 0, b"k", b"v"), ("../x", 0, b"k", b"v")]
    df = spark.createDataFrame(rows, "topic string, partition int, key binary, value binary").coalesce(1)
    _fails_with_one_line(lambda: df.write.format("kafkalog").mode("overwrite").save(str(out)), "../x")
    assert (
        canary.read_bytes() == CANARY
        and not (tmp_path / "x-0").exists()
        and not (tmp_path.parent / "x-0").exists()
    )
    assert sorted(p.name for p in tmp_path.iterdir()) in (["canary"], ["canary", "out"])
    assert not out.exists() or list(out.iterdir()) == []


def test_batch_preserving_write_of_a_renamed_topic_fails_in_one_line(spark, synth_dir, tmp_path):
    canary = tmp_path / "canary"
    canary.write_bytes(CANARY)
    out = tmp_path / "out"
    df = (
        spark.read.format("kafkalog")
        .option("subscribe", "clicks")
        .load(str(synth_dir))
        .withColumn("topic", F.lit("../x"))
    )
    _fails_with_one_line(lambda: df.write.format("kafkalog").mode("overwrite").save(str(out)), "../x")
    assert (
        canary.read_bytes() == CANARY
        and not (tmp_path / "x-0").exists()
        and not (tmp_path.parent / "x-0").exists()
    )
    assert sorted(p.name for p in tmp_path.iterdir()) in (["canary"], ["canary", "out"])
    assert not out.exists() or list(out.iterdir()) == []
