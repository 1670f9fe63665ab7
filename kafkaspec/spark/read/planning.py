"""Plan a batch ``kafkalog`` read: the options resolved to offsets, then the read plan of each partition.

Runs on the driver. Options that need the whole partition (timestamps to offsets, read_committed's
aborted transactions) are resolved here once and shipped in each range; which segments and byte
ranges hold the offsets is :func:`kafkaspec.arrow.ranges.plan_partition`, the one plan the stream
(:mod:`kafkaspec.spark.stream.reader`) and the pipeline share. The source a read plans over is opened here
(:func:`open_source`), with what the driver resolves for its executors (:func:`on_driver`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from ... import logdir
from ...arrow.ranges import RangeSettings, ReadRange, plan_partition
from ...errors import KafkaFormatError
from ...logdir.store.storage import StorageOptions, is_uri
from ...logdir.tiered.encryption import PrivateKeys
from .options import OptionError, ReadOptions

log = logging.getLogger("kafkaspec.spark")


#: the most ranges ``maxRecordsPerPartition`` cuts one partition into (a cut into more is refused)
MAX_RANGES_PER_PARTITION = 100_000


def _bound(a: int | None, b: int | None, pick: Callable[[int, int], int]) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return pick(a, b)


def _keys(given: PrivateKeys | None) -> PrivateKeys | None:
    """``given`` (the reader options' keys) with the ones the driver's environment names for other key
    pair ids; None when there are none. An environment naming a file that cannot be read is left to
    the executors' own lookup (which names it, if a segment needs it): unencrypted data needs no key."""
    try:
        env = PrivateKeys.from_env()
    except KafkaFormatError:
        env = PrivateKeys()
    keys = given.merged(env) if given is not None else env
    return keys if keys else None


def on_driver(path: str, opts: ReadOptions) -> ReadOptions:
    """``opts`` with what the driver resolves once and ships in each task, since executors may not share
    its environment: the object-store settings and the private keys (options, then its environment)."""
    if opts.storage is None and is_uri(path):
        opts = replace(opts, storage=StorageOptions.from_env())
    return replace(opts, keys=_keys(opts.keys))


def open_source(path: str, opts: ReadOptions) -> logdir.LogDir:
    """The log directory a read of ``path`` plans over (batch or stream), as the options say: its store,
    keys, tiered copy and ``__remote_log_metadata`` (``opts`` as :func:`on_driver` returns them)."""
    return logdir.open_log(
        path,
        storage=opts.storage,
        keys=opts.keys,
        tiered=opts.tiered,
        remote_log_metadata=opts.remote_log_metadata,
    )


def plan(path: str, opts: ReadOptions) -> list[ReadRange]:
    """The ranges of a batch read of ``path`` (data dir, partition dir or segment file)."""
    tasks: list[ReadRange] = []
    opts = on_driver(path, opts)
    with open_source(path, opts) as log_dir:
        for part in log_dir.partitions():
            if not opts.wants(part.topic, part.partition):
                continue
            tasks.extend(plan_options(part, opts))
    wanted = opts.min_partitions
    if wanted is not None and len([t for t in tasks if t.end > t.start]) < wanted:
        # minPartitions, as Spark's Kafka source: the same reads cut finer (at offset-index entries, so
        # the count is about, not exactly, the one asked for)
        total = sum(t.end - t.start for t in tasks)
        finer = max(total // wanted, 1)
        if 0 < finer < opts.split_size:
            return plan(path, replace(opts, split_size=finer, min_partitions=None))
    return tasks


def settings(opts: ReadOptions, *, exact: bool = False) -> RangeSettings:
    """What every range of a read with ``opts`` carries (``exact``: a stream's cut, :class:`RangeSettings`)."""
    return RangeSettings(
        include_control=opts.include_control,
        verify_crc=opts.verify_crc,
        skip_corrupt=opts.skip_corrupt,
        storage=opts.storage,
        lockstep=opts.lockstep,
        keys=opts.keys,
        split_size=opts.split_size,
        exact=exact,
    )


def plan_options(part: logdir.Partition, opts: ReadOptions) -> list[ReadRange]:
    """The ranges of a batch read of ``part``: the options' offsets and timestamps resolved to [lo, hi),
    its aborted transactions read once (``read_committed``, and the audit view's ``transaction``
    column), planned by :func:`kafkaspec.arrow.ranges.plan_partition`."""
    lo, hi = opts.offset_range(part.topic, part.partition)
    if lo == -1:  # startingOffsets latest: a batch read sees nothing
        return []
    try:
        start_at, end_at = (
            opts.start_time(part.topic, part.partition),
            opts.end_time(part.topic, part.partition),
        )
        if start_at is not None:
            found = part.offset_for_timestamp(start_at)
            if found is None:
                return []
            lo = _bound(lo, found, max)
        if end_at is not None:
            found = part.offset_for_timestamp(end_at)
            hi = _bound(hi, found, min)
        rc = part.read_committed() if (opts.read_committed or opts.view == "batches") else None
    except KafkaFormatError as exc:
        if not opts.skip_corrupt:
            raise
        log.warning("kafkalog: %s: planning read past corrupt data: %s", part.name, exc)
        rc = logdir.ReadCommitted([]) if opts.read_committed else None
    if lo is not None and hi is not None and lo >= hi:
        return []
    if opts.max_records_per_partition is None:
        tasks = plan_partition(part, lo, hi, settings(opts), rc)
    else:
        tasks = _at_most(part, lo, hi, opts.max_records_per_partition, settings(opts), rc)
    if opts.view == "batches":  # the audit view says which segments are left out, and why
        tasks.extend(
            ReadRange(
                path=str(u.path),
                topic=part.topic,
                partition=part.partition,
                start=0,
                end=0,
                storage=opts.storage,
                unused=u.reason,
            )
            for u in part.unused_segments()
        )
    return tasks


def _at_most(
    part: logdir.Partition,
    lo: int | None,
    hi: int | None,
    most: int,
    how: RangeSettings,
    rc: logdir.ReadCommitted | None,
) -> list[ReadRange]:
    """``maxRecordsPerPartition``: the ranges of [lo, hi) planned ``most`` offsets at a time (a partition
    holds no more records than offsets). [lo, hi) is first cut to the partition's offsets, found by
    reading the batch heads of the active segment once (:class:`~kafkaspec.logdir.kafka.tail.PartitionTail`),
    as a stream does, so that an end far past the data plans nothing past it; a cut into more than
    :data:`MAX_RANGES_PER_PARTITION` ranges is refused (offsets far apart, a compacted log's, would make
    a plan of any size)."""
    from ...logdir.kafka.tail import PartitionTail

    point = PartitionTail(transactions=False).look(part)
    lo = point.log_start if lo is None else max(lo, point.log_start)
    hi = point.end if hi is None else min(hi, point.end)  # an endingOffsets past the end cuts nothing more
    if hi - lo > most * MAX_RANGES_PER_PARTITION:
        raise OptionError(
            f"option maxRecordsPerPartition {most} would cut offsets {lo} to {hi} of {part.name} into "
            f"{-((lo - hi) // most):,} ranges, more than {MAX_RANGES_PER_PARTITION:,}: give a larger one"
        )
    out: list[ReadRange] = []
    for first in range(lo, hi, most):
        out.extend(plan_partition(part, first, min(first + most, hi), how, rc))
    return out
