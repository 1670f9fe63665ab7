"""The pipeline's one pass over a byte range: records Parquet, audit Parquet and summary counts.

A Spark task (``run_ranges``: one range, or several small ones) reads each range once and writes, with
pyarrow, the records (``records/topic=T/partition=P/part-*.parquet``, a file per topic-partition, the
layout and types Spark's own partitioned write gives) and the audit rows (``batches/part-*.parquet``),
into a staging folder of its own; it
returns what it wrote and its share of the summary (counts grouped by the summary's keys, the
corrupt ranges). The driver (``commit``) moves the files of the tasks that succeeded into place.

Why not ``DataFrame.write``: the records then cross from the Python worker to the JVM as Arrow,
become JVM rows and are encoded to Parquet again, and the audit is a second job that reads and
decompresses the input again; here the bytes are decoded once and encoded once, in the worker.
Spark-free (pyarrow only), so tests and benchmarks run it directly.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import shutil
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ...arrow.columns import Assembly
from ...arrow.ranges import ReadRange, Walk, load_range, read_records
from ...arrow.schema import SCHEMA
from ...errors import KafkaFormatError
from ...logdir.store import location, runs
from ..read.audit import audit_batch

if TYPE_CHECKING:
    from ..read.values import ValueColumns

#: the Hive-style partition columns of ``records/`` (in the path, not in the files)
PARTITION_COLUMNS = ("topic", "partition")

#: Spark's codec for Parquet (``spark.sql.parquet.compression.codec``'s default)
CODEC = "snappy"

#: the record columns written without min/max statistics: opaque bytes, which no query prunes by
_NO_STATISTICS = frozenset({"key", "value", "headers"})
#: the record columns written without a dictionary: offsets are all distinct
_NO_DICTIONARY = frozenset({"offset"})


def _leaf_paths(f: pa.Field, prefix: str = "") -> list[str]:
    """The Parquet column paths of an Arrow field (lists as ``name.list.element``)."""
    path, t = prefix + f.name, f.type
    if pa.types.is_list(t):
        return _leaf_paths(t.value_field.with_name("element"), path + ".list.")
    if pa.types.is_struct(t):
        return [p for child in t for p in _leaf_paths(child, path + ".")]
    return [path]


def _writer_options(schema: pa.Schema) -> dict[str, Any]:
    """The records' Parquet options (the codec aside). Dictionary pages on every column but the offsets:
    keys, values and header keys repeat in most topics (on synth data 2.5x faster to write and 40% smaller
    than with dictionaries on the low-cardinality columns only), offsets never do (a dictionary costs them
    time and space). Min/max statistics (what Spark skips row groups by) on all but the payload's bytes.
    On the demo data the encoding takes 15-25% less CPU time than with pyarrow's defaults."""
    return {
        "use_dictionary": [p for f in schema if f.name not in _NO_DICTIONARY for p in _leaf_paths(f)],
        "write_statistics": [f.name for f in schema if f.name not in _NO_STATISTICS],
    }


# characters Spark escapes (as %XX) in a partition directory's value
_ESCAPED = frozenset("\"#%'*/:=?\\\x7f{[]^") | frozenset(chr(c) for c in range(1, 32))


def partition_dir(topic: str, partition: int) -> str:
    """``topic=T/partition=P`` as Spark names a Hive-style partition directory."""
    value = "".join(f"%{ord(c):02X}" if c in _ESCAPED else c for c in topic)
    return f"topic={value}/partition={partition}"


@dataclass
class RangeResult:
    """What one task did: files written (relative to its staging folder) and its summary share."""

    index: int
    staging: str  # the attempt's folder under the output's staging folder
    files: list[str] = field(default_factory=list)
    records: int = 0
    #: (topic, partition, transaction, compression, magic, isControl, good) -> [records, batches, bytes]
    groups: dict[tuple[Any, ...], list[int]] = field(default_factory=dict)
    corrupt: list[list[Any]] = field(default_factory=list)  # [segment, position, size, crcStatus, error]
    seconds: float = 0.0  # the whole task
    parquet_seconds: float = 0.0  # of which the records' Parquet encoding and writing
    audit_seconds: float = 0.0  # of which the audit rows and their file
    error: str | None = None  # a KafkaFormatError's message (policy fail): the data's fault
    #: ``--decode-values``: topic -> values that did not fit (their bytes stay in records/)
    value_errors: dict[str, int] = field(default_factory=dict)


def run_range(
    index: int, task: ReadRange, staging: str, read_committed: bool, values: ValueColumns | None = None
) -> RangeResult:
    """Decode ``task``'s range once: write its records and audit rows under ``staging``; count them
    (:func:`run_ranges` of one range)."""
    return run_ranges(index, [task], staging, read_committed, values)


def run_ranges(
    index: int,
    tasks: list[ReadRange],
    staging: str,
    read_committed: bool,
    values: ValueColumns | None = None,
) -> RangeResult:
    """Decode each of ``tasks``' ranges once, in turn: write their records (one file per topic-partition)
    and their audit rows (one file) under ``staging``; count them.

    Several small ranges (a partition of many small segments, many small partitions) then cost one
    Spark task and a file per partition, not a task and two files each. ``read_committed``: the records
    drop aborted transactions (each task's transaction index is there in any case, for the audit's
    ``transaction`` column). ``values``: the topics among its ``topics`` also get their typed values
    (:class:`_DecodedWriter`), decoded from the same batches."""
    t0 = time.perf_counter()
    attempt = f"{index:05d}-{uuid.uuid4().hex}"
    result = RangeResult(index, os.path.join(staging, attempt))
    writers = _Writers(result, values)
    audits: list[pa.RecordBatch] = []
    try:
        for task in tasks:
            if task.end <= task.start and task.unreadable is None:
                continue
            buf = load_range(task)
            walk = Walk()
            try:
                result.records += _write_records(
                    task if read_committed else replace(task, read_committed=None), buf, writers, walk
                )
            except KafkaFormatError as exc:
                result.error = str(exc)
                return result
            t1 = time.perf_counter()
            audits.append(_audit(task, buf, result, walk))
            result.audit_seconds += time.perf_counter() - t1
    finally:
        writers.close()
    t1 = time.perf_counter()
    _write_audit(audits, result)
    result.audit_seconds += time.perf_counter() - t1
    del audits
    release_freed_memory()
    result.seconds = time.perf_counter() - t0
    return result


@functools.cache
def _malloc_trim() -> Any:
    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # not glibc (musl, macOS): nothing to ask
        return None


def release_freed_memory() -> None:
    """Give the memory a task freed back to the system (glibc's ``malloc_trim``), once per task.

    PySpark reuses its Python workers, and glibc keeps what a task freed in its heaps: the decompressed
    records and the Parquet pages come and go in pieces of every size, so each task left the next a
    more fragmented heap and a worker's resident set rose from task to task (on the 5 GB bench input,
    ~320 MB after the first 64 MB task, 550-700 MB after twenty). Trimmed after each task (and with
    the decoded runs bounded, :data:`~kafkaspec.arrow.ranges.BYTES_PER_ARROW_RUN`), it stays at
    270-390 MB over thirty tasks, their peaks at 390-540 MB (were 450 rising to 950)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


class _Writers:
    """A task's open Parquet files: the records' (and ``--decode-values``' typed ones) per topic-partition."""

    def __init__(self, result: RangeResult, values: ValueColumns | None) -> None:
        self.result, self.values = result, values
        self.records: dict[tuple[str, int], pq.ParquetWriter] = {}
        self.typed: dict[tuple[str, int], _DecodedWriter | None] = {}

    def typed_writer(self, task: ReadRange) -> _DecodedWriter | None:
        key = (task.topic, task.partition)
        if key not in self.typed:
            v = self.values
            self.typed[key] = (
                _DecodedWriter(task, self.result, v) if v is not None and task.topic in v.topics else None
            )
        return self.typed[key]

    def records_writer(self, task: ReadRange, schema: pa.Schema) -> pq.ParquetWriter:
        key = (task.topic, task.partition)
        writer = self.records.get(key)
        if writer is None:
            rel = f"records/{partition_dir(*key)}/part-{Path(self.result.staging).name}.{CODEC}.parquet"
            path = os.path.join(self.result.staging, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            writer = self.records[key] = pq.ParquetWriter(
                path, schema, compression=CODEC, **_writer_options(schema)
            )
            self.result.files.append(rel)
        return writer

    def close(self) -> None:
        for typed in self.typed.values():
            if typed is not None:
                typed.close()
        t = time.perf_counter()
        for writer in self.records.values():
            writer.close()
        self.result.parquet_seconds += time.perf_counter() - t


def _write_records(task: ReadRange, buf: bytes, writers: _Writers, walk: Walk) -> int:
    result = writers.result
    typed = writers.typed_writer(task)
    records = Assembly(SCHEMA, columns=[n for n in SCHEMA.names if n not in PARTITION_COLUMNS])
    n = 0
    for whole in read_records(task, buf=buf, walk=walk):
        if not whole.num_rows:
            continue
        if typed is not None:
            typed.write(whole)
        rb = records(whole)
        writer = writers.records_writer(task, rb.schema)
        t = time.perf_counter()
        writer.write_batch(rb)
        result.parquet_seconds += time.perf_counter() - t
        n += rb.num_rows
    return n


#: the record columns the typed datasets keep beside the decoded value (the bytes stay in records/)
DECODED_COLUMNS = ("offset", "timestamp", "timestampType", "key")


def decoded_dir(topic: str, partition: int) -> str:
    """``decoded/<topic>/partition=P``: one dataset per topic, since each topic has its own value type."""
    return f"decoded/{partition_dir(topic, partition).removeprefix('topic=')}"


class _DecodedWriter:
    """``--decode-values``: a range's records as ``decoded/<topic>/partition=P/part-*.parquet``, with
    ``value_decoded`` typed from the topic's schema and ``value_error``, one batch at a time (each built
    by :class:`kafkaspec.arrow.columns.Assembly` from the records' batch)."""

    def __init__(self, task: ReadRange, result: RangeResult, values: ValueColumns) -> None:
        from ...arrow.value_columns import DecodedValues

        self.task, self.result = task, result
        self.assembly = Assembly(SCHEMA, [DecodedValues(values.decoder(), task.topic)], DECODED_COLUMNS)
        self.rel = (
            f"{decoded_dir(task.topic, task.partition)}/part-{Path(result.staging).name}.{CODEC}.parquet"
        )
        self.writer: pq.ParquetWriter | None = None

    def write(self, rb: pa.RecordBatch) -> None:
        out = self.assembly(rb)
        errors = out.column("value_error")
        bad = len(errors) - errors.null_count
        if bad:
            self.result.value_errors[self.task.topic] = self.result.value_errors.get(self.task.topic, 0) + bad
        t = time.perf_counter()
        if self.writer is None:
            path = os.path.join(self.result.staging, self.rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            self.writer = pq.ParquetWriter(path, out.schema, compression=CODEC)
            self.result.files.append(self.rel)
        self.writer.write_batch(out)
        self.result.parquet_seconds += time.perf_counter() - t

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


#: the summary's grouping keys among the audit columns (``RangeResult.groups``' keys but ``good``)
_GROUP_KEYS = ["topic", "partition", "transaction", "compression", "magic", "isControl"]


def _audit(task: ReadRange, buf: bytes, result: RangeResult, walk: Walk) -> pa.RecordBatch:
    """The range's audit rows, counted into the result's summary share (``groups``, ``corrupt``): grouped
    as columns, a few groups per range, not a Python step per batch."""
    rows = audit_batch(task, buf, walk)
    if not rows.num_rows:
        return rows
    good = pc.is_in(rows.column("crcStatus"), pa.array(["ok", "unchecked"]))
    table = pa.table(
        {
            **{k: rows.column(k) for k in _GROUP_KEYS},
            "good": good,
            "records": pc.fill_null(rows.column("recordCount"), 0).cast(pa.int64()),
            "bytes": pc.fill_null(rows.column("size"), 0),
        }
    )
    grouped = table.group_by([*_GROUP_KEYS, "good"], use_threads=False).aggregate(
        [("records", "sum"), ("bytes", "sum"), ([], "count_all")]
    )
    keys = zip(*(grouped.column(k).to_pylist() for k in [*_GROUP_KEYS, "good"]))
    sums = zip(*(grouped.column(c).to_pylist() for c in ("records_sum", "count_all", "bytes_sum")))
    for key, (records, batches, size) in zip(keys, sums):
        counts = result.groups.setdefault(key, [0, 0, 0])
        counts[0] += records
        counts[1] += batches
        counts[2] += size
    if not pc.all(good).as_py():
        bad = rows.filter(pc.invert(good))
        columns = [bad.column(k).to_pylist() for k in ("segment", "position", "size", "crcStatus", "error")]
        result.corrupt.extend(list(r) for r in zip(*columns))
    return rows


def _write_audit(audits: list[pa.RecordBatch], result: RangeResult) -> None:
    if not any(b.num_rows for b in audits):
        return
    rel = f"batches/part-{Path(result.staging).name}.{CODEC}.parquet"
    path = os.path.join(result.staging, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    pq.write_table(pa.Table.from_batches(audits), path, compression=CODEC)
    result.files.append(rel)


def commit(results: list[RangeResult], output: Path, staging: Path) -> None:
    """Replace ``output``'s records/ and batches/ (and decoded/) by the files the tasks wrote; drop the
    staging folder (with whatever failed or duplicate task attempts left there).

    The new folders are first gathered whole, each with its ``_SUCCESS``, under the staging folder, and
    nothing of ``output`` is touched until then; each is then exchanged with the old one in one step
    (:func:`~kafkaspec.logdir.store.location.exchange_directories`). A kill at any moment leaves each
    folder as the last run wrote it or as this one did, whole: never half of one, never none."""
    ready = staging / "_ready"
    for name in ("records", "batches"):
        (ready / name).mkdir(parents=True, exist_ok=True)
    for r in results:
        for rel in r.files:
            target = ready / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(os.path.join(r.staging, rel), target)
    for name in ("records", "batches"):
        (ready / name / "_SUCCESS").touch()
    for name in ("records", "batches", "decoded"):  # decoded/: written by a --decode-values run only
        if not (ready / name).is_dir():
            shutil.rmtree(output / name, ignore_errors=True)
        elif (output / name).is_dir():
            location.exchange_directories(ready / name, output / name)
        else:
            (ready / name).replace(output / name)
    shutil.rmtree(staging, ignore_errors=True)


#: the staging folder of one full run (``run_pipeline``'s ``_temporary-<uuid4 hex>``)
_STAGING = re.compile(r"_temporary-[0-9a-f]{32}")


def remove_dead_staging(out: Path) -> None:
    """Remove the staging folders killed full runs left in ``out``. Only while OUT's lock is held: no
    other run into OUT is alive then, so every such folder is a dead run's (:func:`.runs.remove_dead`)."""
    runs.remove_dead(out, lambda name: _STAGING.fullmatch(name) is not None, locked=True)
