"""The Spark input partition of the ``kafkalog`` source, batch and stream alike: one range of the read plan."""

from __future__ import annotations

from pyspark.sql.datasource import InputPartition

from ...arrow.ranges import ReadRange


class RangePartition(InputPartition):
    """A Spark input partition of the batch source or the stream: one :class:`ReadRange` (picklable), what
    Spark's API asks for (an ``InputPartition``); ``task``: the range."""

    def __init__(self, task: ReadRange):
        super().__init__(task)
        self.task = task
