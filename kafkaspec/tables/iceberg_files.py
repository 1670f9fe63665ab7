"""The data files of one Iceberg commit, written as the records stream in.

pyiceberg's own write (``_dataframe_to_data_files``) takes a whole table in memory: for a partitioned
table it adds the transformed columns, groups them, filters the table once per partition value and
copies each part again before writing, so each record is copied three times and the batches wait in
memory for the chunk to fill. Here each batch goes straight to the open file of its partition (a batch
of one day, nearly all of them, whole; one that spans several split by value), with the writer, file
names, statistics and ``DataFile`` entries that pyiceberg's write makes, so the table cannot tell the
difference: what a table adds to plain Parquet is then its commit alone.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from pyiceberg.io.pyarrow import ParquetFormatModel, _to_requested_schema, pyarrow_to_schema
from pyiceberg.manifest import DataFile, DataFileContent, FileFormat
from pyiceberg.partitioning import PartitionFieldValue, PartitionKey
from pyiceberg.schema import sanitize_column_names
from pyiceberg.table import DOWNCAST_NS_TIMESTAMP_TO_US_ON_WRITE, WriteTask
from pyiceberg.table.locations import load_location_provider
from pyiceberg.typedef import Record
from pyiceberg.utils.config import Config

_FORMAT = ParquetFormatModel()
#: files open at once: records in time order fill one day (hour, ...) after another, and a file whose
#: partition has not been written to for longest is closed when one more would pass this
MAX_OPEN = 32
#: bytes of Arrow data per row group (the batches as read hold a few thousand records each; a row group
#: per batch would make readers pay for thousands of tiny ones)
ROW_GROUP = 16 << 20


class _OpenFile:
    """One data file being written: its writer, where it goes, and the in-memory bytes handed to it."""

    def __init__(self, writer: Any, output: Any, path: str, key: PartitionKey | None):
        self.writer, self.output, self.path, self.key = writer, output, path, key
        self.size = 0
        #: batches not yet written: written together, as one row group, once they hold :data:`ROW_GROUP`
        self.pending: list[pa.RecordBatch] = []
        self.pending_size = 0

    def add(self, batch: pa.RecordBatch, size: int) -> None:
        self.pending.append(batch)
        self.pending_size += size
        self.size += size
        if self.pending_size >= ROW_GROUP:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.writer.write(pa.Table.from_batches(self.pending))
            self.pending, self.pending_size = [], 0


class DataFiles:
    """Data files of one commit of the table whose metadata is ``metadata``, each of about ``target``
    bytes of Arrow data (pyiceberg's measure of ``write.target-file-size-bytes``)."""

    def __init__(
        self, metadata: Any, io: Any, schema: pa.Schema, target: int, write_uuid: uuid.UUID | None = None
    ):
        self.metadata, self.io, self.target = metadata, io, target
        self.uuid = write_uuid or uuid.uuid4()
        self.spec = metadata.spec()
        table_schema = metadata.schema()
        self.iceberg_schema = table_schema
        self.file_schema = sanitize_column_names(table_schema)
        #: pyiceberg's setting for nanosecond timestamps (a typed value may hold them), as its write reads it
        self.downcast = Config().get_bool(DOWNCAST_NS_TIMESTAMP_TO_US_ON_WRITE) or False
        self.task_schema = pyarrow_to_schema(
            schema,
            name_mapping=table_schema.name_mapping,
            downcast_ns_timestamp_to_us=self.downcast,
            format_version=metadata.format_version,
        )
        self.location = load_location_provider(metadata.location, metadata.properties)
        self.transforms = [
            (
                field,
                table_schema.find_column_name(field.source_id),
                field.transform.pyarrow_transform(table_schema.find_field(field.source_id).field_type),
            )
            for field in self.spec.fields
        ]
        self._counter = itertools.count(0)
        self._open: dict[tuple[Any, ...], _OpenFile] = {}
        self.done: list[DataFile] = []
        self.rows = 0

    def write_all(self, batches: Iterable[pa.RecordBatch]) -> list[DataFile]:
        """Write every batch, close every file; the files' entries."""
        try:
            for rb in batches:
                self.write(rb)
        except BaseException:
            self._abandon()
            raise
        return self.close()

    def write(self, rb: pa.RecordBatch) -> None:
        if not rb.num_rows:
            return
        self.rows += rb.num_rows
        for values, part in self._by_partition(rb):
            if part.nbytes <= self.target:
                self._append(values, part)
                continue
            step = max(1, self.target * part.num_rows // part.nbytes)  # rows of about a file each
            for at in range(0, part.num_rows, step):
                self._append(values, part.slice(at, step))

    def _by_partition(self, rb: pa.RecordBatch) -> Iterator[tuple[tuple[Any, ...], pa.RecordBatch]]:
        """The batch per partition value: whole when all its rows share one (one check per field)."""
        if not self.transforms:
            yield (), rb
            return
        columns = [fn(rb.column(name)) for _, name, fn in self.transforms]
        single = [_single(c) for c in columns]
        if all(s is not _MIXED for s in single):
            yield tuple(single), rb
            return
        names = [f"_partition_{i}" for i in range(len(columns))]
        keyed = pa.Table.from_batches([rb])
        for name, column in zip(names, columns, strict=True):
            keyed = keyed.append_column(name, column)
        for found in keyed.select(names).group_by(names).aggregate([]).to_pylist():
            mask = None
            for name in names:
                value = found[name]
                test = pc.is_null(keyed[name]) if value is None else pc.equal(keyed[name], value)
                mask = test if mask is None else pc.and_(mask, test)
            part = keyed.filter(mask).drop_columns(names)
            for piece in part.to_batches():
                yield tuple(found[n] for n in names), piece

    def _append(self, values: tuple[Any, ...], rb: pa.RecordBatch) -> None:
        current = self._open.pop(values, None)
        if current is None:
            if len(self._open) >= MAX_OPEN:  # the partition written to least recently
                self.done.append(self._finish(self._open.pop(next(iter(self._open)))))
            current = self._new(values)
        self._open[values] = current  # the most recent last
        batch = _to_requested_schema(
            requested_schema=self.file_schema,
            file_schema=self.task_schema,
            batch=rb,
            downcast_ns_timestamp_to_us=self.downcast,
            include_field_ids=True,
            format_model=_FORMAT,
        )
        current.add(batch, rb.nbytes)
        if current.size >= self.target:
            self.done.append(self._finish(self._open.pop(values)))

    def _new(self, values: tuple[Any, ...]) -> _OpenFile:
        key = (
            PartitionKey(
                field_values=[
                    PartitionFieldValue(field=f, value=v)
                    for (f, _, _), v in zip(self.transforms, values, strict=True)
                ],
                partition_spec=self.spec,
                schema=self.iceberg_schema,
            )
            if self.transforms
            else None
        )
        task = WriteTask(
            write_uuid=self.uuid, task_id=next(self._counter), schema=self.task_schema, record_batches=[]
        )
        path = self.location.new_data_location(
            data_file_name=task.generate_data_file_filename(_FORMAT.file_extension()), partition_key=key
        )
        output = self.io.new_output(path)
        return _OpenFile(
            _FORMAT.create_writer(output, self.file_schema, self.metadata.properties), output, path, key
        )

    def _finish(self, f: _OpenFile) -> DataFile:
        f.flush()
        statistics = f.writer.close()
        return DataFile.from_args(
            content=DataFileContent.DATA,
            file_path=f.path,
            file_format=FileFormat.PARQUET,
            partition=f.key.partition if f.key is not None else Record(),
            file_size_in_bytes=len(f.output),
            sort_order_id=None,
            spec_id=self.metadata.default_spec_id,
            equality_ids=None,
            key_metadata=None,
            **statistics.to_serialized_dict(),
        )

    def close(self) -> list[DataFile]:
        for values in list(self._open):
            self.done.append(self._finish(self._open.pop(values)))
        return self.done

    def _abandon(self) -> None:
        """A failed write: the files open so far closed (they are no snapshot's, as after a kill)."""
        for f in self._open.values():
            f.pending = []
            try:
                f.writer.close()
            except Exception:  # the error that stopped the write is the one raised
                pass
        self._open.clear()


_MIXED = object()


def _single(column: pa.Array | pa.ChunkedArray) -> Any:
    """The one value every row of ``column`` has (None: null in every row), or ``_MIXED``."""
    nulls = column.null_count
    if nulls == len(column):
        return None
    if nulls:
        return _MIXED
    try:
        bounds = pc.min_max(column)
    except pa.ArrowNotImplementedError:
        return _MIXED
    low, high = bounds["min"].as_py(), bounds["max"].as_py()
    return low if low == high else _MIXED
