"""Plan a ``kafkalog`` read: which segments and byte ranges, with the offsets and filters each keeps.

Runs on the driver, through :mod:`kafkaspec.logdir` only: one task per
segment, a large segment cut at offset-index positions (``Segment.split``) so
every batch starts in exactly one range. Options that need the whole
partition (timestamps to offsets, read_committed's aborted transactions)
are resolved here once and shipped in each :class:`RangeTask`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from .. import logdir
from ..arrow.ranges import RangeTask
from ..errors import KafkaFormatError
from ..logdir.store.storage import StorageOptions, is_uri
from ..logdir.tiered.encryption import PrivateKeys
from .options import ReadOptions

log = logging.getLogger("kafkaspec.spark")


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


def plan(path: str, opts: ReadOptions) -> list[RangeTask]:
    """The range tasks of a read of ``path`` (data dir, partition dir or segment file)."""
    tasks: list[RangeTask] = []
    opts = on_driver(path, opts)
    with open_source(path, opts) as log_dir:
        for part in log_dir.partitions():
            if not opts.wants(part.topic, part.partition):
                continue
            tasks.extend(plan_partition(part, opts))
    return tasks


def plan_partition(part: logdir.Partition, opts: ReadOptions) -> list[RangeTask]:
    lo, hi = opts.offset_range(part.topic, part.partition)
    if lo == -1:  # startingOffsets latest: a batch read sees nothing
        return []
    try:
        if opts.starting_timestamp is not None:
            found = part.offset_for_timestamp(opts.starting_timestamp)
            if found is None:
                return []
            lo = _bound(lo, found, max)
        if opts.ending_timestamp is not None:
            found = part.offset_for_timestamp(opts.ending_timestamp)
            hi = _bound(hi, found, min)
        rc = part.read_committed() if (opts.read_committed or opts.view == "batches") else None
    except KafkaFormatError as exc:
        if not opts.skip_corrupt:
            raise
        log.warning("kafkalog: %s: planning read past corrupt data: %s", part.name, exc)
        rc = logdir.ReadCommitted([]) if opts.read_committed else None
    if lo is not None and hi is not None and lo >= hi:
        return []
    segments = part.segments()
    tasks = []
    for i, seg in enumerate(segments):
        next_base = segments[i + 1].base_offset if i + 1 < len(segments) else None
        if hi is not None and seg.base_offset >= hi and i > 0:
            break
        if lo is not None and next_base is not None and next_base <= lo:
            continue
        gap = seg.unreadable()
        if gap is not None:  # nothing of it can be read: one task that reports it as the policy says
            tasks.append(
                RangeTask(
                    path=str(seg.path),
                    topic=part.topic,
                    partition=part.partition,
                    start=0,
                    end=0,
                    skip_corrupt=opts.skip_corrupt,
                    storage=opts.storage,
                    keys=opts.keys,
                    layout=seg.layout,
                    unreadable=gap.reason,
                )
            )
            seg.close()
            continue
        ranges = seg.split(opts.split_size) if opts.split_size > 0 else [(0, seg.size)]
        # a tiered segment is read from where the partition's live lineage serves it (an earlier segment
        # holds the offsets before): its tasks keep offsets from there
        served = seg.served_from
        seg_lo = served if served > seg.base_offset and (lo is None or lo < served) else lo
        if seg_lo is not None and seg_lo > seg.base_offset and len(ranges) > 1:
            # ranges wholly before the batch holding seg_lo cannot contribute
            first = seg.position_for_offset(seg_lo)
            ranges = [r for r in ranges if r[1] > first]
        for start, end in ranges:
            tasks.append(
                RangeTask(
                    path=str(seg.path),
                    topic=part.topic,
                    partition=part.partition,
                    start=start,
                    end=end,
                    min_offset=seg_lo,
                    max_offset=hi,
                    read_committed=rc,
                    include_control=opts.include_control,
                    verify_crc=opts.verify_crc,
                    skip_corrupt=opts.skip_corrupt,
                    storage=opts.storage,
                    lockstep=opts.lockstep,
                    keys=opts.keys,
                    layout=seg.layout,
                )
            )
        seg.close()
    if opts.view == "batches":  # the audit view says which segments are left out, and why
        tasks.extend(
            RangeTask(
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
