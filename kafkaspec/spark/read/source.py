"""The ``kafkalog`` data source: PySpark 4's Python Data Source API over Kafka log directories.

``spark.read.format("kafkalog").load(path)`` plans on the driver (:mod:`.planning`: each Spark
input partition is one :class:`~kafkaspec.arrow.ranges.ReadRange`) and decodes on the
executors (:mod:`kafkaspec.arrow.ranges`, or :mod:`.audit` for ``view=batches``);
``df.write.format("kafkalog").save(path)`` writes partition directories (:mod:`kafkaspec.spark.write.writer`);
``spark.readStream.format("kafkalog")`` follows a growing log (:mod:`kafkaspec.spark.stream.reader`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

from dataclasses import replace

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    DataSourceStreamReader,
    Filter,
    InputPartition,
)

from ...arrow.ranges import ReadRange
from ...errors import KafkaFormatError, MissingExtraError
from .option_names import READ_OPTIONS, check_names
from .options import ReadOptions
from .partition import RangePartition
from .schema import AUDIT_COLUMNS, DECODE_COLUMNS, OFFSETS_COLUMNS, RECORD_COLUMNS, struct_type
from .tasks import our_errors_first, read_task

#: the errors of planning that say what is wrong in their own line: a bad option, path or file, a missing
#: extra (any other keeps its traceback: a bug of ours)
SAID = (KafkaFormatError, OSError, ValueError, MissingExtraError)


@contextlib.contextmanager
def alone() -> Iterator[None]:
    """Planning (Spark's Python planner worker, before any task): an error of :data:`SAID` reaches the
    user as Spark's one line, ``[PYTHON_DATA_SOURCE_ERROR] Failed to ...: OptionError: option
    isolationLevel must be ...``, not under 8 to 20 lines of traceback through the source. PySpark's
    worker formats the error without its traceback when ``SPARK_HIDE_TRACEBACK`` is set when it
    handles it (pyspark.util.handle_worker_exception), and the planner worker exits after an error,
    so setting it here changes nothing else."""
    try:
        yield
    except SAID:
        os.environ["SPARK_HIDE_TRACEBACK"] = "1"
        raise


class KafkaLogDataSource(DataSource):
    """Kafka log directories as a Spark source and sink; options: see :mod:`kafkaspec.spark.read.options`."""

    @classmethod
    def name(cls) -> str:
        return "kafkalog"

    def _path(self) -> str:
        path = self.options.get("path")
        if not path:
            raise ValueError("kafkalog needs a path: spark.read.format('kafkalog').load('/data/kafka')")
        return path

    def _opts(self) -> ReadOptions:
        """The parsed options, with the typed values' schemas resolved once (on the driver)."""
        if getattr(self, "_parsed", None) is None:
            check_names(self.options, READ_OPTIONS, "the kafkalog source")
            opts = ReadOptions.parse(self.options)
            if opts.values is not None:
                opts = _with_value_schemas(self._path(), opts)
            self._parsed = opts
        return self._parsed

    def schema(self) -> StructType:
        with alone():
            return self._typed_schema()

    def _typed_schema(self) -> StructType:
        opts = self._opts()
        if opts.values is not None:
            from .values import with_spark_fields

            return with_spark_fields(self._schema(opts), opts.values, opts.view)
        return self._schema(opts)

    def _schema(self, opts: ReadOptions) -> StructType:
        if opts.view == "batches":
            return struct_type(AUDIT_COLUMNS)
        if opts.view == "offsets":
            return struct_type(OFFSETS_COLUMNS)
        columns = RECORD_COLUMNS + (DECODE_COLUMNS if opts.decode else ())
        if not opts.include_headers:
            columns = tuple(c for c in columns if c[0] != "headers")
        return struct_type(columns)

    def reader(self, schema: StructType) -> DataSourceReader:
        with alone():
            return KafkaLogReader(self._path(), self._opts())

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        from ..stream.reader import KafkaLogStreamReader

        with alone():
            return KafkaLogStreamReader(self._path(), self._opts())

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceArrowWriter:
        from ..write.writer import KafkaLogWriter

        with alone():
            return KafkaLogWriter(self._path(), dict(self.options), schema, overwrite)


def _with_value_schemas(path: str, opts: ReadOptions) -> ReadOptions:
    """``opts`` with its typed values' topics and ``_schemas`` resolved against the data at ``path``
    (:func:`.values.resolve`), once, on the driver."""
    from .planning import on_driver, open_source
    from .values import resolve

    assert opts.values is not None
    with open_source(path, on_driver(path, opts)) as log:
        return replace(opts, values=resolve(opts.values, log, opts.wants))


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

        with alone():
            ranges = plan(self.path, self.opts)
        # Spark needs at least one partition; an empty range reads nothing
        return [RangePartition(r) for r in ranges] or [RangePartition(ReadRange(self.path, "", -1, 0, 0))]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        return our_errors_first(self._read(partition))

    def _read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        assert isinstance(partition, RangePartition)
        return read_task(partition.task, self.opts)


class UnpushedReader(KafkaLogReader):
    """The reader of a session that did not call :func:`kafkaspec.spark.register`: the same reads, with
    no filter pushed down. PySpark refuses a reader that implements ``pushFilters`` while
    ``spark.sql.python.filterPushdown.enabled`` is off (its default, which ``register`` turns on), and
    the source cannot ask a session's configuration; so this one takes Spark's own, which pushes
    nothing, and Spark applies every filter."""

    pushFilters = DataSourceReader.pushFilters


class DiscoveredDataSource(KafkaLogDataSource):
    """``kafkalog`` as Spark finds it with no ``register`` call: at its first use of a Python data source,
    Spark imports every top-level module named ``pyspark_*`` its Python workers can import and registers
    the ``DefaultSource`` it holds (pyspark/sql/worker/lookup_data_sources.py); kafkaspec's wheel ships
    ``pyspark_kafkalog`` for it. Filters are not pushed down then (:class:`UnpushedReader`)."""

    def reader(self, schema: StructType) -> DataSourceReader:
        with alone():
            return UnpushedReader(self._path(), self._opts())
