"""The ``kafkalog`` data source: PySpark 4's Python Data Source API over Kafka log directories.

``spark.read.format("kafkalog").load(path)`` plans on the driver
(:mod:`.planning`) and decodes on the executors (:mod:`.columnar`, or
:mod:`.audit` for ``view=batches``); ``df.write.format("kafkalog").save(path)``
writes partition directories (:mod:`.writer`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

from dataclasses import replace

from pyspark.sql.datasource import DataSource, DataSourceArrowWriter, DataSourceReader, Filter, InputPartition

from ..errors import KafkaFormatError
from .columnar import RangeTask
from .options import ReadOptions
from .schema import AUDIT_COLUMNS, DECODE_COLUMNS, OFFSETS_COLUMNS, RECORD_COLUMNS, struct_type


def our_errors_first(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """``batches``, with a data error (a :class:`KafkaFormatError`, which names the file and the byte)
    raised with no traceback of ours: PySpark shows the worker's traceback above the error's own line,
    and the frames inside the decoder say nothing to a user, so the message comes first."""
    try:
        yield from batches
    except KafkaFormatError as exc:
        raise exc.with_traceback(None) from None


class RangePartition(InputPartition):
    """An input partition carrying one :class:`RangeTask` (picklable)."""

    def __init__(self, task: RangeTask):
        super().__init__(task)
        self.task = task


class KafkaLogDataSource(DataSource):
    """Kafka log directories as a Spark source and sink; options: see :mod:`kafkaspec.spark.options`."""

    @classmethod
    def name(cls) -> str:
        return "kafkalog"

    def _path(self) -> str:
        path = self.options.get("path")
        if not path:
            raise ValueError("kafkalog needs a path: spark.read.format('kafkalog').load('/data/kafka')")
        return path

    def schema(self) -> StructType:
        opts = ReadOptions.parse(self.options)
        if opts.view == "batches":
            return struct_type(AUDIT_COLUMNS)
        if opts.view == "offsets":
            return struct_type(OFFSETS_COLUMNS)
        return struct_type(RECORD_COLUMNS + (DECODE_COLUMNS if opts.decode else ()))

    def reader(self, schema: StructType) -> DataSourceReader:
        return KafkaLogReader(self._path(), ReadOptions.parse(self.options))

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceArrowWriter:
        from .writer import KafkaLogWriter

        return KafkaLogWriter(self._path(), dict(self.options), schema, overwrite)


class KafkaLogReader(DataSourceReader):
    """Plans ranges on the driver; decodes one range per task into Arrow batches."""

    def __init__(self, path: str, opts: ReadOptions):
        self.path = path
        self.opts = opts

    def pushFilters(self, filters: list[Filter]) -> Iterable[Filter]:  # the Data Source API's name
        """Apply topic, partition and offset filters while planning; Spark keeps the others."""
        if self.opts.view not in ("records",):
            return filters
        from .pushdown import push

        pushed, rest = push(filters)
        self.opts = replace(self.opts, pushed=pushed)
        return rest

    def partitions(self) -> Sequence[InputPartition]:
        from .planning import plan

        tasks = plan(self.path, self.opts)
        # Spark needs at least one partition; an empty range reads nothing
        return [RangePartition(t) for t in tasks] or [RangePartition(RangeTask(self.path, "", -1, 0, 0))]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        return our_errors_first(self._read(partition))

    def _read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        assert isinstance(partition, RangePartition)
        task = partition.task
        if task.end <= task.start and task.unused is None:
            return iter(())
        if self.opts.view == "batches":
            from .audit import read_audit

            return read_audit(task)
        from .columnar import read_records

        if self.opts.view == "offsets":
            from .decoding import read_offsets

            return read_offsets(read_records(task), task, self.opts.skip_corrupt)
        if self.opts.decode:
            from .decoding import with_decoded

            return with_decoded(read_records(task), task, self.opts.skip_corrupt)
        return read_records(task)
