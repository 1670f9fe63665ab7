"""An Apache Iceberg table as the destination, through pyiceberg.

The catalog is pyiceberg's SQL catalog on a SQLite file in the destination folder (``catalog.db``, the
warehouse beside it: ``<dest>/<namespace>.db/<table>/``), or a REST catalog (``catalog_uri``). Each
run's records go into one table in one snapshot: the data files are written first, then one commit
swaps the table's metadata pointer in the catalog (an SQL update guarded by the metadata location it
read, or the REST catalog's own check), so a run killed before it leaves only files no snapshot names,
and of two runs at once the later commit fails (pyiceberg's ``CommitFailedException``).

The next offset of every topic-partition the table holds is stored in the snapshot's summary
(:data:`OFFSETS_PROPERTY`, JSON), as Iceberg's Kafka Connect sink stores its consumer offsets, and in
the same commit as a table property of that name, read first (it survives any expiry of snapshots);
without it (a table whose properties another tool rewrote), the newest ancestor snapshot that has
them (a snapshot of another writer, a compaction, has none).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable
from typing import Any

from ..codec.extras import missing

try:
    import pyarrow as pa
    import pyarrow.compute as pc
    from pyiceberg.catalog import Catalog, load_catalog
    from pyiceberg.exceptions import (
        CommitFailedException,
        NoSuchTableError,
        TableAlreadyExistsError,
        ValidationError,
    )
    from pyiceberg.table.snapshots import ancestors_of
    from pyiceberg.transforms import (
        DayTransform,
        HourTransform,
        IdentityTransform,
        MonthTransform,
        Transform,
        YearTransform,
    )
except ModuleNotFoundError as exc:
    raise missing(exc, "tables", "Iceberg tables") from None

from ..arrow.schema import SCHEMA
from .errors import TableError
from .layout import OFFSETS_PROPERTY, PartitionField, check_columns, decode_offsets, encode_offsets
from .leftovers import store_path
from .source import Offsets
from .stores import iceberg_properties

#: the namespace our tables are created in
NAMESPACE = "kafka"
#: pyiceberg's number of retries of a failed commit, which our tables set to 0 (:meth:`IcebergSink._no_retries`)
NO_RETRIES = "commit.retry.num-retries"
#: the SQLite file of the embedded catalog, in the destination folder
CATALOG_FILE = "catalog.db"

_TRANSFORMS: dict[str, Transform[Any, Any]] = {
    "identity": IdentityTransform(),
    "hour": HourTransform(),
    "day": DayTransform(),
    "month": MonthTransform(),
    "year": YearTransform(),
}


def is_table_root(dest: str) -> bool:
    """Whether ``dest`` holds our embedded catalog."""
    return os.path.isfile(os.path.join(dest, CATALOG_FILE))


class IcebergSink:
    """The tables of one destination: a warehouse folder with its SQL catalog, or a REST catalog."""

    format = "iceberg"

    def __init__(
        self, dest: str, *, catalog_uri: str | None = None, target_file_mb: int = 128, run: str | None = None
    ):
        self.dest = dest
        self.target_file_mb = target_file_mb
        #: the id the data files this run writes are named with (:func:`.leftovers.run_tag`)
        self.run = run
        self.catalog = _catalog(dest, catalog_uri)
        #: the catalog is the SQLite file in ``dest``
        self.embedded = catalog_uri is None
        self._tables: dict[str, Any] = {}

    def _identifier(self, name: str) -> tuple[str, str]:
        return (NAMESPACE, name)

    def committed(self, name: str, partitions: Iterable[tuple[str, int]] = ()) -> Offsets | None:
        """The offsets the table ``name`` holds (None: no such table; all of its partitions, whatever
        ``partitions`` asks); refuses a table not of our columns."""
        table = self._tables[name] = self._load(name)
        if table is None:
            return None
        check_columns([(f.name, str(f.field_type)) for f in table.schema().fields], f"Iceberg table {name!r}")
        found = table.properties.get(OFFSETS_PROPERTY)
        for snapshot in ancestors_of(table.current_snapshot(), table.metadata):
            if found is not None:
                break
            found = snapshot.summary.get(OFFSETS_PROPERTY) if snapshot.summary is not None else None
        if found is not None:
            return decode_offsets(found, f"Iceberg table {name!r}")
        if table.current_snapshot() is not None:
            raise TableError(
                f"Iceberg table {name!r} has rows but no {OFFSETS_PROPERTY} in its snapshots or properties: "
                "kafkaspec did not write it, so what it holds is unknown"
            )
        return {}

    def leftovers(self, name: str) -> tuple[str, set[str], tuple[str, ...]] | None:
        """Where the table ``name`` keeps its data files and those any snapshot references (for
        :mod:`.leftovers`: local paths, or on an object store the filesystem's ``bucket/key``); None:
        no such table yet, or one outside the destination's store. The table is read again: a run
        that committed since this one read it wrote files that are referenced now."""
        table = self._load(name) if self._tables.get(name) is not None else None
        if table is None:
            return None
        location = table.location().rstrip("/")
        if location.startswith("file://"):
            strip, into = "file://", ""
        elif "://" in self.dest and location.split("/")[:3] == self.dest.split("/")[:3]:
            strip, into = location + "/", store_path(location) + "/"  # the markers' bucket: its paths there
        else:
            return None
        referenced = {
            into + path[len(strip) :] if path.startswith(strip) else path
            for path in (
                entry.data_file.file_path
                for snapshot in table.snapshots()
                for manifest in snapshot.manifests(table.io)
                for entry in manifest.fetch_manifest_entry(table.io, discard_deleted=False)
            )
        }
        return (into + location[len(strip) :]).rstrip("/") + "/data", referenced, ()

    def writes_to(self, name: str) -> tuple[list[str], list[str]]:
        """The local paths a commit to the table ``name`` writes in: the embedded catalog's file, and
        every folder under the table's location (its namespace's folder for a new table)."""
        table = self._tables.get(name)
        location = table.location() if table is not None else os.path.join(self.dest, NAMESPACE)
        location = location.removeprefix("file://")
        paths = [os.path.join(self.dest, CATALOG_FILE)] if self.embedded else []
        return paths, [] if "://" in location else [location]

    def columns(self, name: str) -> pa.Schema | None:
        """The columns of the table ``name`` as :meth:`committed` read it (None: no such table)."""
        table = self._tables.get(name)
        return None if table is None else table.schema().as_arrow()

    def _load(self, name: str) -> Any:
        try:
            return self.catalog.load_table(self._identifier(name))
        except NoSuchTableError:
            return None

    def writable(self, name: str, partition_by: list[PartitionField], schema: pa.Schema = SCHEMA) -> Any:
        """The table ``name`` (pyiceberg's), created with ``partition_by`` if missing (a commit of its
        own, so that files written before the run's commit have a table to be found and cleaned in if
        the run dies), set to commit without retries, and kept for :meth:`commit_files`."""
        table = self._tables.get(name) or self._create(name, schema, partition_by)
        if table.metadata.properties.get(NO_RETRIES) != "0":
            table = self._no_retries(table)
        self._tables[name] = table
        return table

    def commit_files(
        self, name: str, files: list[Any], offsets: Offsets, covered: Iterable[tuple[str, int]] = ()
    ) -> None:
        """One commit of data files written elsewhere (pyiceberg ``DataFile``s, :mod:`.iceberg_files`)
        to the table ``name`` as :meth:`writable` left it, storing ``offsets`` as :meth:`append` does; a
        run that committed first makes this one fail, nothing committed."""
        props = {OFFSETS_PROPERTY: encode_offsets(offsets)}
        try:
            with self._tables[name].transaction() as tx:
                tx.set_properties(props)
                with tx.update_snapshot(snapshot_properties=props).fast_append() as append:
                    for data_file in files:
                        append.append_data_file(data_file)
        except CommitFailedException as exc:
            raise self._lost(name, exc) from None

    def _lost(self, name: str, exc: Exception, what: str = "append") -> TableError:
        return TableError(
            f"Iceberg table {name!r}: another run committed to it first; nothing of this run was "
            f"committed (run again to {what} what is still new): {exc}"
        )

    def append(
        self,
        name: str,
        schema: pa.Schema,
        batches: Iterable[pa.RecordBatch],
        offsets: Offsets,
        partition_by: list[PartitionField],
        covered: Iterable[tuple[str, int]] = (),
    ) -> int:
        """Append ``batches`` to the table ``name`` (created with ``partition_by`` if missing) in one
        snapshot storing ``offsets`` (of every partition it holds, ``covered`` or not); return the rows
        written."""
        table = self.writable(name, partition_by, schema)
        from .iceberg_files import DataFiles

        props = {OFFSETS_PROPERTY: encode_offsets(offsets)}
        try:
            with table.transaction() as tx:
                tx.set_properties(props)
                if schema.names != SCHEMA.names:  # typed values: a field the registry added since
                    try:
                        with tx.update_schema() as update:
                            update.union_by_name(schema)
                    except (ValidationError, ValueError) as exc:
                        raise TableError(
                            f"Iceberg table {name!r}: the value schema changed in a way the table cannot "
                            f"follow ({exc}); nothing of this run was committed"
                        ) from None
                with tx.update_snapshot(snapshot_properties=props).fast_append() as append:
                    files = DataFiles(
                        tx.table_metadata,
                        table.io,
                        schema,
                        self.target_file_mb << 20,
                        append.commit_uuid,
                        self.run,
                    )
                    for data_file in files.write_all(batches):
                        append.append_data_file(data_file)
        except CommitFailedException as exc:
            raise self._lost(name, exc) from None
        return files.rows

    def upsert(
        self,
        name: str,
        schema: pa.Schema,
        batches: Iterable[pa.RecordBatch],
        offsets: Offsets,
        partition_by: list[PartitionField],
        covered: Iterable[tuple[str, int]] = (),
    ) -> int:
        """Keep the last value per (topic, key) of ``batches`` in the table ``name``: a copy-on-write
        overwrite of the rows of the keys seen, tombstones deleting theirs, in one transaction storing
        ``offsets``; return the records read."""
        from .upsert import KEY_COLUMNS, last_per_key

        last, read = last_per_key(batches, schema)
        table = self.writable(name, partition_by, schema)
        props = {OFFSETS_PROPERTY: encode_offsets(offsets)}
        tombstone = pc.is_null(last.column("value"))
        dead, live = last.filter(tombstone), last.filter(pc.invert(tombstone))
        try:
            with table.transaction() as tx:
                tx.set_properties(props)
                gone = _keys_filter(dead)
                if gone is not None:
                    with warnings.catch_warnings():  # a key deleted before it had a row
                        warnings.filterwarnings("ignore", "Delete operation did not match any records")
                        tx.delete(gone, snapshot_properties=props)
                if live.num_rows:
                    tx.upsert(live, join_cols=KEY_COLUMNS, snapshot_properties=props)
        except CommitFailedException as exc:
            raise self._lost(name, exc, "apply") from None
        return read

    def _no_retries(self, table: Any) -> Any:
        """The table set not to retry a failed commit: pyiceberg retries an append on top of a snapshot
        committed meanwhile, which would append offsets that snapshot already holds. Its snapshot must
        still be the one the offsets were read from."""
        read = table.current_snapshot()
        try:
            with table.transaction() as tx:
                tx.set_properties({NO_RETRIES: "0"})
        except CommitFailedException:
            read = None  # a commit landed meanwhile
        if read is None or table.current_snapshot() != read:
            raise TableError(f"Iceberg table {table.name()!r}: another run committed to it first; run again")
        return table

    def _create(self, name: str, schema: pa.Schema, partition_by: list[PartitionField]) -> Any:
        """The table, created with its partition spec in one commit (before any data file is written, so
        that a killed run's files lie in a table the next run cleans)."""
        try:
            self.catalog.create_namespace_if_not_exists(NAMESPACE)
            tx = self.catalog.create_table_transaction(
                self._identifier(name),
                schema=schema,
                properties={"write.target-file-size-bytes": str(self.target_file_mb << 20), NO_RETRIES: "0"},
            )
            if partition_by:
                with tx.update_spec() as spec:
                    for p in partition_by:
                        spec.add_field(p.column, _TRANSFORMS[p.transform], p.name)
            return tx.commit_transaction()
        except (TableAlreadyExistsError, CommitFailedException):
            raise TableError(
                f"Iceberg table {name!r}: another run created it first; nothing of this run was committed"
            ) from None


def _keys_filter(rows: pa.Table) -> Any:
    """The rows of the (topic, key) pairs of ``rows``, as a pyiceberg filter (None: no rows)."""
    from pyiceberg import expressions

    ex: Any = expressions  # its classes are pydantic models, which type checkers take for their fields
    topics = rows.column("topic")
    per_topic = [
        ex.And(
            ex.EqualTo("topic", t),
            ex.In("key", set(rows.filter(pc.equal(topics, t)).column("key").to_pylist())),
        )
        for t in sorted(set(topics.to_pylist()))
    ]
    if not per_topic:
        return None
    return per_topic[0] if len(per_topic) == 1 else ex.Or(*per_topic)


def _catalog(dest: str, catalog_uri: str | None) -> Catalog:
    """The SQLite catalog in ``dest``; with ``catalog_uri``, a REST catalog (``http(s)://``) or an SQL
    catalog (a SQLAlchemy URL such as ``sqlite:////var/lib/lake/catalog.db``: the catalog of a
    warehouse in an object store, where no SQLite file can live)."""
    if catalog_uri is not None and not catalog_uri.startswith(("http://", "https://")):
        _refuse_memory(catalog_uri)
        if "://" not in dest:
            from .layout import check_destination

            check_destination(dest, _our_warehouse(dest), "an Iceberg warehouse")
            dest = "file://" + os.path.abspath(dest)
        return load_catalog("kafkaspec", type="sql", uri=catalog_uri, warehouse=dest, **iceberg_properties())
    if catalog_uri is not None:
        return _rest_catalog(dest, catalog_uri)
    from .layout import check_destination

    root = check_destination(dest, is_table_root(dest), "an Iceberg warehouse (no catalog.db)")
    warehouse = root if "://" in root else "file://" + os.path.abspath(root)
    uri = "sqlite:///" + os.path.abspath(os.path.join(root, CATALOG_FILE))
    from sqlalchemy.exc import DatabaseError

    try:
        return load_catalog("kafkaspec", type="sql", uri=uri, warehouse=warehouse)
    except DatabaseError as exc:  # a catalog.db that is no SQLite database (or one not readable as ours)
        said = str(exc.orig).strip().splitlines()[0][:200] if exc.orig is not None else type(exc).__name__
        raise TableError(
            f"{os.path.join(root, CATALOG_FILE)}: not an SQLite catalog that can be read ({said}); "
            "nothing was written"
        ) from None


def _our_warehouse(dest: str) -> bool:
    """Whether the local warehouse of an SQL catalog elsewhere holds our tables: our catalog, or only our
    namespace's folder (and the run markers)."""
    if is_table_root(dest):
        return True
    names = set(os.listdir(dest)) if os.path.isdir(dest) else set()
    return NAMESPACE in names and names <= {NAMESPACE, ".kafkaspec-runs"}


def _refuse_memory(uri: str) -> None:
    """An SQL catalog held in memory is gone when the run ends, and the commits with it: every run would
    append everything again (its data files stay in the warehouse)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(uri)
    except ArgumentError:
        return  # said by pyiceberg, which parses it next
    memory = url.database in (None, "", ":memory:") or "memory" in str(url.query.get("mode", ""))
    if url.get_backend_name() == "sqlite" and memory:
        raise TableError(
            f"--catalog-uri {uri}: an SQLite catalog in memory forgets every commit when the run ends; "
            "give a file (sqlite:////path/to/catalog.db)"
        )


def _rest_catalog(dest: str, uri: str) -> Catalog:
    """A REST catalog whose every request waits at most ``KAFKASPEC_STORAGE_TIMEOUT`` seconds (the store
    timeout, default 30) for its whole answer: pyiceberg's session sets no timeout, so a catalog that
    accepts and never answers would hang the run, and a socket timeout bounds each read only, so one
    that answers a byte a second would too; one that cannot be reached is one line."""
    import threading

    import requests
    from pyiceberg.catalog.rest import RestCatalog

    from ..logdir.store.objects import DEFAULT_TIMEOUT

    try:
        bounded = float(os.environ.get("KAFKASPEC_STORAGE_TIMEOUT", DEFAULT_TIMEOUT))
    except ValueError:
        bounded = DEFAULT_TIMEOUT

    class Bounded(requests.adapters.HTTPAdapter):
        def send(  # type: ignore[override]
            self, request: requests.PreparedRequest, stream: bool = False, timeout: Any = None, **kwargs: Any
        ) -> requests.Response:
            box: dict[str, Any] = {}

            def answer() -> None:
                try:
                    response = requests.adapters.HTTPAdapter.send(
                        self, request, stream, bounded if timeout is None else timeout, **kwargs
                    )
                    box["body"] = response.content  # read whole within the deadline
                    box["response"] = response
                except BaseException as exc:  # handed to the caller's thread
                    box["error"] = exc

            worker = threading.Thread(target=answer, name="kafkaspec-catalog", daemon=True)
            worker.start()
            worker.join(bounded)
            if worker.is_alive():  # left to end with its socket; the run goes on no longer
                raise requests.Timeout(f"{request.url}: no whole answer within {bounded:g} s")
            if "error" in box:
                raise box["error"]
            answered: requests.Response = box["response"]
            return answered

    class BoundedRestCatalog(RestCatalog):
        def _create_session(self) -> Any:
            session = super()._create_session()
            for prefix in ("http://", "https://"):
                if type(session.get_adapter(prefix)) is requests.adapters.HTTPAdapter:
                    session.mount(prefix, Bounded())
            return session

    try:
        return BoundedRestCatalog("kafkaspec", uri=uri, warehouse=dest)
    except Exception as exc:
        raise TableError(f"the Iceberg REST catalog {uri} cannot be reached: {exc}") from None
