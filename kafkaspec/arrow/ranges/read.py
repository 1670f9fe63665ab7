"""The range reader: one byte range of a segment as ``pyarrow.RecordBatch``es of the ``kafkalog`` columns.
One module because the engine's runs and the per-record path hand a range over to each other mid-way.

What each task of the Spark source (and the pipeline) runs with the :class:`.plan.ReadRange` it was
planned, Spark-free (only pyarrow and numpy), so the benchmark and the tests run it directly. Runs of
v2 batches decode through the columnar engine (:func:`kafkaspec.arrow.engine.decode_run`); what the
engine declines, and legacy (magic 0/1) batches, go through the generated
``decode_record_batch_columns`` and the record objects. Corrupt input either raises (policy ``fail``)
or is skipped to the next verifiable batch and reported (policy ``skip``).

Why one module of this size: the engine's runs and the per-record path must give the same rows, errors
and skips in the same order; split, that hand-over would be stated on both sides.
"""

from __future__ import annotations

import logging
from array import array
from bisect import insort
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from itertools import accumulate, chain
from typing import Any, NoReturn

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.message_v1 import COMPRESSION_MASK, TIMESTAMP_TYPE_MASK, TIMESTAMP_TYPE_SHIFT
from kafkaspec.generated.record_v2 import RecordColumns

from ...codec.compression import CODEC_NAMES
from ...entry import LogBatch
from ...errors import KafkaFormatError
from ...logdir import open_segment
from ...logdir.kafka.transactions import select_batches
from ...records import Batch, BatchIterator
from ...recovery import LENGTH
from ..engine import decode_run, decode_run_at
from ..schema import SCHEMA
from ..selection import aborted_among
from ..walk import crc_mismatch, v2_heads
from .plan import ReadRange

log = logging.getLogger("kafkaspec.spark")

#: records per yielded Arrow batch: big enough to amortise the JVM hand-over
ROWS_PER_ARROW_BATCH = 65536
#: the Arrow bytes a run of records decodes to at most, about: records of a few KB would otherwise make
#: runs of hundreds of MB before :data:`ROWS_PER_ARROW_BATCH` (decompressed and joined whole, then as
#: columns: on the bench's 1.3 KB records a 64 MB task was one run, peaking at 950 MB in a worker)
BYTES_PER_ARROW_RUN = 32 << 20


def _stored_limit(stored: int, decoded: int) -> int:
    """The stored bytes that end the next run: :data:`BYTES_PER_ARROW_RUN` at the last run's ratio of
    Arrow bytes to stored ones (the stored bytes are all that is known before decompressing)."""
    return max(BYTES_PER_ARROW_RUN * stored // max(decoded, 1), 1 << 18)


@dataclass
class SkippedRange:
    """Bytes [start, end) of a segment that were skipped as corrupt, and why."""

    path: str
    start: int
    end: int
    reason: str
    rule: str = "scan"  # how the end was found: "length" or "scan" (kafkaspec.entry.Skipped.rule)


@dataclass
class RangeReport:
    """What a range read skipped (filled while iterating)."""

    skipped: list[SkippedRange] = field(default_factory=list)
    partial: tuple[int, int] | None = None  # (position, size) of a torn tail


@dataclass
class Walk:
    """What a records read saw of its range, for the pipeline's audit (:mod:`~kafkaspec.spark.read.audit`) to reuse
    instead of walking, checking and decompressing the range a second time.

    ``entries``: every entry the read walked, in file order, before any selection (a transaction filter
    or offset bounds): the batches the head walk vouched for (:attr:`vouched`, their heads in
    :attr:`vouched_heads`, made into objects only when asked for), then those the batch iterator gave
    (:attr:`noted`). ``complete``: the read reached the range's end. ``report``: the read's report (what
    it skipped). ``plain_sizes``: a v2 batch's position -> the size of its records region after
    decompression (the batches the engine decoded). ``legacy_counts``: a legacy entry's position -> its
    record count (the entries whose records all decoded). Positions are relative to the range's bytes."""

    noted: list[LogBatch] = field(default_factory=list)
    complete: bool = False
    plain_sizes: dict[int, int] = field(default_factory=dict)
    legacy_counts: dict[int, int] = field(default_factory=dict)
    report: RangeReport | None = None
    #: where the batches the head walk vouched for start (int64), before every noted entry
    vouched: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    vouched_heads: np.ndarray | None = field(default=None, repr=False, compare=False)
    _buf: bytes = field(default=b"", repr=False, compare=False)
    _max_decompressed: int = field(default=0, repr=False, compare=False)

    def note(self, entries: Iterator[LogBatch], report: RangeReport) -> Iterator[LogBatch]:
        self.report = report
        for entry in entries:
            self.noted.append(entry)
            yield entry
        self.complete = True

    def vouch(self, buf: bytes, positions: np.ndarray, heads: np.ndarray, max_decompressed: int) -> None:
        self.vouched, self.vouched_heads = positions, heads
        self._buf, self._max_decompressed = buf, max_decompressed

    @property
    def entries(self) -> list[LogBatch]:
        if not len(self.vouched):
            return self.noted
        assert self.vouched_heads is not None
        last = len(self.vouched) - 1
        stop = int(self.vouched[last]) + v2.BATCH_LENGTH_END + int(self.vouched_heads["batch_length"][last])
        made = BatchIterator(
            self._buf,
            verify=False,
            check_records=False,
            start=int(self.vouched[0]),
            end=stop,
            max_decompressed=self._max_decompressed,
        )
        return [*made, *self.noted]

    @property
    def clean(self) -> bool:
        """The read reached the range's end and nothing was skipped or left as a torn tail: then
        :attr:`entries` are the entries a walk of the range with ``verify=False`` gives (with ``verify_crc``,
        each one's checksum checked)."""
        r = self.report
        return self.complete and r is not None and not r.skipped and r.partial is None


def load_range(task: ReadRange) -> bytes:
    """The bytes of the task's range, read from the file (not mapped: a segment truncated meanwhile
    gives fewer bytes, never a SIGBUS)."""
    if task.unreadable is not None:
        return b""
    return open_segment(task.path, task.storage, task.keys, task.layout).read_range(task.start, task.end)


def unreadable_gap(task: ReadRange, report: RangeReport) -> None:
    """A segment that cannot be read (``task.unreadable``): the data's error naming it (policy ``fail``),
    or, under ``skip``, reported as skipped bytes are (the range's report, a warning) and nothing read."""
    assert task.unreadable is not None
    if not task.skip_corrupt:
        raise KafkaFormatError(task.unreadable, None, task.path)
    skip(report, task, 0, 0, f"the segment cannot be read: {task.unreadable}")


def iter_entries(
    buf: bytes, base: int, task: ReadRange, report: RangeReport, start: int = 0
) -> Iterator[LogBatch]:
    """Batches of ``buf`` (the range's bytes, file position ``base``) from ``start`` on, applying the
    corruption policy.

    Skipping follows :mod:`kafkaspec.recovery`, like ``iter_batches(on_corrupt="skip")``; records are
    decoded by the caller (into columns), which skips a batch whose records fail up to its end.
    """
    it = BatchIterator(
        buf,
        verify=task.verify_crc,
        max_decompressed=task.max_decompressed,
        on_corrupt="skip" if task.skip_corrupt else "raise",
        check_records=False,
        start=start,
    )
    reported = 0
    try:
        for batch in it:
            for s in it.skipped[reported:]:
                skip(report, task, base + s.start, base + s.end, s.reason, s.rule)
            reported = len(it.skipped)
            yield batch
    except KafkaFormatError as exc:
        raise exc.at(base, task.path) from None
    for s in it.skipped[reported:]:
        skip(report, task, base + s.start, base + s.end, s.reason, s.rule)
    if it.partial is not None:
        report.partial = (it.partial.position + base, it.partial.size)


def skip(
    report: RangeReport, task: ReadRange, start: int, stop: int, reason: str, rule: str = "scan"
) -> None:
    # in file order: the lockstep reader reports a batch whose records fail after the entries read past it
    insort(report.skipped, SkippedRange(task.path, start, stop, reason, rule), key=lambda s: s.start)
    log.warning("kafkalog: skipped corrupt bytes %d..%d of %s: %s", start, stop, task.path, reason)


class _Meta:
    """Per-batch values, each repeated over the batch's records when a RecordBatch is built."""

    __slots__ = ("counts", "magic", "codec", "pid", "epoch", "seq", "txn", "ctrl", "ple", "pos", "tstype")

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.magic: list[int] = []
        self.codec: list[int] = []
        self.pid: list[int] = []
        self.epoch: list[int] = []
        self.seq: list[int] = []
        self.txn: list[bool] = []
        self.ctrl: list[bool] = []
        self.ple: list[int] = []
        self.pos: list[int] = []
        self.tstype: list[int] = []

    def add(
        self,
        n: int,
        magic: int,
        codec: int,
        pid: int,
        epoch: int,
        seq: int,
        txn: bool,
        ctrl: bool,
        ple: int,
        pos: int,
        tstype: int,
    ) -> None:
        if not n:  # an empty batch (kept by compaction) contributes no rows, and runs must not be empty
            return
        self.counts.append(n)
        self.magic.append(magic)
        self.codec.append(codec)
        self.pid.append(pid)
        self.epoch.append(epoch)
        self.seq.append(seq)
        self.txn.append(txn)
        self.ctrl.append(ctrl)
        self.ple.append(ple)
        self.pos.append(pos)
        self.tstype.append(tstype)


_CODECS = pa.array(list(CODEC_NAMES) + ["unknown5", "unknown6", "unknown7"], pa.string())


def int64_array(values: list[int]) -> pa.Array:
    """A list of ints (no nulls) as an Arrow int64 array, through a C ``array`` buffer:
    about 40% faster than ``pa.array(values, pa.int64())`` on this workload."""
    buf = array("q", values)
    return pa.Array.from_buffers(pa.int64(), len(buf), [None, pa.py_buffer(buf)])


class RecordBatchBuilder:
    """Turns filled column lists into ``pyarrow.RecordBatch``es of the ``kafkalog`` columns (:data:`SCHEMA`)."""

    def __init__(self, topic: str, partition: int, segment: str):
        self.schema = SCHEMA
        self.headers_type = self.schema.field("headers").type
        self.header_fields = list(self.headers_type.value_type)
        self.topic, self.partition, self.segment = topic, partition, segment

    def build(self, cols: RecordColumns, meta: _Meta) -> pa.RecordBatch:
        n = len(cols.offset)
        # per-batch values become columns by run-end decoding: one run per batch
        run_ends = pa.array(list(accumulate(meta.counts)), pa.int32())

        def rep(values: list[Any], pa_type: pa.DataType) -> pa.Array:
            return pc.run_end_decode(pa.RunEndEncodedArray.from_arrays(run_ends, pa.array(values, pa_type)))

        # relative fields hold deltas; add each decode call's base, vectorised over its run
        base_ends = pa.array(cols.base_run_ends, pa.int32())

        def rebase(deltas: list[int], bases: list[int], what: str) -> pa.Array:
            per_row = pc.run_end_decode(
                pa.RunEndEncodedArray.from_arrays(base_ends, pa.array(bases, pa.int64()))
            )
            try:  # checked: a base near int64's limit plus a delta must not wrap around silently
                return pc.add_checked(int64_array(deltas), per_row)
            except (pa.ArrowInvalid, OverflowError):
                self._beyond_int64(what, deltas, per_row.to_pylist(), meta, "int64")

        ts = rebase(cols.timestamp, cols.base_timestamps, "timestamp")
        offsets = rebase(cols.offset, cols.base_offsets, "offset")
        try:  # Spark timestamps are microseconds in an int64: milliseconds beyond about 292,000 years do not fit
            ts_us = pc.multiply_checked(ts, 1000)
        except pa.ArrowInvalid:
            self._beyond_int64(
                "timestamp",
                ts.to_pylist(),
                [0] * n,
                meta,
                "a Spark timestamp (int64 microseconds)",
                scale=1000,
            )
        stamps = ts_us.view(pa.timestamp("us", tz="UTC"))
        if -1 in meta.tstype:  # a magic 0 batch: its records have no timestamp (null, not -1 ms)
            stamps = pc.if_else(pc.equal(rep(meta.tstype, pa.int32()), -1), None, stamps)
        hc = cols.headers
        header_values = pa.StructArray.from_arrays(
            [pa.array(hc.key, pa.string()), pa.array(hc.value, pa.binary())], fields=self.header_fields
        )
        if hc.key:
            header_offsets = pa.array(cols.headers_offsets, pa.int32())
        else:  # no record has headers: every offset is 0
            header_offsets = pa.repeat(pa.scalar(0, pa.int32()), n + 1)
        headers = pa.ListArray.from_arrays(header_offsets, header_values, type=self.headers_type)
        columns = [
            pa.array(cols.key, pa.binary()),
            pa.array(cols.value, pa.binary()),
            pa.repeat(pa.scalar(self.topic, pa.string()), n),
            pa.repeat(pa.scalar(self.partition, pa.int32()), n),
            offsets,
            stamps,
            rep(meta.tstype, pa.int32()),
            headers,
            rep(meta.magic, pa.int32()),
            _CODECS.take(rep(meta.codec, pa.int8())),
            rep(meta.pid, pa.int64()),
            rep(meta.epoch, pa.int32()),
            rep(meta.seq, pa.int32()),
            rep(meta.txn, pa.bool_()),
            rep(meta.ctrl, pa.bool_()),
            rep(meta.ple, pa.int32()),
            pa.repeat(pa.scalar(self.segment, pa.string()), n),
            rep(meta.pos, pa.int64()),
        ]
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)

    def _beyond_int64(
        self, what: str, deltas: list[int], bases: list[int], meta: _Meta, limit: str, scale: int = 1
    ) -> NoReturn:
        """Name the record whose absolute value does not fit: the slow path, taken only on the error."""
        row = next(
            i
            for i, (d, b) in enumerate(zip(deltas, bases, strict=True))
            if not -(1 << 63) <= (d + b) * scale < 1 << 63
        )
        ends = list(accumulate(meta.counts))
        batch = next(i for i, end in enumerate(ends) if row < end)
        # counted in its batch: a row of this read's Arrow batch depends on where the read cut its runs
        raise KafkaFormatError(
            f"a record's {what} is {deltas[row] + bases[row]}, beyond {limit} (record "
            f"{row - ends[batch] + meta.counts[batch]} of the batch at byte {meta.pos[batch]})",
            meta.pos[batch],
            self.segment,
        )


def _append_legacy(batch: LogBatch, cols: RecordColumns) -> None:
    """Records of a legacy (magic 0/1) entry, through its record objects."""
    hk, hv, ho = cols.headers.key, cols.headers.value, cols.headers_offsets
    n0 = len(cols.offset)
    for r in batch:
        cols.attributes.append(r.attributes)
        cols.timestamp.append(-1 if r.timestamp is None else r.timestamp)
        cols.offset.append(r.offset)
        cols.key.append(r.key)
        cols.value.append(r.value)
        for k, v in r.headers or ():
            hk.append(k)
            hv.append(v)
        ho.append(len(hk))
    if len(cols.offset) > n0:
        cols.add_run(len(cols.offset), 0, 0)  # legacy values are absolute already


def read_records(
    task: ReadRange, report: RangeReport | None = None, buf: bytes | None = None, walk: Walk | None = None
) -> Iterator[pa.RecordBatch]:
    """The records of the task's range, filtered as the task says, as Arrow batches.

    With ``task.lockstep``, runs of v2 batches (:data:`ROWS_PER_ARROW_BATCH` records, or fewer in
    about :data:`BYTES_PER_ARROW_RUN` bytes of columns) decode through
    :mod:`kafkaspec.arrow.engine`. A run the engine declines (a check failed, a legacy entry, a value it
    leaves to the per-record decoder) goes to the per-record decoder from the run's first batch up to
    where that decoder yields, so errors, skips and row numbering are the per-record decoder's own.
    ``walk``: filled with what the read saw (:class:`Walk`).
    """
    report = RangeReport() if report is None else report
    if task.unreadable is not None:
        unreadable_gap(task, report)
        return
    buf = load_range(task) if buf is None else buf
    builder = RecordBatchBuilder(task.topic, task.partition, task.path)
    start = 0
    if task.lockstep:
        resume = yield from _vouched(task, buf, walk)
        if resume is None:  # the read ends inside what the head walk vouched for
            return
        start = resume
    entries = iter_entries(buf, task.start, task, report, start)
    if walk is not None:
        entries = walk.note(entries, report)
    selected = select_batches(
        entries,
        start_offset=task.min_offset,
        end_offset=task.max_offset,
        include_control=task.include_control,
        read_committed=task.read_committed,
    )
    if not task.lockstep:
        yield from _per_record(iter(selected), buf, task, report, builder, first_only=False, walk=walk)
        return
    # the engine reads a run ahead: an entry the iterator refuses must not pre-empt an error in the run
    batches = _Deferred(selected)
    run: list[Batch] = []
    rows = held = 0
    limit = BYTES_PER_ARROW_RUN // 8  # till a run says how much its bytes grow when decoded
    for batch in batches:
        if not isinstance(batch, Batch):  # a legacy entry: the per-record path takes over from the run
            yield from _per_record(
                chain(run, [batch], batches),
                buf,
                task,
                report,
                builder,
                first_only=True,
                source=batches,
                walk=walk,
            )
            run, rows, held = [], 0, 0
            continue
        run.append(batch)
        rows += batch.head.records_count
        held += batch.size
        if rows >= ROWS_PER_ARROW_BATCH or held >= limit:
            decoded = 0
            for rb in _run(run, batches, buf, task, report, builder, walk):
                decoded += rb.nbytes
                yield rb
            limit = _stored_limit(held, decoded)
            run, rows, held = [], 0, 0
    if run and batches.failure is not None:  # the per-record path would have stopped inside this run
        if (
            decode_run(
                buf,
                run,
                topic=task.topic,
                partition=task.partition,
                segment=task.path,
                max_decompressed=task.max_decompressed,
            )
            is None
        ):
            for _ in _per_record(iter(run), buf, task, report, builder, first_only=False, source=batches):
                pass  # only for its error, which comes first in the file
    elif run:
        yield from _run(run, batches, buf, task, report, builder, walk)
    if batches.failure is not None:
        raise batches.failure


def _vouched(task: ReadRange, buf: bytes, walk: Walk | None) -> Generator[pa.RecordBatch, None, int | None]:
    """The records of the v2 batches at the start of ``buf`` that the head walk vouches for
    (:func:`kafkaspec.arrow.walk.v2_heads`: every check of the batch iterator, then their CRCs at once),
    selected from their heads as :func:`~kafkaspec.logdir.kafka.transactions.select_batches` selects
    entries, decoded through the engine in runs as :func:`read_records` cuts them; no object made per
    batch. Returns where the batch iterator takes over (the first entry not vouched for: a legacy one, a
    failed check, a torn tail, the range's end; or the first batch of a run the engine declines), or None when the read ends here (a batch at or past the
    end offset, or the last stable offset: as the selection stops there, nothing after it is read)."""
    found = v2_heads(buf, 0)
    positions, heads = found.positions, found.heads
    if not len(positions):
        return found.stop
    resume: int | None = found.stop
    rc, lo, hi = task.read_committed, task.min_offset, task.max_offset
    first = heads["base_offset"].astype(np.int64)
    last = first + heads["last_offset_delta"].astype(np.int64)
    ends = np.zeros(len(first), bool)  # where the selection stops
    if hi is not None:
        ends |= first >= hi
    if rc is not None and rc.stable is not None:
        ends |= first >= rc.stable
    if lo is not None:  # a batch before the start offset is passed over before either stop is looked at
        ends &= last >= lo
    walked = len(first)
    if ends.any():  # the stop may be the last batch walked: nothing after it is read all the same
        walked, resume = int(np.argmax(ends)) + 1, None
    if task.verify_crc and (bad := crc_mismatch(buf, positions[:walked], heads[:walked])) is not None:
        walked, resume = bad, int(positions[bad])  # the batch iterator reports it, from there on
    positions, heads, first, last = positions[:walked], heads[:walked], first[:walked], last[:walked]
    if walk is not None:
        walk.vouch(buf, positions, heads, task.max_decompressed)
    walked_at, walked_heads = positions, heads
    kept = _selected(task, heads, first, last, len(first) if resume is not None else len(first) - 1)
    positions, heads, first, last = positions[kept], heads[kept], first[kept], last[kept]
    rows = np.cumsum(heads["records_count"].astype(np.int64))
    stored = np.cumsum(heads["batch_length"].astype(np.int64) + v2.BATCH_LENGTH_END)
    limit = BYTES_PER_ARROW_RUN // 8  # till a run says how much its bytes grow when decoded
    at = 0
    while at < len(positions):
        rows_before, bytes_before = (int(rows[at - 1]), int(stored[at - 1])) if at else (0, 0)
        end = min(
            int(np.searchsorted(rows, rows_before + ROWS_PER_ARROW_BATCH)),
            int(np.searchsorted(stored, bytes_before + limit)),
            len(positions) - 1,
        )
        run = slice(at, end + 1)
        rb = decode_run_at(buf, positions[run], heads[run], **_engine_args(task, walk))
        if rb is None:  # the engine declines: the batch iterator takes over from the run's first batch,
            # so that the per-record decoder's errors come in the order they do without the head walk (a
            # value beyond a Spark timestamp is named when its rows are built: after a later entry's error)
            resume = int(positions[at])
            if walk is not None:
                cut = int(np.searchsorted(walked_at, resume))
                walk.vouch(buf, walked_at[:cut], walked_heads[:cut], task.max_decompressed)
            return resume
        straddles = bool(
            (lo is not None and (first[run] < lo).any()) or (hi is not None and (last[run] >= hi).any())
        )
        yield _filter(rb, straddles, lo, hi)
        limit = _stored_limit(int(stored[end]) - bytes_before, rb.nbytes)
        at = end + 1
    return resume


def _engine_args(task: ReadRange, walk: Walk | None) -> dict[str, Any]:
    """What the engine is told of a run of the task's range (its rows' columns, its limit, the walk's sizes)."""
    return {
        "topic": task.topic,
        "partition": task.partition,
        "segment": task.path,
        "base": task.start,
        "max_decompressed": task.max_decompressed,
        "plain_sizes": None if walk is None else walk.plain_sizes,
    }


def _selected(
    task: ReadRange, heads: np.ndarray, first: np.ndarray, last: np.ndarray, usable: int
) -> np.ndarray:
    """The indices of the ``heads`` (batches of offsets ``first`` to ``last``) that the selection keeps,
    among the first ``usable`` (the one after them stopped it): :func:`select_batches`' rule over heads."""
    keep = np.zeros(len(first), bool)
    keep[:usable] = True
    attributes = heads["attributes"]
    control = (attributes & v2.IS_CONTROL_MASK) != 0
    if task.min_offset is not None:
        keep &= last >= task.min_offset
    if not task.include_control:
        keep &= ~control
    if task.read_committed is not None:
        data = np.flatnonzero(keep & ((attributes & v2.IS_TRANSACTIONAL_MASK) != 0) & ~control)
        keep[aborted_among(task.read_committed, heads, data)] = False
    return np.flatnonzero(keep)


class _Deferred(Iterator[LogBatch]):
    """The selected entries; an error of the entry iterator is kept in :attr:`failure` (ending the
    iteration) until what was read before it has been decoded."""

    def __init__(self, entries: Iterator[LogBatch]):
        self._it = iter(entries)
        self.failure: KafkaFormatError | None = None

    def __next__(self) -> LogBatch:
        if self.failure is not None:
            raise StopIteration
        try:
            return next(self._it)
        except KafkaFormatError as exc:
            self.failure = exc
            raise StopIteration from None


def _run(
    run: list[Batch],
    rest: _Deferred,
    buf: bytes,
    task: ReadRange,
    report: RangeReport,
    builder: RecordBatchBuilder,
    walk: Walk | None,
) -> Iterator[pa.RecordBatch]:
    rb = decode_run(buf, run, **_engine_args(task, walk))
    if rb is None:
        yield from _per_record(
            chain(run, rest), buf, task, report, builder, first_only=True, source=rest, walk=walk
        )
        return
    lo, hi = task.min_offset, task.max_offset
    straddles = any(
        (lo is not None and b.base_offset < lo) or (hi is not None and b.last_offset >= hi) for b in run
    )
    yield _filter(rb, straddles, lo, hi)


def _per_record(
    batches: Iterator[LogBatch],
    buf: bytes,
    task: ReadRange,
    report: RangeReport,
    builder: RecordBatchBuilder,
    first_only: bool,
    source: _Deferred | None = None,
    walk: Walk | None = None,
) -> Iterator[pa.RecordBatch]:
    """The per-record decoder over ``batches``; ``first_only``: stop after the first Arrow batch (leaving
    the rest of the iterator to the caller). When ``source`` ended on an error, the rows decoded since
    the last Arrow batch are not yielded: the error comes instead, as without the engine. ``walk``: the
    record counts of the legacy entries go there."""
    lo, hi = task.min_offset, task.max_offset
    decode_columns = v2.decode_record_batch_columns
    cols, meta = RecordColumns(), _Meta()
    straddles = False
    base = task.start
    for batch in batches:
        n0 = len(cols.offset)
        try:
            if isinstance(batch, Batch):
                head = batch.head
                n = decode_columns(
                    buf, batch.position, head, batch.end, cols, max_decompressed=task.max_decompressed
                )
                if (
                    head.attributes & v2.TIMESTAMP_TYPE_MASK and n
                ):  # LogAppendTime: the broker's time for every record
                    cols.timestamp[n0:] = [0] * n
                    cols.base_timestamps[-1] = (
                        head.max_timestamp
                    )  # the batch's own run (max - base may pass int64)
                meta.add(
                    n,
                    2,
                    head.attributes & v2.COMPRESSION_MASK,
                    head.producer_id,
                    head.producer_epoch,
                    head.base_sequence,
                    head.is_transactional,
                    head.is_control,
                    head.partition_leader_epoch,
                    base + batch.position,
                    (head.attributes & v2.TIMESTAMP_TYPE_MASK) >> v2.TIMESTAMP_TYPE_SHIFT,
                )
            else:
                _append_legacy(batch, cols)
                n = len(cols.offset) - n0
                if walk is not None:
                    walk.legacy_counts[batch.position] = n
                tstype = (
                    (batch.attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT
                    if batch.magic == 1
                    else -1
                )
                meta.add(
                    n,
                    batch.magic,
                    batch.attributes & COMPRESSION_MASK,
                    batch.producer_id,
                    batch.producer_epoch,
                    batch.base_sequence,
                    batch.is_transactional,
                    batch.is_control,
                    batch.partition_leader_epoch,
                    base + batch.position,
                    tstype,
                )
        except KafkaFormatError as exc:
            cols.truncate(n0)
            exc.at(base, task.path)
            if not task.skip_corrupt:
                raise
            skip(
                report, task, base + batch.position, base + batch.end, exc.reason, LENGTH
            )  # the CRC held: its length did
            continue
        if (lo is not None and batch.base_offset < lo) or (hi is not None and batch.last_offset >= hi):
            straddles = True
        if len(cols.offset) >= ROWS_PER_ARROW_BATCH:
            yield _filter(builder.build(cols, meta), straddles, lo, hi)
            if first_only:
                return
            cols, meta, straddles = RecordColumns(), _Meta(), False
    if cols.offset and (source is None or source.failure is None):
        yield _filter(builder.build(cols, meta), straddles, lo, hi)


def _filter(rb: pa.RecordBatch, straddles: bool, lo: int | None, hi: int | None) -> pa.RecordBatch:
    """The rows of ``rb`` whose offsets are in [lo, hi) (only a run with a batch across a bound needs it)."""
    if straddles:
        offsets = rb.column(4)
        mask = None
        if lo is not None:
            mask = pc.greater_equal(offsets, lo)
        if hi is not None:
            upper = pc.less(offsets, hi)
            mask = upper if mask is None else pc.and_(mask, upper)
        rb = rb.filter(mask)
    return rb
