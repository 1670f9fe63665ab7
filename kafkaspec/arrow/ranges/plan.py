"""The read plan: which byte ranges of which segments hold offsets [lo, hi) of a partition.

One :func:`plan_partition` for every reader: the batch source (:mod:`kafkaspec.spark.read.planning`, which
first resolves its options to offsets), the stream (:mod:`kafkaspec.spark.stream.reader`, offsets from its
micro-batch) and the pipeline (through the batch source's planner). It runs on the driver, through
:mod:`kafkaspec.logdir` only: one range per segment, a large segment cut at offset-index positions
(``Segment.split``) so that every batch starts in exactly one range; each :class:`ReadRange` is what
one task reads (:mod:`.read`), Spark-free and picklable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ...codec.compression import DEFAULT_MAX_DECOMPRESSED
from ...logdir import Partition
from ...logdir.kafka.tail import end_position
from ...logdir.kafka.transactions import ReadCommitted, committed_only
from ...logdir.store.storage import StorageOptions
from ...logdir.tiered.encryption import PrivateKeys

if TYPE_CHECKING:
    from ...values.decoder import ValueDecoder

__all__ = ["RangeSettings", "ReadRange", "ValueSettings", "plan_partition"]


class ValueSettings(Protocol):
    """What a range carries of a read's typed key and value columns (``kafkaspec.spark.read.values.ValueColumns``,
    which the Spark glue defines above this layer): the parts it decodes and a decoder for one task."""

    def parts(self) -> tuple[str, ...]: ...

    def decoder(self) -> ValueDecoder: ...


@dataclass(frozen=True)
class ReadRange:
    """What one task reads: bytes [start, end) of one segment, keeping offsets [min_offset, max_offset)
    of its partition, with what the planner resolved for it (a Spark input partition's value)."""

    path: str
    topic: str
    partition: int
    start: int
    end: int
    min_offset: int | None = None  # keep offsets >= this
    max_offset: int | None = None  # keep offsets < this
    read_committed: ReadCommitted | None = None
    include_control: bool = False
    verify_crc: bool = True
    skip_corrupt: bool = False
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED
    storage: StorageOptions | None = None  # object-store settings for an s3:// path (None: the environment)
    lockstep: bool = True  # v2 records through kafkaspec.arrow.engine (falling back per run of batches)
    #: private keys of an encrypted tiered segment, by key pair id (None: the executor's environment's)
    keys: PrivateKeys | None = field(default=None, repr=False)
    #: the segment's layout (``Segment.layout``): how ``path`` is opened on the executor
    layout: str = "kafka"
    #: a segment no reader serves (tiered storage: not in the partition's live lineage) and why: the
    #: audit view's one row for it; nothing is read
    unused: str | None = None
    #: why the segment cannot be read at all (``Segment.unreadable``: a directory entry that is no regular
    #: file, a tiered manifest that does not parse): a gap, reported as corrupt bytes are; nothing is read
    unreadable: str | None = None
    #: the typed keys' and values' columns as of planning (:class:`ValueSettings`): a stream's
    #: micro-batch carries the ``_schemas`` topic replayed for it, since its executors hold the options
    #: of the query's start; None: the read's own options say
    values: ValueSettings | None = field(default=None, repr=False)


@dataclass(frozen=True)
class RangeSettings:
    """What every range of one read carries, from its options (set once on the driver)."""

    include_control: bool = False
    verify_crc: bool = True
    skip_corrupt: bool = False
    storage: StorageOptions | None = None
    lockstep: bool = True
    keys: PrivateKeys | None = field(default=None, repr=False)
    #: target bytes per range (0: one range per segment)
    split_size: int = 0
    #: a stream's cut: ranges start at the batch holding ``lo`` and the last segment's end with the batch
    #: holding ``hi - 1``, so a micro-batch reads what it adds, not its segment from the start, and a
    #: restart plans the same ranges. Otherwise whole ranges are read, filtered by offset (the audit view
    #: lists every batch of what it reads), and only ranges wholly before ``lo`` are left out.
    exact: bool = False


def plan_partition(
    part: Partition,
    lo: int | None,
    hi: int | None,
    settings: RangeSettings,
    read_committed: ReadCommitted | None = None,
    *,
    isolation_level: str | None = None,
) -> list[ReadRange]:
    """The ranges reading offsets [lo, hi) of ``part`` (None: from its first offset, to its end).

    ``read_committed``: the partition's filter, which the ranges apply (None: every record, as
    read_uncommitted). ``isolation_level`` instead: ``read_committed`` reads the filter here,
    ``read_uncommitted`` applies none (the readers above resolve their option to a filter once:
    ``isolationLevel``, read_committed unless told otherwise).

    A segment that cannot be read is one range reporting it (nothing read, the policy decides). A tiered
    segment is read from where the partition's live lineage serves it (an earlier segment holds the
    offsets before): its ranges keep offsets from there."""
    if lo is not None and hi is not None and lo >= hi:
        return []
    if isolation_level is not None:
        read_committed = (
            (read_committed or part.read_committed()) if committed_only(isolation_level) else None
        )
    segments = part.segments()
    out = []
    for i, seg in enumerate(segments):
        next_base = segments[i + 1].base_offset if i + 1 < len(segments) else None
        if hi is not None and seg.base_offset >= hi and i > 0:
            break
        if lo is not None and next_base is not None and next_base <= lo:
            continue
        gap = seg.unreadable()
        if gap is not None:
            out.append(
                ReadRange(
                    path=str(seg.path),
                    topic=part.topic,
                    partition=part.partition,
                    start=0,
                    end=0,
                    skip_corrupt=settings.skip_corrupt,
                    storage=settings.storage,
                    keys=settings.keys,
                    layout=seg.layout,
                    unreadable=gap.reason,
                )
            )
            seg.close()
            continue
        ranges = seg.split(settings.split_size) if settings.split_size > 0 else [(0, seg.size)]
        served = seg.served_from
        seg_lo = served if served > seg.base_offset and (lo is None or lo < served) else lo
        if seg_lo is not None and seg_lo > seg.base_offset and (settings.exact or len(ranges) > 1):
            first = seg.position_for_offset(
                seg_lo
            )  # ranges wholly before the batch holding seg_lo add nothing
            ranges = [(max(a, first) if settings.exact else a, b) for a, b in ranges if b > first]
        if (
            settings.exact
            and hi is not None
            and (next_base is None or next_base >= hi)
            and seg.layout == "kafka"
        ):
            last = end_position(seg, hi)  # a segment still growing: up to the batch holding hi - 1
            ranges = [(a, min(b, last)) for a, b in ranges if a < min(b, last)]
        path = str(seg.path)
        # each range built whole (not ``dataclasses.replace`` of one): planning 100,000 segments makes
        # 100,000 of them, and ``replace`` took about a tenth of its time
        out.extend(
            ReadRange(
                path=path,
                topic=part.topic,
                partition=part.partition,
                start=a,
                end=b,
                min_offset=seg_lo,
                max_offset=hi,
                read_committed=read_committed,
                include_control=settings.include_control,
                verify_crc=settings.verify_crc,
                skip_corrupt=settings.skip_corrupt,
                storage=settings.storage,
                lockstep=settings.lockstep,
                keys=settings.keys,
                layout=seg.layout,
            )
            for a, b in ranges
        )
        seg.close()
    return out
