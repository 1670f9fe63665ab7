"""A table run whose data files are written by many workers and committed by one: the way Spark writes
tables (:mod:`kafkaspec.spark.run.tables` hands the tasks to its executors).

The run is planned as :func:`~kafkaspec.tables.write_table` plans it (the offsets each table holds read
back from its metadata, the spans after them), and each table's read ranges are packed into tasks of
about ``target_file_mb`` of segment bytes. A task (:func:`write_files`, on a worker) reads its ranges
and writes its table's Parquet data files where the table keeps them, returning what a commit needs of
them: pyiceberg's ``DataFile`` entries (written by pyiceberg's own writer, from the table's metadata, so
the files are those a Spark-free append writes), or Delta add actions (Parquet files in the table's
partition folders, the partition columns in the path only, as Delta's writers lay them). The driver then
commits each table once (each sink's ``commit_files``): one Iceberg fast append, one Delta commit of
the add actions, storing the offsets as the Spark-free path stores them, so exactly once and the
incremental run are the same for both paths and either may follow the other.

Files of a run that dies before its commit are referenced by no snapshot or version, and the next run
of the table deletes them (:mod:`.leftovers`: the run's markers are in place before a task starts, and
each task names its files with the run's id). A table in upsert mode (given, or a compacted topic's
default) is read and merged by the driver, as the Spark-free path does it (the latest value per key
replaces rows the table holds: one machine's work); ``decode_values`` is refused with the reason (its
dead letters are split from the records before the commit, on one machine).
"""

from __future__ import annotations

import itertools
import os
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..arrow.ranges import ReadRange
from ..arrow.schema import SCHEMA
from ..errors import UsageError
from ..logdir import LogDir, open_log
from ..logdir.store.clients import StorageOptions
from ..logdir.store.storage import is_uri
from .layout import PartitionField, parse_partition_by
from .native import full_disk
from .source import LeftOut, Span, range_batches, span_batches
from .write import (
    TableCommit,
    TableRun,
    _covered,
    _marked,
    _modes,
    _pause,
    check_arguments,
    committed_offsets,
    open_sink,
    planned,
    refuse_dest_inside,
    table_groups,
)

#: runs the tasks and returns their results in order: ``map`` here, Spark's executors in
#: :mod:`kafkaspec.spark.run.tables`
RunTasks = Callable[[Callable[["FileTask"], "Written"], list["FileTask"]], Sequence["Written"]]


@dataclass(frozen=True)
class FileTarget:
    """Where and how a task writes one table's data files (shipped to the workers)."""

    format: str
    table: str
    #: Iceberg: the table's metadata as the driver read it; Delta: None
    metadata: Any
    #: Iceberg: the file IO's properties (a REST catalog's credentials among them: not in ``repr``);
    #: Delta: the table's URI
    location: Any = field(repr=False)
    partition_by: tuple[PartitionField, ...]
    target_bytes: int
    #: a table on an object store: the driver's store settings (endpoint, region, keys when both are
    #: set), so that executors that lack them (or hold others) write where the driver commits, as it
    #: would (Iceberg: what ``location``'s properties leave out, :func:`.stores.iceberg_task_properties`)
    store: StorageOptions | None = None
    #: the run's id, which its data files carry (:func:`.leftovers.run_tag`)
    run: str | None = None


@dataclass
class FileTask:
    target: FileTarget
    ranges: list[ReadRange] = field(default_factory=list)


@dataclass
class Written:
    """What one task wrote: its rows and the files (pyiceberg ``DataFile``s, or Delta add actions as
    dicts of :class:`deltalake.transaction.AddAction`'s fields)."""

    table: str
    rows: int
    files: list[Any]
    #: the records of aborted transactions the task read past
    aborted: int = 0


def write_table_tasks(
    source: str | os.PathLike[str] | LogDir,
    dest: str | os.PathLike[str],
    run_tasks: RunTasks,
    *,
    format: str = "iceberg",
    layout: str = "per-topic",
    catalog_uri: str | None = None,
    partition_by: str | None = None,
    target_file_mb: int = 128,
    read_committed: bool = True,
    verify_crc: bool = True,
    mode: str | None = None,
    decode_values: bool = False,
    engine: str = "Spark",
    topics: str | None = None,
    fail_on_data_loss: bool = True,
) -> TableRun:
    """:func:`kafkaspec.tables.write_table` with the data files written by ``run_tasks`` (every table's
    tasks at once) and each table committed here, once. ``engine`` names the workers in refusals."""
    started = time.perf_counter()
    dest = os.fspath(dest)
    check_arguments(layout, mode, target_file_mb)
    refuse_dest_inside(source, dest)
    if decode_values:
        raise UsageError(
            f"--decode-values with --table is done without {engine} (its dead letters are split from the "
            f"records before the commit, on one machine): leave out --engine spark and --master"
        )
    fields = parse_partition_by(partition_by, layout)
    sink = open_sink(format, dest, catalog_uri=catalog_uri, target_file_mb=target_file_mb)
    log_dir = source if isinstance(source, LogDir) else open_log(os.fspath(source))
    groups = table_groups(log_dir, layout, topics)
    run = TableRun(format, dest, read_committed=read_committed)
    modes = (
        {name: mode for name in groups} if mode is not None else _modes(log_dir, groups, layout, False, run)
    )
    committed = committed_offsets(sink, groups)
    by_table = planned(
        log_dir, groups, committed, layout, read_committed, verify_crc, run.left_out, fail_on_data_loss
    )
    tasks: list[FileTask] = []
    markers: dict[str, Any] = {}
    try:
        for name in groups:
            todo = by_table.get(name)
            if not todo:
                run.unchanged.append(name)
                continue
            if modes[name] == "append":
                target = _target(sink, name, fields, target_file_mb << 20)
            markers[name] = _marked(sink, dest, name)
            if modes[name] == "append":
                tasks.extend(_packed(target, todo))
        results = run_tasks(write_files, tasks) if tasks else []
        _pause("written")
        for name, todo in by_table.items():
            offsets = {t: dict(ps) for t, ps in committed.items() if t in {t for t, _ in groups[name]}}
            for span in todo:
                offsets.setdefault(span.topic, {})[span.partition] = span.hi
            mine = [r for r in results if r.table == name]
            covered = [(s.topic, s.partition) for s in todo]
            if modes[name] == "upsert":  # the latest value per key: read and merged here, on one machine
                batches = itertools.chain.from_iterable(span_batches(s, run.left_out) for s in todo)
                rows = sink.upsert(name, SCHEMA, batches, offsets, fields, covered)
            else:
                try:
                    sink.commit_files(name, [f for r in mine for f in r.files], offsets, covered)
                except Exception as exc:
                    full = full_disk(exc)
                    if full is not None:
                        raise OSError(full, os.strerror(full), os.path.join(dest, name)) from None
                    raise
                rows = sum(r.rows for r in mine)
                run.left_out.aborted += sum(r.aborted for r in mine)
            marker = markers.pop(name)
            if marker is not None:
                marker.close()
            _pause("committed")
            if marker is not None:
                marker.done()
            run.commits.append(TableCommit(name, rows, _covered(todo)))
    finally:
        for marker in markers.values():
            if marker is not None:
                marker.close()
    run.seconds = time.perf_counter() - started
    return run


def _target(sink: Any, name: str, fields: list[PartitionField], target_bytes: int) -> FileTarget:
    """The table ``name`` as its tasks write it, created (empty, a commit of its own) if missing, so that
    its files have a table to be found and cleaned in if the run dies."""
    if sink.format == "iceberg":
        table = sink.writable(name, fields)
        return FileTarget(
            "iceberg",
            name,
            table.metadata,
            dict(table.io.properties),
            tuple(fields),
            target_bytes,
            StorageOptions.from_env() if is_uri(table.metadata.location) else None,
            sink.run,
        )
    fields = sink.writable(name, fields)
    uri = sink.uri(name)
    store = StorageOptions.from_env() if "://" in uri else None
    return FileTarget("delta", name, None, uri, tuple(fields), target_bytes, store, sink.run)


def _packed(target: FileTarget, spans: list[Span]) -> Iterator[FileTask]:
    """The spans' ranges in tasks of about the target file size in segment bytes (a small topic is one
    task, so one file per partition value, not one per segment)."""
    task = FileTask(target)
    size = 0
    for r in itertools.chain.from_iterable(s.ranges for s in spans):
        if task.ranges and size + (r.end - r.start) > target.target_bytes:
            yield task
            task, size = FileTask(target), 0
        task.ranges.append(r)
        size += r.end - r.start
    if task.ranges:
        yield task


def write_files(task: FileTask) -> Written:
    """One task, on a worker: its ranges' records into data files of its table (none written when
    they hold no record)."""
    target = task.target
    left_out = LeftOut()
    if target.format == "iceberg":
        from pyiceberg.io import load_file_io

        from .iceberg_files import DataFiles
        from .stores import iceberg_task_properties

        # a name of its own per task: the tasks' counters all start at 0
        where = target.metadata.location
        io = load_file_io(iceberg_task_properties(target.location, target.store, where), where)
        iceberg = DataFiles(target.metadata, io, SCHEMA, target.target_bytes, uuid.uuid4(), target.run)
        files: list[Any] = iceberg.write_all(range_batches(task.ranges, left_out))
        return Written(target.table, iceberg.rows, files, left_out.aborted)
    from .delta_files import DeltaFiles

    delta = DeltaFiles(
        target.location, SCHEMA, target.partition_by, target.target_bytes, target.store, target.run
    )
    files = delta.write_all(range_batches(task.ranges, left_out))
    return Written(target.table, delta.rows, files, left_out.aborted)
