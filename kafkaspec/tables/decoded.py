"""``--decode-values`` into tables: each typed topic's values as ``value_decoded`` (typed from the
schemas of the source's ``_schemas`` topic), and the records whose value does not fit its schema in a
dead-letter table ``<table>_errors`` (the record's columns, its bytes in ``value``, and ``value_error``,
the reason), as Redpanda's ``~dlq`` keeps them: never dropped.

The errors of a run are held in memory (they are the exception) and committed to the errors table
when the records have been read, before the records' own commit. The errors table stores its offsets
as every table does, and a run appends to it only the errors at or after them: a run killed between
the two commits is finished by the next without an error twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from ..arrow.schema import SCHEMA
from ..arrow.value_columns import DecodedValues
from .errors import TableError
from .source import Offsets

#: the columns of a dead-letter table
ERRORS_SCHEMA = SCHEMA.append(pa.field("value_error", pa.string()))


#: the longest table name: a table is a folder, and a file name holds at most 255 bytes
MAX_TABLE_NAME = 255


def errors_table(name: str) -> str:
    return f"{name}_errors"


def check_errors_tables(values: Any, names: Iterable[str]) -> None:
    """Refuse, before anything is written, a dead-letter table that cannot be one: named as another
    table of the run (a topic called ``orders_errors`` beside a typed ``orders``: the two would mix,
    each commit's offsets replacing the other's), or longer than a folder's name can be (a typed topic
    of Kafka's 249 characters)."""
    tables = set(names)
    for name in sorted(tables):
        if not typed(values, name):
            continue
        dead = errors_table(name)
        if dead in tables:
            raise TableError(
                f"the values of topic {name!r} that do not fit its schema go to the table {dead!r}, and so "
                f"would the records of topic {dead!r}, mixed: leave one out (--topics '!{dead}') or write "
                "without --decode-values; nothing was written"
            )
        if len(dead.encode()) > MAX_TABLE_NAME:
            raise TableError(
                f"the values of topic {name[:40]!r}... ({len(name)} characters) that do not fit its schema "
                f"would go to a table named with {len(dead)} characters, more than a folder's name holds "
                f"({MAX_TABLE_NAME}): write it without --decode-values; nothing was written"
            )


def typed(values: Any, topic: str) -> bool:
    """Whether the topic's values have a schema (the others are written as they are)."""
    return values.reader_schema(topic, "value") is not None


class Split:
    """A topic's batches split as they pass: the records whose value decoded, with ``value_decoded``
    (:attr:`schema`), go on; the others are kept in :attr:`errors` (of :data:`ERRORS_SCHEMA`)."""

    def __init__(self, values: Any, topic: str):
        self.decode = DecodedValues(values, topic)
        decoded = self.decode.fields()[0]
        self.schema = SCHEMA.append(decoded)
        self.errors: list[pa.RecordBatch] = []

    def __call__(self, batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for rb in batches:
            decoded, error = self.decode(rb)
            ok = pc.is_null(error)
            if not pc.all(ok).as_py():
                bad = pa.RecordBatch.from_arrays([*rb.columns, error], schema=ERRORS_SCHEMA)
                self.errors.append(bad.filter(pc.invert(ok)))
            yield pa.RecordBatch.from_arrays([*rb.columns, decoded], schema=self.schema).filter(ok)

    def new_errors(self, committed: Offsets) -> Iterator[pa.RecordBatch]:
        """The errors at or after the errors table's committed offsets."""
        for rb in self.errors:
            parts, offsets = rb.column("partition"), rb.column("offset")
            floor = pa.array(
                [
                    committed.get(t, {}).get(p, -1)
                    for t, p in zip(rb.column("topic").to_pylist(), parts.to_pylist(), strict=True)
                ],
                pa.int64(),
            )
            kept = rb.filter(pc.greater_equal(offsets, floor))
            if kept.num_rows:
                yield kept


def check_evolution(values: Any, sink: Any, names: Iterable[str]) -> None:
    """Refuse, before any commit of the run, a typed topic whose registry subject changed a field's
    type in a way its table cannot follow: to another kind (a number to text), narrower, or, in a Delta
    table, wider (delta-rs has no type widening: it casts a promoted value back, silently or failing
    part-way). Said in one line naming the subject, the versions and the field. A promotion Iceberg
    allows (int to long, float to double) and a new field pass, and are applied at the commit."""
    widens = sink.format == "iceberg"
    for name in sorted(names):
        if not typed(values, name):
            continue
        held = sink.columns(name)
        if held is None or "value_decoded" not in held.names:
            continue
        new = DecodedValues(values, name).fields()[0].type
        found = _unfollowed(held.field("value_decoded").type, new, "", widens)
        if found is None:
            continue
        path, old, now = found
        subject = f"{name}-value"
        version = _reader_version(values, subject)
        since = _version_with(values, subject, version, path, old)
        was = f"version {since}" if since is not None else "an earlier version"
        wider = _kind(old) == _kind(now) and _width(now) > _width(old)
        why = (
            "a Delta table cannot widen a column (delta-rs has no type widening)"
            if wider
            else "no table holds both"
        )
        raise TableError(
            f"table {name!r}: the value schema changed in a way the table cannot follow: subject "
            f"{subject!r} version {version} has field {path!r} as {now}, {was} (the table's) as {old}; "
            f"{why}; nothing of this run was committed"
        )


def _kind(t: pa.DataType) -> str:
    for kind, test in (
        ("integer", pa.types.is_integer),
        ("floating", pa.types.is_floating),
        (
            "text",
            lambda x: pa.types.is_string(x) or pa.types.is_large_string(x) or pa.types.is_string_view(x),
        ),
        (
            "bytes",
            lambda x: (
                pa.types.is_binary(x)
                or pa.types.is_large_binary(x)
                or pa.types.is_fixed_size_binary(x)
                or pa.types.is_binary_view(x)
            ),
        ),
        ("list", lambda x: pa.types.is_list(x) or pa.types.is_large_list(x) or pa.types.is_list_view(x)),
        ("struct", pa.types.is_struct),
        ("map", pa.types.is_map),
        ("timestamp", pa.types.is_timestamp),
        ("date", pa.types.is_date),
        ("time", pa.types.is_time),
        ("decimal", pa.types.is_decimal),
        ("boolean", pa.types.is_boolean),
    ):
        if test(t):
            return kind
    return str(t)


def _width(t: pa.DataType) -> int:
    return t.bit_width if _kind(t) in ("integer", "floating") else 0


def _unfollowed(
    old: pa.DataType, new: pa.DataType, path: str, widens: bool
) -> tuple[str, pa.DataType, pa.DataType] | None:
    """The first field (dotted path) whose type went from ``old`` to ``new`` in a way a table does not
    follow, or None. Only what is surely a change: the kind, or the width of a number."""
    kind = _kind(old)
    if kind != _kind(new):
        return path, old, new
    signs = kind != "integer" or pa.types.is_signed_integer(old) == pa.types.is_signed_integer(new)
    if signs and _width(new) != _width(old) and (_width(new) < _width(old) or not widens):
        return path, old, new  # (an unsigned field is held signed and wider: Iceberg's long for uint32)
    if kind == "struct":
        for f in old:
            i = new.get_field_index(f.name)
            if i >= 0:
                found = _unfollowed(f.type, new.field(i).type, f"{path}.{f.name}".lstrip("."), widens)
                if found is not None:
                    return found
    if kind == "list":
        return _unfollowed(old.value_type, new.value_type, f"{path}[]", widens)
    if kind == "map":
        return _unfollowed(old.item_type, new.item_type, f"{path}{{}}", widens)
    return None


def _reader_version(values: Any, subject: str) -> int | None:
    """The version of ``subject`` the topic's values are read with (:meth:`kafkaspec.values.decoder.Schemas.latest`)."""
    schemas = values.schemas
    if subject in schemas.pinned:
        return int(schemas.pinned[subject])
    found = schemas.store.latest(subject)
    return None if found is None else int(found.version)


def _version_with(values: Any, subject: str, latest: int | None, path: str, old: pa.DataType) -> int | None:
    """The newest version of ``subject`` before ``latest`` whose Avro schema gives ``path`` the kind and
    width the table holds (the version the table was written from), or None."""
    if latest is None:
        return None
    from ..arrow.value_types import column_type

    for version in range(latest - 1, 0, -1):
        schema = values.schemas.version(subject, version)
        if schema is None or schema.schema_type != "AVRO":
            continue
        try:
            t = column_type(values.avro_reader().parsed(schema))[0]
        except ValueError:
            continue
        for part in path.replace("[]", ".[]").replace("{}", ".{}").split(".") if path else []:
            if t is None:
                break
            if part == "[]":
                t = t.value_type
            elif part == "{}":
                t = t.item_type
            else:
                i = t.get_field_index(part) if pa.types.is_struct(t) else -1
                t = t.field(i).type if i >= 0 else None
        if t is not None and _kind(t) == _kind(old) and _width(t) == _width(old):
            return version
    return None
