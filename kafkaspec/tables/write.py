"""One run into tables: the destination checked, the committed offsets read back, the source planned
from them, and each table's new records appended in one commit."""

from __future__ import annotations

import os
import re
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import pyarrow as pa

from ..arrow.schema import SCHEMA
from ..errors import UsageError
from ..logdir import LogDir, open_log
from .errors import TableError
from .layout import LAYOUTS, parse_partition_by, table_name
from .native import full_disk
from .source import LeftOut, Offsets, Span, internal, plan, span_batches

FORMATS = ("iceberg", "delta")
MODES = ("append", "upsert")
#: the largest ``target_file_mb`` (1 TiB): delta-rs takes the bytes as a signed 64-bit number
MAX_FILE_MB = 1 << 20


@dataclass
class TableCommit:
    """What one run appended to one table."""

    name: str
    rows: int
    #: the next offsets the table holds after the commit, of the partitions this run covered
    offsets: Offsets


@dataclass
class TableRun:
    format: str
    dest: str
    commits: list[TableCommit] = field(default_factory=list)
    #: tables with nothing new
    unchanged: list[str] = field(default_factory=list)
    #: each table's mode (append or upsert) and why, when the run chose it (``mode=None``)
    modes: dict[str, tuple[str, str]] = field(default_factory=dict)
    seconds: float = 0.0
    #: read_committed (the default): aborted and open transactions left out, counted in :attr:`left_out`
    read_committed: bool = True
    left_out: LeftOut = field(default_factory=LeftOut)

    @property
    def rows(self) -> int:
        return sum(c.rows for c in self.commits)

    @property
    def aborted(self) -> int:
        """The records of aborted transactions this run read past (never rows)."""
        return self.left_out.aborted

    @property
    def held(self) -> int:
        """What waits behind an open transaction for a later run (:class:`~.source.LeftOut`)."""
        return self.left_out.held

    @property
    def passed_over(self) -> Offsets:
        """Per topic and partition, how many offsets below the log start this run passed over
        (``fail_on_data_loss=False``): gone from the log before the table read them; empty otherwise."""
        out: Offsets = {}
        for (topic, partition), (lo, start) in self.left_out.gone.items():
            out.setdefault(topic, {})[partition] = start - lo
        return out


def open_sink(format: str, dest: str, *, catalog_uri: str | None = None, target_file_mb: int = 128) -> Any:
    """The tables of ``dest``: checked (a file, a folder of other things, a catalog that does not
    answer are refused here, before the source is read). The sink names the data files it writes with
    a new run id (its ``run``, :func:`.leftovers.run_tag`), that of this run's markers."""
    run = uuid.uuid4().hex
    if format == "iceberg":
        from .iceberg import IcebergSink

        return IcebergSink(dest, catalog_uri=catalog_uri, target_file_mb=target_file_mb, run=run)
    if format == "delta":
        if catalog_uri is not None:
            raise UsageError("--catalog-uri names an Iceberg catalog; a Delta table is its folder")
        from .delta import DeltaSink

        return DeltaSink(dest, target_file_mb=target_file_mb, run=run)
    raise UsageError(f"unknown table format {format!r} (one of {', '.join(FORMATS)})")


def check_arguments(layout: str, mode: str | None, target_file_mb: int) -> None:
    """Refuse a table layout, mode or file size that is none of ours (before anything is opened)."""
    if layout not in LAYOUTS:
        raise UsageError(f"unknown table layout {layout!r} (one of {', '.join(LAYOUTS)})")
    if mode is not None and mode not in MODES:
        raise UsageError(f"unknown table mode {mode!r} (one of {', '.join(MODES)})")
    if not 0 < target_file_mb <= MAX_FILE_MB:
        raise UsageError(f"--target-file-mb must be from 1 to {MAX_FILE_MB:,}, got {target_file_mb}")


def refuse_dest_inside(source: str | os.PathLike[str] | LogDir, dest: str) -> None:
    """Refuse a destination that is the source or lies inside it (the CLI's check, for Python callers
    too): the tables' files would be read as log data by the next run, or refused as stray folders, and a
    broker does not start on them."""
    from ..logdir.store.storage import is_uri

    path = str(source.path) if isinstance(source, LogDir) else os.fspath(source)
    if is_uri(path) or is_uri(dest) or not os.path.exists(path):
        return
    src, out = os.path.realpath(path), os.path.realpath(dest)
    if out == src or out.startswith(src.rstrip(os.sep) + os.sep):
        raise UsageError(
            f"the table destination {dest} lies inside the source {path} (its files would be read as log "
            "data on the next run): give a destination outside it"
        )


def table_groups(log_dir: LogDir, layout: str, topics: str | None) -> dict[str, list[tuple[str, int]]]:
    """Table name -> the (topic, partition)s it takes: every topic but Kafka's own, or those ``topics``
    (a regular expression) matches whole."""
    groups: dict[str, list[tuple[str, int]]] = {}
    for part in log_dir.partitions():
        if not internal(part.topic) and (topics is None or re.fullmatch(topics, part.topic)):
            groups.setdefault(table_name(part.topic, layout), []).append((part.topic, part.partition))
    return groups


def committed_offsets(sink: Any, groups: dict[str, list[tuple[str, int]]]) -> Offsets:
    """The next offset of every partition the tables have committed, from their own metadata."""
    committed: Offsets = {}
    for name, tps in groups.items():
        for topic, offsets in (sink.committed(name, tps) or {}).items():
            committed.setdefault(topic, {}).update(offsets)
    return committed


def planned(
    log_dir: LogDir,
    groups: dict[str, list[tuple[str, int]]],
    committed: Offsets,
    layout: str,
    read_committed: bool,
    verify_crc: bool,
    left_out: LeftOut | None = None,
    fail_on_data_loss: bool = True,
) -> dict[str, list[Span]]:
    """Table name -> the spans of its partitions after their committed offsets (``plan``'s; offsets gone
    below the log start refused unless ``fail_on_data_loss`` is False)."""
    chosen = {t for tps in groups.values() for t, _ in tps}
    spans = plan(
        log_dir,
        committed,
        read_committed=read_committed,
        verify_crc=verify_crc,
        topics=chosen,
        left_out=left_out,
        fail_on_data_loss=fail_on_data_loss,
        table_of=lambda topic: table_name(topic, layout),
    )
    _pause("planned")
    by_table: dict[str, list[Span]] = {}
    for span in spans:
        by_table.setdefault(table_name(span.topic, layout), []).append(span)
    return by_table


def write_table(
    source: str | os.PathLike[str] | LogDir,
    dest: str | os.PathLike[str],
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
    topics: str | None = None,
    fail_on_data_loss: bool = True,
) -> TableRun:
    """Append to the tables of ``dest`` the records of ``source`` they do not hold yet (all of them the
    first time: a backfill); each table in one commit that stores its next offsets. ``layout``:
    ``per-topic`` (a table named as each topic) or ``single`` (one table, ``records``). ``partition_by``
    as :func:`~kafkaspec.tables.layout.parse_partition_by`. Kafka's own topics (``__*``) are left out;
    control records are never rows; ``read_committed`` leaves out aborted and open transactions, and a
    partition's records from its first open transaction on wait for a later run. ``mode``: ``append``
    (every record a row) or ``upsert`` (the latest value per topic and key, a tombstone deleting it:
    :mod:`~kafkaspec.tables.upsert`); None (default): ``upsert`` for a topic whose ``cleanup.policy``
    compacts and ``append`` elsewhere (:mod:`~kafkaspec.tables.policy`; ``append`` for the single
    layout's table and with ``decode_values``), said in :attr:`TableRun.modes`. ``decode_values``: each typed topic's values decoded, those that
    do not fit in ``<table>_errors`` (:mod:`~kafkaspec.tables.decoded`; per-topic layout, append).
    ``topics``: a regular expression (``pipeline --topics``'s): only the topics it matches whole.
    ``fail_on_data_loss`` (Spark's Kafka source's ``failOnDataLoss``): a table whose committed offset lies
    below its partition's log start (retention or DeleteRecords removed offsets it never got) is refused
    before anything is written (:class:`~kafkaspec.errors.DataLossError`, naming them); False appends from
    the log start, the offsets passed over said in :attr:`TableRun.passed_over`."""
    started = time.perf_counter()
    dest = os.fspath(dest)
    check_arguments(layout, mode, target_file_mb)
    refuse_dest_inside(source, dest)
    if decode_values and (layout != "per-topic" or mode == "upsert"):
        raise UsageError("--decode-values goes with --table-layout per-topic and --table-mode append")
    fields = parse_partition_by(partition_by, layout)
    sink = open_sink(format, dest, catalog_uri=catalog_uri, target_file_mb=target_file_mb)
    log_dir = source if isinstance(source, LogDir) else open_log(os.fspath(source))
    groups = table_groups(log_dir, layout, topics)
    committed = committed_offsets(sink, groups)
    values = None
    if decode_values:
        from ..values import decoder
        from .decoded import check_errors_tables, check_evolution, errors_table, typed

        values = decoder(log_dir)
        check_errors_tables(values, groups)
        check_evolution(values, sink, groups)
        failed: Offsets = {}  # the errors tables' own offsets
        for name, tps in groups.items():
            if typed(values, name):
                failed.update(sink.committed(errors_table(name), tps) or {})
    run = TableRun(format, dest, read_committed=read_committed)
    modes = (
        {name: mode for name in groups}
        if mode is not None
        else _modes(log_dir, groups, layout, decode_values, run)
    )
    by_table = planned(
        log_dir, groups, committed, layout, read_committed, verify_crc, run.left_out, fail_on_data_loss
    )
    for name in groups:
        todo = by_table.get(name)
        if not todo:
            run.unchanged.append(name)
            continue
        held = {t for t, _ in groups[name]}
        offsets = {t: dict(ps) for t, ps in committed.items() if t in held}
        for span in todo:
            offsets.setdefault(span.topic, {})[span.partition] = span.hi
        covered = [(s.topic, s.partition) for s in todo]
        write = sink.upsert if modes[name] == "upsert" else sink.append
        marker = _marked(sink, dest, name)
        reading = _Reading()
        try:
            try:
                if values is not None and typed(values, name):
                    rows = _decoded(sink, values, name, todo, offsets, failed, fields, covered, run, reading)
                else:
                    rows = write(
                        name, SCHEMA, reading(_written(todo, run.left_out)), offsets, fields, covered
                    )
            except Exception as exc:
                if reading.failure is not None:
                    raise reading.failure from None
                full = full_disk(exc)
                if full is not None:
                    raise OSError(full, os.strerror(full), os.path.join(dest, name)) from None
                raise
            _pause("committed")
            if marker is not None:
                marker.done()
        finally:
            if marker is not None:
                marker.close()
        run.commits.append(TableCommit(name, rows, _covered(todo)))
    run.seconds = time.perf_counter() - started
    return run


def _modes(
    log_dir: LogDir, groups: dict[str, list[tuple[str, int]]], layout: str, decode_values: bool, run: TableRun
) -> dict[str, str]:
    """Each table's default mode, and why, in ``run.modes``."""
    from .policy import cleanup_policies, compacted

    if layout != "per-topic":
        why = "one table for all topics"
        run.modes = {name: ("append", why) for name in groups}
    elif decode_values:
        run.modes = {name: ("append", "--decode-values appends") for name in groups}
    else:
        found = cleanup_policies(log_dir)
        if found is None:
            why = "no __cluster_metadata here to say a cleanup.policy"
            run.modes = {name: ("append", why) for name in groups}
            return {name: "append" for name in groups}
        policies, default = found
        for name, tps in groups.items():
            policy = policies.get(tps[0][0], default)
            run.modes[name] = ("upsert" if compacted(policy) else "append", f"cleanup.policy={policy}")
    return {name: m for name, (m, _) in run.modes.items()}


def _marked(sink: Any, dest: str, name: str) -> Any:
    """This run's marker for the table ``name`` (named with the sink's run id), the files of killed
    runs before it deleted (:mod:`.leftovers`), once what the run writes to is found writable."""
    from .leftovers import MARKERS, RunMarker

    if "://" not in dest:
        from .layout import check_writable

        paths, trees = sink.writes_to(name)
        check_writable(
            [dest, os.path.join(dest, MARKERS), *paths], [os.path.join(dest, MARKERS, name), *trees]
        )
    try:
        marker = RunMarker(dest, name, sink.run)
    except OSError as exc:
        raise TableError(
            f"{dest}/{MARKERS}/{name}: cannot mark this run of the table there ({exc}); nothing was written"
        ) from None
    if marker.any_dead():  # the table's references read (a store's whole log) only then
        found = sink.leftovers(name)
        if found is not None:
            marker.clean(*found)
    return marker


def _decoded(
    sink: Any,
    values: Any,
    name: str,
    todo: list[Span],
    offsets: Offsets,
    failed: Offsets,
    fields: list[Any],
    covered: list[tuple[str, int]],
    run: TableRun,
    reading: _Reading,
) -> int:
    """A typed topic's run: the records whose value does not fit, found by a first pass over the spans
    (decoding only), committed to the errors table first; then the decoded records into its table
    (:mod:`.decoded`). Two passes, since delta-rs cannot commit while it reads a commit's records."""
    from .decoded import ERRORS_SCHEMA, Split, errors_table

    first = Split(values, name)
    for _ in first(chain.from_iterable(span_batches(s) for s in todo)):
        pass
    bad = list(first.new_errors(failed))
    if bad:
        errors_offsets = {t: dict(ps) for t, ps in failed.items()}
        for t, p in covered:
            errors_offsets.setdefault(t, {})[p] = offsets[t][p]
        n = sink.append(errors_table(name), ERRORS_SCHEMA, iter(bad), errors_offsets, fields, covered)
        run.commits.append(TableCommit(errors_table(name), n, _covered(todo)))
        _pause("errors-committed")
    split = Split(values, name)
    return int(
        sink.append(
            name, split.schema, reading(split(_written(todo, run.left_out))), offsets, fields, covered
        )
    )


class _Reading:
    """The records handed to a table library, and the error of ours that stopped them (a corrupt batch):
    delta-rs raises its own error around it, our traceback as its text, so that one is raised instead."""

    failure: Exception | None = None

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        try:
            yield from batches
        except Exception as exc:
            self.failure = exc
            raise


def _covered(spans: list[Span]) -> Offsets:
    out: Offsets = {}
    for s in spans:
        out.setdefault(s.topic, {})[s.partition] = s.hi
    return out


def _written(spans: list[Span], left_out: LeftOut) -> Iterator[pa.RecordBatch]:
    """The spans' records; once the last is handed over (the data files written), the commit follows."""
    yield from chain.from_iterable(span_batches(s, left_out) for s in spans)
    _pause("written")


def _pause(point: str) -> None:
    """The tests' kill points: with ``KAFKASPEC_TABLES_PAUSE=<point>`` the run says so on stderr and waits
    there (until the file ``KAFKASPEC_TABLES_GATE`` exists, else for a minute) for a test to kill it."""
    if os.environ.get("KAFKASPEC_TABLES_PAUSE") != point:
        return
    print(f"paused at {point}", file=sys.stderr, flush=True)
    gate = os.environ.get("KAFKASPEC_TABLES_GATE")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (gate and os.path.exists(gate)):
        time.sleep(0.05)


def run_keywords(args: Any) -> dict[str, Any]:
    """The keywords of a ``write_table`` (either engine's) from ``kafkaspec pipeline --table``'s parsed
    arguments: the command line's two call sites pass the same ones."""
    return {
        "format": args.table,
        "layout": args.table_layout,
        "catalog_uri": args.catalog_uri,
        "partition_by": args.partition_by,
        "target_file_mb": args.target_file_mb,
        "read_committed": args.isolation_level == "read_committed",
        "verify_crc": not args.no_verify_crc,
        "mode": args.table_mode,
        "topics": args.topics,
        "fail_on_data_loss": not args.no_fail_on_data_loss,
    }


def format_run(run: TableRun) -> str:
    lines = [f"{run.format} tables in {run.dest}: {run.rows:,} rows appended in {run.seconds:.1f}s"]
    for c in run.commits:
        parts = ", ".join(
            f"{t}-{p}: {o}" for t, ps in sorted(c.offsets.items()) for p, o in sorted(ps.items())
        )
        lines.append(f"  {c.name}: {c.rows:,} rows; next offsets {parts}")
    if run.unchanged:
        lines.append(f"  nothing new: {', '.join(sorted(run.unchanged))}")
    if run.left_out.gone:
        gone = ", ".join(
            f"{t}-{p}: {start - lo:,} ({lo} to {start - 1})"
            for (t, p), (lo, start) in sorted(run.left_out.gone.items())
        )
        lines.append(
            f"  offsets passed over (gone from the log before the table read them; appended from its start): {gone}"
        )
    if run.read_committed:
        lines.append(
            f"  transactions (records): aborted {run.aborted:,} left out, {run.held:,} held behind an open "
            "transaction (for a later run)"
        )
    return "\n".join(lines)
