"""A batch built once with all its columns: the record columns a read gives (:data:`.schema.SCHEMA`,
or the audit rows), and the columns worked out from them (Kafka's own payloads decoded,
:mod:`.payload_columns`; keys and values decoded with their schemas, :mod:`.value_columns`), put
together in one ``RecordBatch``, columns the read does not want left out on the way.

Each set of added columns is a :class:`Added`: its fields, and its arrays for a batch of records.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

import pyarrow as pa

__all__ = ["Added", "assembled", "assembled_schema"]


class Added(Protocol):
    """Columns added to each batch of a read, worked out from its record columns."""

    def fields(self) -> list[pa.Field]: ...

    def __call__(self, rb: pa.RecordBatch) -> list[pa.Array]: ...


def assembled_schema(base: pa.Schema, added: Sequence[Added], drop: Sequence[str] = ()) -> pa.Schema:
    """The schema of :func:`assembled`'s batches: ``base`` without ``drop``, then each ``added``'s fields."""
    return pa.schema([*(f for f in base if f.name not in drop), *(f for a in added for f in a.fields())])


def assembled(
    batches: Iterator[pa.RecordBatch], base: pa.Schema, added: Sequence[Added], drop: Sequence[str] = ()
) -> Iterator[pa.RecordBatch]:
    """Each of ``batches`` (of schema ``base``) with the ``added`` columns, without those in ``drop``:
    one ``RecordBatch`` per batch, made once."""
    if not added and not drop:
        yield from batches
        return
    schema = assembled_schema(base, added, drop)
    keep = [i for i, f in enumerate(base) if f.name not in drop]
    for rb in batches:
        arrays = [rb.column(i) for i in keep]
        for a in added:
            arrays += a(rb)
        yield pa.RecordBatch.from_arrays(arrays, schema=schema)
