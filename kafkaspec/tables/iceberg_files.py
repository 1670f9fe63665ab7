"""The data files of one Iceberg commit, written as the records stream in (:mod:`.data_files`), with
the writer, file names, statistics and ``DataFile`` entries that pyiceberg's own write makes
(``_dataframe_to_data_files``), so the table cannot tell the difference; the names carry the id of the
run writing them (``00000-<task>-<uuid>-run-<run>.parquet``), for the cleanup of a killed run's files
(:mod:`.leftovers`).
"""

from __future__ import annotations

import itertools
import uuid
from typing import Any

import pyarrow as pa
from pyiceberg.io.pyarrow import ParquetFormatModel, _to_requested_schema, pyarrow_to_schema
from pyiceberg.manifest import DataFile, DataFileContent, FileFormat
from pyiceberg.partitioning import PartitionFieldValue, PartitionKey
from pyiceberg.schema import sanitize_column_names
from pyiceberg.table import DOWNCAST_NS_TIMESTAMP_TO_US_ON_WRITE, WriteTask
from pyiceberg.table.locations import load_location_provider
from pyiceberg.typedef import Record
from pyiceberg.utils.config import Config

from .data_files import OpenFile, PartitionedFiles
from .leftovers import run_tag

_FORMAT = ParquetFormatModel()


class DataFiles(PartitionedFiles):
    """Data files of one commit of the table whose metadata is ``metadata``, each of about ``target``
    bytes of Arrow data (pyiceberg's measure of ``write.target-file-size-bytes``), named with the id of
    the ``run`` writing them."""

    def __init__(
        self,
        metadata: Any,
        io: Any,
        schema: pa.Schema,
        target: int,
        write_uuid: uuid.UUID | None = None,
        run: str | None = None,
    ):
        self.metadata, self.io = metadata, io
        self.uuid = write_uuid or uuid.uuid4()
        self.tag = run_tag(run)
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
        super().__init__(target, [(name, fn) for _, name, fn in self.transforms])
        self._counter = itertools.count(0)

    def _prepare(self, rb: pa.RecordBatch) -> pa.RecordBatch:
        return _to_requested_schema(
            requested_schema=self.file_schema,
            file_schema=self.task_schema,
            batch=rb,
            downcast_ns_timestamp_to_us=self.downcast,
            include_field_ids=True,
            format_model=_FORMAT,
        )

    def _new(self, values: tuple[Any, ...]) -> OpenFile:
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
        ext = _FORMAT.file_extension()
        name = task.generate_data_file_filename(ext).removesuffix(f".{ext}") + f"{self.tag}.{ext}"
        path = self.location.new_data_location(data_file_name=name, partition_key=key)
        output = self.io.new_output(path)
        return OpenFile(
            _FORMAT.create_writer(output, self.file_schema, self.metadata.properties), output, path, key
        )

    def _finish(self, f: OpenFile) -> DataFile:
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
