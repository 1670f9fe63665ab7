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
