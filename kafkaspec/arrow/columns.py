"""A batch built once with all its columns: the record columns a read gives (:data:`.schema.SCHEMA`,
or the audit rows), and the columns worked out from them (Kafka's own payloads decoded,
:mod:`.payload_columns`; keys and values decoded with their schemas, :mod:`.value_columns`), put
together in one ``RecordBatch``, the base columns a read does not want left out on the way.

Each set of added columns is an :class:`Added`: its fields, and its arrays for a batch of records.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

import pyarrow as pa

__all__ = ["Added", "Assembly", "assembled"]


class Added(Protocol):
    """Columns added to each batch of a read, worked out from its record columns."""

    def fields(self) -> list[pa.Field]: ...

    def __call__(self, rb: pa.RecordBatch) -> list[pa.Array]: ...


class Assembly:
    """Batches of ``base`` as batches of :attr:`schema`: the base columns named in ``columns`` (in that
    order; all of them by default), then each ``added``'s columns."""

    def __init__(self, base: pa.Schema, added: Sequence[Added] = (), columns: Sequence[str] | None = None):
        names = list(base.names) if columns is None else list(columns)
        self.keep = [base.get_field_index(n) for n in names]
        self.added = list(added)
        self.schema = pa.schema(
            [*(base.field(i) for i in self.keep), *(f for a in self.added for f in a.fields())]
        )
        #: nothing to add or leave out: a batch goes as it is
        self.same = not self.added and self.keep == list(range(len(base)))

    def __call__(self, rb: pa.RecordBatch) -> pa.RecordBatch:
        if self.same:
            return rb
        arrays = [rb.column(i) for i in self.keep]
        for a in self.added:
            arrays += a(rb)
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)


def assembled(
    batches: Iterator[pa.RecordBatch],
    base: pa.Schema,
    added: Sequence[Added] = (),
    columns: Sequence[str] | None = None,
) -> Iterator[pa.RecordBatch]:
    """Each of ``batches`` (of schema ``base``) built once as :class:`Assembly` says."""
    assembly = Assembly(base, added, columns)
    if assembly.same:
        return batches
    return map(assembly, batches)
