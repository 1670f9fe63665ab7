"""Kafka log directories in Spark: the ``kafkalog`` data source and the pipeline job.

>>> from kafkaspec.spark import register
>>> register(spark)                                               # doctest: +SKIP
>>> df = spark.read.format("kafkalog").load("/var/lib/kafka/data")  # doctest: +SKIP

Modules, one job each: :mod:`.schema` (columns), :mod:`.options` (reader
options), :mod:`.planning` (driver: segments to byte ranges),
:mod:`.pushdown` (Spark filters the source applies),
:mod:`.columnar` (executor: range to Arrow batches), :mod:`.audit` (the
batch-audit view), :mod:`.source` (the Data Source API classes),
:mod:`.writer` (DataFrame to partition directories), :mod:`.session`
(building a SparkSession), :mod:`.pipeline` (the log-to-Parquet job).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def register(spark: SparkSession) -> None:
    """Make ``spark.read.format("kafkalog")`` and ``df.write.format("kafkalog")`` available,
    and let Spark push topic, partition and offset filters down to it."""
    from ..extras import require_spark  # noqa: PLC0415

    require_spark("the kafkalog Spark source")
    from .source import KafkaLogDataSource  # noqa: PLC0415

    spark.dataSource.register(KafkaLogDataSource)
    spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")


__all__ = ["register"]
