"""One range task to Arrow batches, in the columns the options ask for: what a batch read's task and a
micro-batch's task run on an executor."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...arrow.ranges import ReadRange
from ...errors import KafkaFormatError
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


def read_task(task: ReadRange, opts: ReadOptions) -> Iterator[pa.RecordBatch]:
    """The Arrow batches of ``task``: records (decoded too with ``decode``), offset commits or audit rows,
    without the ``headers`` column when ``includeHeaders`` is false. Each batch is built once with all
    its columns (:func:`kafkaspec.arrow.columns.assembled`)."""
    if task.end <= task.start and task.unused is None and task.unreadable is None:
        return iter(())
    from ...arrow.columns import Added, assembled

    if opts.view == "batches":
        return _audit(task, opts)
    from ...arrow.ranges import read_records

    if opts.view == "offsets":
        from .decoding import read_offsets

        return read_offsets(read_records(task), task, opts.skip_corrupt)
    from ...arrow.schema import SCHEMA

    added: list[Added] = []
    if opts.decode:
        from .decoding import payload_arrays

        added.append(payload_arrays(task, opts.skip_corrupt))
    if opts.values is not None:
        from .values import value_arrays

        added.append(value_arrays(task, opts.values))
    columns = None if opts.include_headers else [n for n in SCHEMA.names if n != "headers"]
    return assembled(read_records(task), SCHEMA, added, columns)


def _audit(task: ReadRange, opts: ReadOptions) -> Iterator[pa.RecordBatch]:
    """The audit rows, with ``keyFormat`` / ``valueFormat`` their records' error counts (worked out when
    the first row is asked for, from a records read of the range)."""
    from ...arrow.columns import assembled
    from .audit import read_audit
    from .schema import AUDIT_COLUMNS, arrow_schema

    added = []
    if opts.values is not None:
        from ...arrow.ranges import read_records
        from .values import AuditCounts, audit_counts

        added.append(AuditCounts(audit_counts(task, opts.values, read_records), opts.values))
    yield from assembled(read_audit(task), arrow_schema(AUDIT_COLUMNS), added)
