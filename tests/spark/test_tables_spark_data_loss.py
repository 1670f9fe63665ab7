"""A committed offset below the log start on Spark: the table engine refuses it as the Spark-free run
does (the plan is the driver's, before any task), and appends from the log start, saying so, with
``fail_on_data_loss=False``; ``pipeline --incremental`` (a streaming query, its checkpoint below the log
start after retention) fails through the source's ``failOnDataLoss``, naming the same offsets, raised
as the source's DataLossError (not Spark's StreamingQueryException with a plan and a traceback in its
text: the command line says it in one line, exit 1, as it says the table run's)."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest
from support.retention import drop_segments_below, retained, write_numbered
from support.tables import table_rows

from kafkaspec.errors import DataLossError
from kafkaspec.spark.run.incremental import CHECKPOINT, last_offsets, run_incremental
from kafkaspec.spark.run.tables import write_table

pytestmark = pytest.mark.spark


def test_the_table_engine_on_spark_refuses_the_gap_and_passes_over_it_when_asked(spark, tmp_path):
    src, copy, lake = tmp_path / "logs", tmp_path / "retained", tmp_path / "lake"
    (tmp_path / "canary").write_text("stays")
    write_numbered(src, 0, 10)
    write_table(spark, src, str(lake), format="delta")
    write_numbered(src, 10, 20)
    start = retained(src, copy, 15)
    before = table_rows("delta", lake, "orders")
    with pytest.raises(
        DataLossError, match=rf"orders-0 committed next offset 10, but the log starts at {start}"
    ):
        write_table(spark, copy, str(lake), format="delta")
    assert table_rows("delta", lake, "orders") == before
    run = write_table(spark, copy, str(lake), format="delta", fail_on_data_loss=False)
    assert run.passed_over == {"orders": {0: start - 10}} and run.rows == 30 - start
    assert [o for _, _, o, _ in table_rows("delta", lake, "orders")] == [*range(10), *range(start, 30)]
    assert (tmp_path / "canary").read_text() == "stays"


def test_incremental_fails_on_the_same_gap_through_fail_on_data_loss(spark, tmp_path):
    src, out = tmp_path / "logs", tmp_path / "out"
    (tmp_path / "canary").write_text("stays")
    write_numbered(src, 0, 10)
    assert run_incremental(spark, str(src), str(out)).offsets == {"orders": {"0": 10}}
    write_numbered(src, 10, 20)
    start = drop_segments_below(src / "orders-0", 15)
    with pytest.raises(
        DataLossError, match=rf"^kafkalog: orders-0 offsets 10 to {start - 1} were deleted"
    ) as lost:
        run_incremental(spark, str(src), str(out))
    assert "--no-fail-on-data-loss" in str(lost.value)  # what the command line's user can do about it
    assert last_offsets(out / CHECKPOINT) == {"orders": {"0": 10}}
    # asked to, the run passes over the gap and goes on from the log start (pipeline --no-fail-on-data-loss)
    assert run_incremental(spark, str(src), str(out), fail_on_data_loss=False).offsets == {
        "orders": {"0": 30}
    }
    offsets = sorted(pq.read_table(out / "records", columns=["offset"]).column("offset").to_pylist())
    assert offsets == [*range(10), *range(start, 30)]
    assert (tmp_path / "canary").read_text() == "stays"
