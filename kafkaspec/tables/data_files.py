"""The data files of one table commit, written as the records stream in: what Iceberg's and Delta's
writers share (:mod:`.iceberg_files`, :mod:`.delta_files`).

A table library's own write takes a whole table in memory: for a partitioned table it adds the
partition columns, groups them, filters the table once per partition value and copies each part again
before writing, so each record is copied several times and the batches wait in memory for the chunk to
fill. Here each batch goes straight to the open file of its partition (a batch of one day, nearly all
of them, whole; one that spans several split by value), and a file is closed once it holds the target
size of Arrow data: what a table adds to plain Parquet is then its commit alone. A format says how a
file is opened, what goes into it and what a commit needs of it once closed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

#: files open at once: records in time order fill one day (hour, ...) after another, and a file whose
#: partition has not been written to for longest is closed when one more would pass this
MAX_OPEN = 32
#: bytes of Arrow data per row group (the batches as read hold a few thousand records each; a row group
#: per batch would make readers pay for thousands of tiny ones)
ROW_GROUP = 16 << 20

#: a partition field as the writer computes it: the column it is made from, and the Arrow function
#: from that column to the partition values
KeyColumn = tuple[str, Callable[[Any], Any]]


class OpenFile:
    """One data file being written: its writer, where it goes, and the in-memory bytes handed to it."""

    def __init__(self, writer: Any, output: Any, path: str, key: Any):
        self.writer, self.output, self.path, self.key = writer, output, path, key
        self.size = 0
        #: batches not yet written: written together, as one row group, once they hold :data:`ROW_GROUP`
        self.pending: list[pa.RecordBatch] = []
        self.pending_size = 0

    def add(self, batch: pa.RecordBatch, size: int) -> None:
        self.pending.append(batch)
        self.pending_size += size
        self.size += size
        if self.pending_size >= ROW_GROUP:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.writer.write(pa.Table.from_batches(self.pending))
            self.pending, self.pending_size = [], 0


class PartitionedFiles:
    """Data files of one commit, each of about ``target`` bytes of Arrow data, one open file per
    partition value of ``keys``. A format implements :meth:`_new` (a file for a partition value),
    :meth:`_prepare` (a batch as its files hold it) and :meth:`_finish` (a closed file's entry)."""

    def __init__(self, target: int, keys: list[KeyColumn]):
        self.target = target
        self.keys = keys
        self._open: dict[tuple[Any, ...], OpenFile] = {}
        self.done: list[Any] = []
        self.rows = 0

    def _new(self, values: tuple[Any, ...]) -> OpenFile:
        raise NotImplementedError

    def _prepare(self, rb: pa.RecordBatch) -> pa.RecordBatch:
        return rb

    def _finish(self, f: OpenFile) -> Any:
        raise NotImplementedError

    def write_all(self, batches: Iterable[pa.RecordBatch]) -> list[Any]:
        """Write every batch, close every file; the files' entries."""
        try:
            for rb in batches:
                self.write(rb)
        except BaseException:
            self._abandon()
            raise
        return self.close()

    def write(self, rb: pa.RecordBatch) -> None:
        if not rb.num_rows:
            return
        self.rows += rb.num_rows
        for values, part in self._by_partition(rb):
            if part.nbytes <= self.target:
                self._append(values, part)
                continue
            # rows of at least a file each (rounded up): a slice short of the target would leave its
            # file open for the next slice, two slices a file
            step = max(1, -(-self.target * part.num_rows // part.nbytes))
            for at in range(0, part.num_rows, step):
                self._append(values, part.slice(at, step))

    def _by_partition(self, rb: pa.RecordBatch) -> Iterator[tuple[tuple[Any, ...], pa.RecordBatch]]:
        """The batch per partition value: whole when all its rows share one (one check per field)."""
        if not self.keys:
            yield (), rb
            return
        columns = [fn(rb.column(name)) for name, fn in self.keys]
        single = [_single(c) for c in columns]
        if all(s is not _MIXED for s in single):
            yield tuple(single), rb
            return
        names = [f"_partition_{i}" for i in range(len(columns))]
        keyed = pa.Table.from_batches([rb])
        for name, column in zip(names, columns, strict=True):
            keyed = keyed.append_column(name, column)
        for found in keyed.select(names).group_by(names, use_threads=False).aggregate([]).to_pylist():
            mask = None
            for name in names:
                value = found[name]
                test = pc.is_null(keyed[name]) if value is None else pc.equal(keyed[name], value)
                mask = test if mask is None else pc.and_(mask, test)
            part = keyed.filter(mask).drop_columns(names)
            for piece in part.to_batches():
                yield tuple(found[n] for n in names), piece

    def _append(self, values: tuple[Any, ...], rb: pa.RecordBatch) -> None:
        current = self._open.pop(values, None)
        if current is None:
            if len(self._open) >= MAX_OPEN:  # the partition written to least recently
                self.done.append(self._finish(self._open.pop(next(iter(self._open)))))
            current = self._new(values)
        self._open[values] = current  # the most recent last
        current.add(self._prepare(rb), rb.nbytes)
        if current.size >= self.target:
            self.done.append(self._finish(self._open.pop(values)))

    def close(self) -> list[Any]:
        for values in list(self._open):
            self.done.append(self._finish(self._open.pop(values)))
        return self.done

    def _abandon(self) -> None:
        """A failed write: the files open so far closed (they are no commit's, as after a kill)."""
        for f in self._open.values():
            f.pending = []
            try:
                f.writer.close()
            except Exception:  # the error that stopped the write is the one raised
                pass
        self._open.clear()


_MIXED = object()


def _single(column: pa.Array | pa.ChunkedArray) -> Any:
    """The one value every row of ``column`` has (None: null in every row), or ``_MIXED``."""
    nulls = column.null_count
    if nulls == len(column):
        return None
    if nulls:
        return _MIXED
    try:
        bounds = pc.min_max(column)
    except pa.ArrowNotImplementedError:
        return _MIXED
    low, high = bounds["min"].as_py(), bounds["max"].as_py()
    return low if low == high else _MIXED
