"""``copy``: a log directory rewritten batch for batch, optionally filtered, recompressed or converted.

Every batch of the source is written again through :class:`PartitionWriter` with its
own base offset, last offset delta, producer fields, flags, codec, timestamp type
and leader epoch (see :func:`kafkaspec.logdir.writer.rebuild_batch`); a batch that
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
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from kafkaspec.generated.record_v2 import Record

from ..conversion import convert
from ..entry import LogBatch
from ..errors import KafkaFormatError, UnsupportedCodecError
from ..records import iter_batches
from . import files
from .layout import Partition, open_log, show_path
from .names import check_topic_partition
from .transactions import ReadCommitted
from .writer import PartitionWriter, rebuild_batch


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


def copy(src: str | Path, dst: str | Path, *, where: Where | None = None, topics: Collection[str] | None = None,
         to_magic: int | None = None, compression: str | None = None,
         index_interval_bytes: int = 4096) -> CopyReport:
    """Copy the log directory ``src`` (data dir, partition dir or segment) to the data dir ``dst``.

    ``where(row)`` keeps a data record when true (control records are always kept);
    ``topics`` selects topics by name; ``to_magic`` converts to a message format
    (0, 1, 2) and ``compression`` recompresses data batches. With none of them the
    copy holds the same batches, byte for byte, in the same segments. ``dst`` must
    not exist or be empty, and must not lie inside ``src``.
    """
    src, dst = Path(src), Path(dst)
    if to_magic is not None and to_magic not in (0, 1, 2):
        raise ValueError(f"to_magic must be 0, 1 or 2, got {to_magic!r}")
    if dst.exists() and (not dst.is_dir() or any(dst.iterdir())):
        raise FileExistsError(f"{dst} exists and is not an empty directory")
    if src.exists() and dst.resolve().is_relative_to(src.resolve()):
        raise ValueError(f"the destination {dst} lies inside the source {src}")
    report = CopyReport(dst)
    created = not dst.exists()
    dst.mkdir(parents=True, exist_ok=True)
    try:
        _copy(src, dst, report, where, topics, to_magic, compression, index_interval_bytes)
    except BaseException:  # nothing half-written is left behind: DST was empty, it is again
        for p in list(dst.iterdir()):
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
        if created:
            dst.rmdir()
        raise
    return report


def _copy(src: Path, dst: Path, report: CopyReport, where: Where | None, topics: Collection[str] | None,
          to_magic: int | None, compression: str | None, index_interval_bytes: int) -> None:
    end_offsets: dict[tuple[str, int], tuple[int, int]] = {}
    with open_log(src) as log:
        for part in log.partitions():
            if topics is not None and part.topic not in topics:
                report.skipped_partitions.append(part.name)
                continue
            end_offsets[(part.topic, part.partition)] = _copy_partition(
                part, dst, report, where, to_magic, compression, index_interval_bytes)
            part.close()
        meta = log.path / "meta.properties"
        if isinstance(meta, Path) and log.path == src and meta.is_file():
            shutil.copyfile(meta, dst / "meta.properties")
    update_offset_checkpoints(dst, end_offsets)


#: the broker's offset checkpoints in a data directory, and which end of a partition each holds
_CHECKPOINTS = (("recovery-point-offset-checkpoint", 1), ("replication-offset-checkpoint", 1),
                ("log-start-offset-checkpoint", 0))


def update_offset_checkpoints(root: Path, offsets: dict[tuple[str, int], tuple[int, int]]) -> None:
    """Set the (log start offset, log end offset) of these partitions in ``root``'s offset checkpoints
    (recovery point and high watermark: the log end; log start), keeping the other partitions' lines."""
    for name, column in _CHECKPOINTS:
        path = root / name
        known: dict[tuple[str, int], int] = {}
        if path.is_file():
            lines = files.read_text_file(path).splitlines()[2:]
            for line in lines:
                parts = line.split()
                if len(parts) == 3 and parts[1].isdigit() and parts[2].lstrip("-").isdigit():
                    known[(parts[0], int(parts[1]))] = int(parts[2])
        known.update({tp: o[column] for tp, o in offsets.items()})
        path.write_text(files.format_offset_checkpoint(known))


def _copy_partition(part: Partition, dst: Path, report: CopyReport, where: Where | None, to_magic: int | None,
                    compression: str | None, index_interval_bytes: int) -> tuple[int, int]:
    """Copy one partition; return its (log start offset, log end offset) in the copy."""
    meta = part.metadata()
    rc = part.read_committed() if to_magic is not None and to_magic < 2 else None
    topic, partition = part.topic, part.partition
    check_topic_partition(topic, partition, f"{show_path(part.path)}: not a <topic>-<partition> Kafka can load")
    start: int | None = None
    report.partitions += 1
    with PartitionWriter(dst, topic, partition, segment_bytes=1 << 31, index_interval_bytes=index_interval_bytes,
                         topic_id=meta["topic_id"] if meta else None) as w:
        for seg in part.segments():
            if start is None:
                start = seg.base_offset  # the log start offset: the first segment's base
            w.roll(base_offset=max(seg.base_offset, w.next_offset))
            for batch in seg.iter_batches():
                at = f"{seg.path} at byte {batch.position}"
                records: list[Record] | None = None
                if where is not None and not batch.is_control:
                    original = batch.records
                    records = [r for r in original
                               if where(Row(topic, partition, r.offset, r.timestamp, r.key, r.value, r.headers))]
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
                    w.append_batch(batch, records=records, compression=output_codec(batch, compression), where=at)
                    report.batches += 1
                    report.records += 0 if batch.is_control else (batch.records_count if records is None
                                                                  else len(records))
            seg.close()
        report.bytes += w.bytes_written
    return (start if start is not None else w.next_offset), w.next_offset


def output_codec(batch: LogBatch, compression: str | None) -> str | None:
    """The codec a batch is rewritten with when ``compression`` is asked for: control batches keep theirs
    (Kafka writes markers uncompressed), and so do magic 0/1 entries when it is zstd (which needs magic 2)."""
    if compression is None or batch.is_control or (compression == "zstd" and batch.magic < 2):
        return None
    return compression


def _append_converted(w: PartitionWriter, batch: LogBatch, records: list[Record] | None, magic: int,
                      compression: str | None, rc: ReadCommitted | None, report: CopyReport, at: str) -> None:
    data = batch.raw() if records is None else rebuild_batch(batch, records, where=at)
    try:
        converted = convert(data, magic, compression=compression)
    except UnsupportedCodecError:  # a choice of the caller's, not a problem of the data
        raise ValueError(f"{at}: the batch is {batch.compression}-compressed, which magic {magic} cannot hold; "
                         "choose another compression") from None
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
