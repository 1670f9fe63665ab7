"""Partitions as Arrow: the ``kafkalog`` record columns as ``pyarrow.RecordBatch``es, without Spark.

``Partition.to_arrow()`` and ``LogDir.to_arrow_batches()`` (what DuckDB and Polars take directly)
decode v2 batches through the columnar engine (:func:`kafkaspec.arrow.engine.decode_run`), a run of
batches at a time; a run the engine declines, and legacy (magic 0/1) entries, decode one record at a
time, so a corrupt batch raises the per-record decoder's error, naming the segment and byte position.

Which batches become rows is a :class:`~.selection.Selection` (control batches only when asked for,
under read_committed none of an aborted or still-open transaction), decided from the heads.

The partitions and segments are taken by what they offer (:class:`PartitionLike`), not by their
classes: :mod:`kafkaspec.logdir` calls this module, and this module needs nothing of it back.

Needs numpy and pyarrow (``kafkaspec[spark]``).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..codec.extras import missing

try:
    import numpy as np
    import pyarrow as pa
except ModuleNotFoundError as exc:
    raise missing(exc, "spark", "Arrow output (to_arrow, to_arrow_batches)") from None

from ..codec.compression import CODEC_NAMES, DEFAULT_MAX_DECOMPRESSED
from ..entry import LogBatch
from ..errors import KafkaFormatError
from ..generated.record_batch_v2 import (
    BATCH_LENGTH_END,
    COMPRESSION_MASK,
    TIMESTAMP_TYPE_MASK,
    TIMESTAMP_TYPE_SHIFT,
)
from ..records import Batch, BatchIterator
from .engine import decode_run, decode_run_at
from .schema import SCHEMA
from .selection import CommittedLike, Selection
from .walk import Heads, crc_mismatch, v2_heads

if TYPE_CHECKING:
    from ..values.decoder import ValueDecoder

#: records per run of batches (and so per yielded RecordBatch, about)
ROWS_PER_RUN = 65536
_NO_FLOOR = -(1 << 63)  # below every offset: nothing passed over


class SegmentLike(Protocol):
    """What is read of a segment (``kafkaspec.logdir.Segment``, local or tiered)."""

    @property
    def path(self) -> object: ...

    @property
    def data(self) -> bytes: ...

    @property
    def served_from(self) -> int: ...

    @property
    def base_offset(self) -> int: ...

    def close(self) -> None: ...


class PartitionLike(Protocol):
    """What is read of a partition (``kafkaspec.logdir.Partition`` and its tiered kinds)."""

    @property
    def topic(self) -> str: ...

    @property
    def partition(self) -> int: ...

    def segments(self) -> Sequence[SegmentLike]: ...

    def read_committed(self) -> CommittedLike: ...


class LogDirLike(Protocol):
    """What is read of a log directory (``kafkaspec.logdir.LogDir``)."""

    def partitions(self) -> Iterable[PartitionLike]: ...


def _per_record(entries: Sequence[LogBatch], *, topic: str, partition: int, segment: str) -> pa.RecordBatch:
    """The same columns from record objects: legacy entries, and runs the engine declined."""
    cols: dict[str, list] = {name: [] for name in SCHEMA.names}
    for entry in entries:
        try:
            records = list(entry)
        except KafkaFormatError as exc:
            raise exc.at(0, segment) from None
        if isinstance(entry, Batch):
            tstype = (entry.attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT
        else:
            tstype = (
                (entry.attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT if entry.magic == 1 else -1
            )
        fixed = {
            "topic": topic,
            "partition": partition,
            "timestampType": tstype,
            "magic": entry.magic,
            "compression": CODEC_NAMES[entry.attributes & COMPRESSION_MASK]
            if entry.attributes & COMPRESSION_MASK < 5
            else f"unknown{entry.attributes & COMPRESSION_MASK}",
            "producerId": entry.producer_id,
            "producerEpoch": entry.producer_epoch,
            "baseSequence": entry.base_sequence,
            "isTransactional": entry.is_transactional,
            "isControl": entry.is_control,
            "partitionLeaderEpoch": entry.partition_leader_epoch,
            "segment": segment,
            "batchPosition": entry.position,
        }
        untimed = entry.magic == 0  # no timestamp: null (Kafka's consumer says -1, NO_TIMESTAMP_TYPE)
        for r in records:
            cols["key"].append(r.key)
            cols["value"].append(r.value)
            cols["offset"].append(r.offset)
            cols["timestamp"].append(None if untimed else (-1 if r.timestamp is None else r.timestamp) * 1000)
            cols["headers"].append([{"key": k, "value": v} for k, v in r.headers or ()])
            for name, value in fixed.items():
                cols[name].append(value)
    arrays = []
    for f in SCHEMA:
        if f.name == "timestamp":
            arrays.append(pa.array(cols["timestamp"], pa.int64()).view(f.type))
        else:
            arrays.append(pa.array(cols[f.name], f.type))
    return pa.RecordBatch.from_arrays(arrays, schema=SCHEMA)


def partition_batches(
    part: PartitionLike,
    *,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
    values: ValueDecoder | None = None,
    read_committed: bool = True,
    include_control: bool = False,
) -> Iterator[pa.RecordBatch]:
    """Every record of the partition, segment by segment, as RecordBatches of :data:`SCHEMA`; with
    ``values``, the decoded values added (:class:`~.value_columns.DecodedValues`). ``read_committed``:
    no record of an aborted or open transaction; ``include_control``: the control records too
    (:class:`Selection`)."""
    if values is not None:
        from .columns import assembled
        from .value_columns import DecodedValues

        yield from assembled(
            partition_batches(
                part,
                verify=verify,
                max_decompressed=max_decompressed,
                read_committed=read_committed,
                include_control=include_control,
            ),
            SCHEMA,
            [DecodedValues(values, part.topic)],
        )
        return
    select = Selection(part, committed=read_committed, include_control=include_control)
    for seg in part.segments():
        # a segment served from inside it (a tiered lineage, a partition's history) passes over the batches
        # before; any other is read whole, as Segment.iter_batches reads it (offsets below its name too)
        floor = seg.served_from if seg.served_from > seg.base_offset else _NO_FLOOR
        try:
            buf = seg.data
            segment = str(seg.path)
            names: dict[str, Any] = {"topic": part.topic, "partition": part.partition, "segment": segment}
            try:
                yield from _segment_batches(buf, floor, names, verify, max_decompressed, select)
            except KafkaFormatError as exc:
                raise exc.at(0, segment) from None
        finally:
            seg.close()


def _segment_batches(
    buf: bytes, floor: int, names: dict[str, Any], verify: bool, max_decompressed: int, select: Selection
) -> Iterator[pa.RecordBatch]:
    """A segment's records: runs of the v2 batches the vectorised walk vouches for through the engine;
    from the first entry it does not, the batch iterator's entries (legacy ones one record at a time,
    an error raised at its byte) up to the next v2 batch, where the walk resumes."""
    pos, end = 0, len(buf)
    while pos < end:
        found = v2_heads(buf, pos)
        vouched = yield from _v2_runs(buf, found, floor, names, verify, max_decompressed, select)
        if vouched >= end:
            return
        resume = yield from _iterated(buf, vouched, floor, names, verify, max_decompressed, select)
        if resume is None:
            return
        pos = resume


def _iterated(
    buf: bytes,
    vouched: int,
    floor: int,
    names: dict[str, Any],
    verify: bool,
    max_decompressed: int,
    select: Selection,
) -> Generator[pa.RecordBatch, None, int | None]:
    """The batch iterator's entries from ``vouched``, up to the next v2 batch after it (where the walk
    resumes: returned; ``None`` at the end). Legacy entries are gathered into RecordBatches of about
    :data:`ROWS_PER_RUN` records (a RecordBatch each cost more than their records: a topic of small
    magic 0/1 message sets read at a fifth of the speed), counted by their records (the floor's check
    has decoded a wrapper already; its offsets could claim fewer); a v2 batch goes through the engine.
    The entries gathered before an error come out before it."""
    pending: list[LogBatch] = []
    rows = 0
    entries = BatchIterator(
        buf, verify=verify, max_decompressed=max_decompressed, check_records=False, start=vouched
    )
    while True:
        try:
            entry = next(entries, None)
            back = isinstance(entry, Batch) and entry.position > vouched  # back to the walk
            if entry is not None and not back:
                _check_floor(entry, floor)
                count = 0 if isinstance(entry, Batch) else len(entry)  # (a v2 batch is decoded on its own)
        except KafkaFormatError:
            yield from _legacy(pending, names)
            raise
        if entry is None or back or isinstance(entry, Batch) or rows >= ROWS_PER_RUN:
            yield from _legacy(pending, names)
            pending, rows = [], 0
        if entry is None or back:
            return None if entry is None else entry.position
        if entry.last_offset < floor or not select.keeps(entry):
            continue
        if isinstance(entry, Batch):
            yield _run(buf, [entry], names, max_decompressed)
        else:
            pending.append(entry)
            rows += count


def _legacy(entries: list[LogBatch], names: dict[str, Any]) -> Iterator[pa.RecordBatch]:
    """Legacy entries as one RecordBatch; when one's records do not decode, those before it (an entry
    at a time), then its error."""
    if not entries:
        return
    try:
        rb = _per_record(entries, **names)
    except KafkaFormatError:
        for entry in entries:
            yield _per_record([entry], **names)  # raises at the entry that failed
        raise
    yield rb


def _check_floor(entry: LogBatch, floor: int) -> None:
    if entry.base_offset < floor <= entry.last_offset:
        raise _cut_differently(entry.position, entry.base_offset, entry.last_offset, floor)


def _cut_differently(position: int, first: int, last: int, floor: int) -> KafkaFormatError:
    return KafkaFormatError(
        f"the batch at byte {position} holds offsets {first}..{last}, but the live lineage "
        f"serves this segment from offset {floor}: the two uploads cut their batches differently",
        position,
    )


def _before_bad_crc(buf: bytes, positions: np.ndarray, heads: np.ndarray) -> Heads | None:
    """The batches before the first whose CRC fails, stopping there; None when every CRC holds."""
    bad = crc_mismatch(buf, positions, heads)
    return None if bad is None else Heads(positions[:bad], heads[:bad], int(positions[bad]))


def _v2_runs(
    buf: bytes,
    found: Heads,
    floor: int,
    names: dict[str, Any],
    verify: bool,
    max_decompressed: int,
    select: Selection,
) -> Generator[pa.RecordBatch, None, int]:
    """The batches ``found`` from ``floor`` on (tiered storage's lineage) that ``select`` keeps,
    :data:`ROWS_PER_RUN` records at a time, through the engine; a run it declines goes to the per-record
    decoder. ``verify``: each run's CRCs checked right before it is decoded, stopping at the first that
    fails (the batches left out are checked too, as if read). Returns where the batches stop being
    vouched for: ``found.stop``, or the batch whose CRC failed."""
    positions, heads = found.positions, found.heads
    if not len(positions):
        return found.stop
    kept = select.mask(heads)
    if kept is not None:
        if verify and (vouched := _before_bad_crc(buf, positions, heads)) is not None:
            return (yield from _v2_runs(buf, vouched, floor, names, False, max_decompressed, select))
        positions, heads, verify = positions[kept], heads[kept], False
        if not len(positions):
            return found.stop
    base_offsets = heads["base_offset"].astype(np.int64)
    if floor > int(base_offsets.min()):  # a tiered segment served from inside it: the batches before go
        if (
            verify and (vouched := _before_bad_crc(buf, positions, heads)) is not None
        ):  # checked too, as if read
            return (yield from _v2_runs(buf, vouched, floor, names, False, max_decompressed, select))
        keep: list[int] = []
        for i, (first, delta) in enumerate(zip(base_offsets.tolist(), heads["last_offset_delta"].tolist())):
            if first + delta < floor:
                continue  # served by the segment before
            if first < floor:
                yield from _v2_runs(
                    buf, Heads(positions[keep], heads[keep], 0), floor, names, False, max_decompressed, select
                )
                raise _cut_differently(int(positions[i]), first, first + delta, floor)
            keep.append(i)
        positions, heads, verify = positions[keep], heads[keep], False
    rows = np.cumsum(heads["records_count"].astype(np.int64))
    first = 0
    while first < len(positions):
        before = int(rows[first - 1]) if first else 0
        last = min(int(np.searchsorted(rows, before + ROWS_PER_RUN)), len(positions) - 1)
        bad = crc_mismatch(buf, positions[first : last + 1], heads[first : last + 1]) if verify else None
        if bad is not None:  # the batches before it, then the batch iterator reports it
            if bad:
                yield _decoded(buf, positions, heads, first, first + bad - 1, names, max_decompressed, select)
            return int(positions[first + bad])
        yield _decoded(buf, positions, heads, first, last, names, max_decompressed, select)
        first = last + 1
    return found.stop


def _decoded(
    buf: bytes,
    positions: np.ndarray,
    heads: np.ndarray,
    first: int,
    last: int,
    names: dict[str, Any],
    max_decompressed: int,
    select: Selection,
) -> pa.RecordBatch:
    """Batches ``first`` to ``last`` through the engine; if it declines, the per-record decoder (its error
    at its byte, or the same columns; the batches between them that ``select`` left out, left out)."""
    run = slice(first, last + 1)
    rb = decode_run_at(buf, positions[run], heads[run], max_decompressed=max_decompressed, **names)
    if rb is None:
        start = int(positions[first])
        stop = int(positions[last]) + BATCH_LENGTH_END + int(heads["batch_length"][last])
        rb = _per_record(
            [
                entry
                for entry in BatchIterator(
                    buf,
                    max_decompressed=max_decompressed,
                    check_records=False,
                    start=start,
                    end=stop,
                    verify=False,
                )
                if select.keeps(entry)
            ],
            **names,
        )
    return rb


def _run(buf: bytes, run: list[Batch], names: dict[str, Any], max_decompressed: int) -> pa.RecordBatch:
    rb = decode_run(buf, run, max_decompressed=max_decompressed, **names)
    return _per_record(run, **names) if rb is None else rb


def partition_table(
    part: PartitionLike,
    *,
    verify: bool = True,
    values: ValueDecoder | None = None,
    read_committed: bool = True,
    include_control: bool = False,
) -> pa.Table:
    """The partition's records as one ``pyarrow.Table`` (:data:`SCHEMA`, plus the decoded values);
    ``read_committed`` and ``include_control`` as :func:`partition_batches`."""
    batches = list(
        partition_batches(
            part,
            verify=verify,
            values=values,
            read_committed=read_committed,
            include_control=include_control,
        )
    )
    if values is None:
        return pa.Table.from_batches(batches, schema=SCHEMA)
    if batches:
        return pa.Table.from_batches(batches)
    from .columns import Assembly
    from .value_columns import DecodedValues

    return pa.Table.from_batches([], schema=Assembly(SCHEMA, [DecodedValues(values, part.topic)]).schema)


def logdir_batches(
    log: LogDirLike,
    *,
    verify: bool = True,
    values: ValueDecoder | None = None,
    read_committed: bool = True,
    include_control: bool = False,
) -> Iterator[pa.RecordBatch]:
    """Every partition's records (topics and partitions in the directory's order), as RecordBatches;
    with ``values``, the decoded values of each topic (a different struct per topic);
    ``read_committed`` and ``include_control`` as :func:`partition_batches`."""
    for part in log.partitions():
        yield from partition_batches(
            part, verify=verify, values=values, read_committed=read_committed, include_control=include_control
        )
