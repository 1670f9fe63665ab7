"""A Delta Lake table as the destination, through deltalake (delta-rs).

Each table is a folder of the destination (``<dest>/<table>/``). Each run's records go into one table
in one commit: the Parquet files are written first (the records' by :mod:`.delta_files` as they stream
in, typed values' by delta-rs, whose schema merge follows their evolution), then the commit is the one
log entry ``_delta_log/<version>.json`` put only if absent, so a run killed before it leaves only files
no version names.

The next offset of every topic-partition is stored as a Delta application transaction (``txn``:
app id ``kafkaspec:<topic>:<partition>``, version the next offset), the way Spark's streaming sinks make
their writes idempotent, and once more as JSON in the commit info (:data:`OFFSETS_PROPERTY`). Two runs
at once that both add ``txn`` actions for one partition conflict: delta-rs refuses the later commit.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import unquote

from ..codec.extras import missing

try:
    import pyarrow as pa
    from deltalake import CommitProperties, DeltaTable, Transaction, write_deltalake
    from deltalake import Schema as DeltaSchema
    from deltalake.exceptions import CommitFailedError, DeltaError, SchemaMismatchError, TableNotFoundError
    from deltalake.transaction import AddAction, create_table_with_add_actions
except ModuleNotFoundError as exc:
    raise missing(exc, "tables", "Delta tables") from None

from ..arrow.schema import SCHEMA
from .delta_files import DeltaFiles, derive, foldered
from .errors import TableError
from .layout import (
    OFFSETS_PROPERTY,
    TRANSFORMS,
    PartitionField,
    check_columns,
    check_destination,
    encode_offsets,
)
from .leftovers import delta_on_store, made_by_runs
from .source import Offsets
from .stores import delta_options

APP_ID = "kafkaspec:{topic}:{partition}"


def _is_delta(path: str) -> bool:
    return os.path.isdir(os.path.join(path, "_delta_log"))


def is_table_root(dest: str) -> bool:
    """Whether ``dest`` is a folder of our Delta tables (one at least, or the folder of a new one whose
    first run was killed before its first commit: :func:`.leftovers.made_by_runs`)."""
    return os.path.isdir(dest) and any(
        _is_delta(os.path.join(dest, n)) or made_by_runs(dest, n, os.path.join(dest, n))
        for n in os.listdir(dest)
        if not n.startswith(".")
    )


def refuse_link_out(dest: str, name: str) -> None:
    """Refuse a local table folder that is a symbolic link out of ``dest``: a run would append to, and
    ``table compact``/``expire-snapshots`` rewrite or delete the files of, a table elsewhere."""
    path = os.path.join(dest, name)
    if "://" in dest or not os.path.islink(path):
        return
    target, root = os.path.realpath(path), os.path.realpath(dest)
    if not target.startswith(root.rstrip(os.sep) + os.sep):
        raise TableError(
            f"{path}: a symbolic link out of {dest} (to {target}), not a table folder of it; nothing was written"
        )


class DeltaSink:
    """The Delta tables of one destination folder (local, or an object store's URI)."""

    format = "delta"

    def __init__(self, dest: str, *, target_file_mb: int = 128, run: str | None = None):
        self.dest = check_destination(dest, is_table_root(dest), "a folder of Delta tables")
        self.target_file_mb = target_file_mb
        #: the id the data files this run writes itself are named with (:func:`.leftovers.run_tag`)
        self.run = run
        self._tables: dict[str, Any] = {}

    @property
    def storage_options(self) -> dict[str, str] | None:
        """What delta-rs needs besides the environment it reads (:func:`.stores.delta_options`)."""
        return delta_options(self.dest)

    def uri(self, name: str) -> str:
        return self.dest.rstrip("/") + "/" + name

    def _load(self, name: str) -> Any:
        uri = self.uri(name)
        if name == "_delta_log":  # a legal topic name; delta-rs then takes DEST for a table and reads neither
            raise TableError(
                f"{uri}: a Delta table cannot be named _delta_log, the name of every Delta table's log "
                "folder (leave the topic out with --topics '!_delta_log'); nothing was written"
            )
        refuse_link_out(self.dest, name)
        if (
            "://" not in uri
            and os.path.exists(uri)
            and not _is_delta(uri)
            and not made_by_runs(self.dest, name, uri)
        ):
            raise TableError(
                f"{uri}: not a Delta table (no _delta_log) and in the way of one; nothing was written"
            )
        try:
            return DeltaTable(uri, storage_options=self.storage_options)
        except TableNotFoundError:
            return None

    def leftovers(self, name: str) -> tuple[str, set[str], tuple[str, ...]] | None:
        """The table ``name``'s folder and the data files any version of its log adds or removes (for
        :mod:`.leftovers`); None: no such table yet."""
        uri = self.uri(name)
        if "://" in uri:
            return delta_on_store(uri, self._tables.get(name))
        if self._tables.get(name) is None:  # a new table, or what a first run killed before its commit left
            return (uri, set(), ("_delta_log",)) if os.path.isdir(uri) else None
        referenced = set()
        log = os.path.join(uri, "_delta_log")
        for entry in os.listdir(log):
            if entry.endswith(".json"):
                with open(os.path.join(log, entry), encoding="utf-8") as f:
                    for line in f:
                        action = json.loads(line) if line.strip() else {}
                        for kind in ("add", "remove"):
                            if kind in action:
                                referenced.add(os.path.join(uri, unquote(action[kind]["path"])))
        referenced.update(f.removeprefix("file://") for f in self._tables[name].file_uris())
        return uri, referenced, ("_delta_log",)

    def writes_to(self, name: str) -> tuple[list[str], list[str]]:
        """The local paths a commit to the table ``name`` writes in: none of its own but its folder,
        and every folder under it."""
        return [], [self.uri(name)]

    def committed(self, name: str, partitions: Iterable[tuple[str, int]]) -> Offsets | None:
        """The next offsets the table ``name`` holds of ``partitions`` (None: no such table); refuses a
        table not of our columns. The table is kept as read, so that the commit is checked against it."""
        try:
            table = self._tables[name] = self._load(name)
            if table is None:
                return None
            check_columns(
                [(f.name, str(f.type)) for f in table.schema().fields], f"Delta table {self.uri(name)!r}"
            )
            out: Offsets = {}
            for topic, partition in partitions:
                version = table.transaction_version(APP_ID.format(topic=topic, partition=partition))
                if version is not None and version < 0:  # from 0 up, as we store them: -5 re-read it all
                    raise TableError(
                        f"{self.uri(name)}: its log stores offset {version} for {topic}-{partition}, not one "
                        "kafkaspec stores; nothing was written"
                    )
                if version is not None:
                    out.setdefault(topic, {})[partition] = version
        except (
            DeltaError
        ) as exc:  # a version of its log that delta-rs cannot read: its text holds a backtrace
            said = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
            raise TableError(
                f"{self.uri(name)}: its Delta log cannot be read ({said}); nothing was written"
            ) from None
        return out

    def columns(self, name: str) -> pa.Schema | None:
        """The columns of the table ``name`` as :meth:`committed` read it (None: no such table)."""
        table = self._tables.get(name)
        return None if table is None else pa.schema(table.schema().to_arrow())

    def append(
        self,
        name: str,
        schema: pa.Schema,
        batches: Iterable[pa.RecordBatch],
        offsets: Offsets,
        partition_by: list[PartitionField],
        covered: Iterable[tuple[str, int]],
    ) -> int:
        """Append ``batches`` to the table ``name`` in one commit storing ``offsets`` (the ``txn`` of each
        partition ``covered``); return the rows written."""
        table = self._tables.get(name)
        if table is not None:  # an existing table keeps its partitioning, as an Iceberg table keeps its spec
            partition_by = [_field(c, self.uri(name)) for c in table.metadata().partition_columns]
        derived = [p for p in partition_by if p.transform != "identity"]
        out_schema = schema
        for p in derived:
            out_schema = out_schema.append(pa.field(p.name, _derived_type(p.transform)))
        counted = [0]

        def counting() -> Iterator[pa.RecordBatch]:
            for rb in batches:
                counted[0] += rb.num_rows
                yield rb

        def rows() -> Iterator[pa.RecordBatch]:
            for rb in counting():
                for p in derived:
                    rb = rb.append_column(p.name, derive(rb.column("timestamp"), p.transform))
                yield rb

        commit = _commit(offsets, covered)
        if self._streams(table, schema, out_schema, partition_by):
            self._append_files(name, table, out_schema, counting(), partition_by, commit)
            return counted[0]
        try:
            write_deltalake(
                table if table is not None else self.uri(name),
                pa.RecordBatchReader.from_batches(out_schema, rows()),
                mode="append",
                partition_by=[p.name for p in partition_by] or None,
                target_file_size=self.target_file_mb << 20,
                schema_mode="merge" if schema.names != SCHEMA.names else None,  # typed values may gain fields
                storage_options=self.storage_options,
                commit_properties=commit,
            )
        except CommitFailedError as exc:
            raise self._lost(name, exc) from None
        except (SchemaMismatchError, DeltaError) as exc:
            if (
                isinstance(exc, DeltaError)
                and not isinstance(exc, SchemaMismatchError)
                and "cast" not in str(exc)
            ):
                raise  # a column whose type changed shows as a failed cast of its values
            raise TableError(
                f"Delta table {self.uri(name)!r}: the records' columns changed in a way the table cannot "
                f"follow ({exc}); nothing of this run was committed"
            ) from None
        return counted[0]

    def upsert(
        self,
        name: str,
        schema: pa.Schema,
        batches: Iterable[pa.RecordBatch],
        offsets: Offsets,
        partition_by: list[PartitionField],
        covered: Iterable[tuple[str, int]],
    ) -> int:
        """Keep the last value per (topic, key) of ``batches`` in the table ``name`` by one ``merge``
        (a tombstone deletes its key's row) storing ``offsets``; return the records read. A new table
        is created empty first (a commit of its own, holding no offsets)."""
        from .upsert import last_per_key

        last, read = last_per_key(batches, schema)
        table = self._tables.get(name)
        if table is not None:
            partition_by = [_field(c, self.uri(name)) for c in table.metadata().partition_columns]
        for p in partition_by:
            if p.transform != "identity":
                last = last.append_column(p.name, derive(last.column("timestamp"), p.transform))
        if table is None:
            write_deltalake(
                self.uri(name),
                last.slice(0, 0),
                mode="append",
                partition_by=[p.name for p in partition_by] or None,
                storage_options=self.storage_options,
            )
            table = DeltaTable(self.uri(name), storage_options=self.storage_options)
        commit = _commit(offsets, covered)
        try:
            (
                table.merge(
                    last,
                    predicate="t.topic = s.topic AND t.key = s.key",
                    source_alias="s",
                    target_alias="t",
                    commit_properties=commit,
                )
                .when_matched_delete(predicate="s.value IS NULL")
                .when_matched_update_all(predicate="s.value IS NOT NULL")
                .when_not_matched_insert_all(predicate="s.value IS NOT NULL")
                .execute()
            )
        except CommitFailedError as exc:
            raise self._lost(name, exc, "apply") from None
        return read

    def writable(self, name: str, partition_by: list[PartitionField]) -> list[PartitionField]:
        """The table ``name``'s partitioning: an existing table's own, or ``partition_by`` for a new one,
        created here empty (a commit of its own, holding no offsets), so that files written before the
        run's commit have a table to be found and cleaned in if the run dies."""
        table = self._tables.get(name)
        if table is not None:
            return [_field(c, self.uri(name)) for c in table.metadata().partition_columns]
        schema = SCHEMA
        for p in partition_by:
            if p.transform != "identity":
                schema = schema.append(pa.field(p.name, _derived_type(p.transform)))
        write_deltalake(
            self.uri(name),
            schema.empty_table(),
            mode="append",
            partition_by=[p.name for p in partition_by] or None,
            storage_options=self.storage_options,
        )
        self._tables[name] = DeltaTable(self.uri(name), storage_options=self.storage_options)
        return partition_by

    def commit_files(
        self, name: str, files: list[dict[str, Any]], offsets: Offsets, covered: Iterable[tuple[str, int]]
    ) -> None:
        """One commit of data files written elsewhere (:mod:`.delta_files`' add actions) to the table
        ``name`` as :meth:`writable` left it, storing ``offsets`` as :meth:`append` does."""
        table = self._tables[name]
        try:
            table.create_write_transaction(
                [AddAction(**f) for f in files],
                mode="append",
                schema=table.schema(),
                partition_by=table.metadata().partition_columns or None,
                commit_properties=_commit(offsets, covered),
            )
        except CommitFailedError as exc:
            raise self._lost(name, exc) from None

    def _append_files(
        self,
        name: str,
        table: Any,
        schema: pa.Schema,
        batches: Iterator[pa.RecordBatch],
        partition_by: list[PartitionField],
        commit: CommitProperties,
    ) -> None:
        """The records (of :data:`SCHEMA`) written as they stream in (:mod:`.delta_files`), then
        their add actions committed in one transaction: a new table's first version, or the next one
        after the version read by :meth:`committed` (delta-rs checks the runs between for conflicts)."""
        files = DeltaFiles(self.uri(name), SCHEMA, partition_by, self.target_file_mb << 20, run=self.run)
        actions = [AddAction(**f) for f in files.write_all(batches)]
        columns = [p.name for p in partition_by] or None
        try:
            if table is None:
                create_table_with_add_actions(
                    self.uri(name),
                    DeltaSchema.from_arrow(schema),
                    actions,
                    mode="error",
                    partition_by=columns,
                    storage_options=self.storage_options,
                    commit_properties=commit,
                )
            else:
                table.create_write_transaction(
                    actions,
                    mode="append",
                    schema=table.schema(),
                    partition_by=columns,
                    commit_properties=commit,
                )
        except CommitFailedError as exc:
            raise self._lost(name, exc) from None
        except DeltaError as exc:
            if table is None and "exists" in str(exc):  # a run that made the table first
                raise self._lost(name, exc) from None
            raise

    def _streams(
        self, table: Any, schema: pa.Schema, out_schema: pa.Schema, partition_by: list[PartitionField]
    ) -> bool:
        """Whether an append writes its files itself (:meth:`_append_files`): the records of the plain
        Kafka columns, into a new table or one of exactly those columns, partitioned by columns that make
        folder names, on local disk or S3 (pyarrow's file systems, as the Spark path's tasks write).
        Typed values, whose columns may evolve, and the other stores are written by delta-rs."""
        local = "://" not in self.dest or self.dest.startswith("s3://")
        same = schema == SCHEMA and (table is None or _arrow_names(table) == out_schema.names)
        return local and same and foldered(SCHEMA, partition_by)

    def _lost(self, name: str, exc: Exception, what: str = "append") -> TableError:
        return TableError(
            f"Delta table {self.uri(name)!r}: another run committed to it first; nothing of this run "
            f"was committed (run again to {what} what is still new): {exc}"
        )


def _commit(offsets: Offsets, covered: Iterable[tuple[str, int]]) -> CommitProperties:
    """A commit storing ``offsets``: the ``txn`` of each partition ``covered``, and all in the commit info."""
    return CommitProperties(
        custom_metadata={OFFSETS_PROPERTY: encode_offsets(offsets)},
        app_transactions=[
            Transaction(APP_ID.format(topic=t, partition=p), offsets[t][p]) for t, p in covered
        ],
    )


def _arrow_names(table: Any) -> list[str]:
    return [f.name for f in table.schema().fields]


def _field(column: str, where: str) -> PartitionField:
    """A partition column of an existing table as the field it was made from."""
    if column in SCHEMA.names:
        return PartitionField(column)
    for transform in TRANSFORMS[1:]:
        if column == PartitionField("timestamp", transform).name:
            return PartitionField("timestamp", transform)
    raise TableError(f"Delta table {where!r} is partitioned by {column!r}, not a column kafkaspec writes")


def _derived_type(transform: str) -> pa.DataType:
    return {"day": pa.date32(), "year": pa.int64()}.get(transform, pa.string())
