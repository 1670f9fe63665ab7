"""One topic, one answer (issue 42, item 1), in Spark: the ``kafkalog`` source, the pipeline and DuckDB over
the pipeline's Parquet give the rows ``Partition.records`` gives and the topic's construction says
(:mod:`support.txn_topic`), for each isolation level, and read_committed when not told: aborted records,
the records of a transaction left open at the end of the log and the markers are not rows."""

from __future__ import annotations

import pytest
from support.txn_topic import write_txn_topic

from kafkaspec import logdir
from kafkaspec.spark.run.pipeline import run_pipeline

pytestmark = [pytest.mark.spark]


def _spark_rows(df) -> list[tuple[int, bytes | None]]:
    rows = df.select("offset", "value", "isControl").orderBy("offset").collect()
    return [(r.offset, None if r.isControl else bytes(r.value)) for r in rows]


def test_source_pipeline_and_duckdb_agree_with_records(spark, tmp_path):
    topic = write_txn_topic(tmp_path / "logs")
    (tmp_path / "canary").write_text("keep")
    part = logdir.open_log(topic.path).partition(topic.topic, topic.partition)
    reader = spark.read.format("kafkalog").option("splitSize", "256")
    for level in ("read_committed", "read_uncommitted"):
        for control in (False, True):
            expected = topic.rows[(level, control)]
            got = [
                (r.offset, None if b.is_control else r.value)
                for b, r in part.records(isolation_level=level, include_control=control)
            ]
            assert got == expected, (level, control)
            df = reader.option("isolationLevel", level).option("includeControl", str(control).lower())
            assert _spark_rows(df.load(str(topic.path))) == expected, (level, control)
    default = topic.rows[("read_committed", False)]
    assert _spark_rows(spark.read.format("kafkalog").load(str(topic.path))) == default

    import duckdb

    for level in ("read_uncommitted", None):
        out = tmp_path / f"out-{level}"
        kw = {} if level is None else {"isolation_level": level}
        run_pipeline(spark, str(topic.path), str(out), split_size="256", **kw)
        expected = topic.rows[(level or "read_committed", False)]
        assert _spark_rows(spark.read.parquet(str(out / "records"))) == expected, level
        rows = duckdb.sql(
            f'SELECT "offset", value FROM read_parquet(\'{out / "records"}/**/*.parquet\') ORDER BY "offset"'
        ).fetchall()
        assert [(o, bytes(v)) for o, v in rows] == expected, level
    assert (tmp_path / "canary").read_text() == "keep"
