"""The restart check in local Spark: a query's checkpoint (its ``offsets/`` files) carries the batch marks
through Spark, and a query started again over a log cut back and grown past its checkpoint while it was
stopped fails naming the partition; with ``failOnDataLoss`` false it reads on from its checkpoint."""

from __future__ import annotations

import json

import pytest
from test_stream_truncation import _append, _batch, _log, _truncate_to

from kafkaspec.spark.read.options import MARKS_KEY


def _run(spark, src, out, checkpoint, **options):
    reader = spark.readStream.format("kafkalog")
    for k, v in options.items():
        reader = reader.option(k, v)
    query = (
        reader.load(str(src))
        .selectExpr("offset", "CAST(value AS STRING) AS value")
        .writeStream.format("parquet")
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start(str(out))
    )
    query.awaitTermination()
    return query


def test_a_query_restarted_over_a_log_regrown_past_its_checkpoint_fails_or_reads_on(spark, tmp_path):
    log = _log(tmp_path)
    first = _batch(0, 10, b"old")
    _append(log, first, _batch(10, 10, b"old"))
    src, out, ck = log.parent.parent, tmp_path / "out", tmp_path / "ck"
    _run(spark, src, out, ck)
    logged = json.loads((ck / "offsets" / "0").read_text().splitlines()[2])
    assert logged["t"] == {"0": 20} and logged[MARKS_KEY]["t"]["0"]["position"] == len(first)
    _truncate_to(log, len(first))
    _append(log, _batch(10, 30, b"new"))
    with pytest.raises(Exception, match=r"t-0: the log went back while the query was stopped"):
        _run(spark, src, out, ck)
    _run(spark, src, out, ck, failOnDataLoss="false")
    rows = sorted(spark.read.parquet(str(out)).collect())
    assert [(r.offset, r.value) for r in rows] == [(i, f"old-{i}") for i in range(20)] + [
        (i, f"new-{i}") for i in range(20, 40)
    ]
    assert (tmp_path / "canary").read_text() == "keep"
