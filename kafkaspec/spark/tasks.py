"""One range task to Arrow batches, in the columns the options ask for: what a batch read's task and a
micro-batch's task run on an executor."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..arrow.ranges import RangeTask
from ..errors import KafkaFormatError
from .options import ReadOptions

if TYPE_CHECKING:
    import pyarrow as pa


def our_errors_first(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """``batches``, with a data error (a :class:`KafkaFormatError`, which names the file and the byte)
    raised with no traceback of ours: PySpark shows the worker's traceback above the error's own line,
    and the frames inside the decoder say nothing to a user, so the message comes first."""
    try:
        yield from batches
    except KafkaFormatError as exc:  # an explicit except in each place (writer.py too): a context manager
        # cannot do this, as contextlib puts the original traceback back on the exception it re-raises
        raise exc.with_traceback(None) from None


def read_task(task: RangeTask, opts: ReadOptions) -> Iterator[pa.RecordBatch]:
    """The Arrow batches of ``task``: records (decoded too with ``decode``), offset commits or audit rows,
    without the ``headers`` column when ``includeHeaders`` is false."""
    batches = _batches(task, opts)
    if opts.values is not None and (
        task.end > task.start or task.unused is not None or task.unreadable is not None
    ):
        batches = _with_values(batches, task, opts)
    if opts.include_headers or opts.view != "records":
        return batches
    return (b.drop_columns(["headers"]) for b in batches)


def _batches(task: RangeTask, opts: ReadOptions) -> Iterator[pa.RecordBatch]:
    if task.end <= task.start and task.unused is None and task.unreadable is None:
        return iter(())
    if opts.view == "batches":
        from .audit import read_audit

        return read_audit(task)
    from ..arrow.ranges import read_records

    if opts.view == "offsets":
        from .decoding import read_offsets

        return read_offsets(read_records(task), task, opts.skip_corrupt)
    if opts.decode:
        from .decoding import with_decoded

        return with_decoded(read_records(task), task, opts.skip_corrupt)
    return read_records(task)


def _with_values(
    batches: Iterator[pa.RecordBatch], task: RangeTask, opts: ReadOptions
) -> Iterator[pa.RecordBatch]:
    """``keyFormat`` / ``valueFormat``: the decoded columns (records) or the error counts (batches)."""
    from .values import with_audit_counts, with_values

    assert opts.values is not None
    if opts.view == "batches":
        from ..arrow.ranges import read_records

        return with_audit_counts(batches, task, opts.values, read_records)
    return with_values(batches, task, opts.values)
