"""The data files of one Delta commit, written as the records stream in (:mod:`.data_files`) with
pyarrow's Parquet writer, laid as delta-rs lays them: one folder per partition value
(``timestamp_day=2023-11-14/``), the partition columns in the folder names and the add actions but not
in the files, ``part-<n>-<uuid>-c000-run-<run>.snappy.parquet`` (the run's id, for the cleanup of a
killed run's files: :mod:`.leftovers`), and the statistics delta-rs collects (the row
count; bounds and null counts of the first 32 columns that are neither binary nor nested), read from
the Parquet footer rather than computed again. The commit of the add actions is the caller's
(:mod:`.delta` without Spark, :mod:`.files` on Spark's driver).
"""

from __future__ import annotations

import datetime
import itertools
import json
import os
import time
import uuid
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyarrow import fs

from ..logdir.store.clients import StorageOptions
from ..logdir.store.storage import is_uri, parse_uri
from .data_files import OpenFile, PartitionedFiles
from .errors import TableError
from .layout import PartitionField
from .leftovers import run_tag

#: the columns delta-rs keeps statistics of (``delta.dataSkippingNumIndexedCols``' default)
STATS_COLUMNS = 32
#: a text bound longer than this is left out (delta-rs cuts such bounds to this length; an absent
#: bound is always safe, a maximum cut short is below the values it bounds)
TEXT_BOUND = 64


def filesystem(location: str, store: StorageOptions | None = None) -> tuple[Any, str]:
    """pyarrow's file system of a table's URI (or local folder) and the table's root path in it; an
    object store's (``s3://``, ``gs://``, ``abfs://``, ...) made from ``store`` (the driver's settings
    shipped to a task), else from the environment, as kafkaspec's own store clients make it (each
    request bounded; pyarrow's own client of an ``abfs://`` URI would know no connection string)."""
    if is_uri(location):
        path = parse_uri(location, store)
        return path.store.fs, path.key
    found, root = fs.FileSystem.from_uri(location if "://" in location else os.path.abspath(location))
    return found, root.rstrip("/")


def derive(ts: pa.Array, transform: str) -> pa.Array:
    """A partition column from the record timestamp (Delta partitions by columns, not transforms)."""
    if transform == "day":
        return pc.cast(pc.cast(ts, pa.timestamp("us")), pa.date32())
    if transform == "year":
        return pc.year(ts)
    return pc.strftime(ts, "%Y-%m-%d-%H" if transform == "hour" else "%Y-%m")


def partition_text(value: Any) -> str | None:
    """A partition value as Delta writes it in ``partitionValues`` (and in the folder's name)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def foldered(schema: pa.Schema, partition_by: Sequence[PartitionField]) -> bool:
    """Whether each partition column of ``partition_by`` has values a folder name holds as Delta
    writes them (text, numbers, booleans, dates: not bytes, timestamps or nested values)."""
    for p in partition_by:
        if p.transform == "identity":
            t = schema.field(p.column).type
            if pa.types.is_binary(t) or pa.types.is_timestamp(t) or pa.types.is_nested(t):
                return False
    return True


class DeltaFiles(PartitionedFiles):
    """Data files of one commit to the Delta table at ``location`` (its root in ``filesystem``), of
    records of ``schema`` partitioned by ``partition_by``, each of about ``target`` bytes of Arrow data,
    named with the id of the ``run`` writing them; the entries are dicts of
    :class:`deltalake.transaction.AddAction`'s fields."""

    def __init__(
        self,
        location: str,
        schema: pa.Schema,
        partition_by: Sequence[PartitionField],
        target: int,
        store: StorageOptions | None = None,
        run: str | None = None,
    ):
        if not foldered(schema, partition_by):
            raise TableError(
                f"Delta table {location!r}: partitioning by {[p.column for p in partition_by]} is not "
                "written by tasks (bytes, timestamps and nested values make no folder names)"
            )
        identity = {p.column for p in partition_by if p.transform == "identity"}
        keys = [
            (p.column, _same) if p.transform == "identity" else ("timestamp", _deriving(p.transform))
            for p in partition_by
        ]
        super().__init__(target, keys)
        self.partition_by = list(partition_by)
        self.filesystem, self.root = filesystem(location, store)
        self.local = isinstance(self.filesystem, fs.LocalFileSystem)
        self.file_columns = [n for n in schema.names if n not in identity]
        self.file_schema = pa.schema([schema.field(n) for n in self.file_columns])
        self.stats_columns = [
            f.name
            for f in list(schema)[:STATS_COLUMNS]
            if f.name not in identity and _bounded(f.type) is not None
        ]
        self.uuid = uuid.uuid4()
        self.tag = run_tag(run)
        self._counter = itertools.count(0)

    def _prepare(self, rb: pa.RecordBatch) -> pa.RecordBatch:
        return rb.select(self.file_columns) if len(self.file_columns) != rb.num_columns else rb

    def _new(self, values: tuple[Any, ...]) -> OpenFile:
        texts = [partition_text(v) for v in values]
        folders = [
            f"{p.name}={quote(t if t is not None else '__HIVE_DEFAULT_PARTITION__', safe='')}"
            for p, t in zip(self.partition_by, texts, strict=True)
        ]
        name = f"part-{next(self._counter):05d}-{self.uuid}-c000{self.tag}.snappy.parquet"
        relative = "/".join([*folders, name])
        path = f"{self.root}/{relative}"
        if self.local:  # an object store has no folders to make
            self.filesystem.create_dir(path.rsplit("/", 1)[0], recursive=True)
        output = self.filesystem.open_output_stream(path)
        try:
            writer = pq.ParquetWriter(output, self.file_schema, compression="snappy")
        except BaseException:
            output.close()
            raise
        key = {p.name: t for p, t in zip(self.partition_by, texts, strict=True)}
        return OpenFile(writer, output, relative, key)

    def _finish(self, f: OpenFile) -> dict[str, Any]:
        f.flush()
        f.writer.close()
        size = f.output.tell()
        f.output.close()
        return {
            "path": f.path,
            "size": size,
            "partition_values": f.key,
            "modification_time": int(time.time() * 1000),
            "data_change": True,
            "stats": self._stats(f.writer.writer.metadata),
        }

    def _abandon(self) -> None:
        opened = list(self._open.values())
        super()._abandon()
        for f in opened:
            f.output.close()

    def _stats(self, metadata: pq.FileMetaData) -> str:
        """Delta's file statistics from the Parquet footer: the row groups' bounds and null counts
        merged per column."""
        wanted = set(self.stats_columns)
        low: dict[str, Any] = {}
        high: dict[str, Any] = {}
        nulls: dict[str, int] = {}
        unbounded: set[str] = set()
        for i in range(metadata.num_row_groups):
            group = metadata.row_group(i)
            for j in range(group.num_columns):
                chunk = group.column(j)
                name = chunk.path_in_schema
                if name not in wanted:
                    continue
                stats = chunk.statistics
                if stats is None or not stats.has_null_count:
                    unbounded.add(name)
                    nulls.pop(name, None)
                    continue
                if name not in unbounded:
                    nulls[name] = nulls.get(name, 0) + stats.null_count
                if not stats.has_min_max:
                    if stats.null_count < chunk.num_values:
                        unbounded.add(name)
                    continue
                if name in low:
                    low[name] = min(low[name], stats.min)
                    high[name] = max(high[name], stats.max)
                else:
                    low[name], high[name] = stats.min, stats.max
        min_values: dict[str, Any] = {}
        max_values: dict[str, Any] = {}
        for name in self.stats_columns:
            if name in low and name not in unbounded:
                kind = _bounded(self.file_schema.field(name).type)
                assert kind is not None
                a, b = kind(low[name]), kind(high[name])
                if a is not None and b is not None:
                    min_values[name], max_values[name] = a, b
        return json.dumps(
            {
                "numRecords": metadata.num_rows,
                "minValues": min_values,
                "maxValues": max_values,
                "nullCount": nulls,
            }
        )


def _same(column: Any) -> Any:
    return column


def _deriving(transform: str) -> Any:
    return lambda ts: derive(ts, transform)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= TEXT_BOUND else None


def _number(value: Any) -> Any:
    return value if isinstance(value, int | float) else None


def _timestamp(value: Any) -> str | None:
    """A UTC timestamp bound as Delta writes it, to the millisecond (cut down: a bound of
    microseconds is widened by a millisecond by Delta's readers)."""
    if not isinstance(value, datetime.datetime):
        return None
    value = value.astimezone(datetime.UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def _date(value: Any) -> str | None:
    return value.isoformat() if isinstance(value, datetime.date) else None


def _bounded(t: pa.DataType) -> Any:
    """How a bound of a column of type ``t`` is written in Delta's statistics; None: no bounds kept."""
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return _text
    if pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_floating(t):
        return _number
    if pa.types.is_timestamp(t) and t.tz is not None and t.unit in ("ms", "us"):
        return _timestamp
    if pa.types.is_date32(t):
        return _date
    return None
