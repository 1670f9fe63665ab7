"""``--table-mode upsert``: a compacted topic as a table of its latest value per key.

A run's records are reduced to the last one per (topic, key), as the log cleaner would keep them; a
last record without a value (a tombstone) deletes its key's row. Records without a key have no row to
update and are left out (Kafka refuses them in a compacted topic). The run's records are held in
memory for this, which suits a compacted topic (bounded by its keys).
"""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa
import pyarrow.compute as pc

#: the columns that identify a row of an upsert table
KEY_COLUMNS = ["topic", "key"]


def last_per_key(batches: Iterable[pa.RecordBatch], schema: pa.Schema) -> tuple[pa.Table, int]:
    """The last record of each (topic, key) of ``batches`` (in offset order per partition), tombstones
    included; and the number of records read."""
    table = pa.Table.from_batches(list(batches), schema)
    read = table.num_rows
    table = table.filter(pc.is_valid(table.column("key")))
    if table.num_rows == 0:
        return table, read
    indexed = table.append_column("__row", pa.array(range(table.num_rows), pa.int64()))
    last = indexed.group_by(KEY_COLUMNS, use_threads=False).aggregate([("__row", "max")])
    rows = last.column("__row_max").combine_chunks()
    return table.take(rows.take(pc.sort_indices(rows))), read  # in the order they were read
