"""The Spark source on a history written by Kafka's own tiered storage: ``spark.read.format("kafkalog")``
with the ``tiered`` option (the stopped broker's directory plus ``LocalTieredStorage``'s folder, as
``open_log(data, tiered=folder)`` reads them in test_broker_tiered) gives what the broker's consumers
returned of the topic ``tiered``, at both isolation levels, record for record, each offset once."""

from __future__ import annotations

import pytest
from support.kafka_tiered import TIERED
from support.kafka_workload import Row

pytestmark = pytest.mark.filterwarnings("ignore::kafkaspec.errors.SkippedDirWarning")


def _bytes(b: bytes | bytearray | None) -> bytes | None:
    return None if b is None else bytes(b)


def _first_difference(ours: list[Row], theirs: list[Row]) -> str:
    for a, b in zip(ours, theirs):
        if a != b:
            return f"kafkaspec {a} / broker {b}"
    return f"kafkaspec has {len(ours)} records, the broker served {len(theirs)}"


def test_the_spark_source_on_the_history_gives_what_the_broker_serves(broker_run, spark):
    from kafkaspec.spark import register

    register(spark)
    for isolation, served in (
        ("read_uncommitted", broker_run.tiered.uncommitted),
        ("read_committed", broker_run.tiered.committed),
    ):
        df = (
            spark.read.format("kafkalog")
            .option("isolationLevel", isolation)
            .option("tiered", str(broker_run.remote))
            .load(str(broker_run.stopped))
            .where(f"topic = '{TIERED}'")
            .selectExpr(
                "topic", "partition", "offset", "unix_millis(timestamp) AS ms", "key", "value", "headers"
            )
        )
        ours = sorted(
            (
                Row(
                    r.topic,
                    r.partition,
                    r.offset,
                    r.ms,
                    _bytes(r.key),
                    _bytes(r.value),
                    tuple((h.key, _bytes(h.value)) for h in r.headers),
                )
                for r in df.collect()
            ),
            key=lambda r: (r.partition, r.offset),
        )
        assert served[0].offset == 0 and len({r.offset for r in ours}) == len(ours)
        assert ours == served, f"{isolation}: {_first_difference(ours, served)}"
