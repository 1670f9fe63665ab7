"""``copy``: a log directory rewritten batch for batch, optionally filtered, recompressed or converted.

Every batch of the source is written again through :class:`PartitionWriter` with its
own base offset, last offset delta, producer fields, flags, codec, timestamp type
and leader epoch (see :func:`kafkaspec.logdir.kafka.batch_surgery.rebuild_batch`); a batch that
nothing changes is copied byte for byte. Segment boundaries are kept (each source
segment starts a segment of the same base offset), and the writer rebuilds what a
broker loads beside them: indexes, ``.txnindex``, producer snapshots at every roll,
``leader-epoch-checkpoint``, ``partition.metadata`` (with the source's topic id)
and, in the data directory, the broker's offset checkpoints (``meta.properties``
is copied when the source is a data directory).

Filtering (``where``) sees data records only: control batches (transaction markers)
are always kept, so every transaction keeps its state. A batch that loses some records
keeps its offsets and sequence range; one that loses all of them stays, empty, when
it carries a producer id (its sequence range and transaction membership are producer
state, as Kafka's cleaner keeps them) and is dropped otherwise (a plain batch, or a
legacy message, which cannot be empty).

``compression`` recompresses data batches (control batches keep their codec, and so do magic
0/1 entries when it is zstd, which needs magic 2). ``to_magic`` converts with :func:`kafkaspec.convert`, batch by batch, and counts what
the target format cannot hold, as ``convert`` does; below magic 2 that includes
transaction markers, so records of aborted transactions become plain records: the
report counts those batches (``aborted_made_visible``).

Nothing of the source is lost without a word. Two copies of one topic-partition in the source
(nested data dirs: two brokers' replicas in one backup) are refused before anything is written,
naming both (:class:`DuplicatePartitionError`): they cannot be merged without choosing an order
that neither copy states, and writing both to one partition kept only the last. A corrupt entry,
or a partial batch at the end of any segment (a segment cut short, a torn tail), stops the copy
naming the file and byte; with ``skip_corrupt`` those byte ranges are left out instead and the
report lists each (``left_out``).

The output is staged in the destination and moved into place when complete (:mod:`kafkaspec.logdir.store.staging`):
a copy killed half-way leaves no partition that looks complete without a sign, and readers and
``verify`` report the destination as an interrupted copy.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from kafkaspec.generated.record_v2 import Record

from ...conversion import convert
from ...entry import LogBatch
from ...errors import DuplicatePartitionError as DuplicatePartitionError
from ...errors import KafkaFormatError, TruncatedError, UnsupportedCodecError
from ...records import iter_batches
from ..kafka.batch_surgery import rebuild_batch
from ..kafka.checkpoints import update_offset_checkpoints as update_offset_checkpoints
from ..kafka.layout import LogDir, Partition, no_kafka_data, open_kafka_log, show_path
from ..kafka.names import check_topic_partition
from ..kafka.segment import Segment
from ..kafka.transactions import ReadCommitted
from ..kafka.window import Batches
from ..store import staging
from .writer import PartitionWriter


class LeftOut(NamedTuple):
    """A byte range of the source that ``copy(skip_corrupt=True)`` did not copy, and why."""

    partition: str  # <topic>-<partition>
    path: str  # the segment file
    start: int
    end: int
    reason: str


class Row(NamedTuple):
    """What a ``where`` predicate sees of one data record."""

    topic: str
    partition: int
    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]


#: ``where(row) -> bool``: True keeps the record
Where = Callable[[Row], bool]


@dataclass
class CopyReport:
    """What :func:`copy` wrote and what it left out."""

    path: Path
    partitions: int = 0
    batches: int = 0  # entries written
    records: int = 0  # data records written
    bytes: int = 0
    dropped_records: int = 0  # data records ``where`` removed
    emptied_batches: int = 0  # batches kept with no records left (producer state)
    dropped_batches: int = 0  # batches left with no record and nothing to keep, not written
    #: what the down- or up-conversion could not keep (as :class:`kafkaspec.conversion.Converted` counts it)
    dropped_headers: int = 0
    dropped_producer_fields: int = 0
    dropped_control_batches: int = 0
    dropped_timestamps: int = 0
    aborted_made_visible: int = 0  # batches of aborted or open transactions now plain (magic < 2)
    skipped_partitions: list[str] = field(default_factory=list)  # not selected by ``topics``
    #: source byte ranges not copied (corrupt entries, partial batches), with ``skip_corrupt`` only
    left_out: list[LeftOut] = field(default_factory=list)
    #: staging dirs of earlier runs that were killed, found in the destination and removed (logdir.staging)
    removed_staging: list[str] = field(default_factory=list)


def copy(
    src: str | Path,
    dst: str | Path,
    *,
    where: Where | None = None,
    topics: Collection[str] | None = None,
    to_magic: int | None = None,
    compression: str | None = None,
    index_interval_bytes: int = 4096,
    skip_corrupt: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> CopyReport:
    """Copy the log directory ``src`` (data dir, partition dir or segment) to the data dir ``dst``.

    ``where(row)`` keeps a data record when true (control records are always kept);
    ``topics`` selects topics by name; ``to_magic`` converts to a message format
    (0, 1, 2) and ``compression`` recompresses data batches. With none of them the
    copy holds the same batches, byte for byte, in the same segments. ``dst`` must
    not exist or be empty (staging dirs of killed runs aside: they are removed once the copy is
    in place, and listed in the report's ``removed_staging``), and must not lie inside ``src``. The output is staged in ``dst``
    and moved into place when complete (:mod:`kafkaspec.logdir.store.staging`).

    A source holding one topic-partition twice raises :class:`DuplicatePartitionError` before
    anything is written. A corrupt entry or a partial batch raises :class:`KafkaFormatError`
    naming the segment and byte, unless ``skip_corrupt``: then it is left out and listed in the
    report's ``left_out``. ``progress(done, total)`` is called with the bytes of segments read so far
    after each partition (the CLI's progress bar).
    """
    src, dst = Path(src), Path(dst)
    if to_magic is not None and to_magic not in (0, 1, 2):
        raise ValueError(f"to_magic must be 0, 1 or 2, got {to_magic!r}")
    if src.exists() and dst.resolve().is_relative_to(src.resolve()):
        raise ValueError(f"the destination {dst} lies inside the source {src}")
    report = CopyReport(dst)
    with open_kafka_log(src) as log:
        if not log.has_data():
            raise no_kafka_data(src)
        parts = _selected(log.partitions(), topics, report)
        _whole(log)
        staging.prepare(dst)  # refused before anything is created when DST is not empty
        try:
            dst.mkdir(parents=True)
            created = True
        except FileExistsError:  # it was there, or another run made it a moment ago: not ours to remove
            created = False
        with staging.Lock(dst):  # from here no other rewrite writes DST
            _copy_locked(
                log,
                src,
                dst,
                parts,
                created,
                report,
                (where, to_magic, compression, index_interval_bytes, skip_corrupt),
                progress,
            )
    return report


def _copy_locked(
    log: LogDir,
    src: Path,
    dst: Path,
    parts: list[Partition],
    created: bool,
    report: CopyReport,
    how: tuple[Where | None, int | None, str | None, int, bool],
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """:func:`copy` with ``dst`` locked: stage the output, then publish it (``how``: the arguments of
    :func:`_copy_partition` after ``report``)."""
    stale = staging.prepare(dst)  # again, under the lock: what a run before it left is seen now
    try:
        stage = staging.Staging(dst, str(src))
    except BaseException:
        if created:
            dst.rmdir()
        raise
    try:
        root = stage.path
        end_offsets: dict[tuple[str, int], tuple[int, int]] = {}
        sizes = [sum(seg.size for seg in part.segments()) for part in parts] if progress else []
        done = 0
        for i, part in enumerate(parts):
            end_offsets[(part.topic, part.partition)] = _copy_partition(part, root, report, *how)
            part.close()
            if progress is not None:
                done += sizes[i]
                progress(done, sum(sizes))
        meta = log.path / "meta.properties"
        if isinstance(meta, Path) and log.path == src and meta.is_file():
            shutil.copyfile(meta, root / "meta.properties")
        update_offset_checkpoints(root, end_offsets)
        stage.publish(stale)
    except BaseException:  # the staged output goes: DST is as it was (unless entries were moved in
        # already: the staging dir then stays, the sign readers report of a copy that is not complete)
        stage.discard()
        if created and not stage.moving:
            dst.rmdir()
        raise
    report.removed_staging = [o.describe() for o in stale]


def _whole(log: LogDir) -> None:
    """Refuse a source that readers see only in part: the staging dir of a rewrite that did not finish
    (its output is no partition), or a partition a writer is publishing. Copying the rest would leave
    those out without a word."""
    if log.interrupted:
        raise KafkaFormatError(
            "the staging dir of a rewrite that did not finish: the source is not a complete "
            "copy and its staged output is not read; finish that rewrite first, or rewrite "
            "its complete partition dirs one by one",
            None,
            str(log.interrupted[0]),
        )
    if log.unpublished:
        raise KafkaFormatError(
            "a partition a writer is publishing, or failed to: it is not read, so the copy "
            "would be without it; write it again first",
            None,
            str(log.unpublished[0]),
        )


def _selected(
    partitions: list[Partition], topics: Collection[str] | None, report: CopyReport
) -> list[Partition]:
    """The partitions ``topics`` selects (the others named in the report); refused when one
    topic-partition comes more than once (nested data dirs), naming every copy."""
    selected: dict[tuple[str, int], list[Partition]] = {}
    for part in partitions:
        if topics is not None and part.topic not in topics:
            report.skipped_partitions.append(part.name)
            continue
        selected.setdefault((part.topic, part.partition), []).append(part)
    for copies in selected.values():
        if len(copies) > 1:
            paths = [str(p.path) for p in copies]
            raise DuplicatePartitionError(
                f"the source holds {len(copies) if len(copies) > 2 else 'two'} copies of partition "
                f"{copies[0].name}: {', '.join(paths[:-1])} and {paths[-1]} (nested data dirs, e.g. two brokers' "
                "replicas); copies are not merged, since neither says how their batches interleave: rewrite "
                "each data dir to a destination of its own, or leave the topic out (--topics)"
            )
    return [p for copies in selected.values() for p in copies]


#: the broker's offset checkpoints in a data directory, and which end of a partition each holds
def _copy_partition(
    part: Partition,
    dst: Path,
    report: CopyReport,
    where: Where | None,
    to_magic: int | None,
    compression: str | None,
    index_interval_bytes: int,
    skip_corrupt: bool,
) -> tuple[int, int]:
    """Copy one partition; return its (log start offset, log end offset) in the copy."""
    meta = part.metadata()
    rc = part.read_committed() if to_magic is not None and to_magic < 2 else None
    topic, partition = part.topic, part.partition
    check_topic_partition(
        topic, partition, f"{show_path(part.path)}: not a <topic>-<partition> Kafka can load"
    )
    start: int | None = None
    report.partitions += 1
    with PartitionWriter(
        dst,
        topic,
        partition,
        segment_bytes=1 << 31,
        index_interval_bytes=index_interval_bytes,
        topic_id=meta["topic_id"] if meta else None,
    ) as w:
        for seg in part.segments():
            if start is None:
                start = seg.base_offset  # the log start offset: the first segment's base
            w.roll(base_offset=max(seg.base_offset, w.next_offset))
            batches = seg.iter_batches(on_corrupt="skip" if skip_corrupt else "raise")
            for batch in _named(batches, seg):
                at = f"{seg.path} at byte {batch.position}"
                records: list[Record] | None = None
                if where is not None and not batch.is_control:
                    original = _records(batch, seg)
                    records = [
                        r
                        for r in original
                        if where(Row(topic, partition, r.offset, r.timestamp, r.key, r.value, r.headers))
                    ]
                    report.dropped_records += len(original) - len(records)
                    if len(records) == len(original):
                        records = None
                    elif not records and (batch.magic < 2 or batch.producer_id < 0):
                        report.dropped_batches += 1
                        continue
                    elif not records:
                        report.emptied_batches += 1
                if to_magic is not None and batch.magic != to_magic:
                    _append_converted(w, batch, records, to_magic, compression, rc, report, at)
                else:
                    w.append_batch(
                        batch, records=records, compression=output_codec(batch, compression), where=at
                    )
                    report.batches += 1
                    report.records += (
                        0 if batch.is_control else (batch.records_count if records is None else len(records))
                    )
            _account(batches, seg, part.name, report, skip_corrupt)
            seg.close()
        report.bytes += w.bytes_written
    return (start if start is not None else w.next_offset), w.next_offset


def _named(batches: Iterator[LogBatch], seg: Segment) -> Iterator[LogBatch]:
    """The batches of ``seg``; a format error while reading them names the segment file."""
    try:
        yield from batches
    except KafkaFormatError as exc:
        raise exc.at(0, str(seg.path)) from None


def _records(batch: LogBatch, seg: Segment) -> list[Record]:
    """The records of a batch whose framing and CRC are good; when they do not decode, the error names
    the batch (segment and byte), the reader's position in the batch's bytes kept in the message."""
    try:
        return batch.records
    except KafkaFormatError as exc:
        inner = f"{exc.reason} (at byte {exc.position})" if exc.position is not None else exc.reason
        raise KafkaFormatError(
            f"the batch's records do not decode: {inner}", batch.position, str(seg.path)
        ) from None


def _account(batches: Batches, seg: Segment, partition: str, report: CopyReport, skip_corrupt: bool) -> None:
    """After a segment: what its reading passed over. A partial batch (the segment cut short, or a torn
    tail) raises, naming file and byte, unless ``skip_corrupt``; skipped ranges are listed in the report."""
    partial = batches.partial
    if partial is not None and not skip_corrupt:
        need = f" of the {partial.needed} its length announces" if partial.needed else ""
        raise TruncatedError(
            f"the segment ends in a partial batch ({partial.size} bytes{need}): a segment cut "
            "short or a torn tail; not copied (--skip-corrupt leaves it out and says so)",
            partial.position,
            str(seg.path),
        )
    path = str(seg.path)
    left = [LeftOut(partition, path, s.start, s.end, f"corrupt entry: {s.reason}") for s in batches.skipped]
    if partial is not None:
        need = f" of {partial.needed}" if partial.needed else ""
        left.append(
            LeftOut(
                partition,
                path,
                partial.position,
                partial.position + partial.size,
                f"partial batch ({partial.size}{need} bytes)",
            )
        )
    report.left_out += left


def output_codec(batch: LogBatch, compression: str | None) -> str | None:
    """The codec a batch is rewritten with when ``compression`` is asked for: control batches keep theirs
    (Kafka writes markers uncompressed), and so do magic 0/1 entries when it is zstd (which needs magic 2)."""
    if compression is None or batch.is_control or (compression == "zstd" and batch.magic < 2):
        return None
    return compression


def _append_converted(
    w: PartitionWriter,
    batch: LogBatch,
    records: list[Record] | None,
    magic: int,
    compression: str | None,
    rc: ReadCommitted | None,
    report: CopyReport,
    at: str,
) -> None:
    data = batch.raw() if records is None else rebuild_batch(batch, records, where=at)
    try:
        converted = convert(data, magic, compression=compression)
    except UnsupportedCodecError:  # a choice of the caller's, not a problem of the data
        raise ValueError(
            f"{at}: the batch is {batch.compression}-compressed, which magic {magic} cannot hold; "
            "choose another compression"
        ) from None
    except KafkaFormatError as exc:  # its position is within the batch: name the batch in the source
        raise type(exc)(f"{at}: {exc.reason}") from None
    report.dropped_headers += converted.dropped_headers
    report.dropped_producer_fields += converted.dropped_producer_fields
    report.dropped_control_batches += converted.dropped_control_batches
    report.dropped_timestamps += converted.dropped_timestamps
    if rc is not None and rc.is_aborted(batch):
        report.aborted_made_visible += 1
    entries = list(iter_batches(converted.data, verify=False))
    if not entries and not batch.is_control:
        report.dropped_batches += 1
    for entry in entries:
        w.append_batch(entry, where=at)
        report.batches += 1
        report.records += len(entry.records)
