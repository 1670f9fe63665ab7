"""``spark.readStream.format("kafkalog")``: a growing log directory as a micro-batch stream.

Runs on the driver (offsets and planning) and on the executors (reading, through the batch
source's reader). Offsets are the Kafka source's JSON (:mod:`.offsets`), ``{"orders": {"0": 23}}``:
per topic-partition the next offset to read, so a checkpoint's ``offsets/`` files read like the
Kafka source's. A micro-batch is the offsets [start, end) of each partition, planned by the batch
source's planner (:func:`kafkaspec.arrow.ranges.plan_partition`, cut exactly): byte ranges from the
batch holding ``start`` to the end of the batch holding ``end - 1``, each read by one task with
offsets outside [start, end) dropped, so every offset is read by exactly one task, and a restart from
the checkpoint plans the same ranges.

What "latest" is: :class:`kafkaspec.logdir.kafka.tail.PartitionTail` per partition, re-read every
trigger from the bytes appended since the last one (a batch being appended or a torn tail is
not visible). A trigger lists the source once (its root), and the micro-batch it ends is planned over
that listing; a partition whose directory and last segment have the stamps (identity, size, times)
they had at its last look, settled then (:data:`SETTLED_NS`), is neither listed nor read: an idle
trigger costs the root's listing and a stat or two per partition, whatever the number of segments. Under ``isolationLevel=read_committed`` the end is the last stable offset: an
open transaction holds back every offset from its first, as Kafka's LSO does, and its records
are released (or dropped, when aborted) once its marker is in the log.

Partitions and topics that appear later (a new ``<topic>-<partition>`` directory, a topic
matching ``subscribePattern``) are read from their start. Offsets that retention deleted before
they were read fail the query, naming them, unless ``failOnDataLoss`` is false (then they are
skipped and logged); so does a log that went back under the query (truncated after a leader
change, or deleted and recreated: ``TailPoint.rewound``, or offsets below the query's position),
even when it has grown past that position again (with ``failOnDataLoss`` false the query goes on from
its position, or from the new end when that is below it: the offsets below were delivered already).

A restarted query's reader has no tail yet: what it can check comes from the checkpoint. So each
offset also carries, beside its topics under the reserved key ``"kafkalog/marks"`` (no topic name holds
a "/"), per partition the :class:`~kafkaspec.logdir.kafka.tail.BatchMark` of the batch holding its last read
offset (segment, byte position, first bytes of the head in hex). The first look of a new reader reads
each such head back (one read per partition) and fails the query, as above, when the log no longer
holds it: a log cut back and grown past the checkpointed offset while the query was stopped. An offset
without marks (a checkpoint written before them, ``startingOffsets`` given by a user) is checked by its
offsets only.

Typed values (``keyFormat`` / ``valueFormat``): the ``_schemas`` topic is followed when a micro-batch
is planned (:class:`~kafkaspec.spark.read.values.SchemasTail`: only what was appended since, the whole
topic again when it went back) and travels in its ranges (the executors hold the reader as pickled
at the query's start), so an id registered after the stream started decodes; each topic's reader
schema, and so the column type, stays the version the stream started with.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pyspark.sql.datasource import DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    ReadMinRows,
    SupportsTriggerAvailableNow,
)

from ... import logdir
from ...arrow.ranges import ReadRange, plan_partition
from ...errors import DataLossError
from ...logdir.kafka.tail import BatchMark, PartitionTail, TailPoint
from ..read.options import EARLIEST, LATEST, OptionError, ReadOptions
from ..read.partition import RangePartition
from ..read.planning import on_driver, open_source, settings
from .offsets import Marks, Offsets, TopicPartition, from_json, marks_from_json, prorate, to_json

__all__ = [
    "DataLossError",
    "KafkaLogStreamReader",
    "from_json",
    "marks_from_json",
    "prorate",
    "to_json",
]

if TYPE_CHECKING:
    import pyarrow as pa

    from ..read.values import SchemasTail

log = logging.getLogger("kafkaspec.spark")


#: how long before a look a partition's directory and last segment must have been last changed for their
#: stat to stand for their contents at the next look (:class:`_Seen`): more than the coarsest grain of
#: a file system's timestamps (a jiffy on Linux, 2 s on FAT), so a change made after the look cannot
#: leave the same time behind
SETTLED_NS = 2_000_000_000


def _stamp(path: object) -> tuple[int, ...] | None:
    """A local file's or directory's identity, size and times, when they were last changed at least
    :data:`SETTLED_NS` ago; None otherwise (and for an object in a store, whose listing is the stat)."""
    if not isinstance(path, Path):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) <= SETTLED_NS:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


@dataclass
class _Seen:
    """A partition as its tail last looked at it: the partition (its segments as listed then), the point,
    and the stamps taken before that look (its directory's before the listing, its last segment's before
    the reading). At the next trigger a partition whose directory and last segment still have those
    stamps had nothing added, removed, cut or rewritten: its point stands, with no listing and no read
    (Kafka's cleaner, retention and a roll change the directory; an append or a truncation, the
    segment). None: not settled, not local, or not Kafka's own layout (a tiered copy changes elsewhere):
    the next trigger looks again."""

    part: logdir.Partition
    point: TailPoint
    stamp: tuple[tuple[int, ...], tuple[int, ...] | None] | None

    def stands(self, part: logdir.Partition, directory: tuple[int, ...] | None) -> bool:
        if self.stamp is None or directory is None or part.path != self.part.path:
            return False
        segments = self.part.segments()
        return self.stamp == (directory, _stamp(segments[-1].path) if segments else None)


class KafkaLogStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """The streaming reader (module docstring); one per query, on the driver."""

    def __init__(self, path: str, opts: ReadOptions):
        if opts.view == "batches":
            raise OptionError("option view=batches is for batch reads (spark.read): a stream reads records")
        if (
            opts.ending
            or opts.ending_default != LATEST
            or opts.ending_timestamp is not None
            or opts.ending_by_time
        ):
            raise OptionError(
                "options endingOffsetsByTimestamp, endingOffsets and endingTimestamp are for batch reads "
                "(spark.read): a stream has no end (trigger(availableNow=True) reads what is there now and stops)"
            )
        if opts.min_partitions is not None or opts.max_records_per_partition is not None:
            raise OptionError(
                "options minPartitions and maxRecordsPerPartition are for batch reads (spark.read): a "
                "micro-batch is cut by maxOffsetsPerTrigger"
            )
        self.path = path
        self.opts = on_driver(path, opts)
        self.settings = settings(self.opts, exact=True)
        self.tails: dict[TopicPartition, PartitionTail] = {}
        self.last_trigger = time.monotonic()
        self.target: Offsets | None = None  # Trigger.AvailableNow: what "now" is
        #: partitions whose checkpointed batch mark was checked (by the first latestOffset): the tails follow on
        self.checked: set[TopicPartition] = set()
        #: each selected partition as its tail last looked at it: what the micro-batch is planned over
        self.seen: dict[TopicPartition, _Seen] = {}
        #: every partition of the last listing (the ``_schemas`` topic's among them)
        self.listed: list[logdir.Partition] = []
        #: the ``_schemas`` topic followed between micro-batches (typed values)
        self.schemas: SchemasTail | None = None

    # -- offsets ------------------------------------------------------------------------------------
    def _look(self, expect: Marks | None = None) -> dict[TopicPartition, TailPoint]:
        """Every selected partition's start and end now, from one listing of the source: each tail reads what
        is new, and a partition unchanged since its last look (:class:`_Seen`) is neither listed nor read.
        ``expect``: batch marks from a checkpoint, each read back once (``TailPoint.rewound`` when its batch
        is gone)."""
        points = {}
        with open_source(self.path, self.opts) as log_dir:
            self.listed = log_dir.partitions()
            for part in self.listed:
                tp = (part.topic, part.partition)
                if not self.opts.wants(*tp):
                    continue
                mark = (expect or {}).get(tp)
                seen = self.seen.get(tp)
                directory = _stamp(part.path) if type(part) is logdir.Partition else None  # Kafka's own, only
                if mark is None and seen is not None and seen.stands(part, directory):
                    points[tp] = seen.point
                    continue
                tail = self.tails.get(tp)
                if tail is None:
                    tail = self.tails[tp] = PartitionTail(transactions=self.opts.read_committed)
                segments = part.segments()
                last = _stamp(segments[-1].path) if segments else None
                points[tp] = tail.look(part, expect=mark)
                stamp = None if directory is None or (segments and last is None) else (directory, last)
                self.seen[tp] = _Seen(part, replace(points[tp], rewound=None), stamp)
        return points

    def _marks(self, offsets: Offsets) -> Marks:
        """The batch holding each partition's last offset below ``offsets`` (cheap when it is the last seen)."""
        out = {}
        for tp, offset in offsets.items():
            tail = self.tails.get(tp)
            mark = tail.mark(offset) if tail is not None else None
            if mark is not None:
                out[tp] = mark
        return out

    def _available(self, point: TailPoint) -> int:
        return point.stable if self.opts.read_committed else point.end

    def initialOffset(self) -> dict:
        points = self._look()
        out: Offsets = {}
        by_time: dict[TopicPartition, int | None] = {}
        if self.opts.starting_timestamp is not None or self.opts.starting_by_time:
            with open_source(self.path, self.opts) as log_dir:
                for part in log_dir.partitions():
                    at = self.opts.start_time(part.topic, part.partition)
                    if (part.topic, part.partition) in points and at is not None:
                        by_time[(part.topic, part.partition)] = part.offset_for_timestamp(at)
        for tp, point in points.items():
            if tp in by_time:
                found = by_time[tp]
                out[tp] = self._available(point) if found is None else found
                continue
            start = self.opts.starting.get(tp, self.opts.starting_default)
            out[tp] = (
                point.log_start if start == EARLIEST else self._available(point) if start == LATEST else start
            )
        return to_json(out, self._marks(out))

    def getDefaultReadLimit(self) -> ReadLimit:
        if self.opts.max_offsets_per_trigger is not None:
            return ReadMaxRows(self.opts.max_offsets_per_trigger)
        if self.opts.min_offsets_per_trigger is not None:
            return ReadMinRows(self.opts.min_offsets_per_trigger)
        return ReadAllAvailable()

    def prepareForTriggerAvailableNow(self) -> None:
        self.target = {tp: self._available(p) for tp, p in self._look().items()}

    def latestOffset(self, start: dict, limit: ReadLimit) -> dict:
        starts, marks = from_json(start), marks_from_json(start)
        expect = self._unchecked(starts, marks)
        points = self._look(expect)
        self.checked.update(points)
        ends: Offsets = {}
        kept: Marks = {}  # marks of partitions that did not move, as given (the offset JSON stays the same)
        for tp, point in points.items():
            begin = starts.get(tp)
            end = self._available(point)
            if begin is not None and (point.rewound is not None or end < begin):
                mark = expect.get(tp) if end >= begin else None  # below the checkpoint: the offsets say it
                self._went_back(
                    tp, begin, end, None if tp in expect and mark is None else point.rewound, mark
                )
                begin = starts[tp] = min(begin, end)
            elif tp in marks:
                kept[tp] = marks[tp]
            if begin is not None and begin < point.log_start:
                self._lost(tp, begin, point.log_start)
                begin = point.log_start
            if self.target is not None:
                end = min(end, self.target.get(tp, end))
            ends[tp] = max(end, begin if begin is not None else point.log_start)
            starts.setdefault(tp, point.log_start)  # a new partition: from its start
        for tp, offset in starts.items():
            if tp not in ends:  # the directory went away: keep where the query got to
                log.warning(
                    "kafkalog: %s-%d is no longer in %s; its offsets stay at %d",
                    tp[0],
                    tp[1],
                    self.path,
                    offset,
                )
                ends[tp] = offset
                if tp in marks:
                    kept[tp] = marks[tp]
        if not isinstance(limit, ReadAllAvailable):
            new = sum(ends[tp] - starts[tp] for tp in ends)
            wanted = self.opts.min_offsets_per_trigger
            waiting = time.monotonic() - self.last_trigger < self.opts.max_trigger_delay
            if (
                wanted is not None and new < wanted and waiting and self.target is None
            ):  # availableNow never waits
                return start
            if isinstance(limit, ReadMaxRows) or self.opts.max_offsets_per_trigger is not None:
                cap = limit.max_rows if isinstance(limit, ReadMaxRows) else self.opts.max_offsets_per_trigger
                assert cap is not None
                ends = prorate(starts, ends, cap)
        if any(ends[tp] != starts[tp] for tp in ends):
            self.last_trigger = time.monotonic()
        same = {tp: kept[tp] for tp in kept if ends[tp] == starts[tp]}
        return to_json(ends, {**self._marks({tp: o for tp, o in ends.items() if tp not in same}), **same})

    def _unchecked(self, starts: Offsets, marks: Marks) -> Marks:
        """The marks of a checkpointed offset this reader has yet to read back (once each: then its tails follow)."""
        return {tp: m for tp, m in marks.items() if tp not in self.checked and tp in starts}

    def _check(self, starts: Offsets, marks: Marks) -> None:
        """A restart's first look before its first latestOffset (the replay of a planned micro-batch): the
        checkpoint's marks are checked there, so that nothing is read from a log that went back below the
        batch's start (with ``failOnDataLoss`` false it is logged: the batch keeps the offsets it logged)."""
        expect = self._unchecked(starts, marks)
        points = self._look(expect)
        self.checked.update(points)
        for tp, mark in expect.items():
            point = points.get(tp)
            if point is not None and point.rewound is not None:
                end = self._available(point)
                if end >= starts[tp]:
                    self._went_back(tp, starts[tp], end, point.rewound, mark)
                else:  # below the checkpoint: the offsets say it
                    self._went_back(tp, starts[tp], end, None)

    def _lost(self, tp: TopicPartition, begin: int, log_start: int) -> None:
        what = f"{tp[0]}-{tp[1]} offsets {begin} to {log_start - 1}"
        if self.opts.fail_on_data_loss:
            raise DataLossError(
                f"kafkalog: {what} were deleted from {self.path} (retention) before the query read "
                "them; set failOnDataLoss to false to skip them"
            )
        log.warning("kafkalog: %s were deleted (retention) before they were read: skipped", what)

    def _went_back(
        self, tp: TopicPartition, begin: int, end: int, rewound: int | None, mark: BatchMark | None = None
    ) -> None:
        """The log went back under the query, or while it was stopped (``mark``: the checkpoint's, not where it
        was): what it read is not what the partition holds now."""
        why = "(truncated after a leader change, or the partition deleted and recreated)"
        if rewound is not None and mark is not None:
            what = (
                f"{tp[0]}-{tp[1]}: the log went back while the query was stopped: the batch holding its offsets "
                f"{mark.first_offset} to {mark.last_offset} (byte {mark.position} of segment {mark.segment}) when "
                f"the query read it is no longer there {why}; records below offset {begin} may have been "
                "replaced unread"
            )
        elif rewound is not None:
            what = (
                f"{tp[0]}-{tp[1]}: the log went back: it had reached offset {rewound} when last looked at and "
                f"was cut back or rewritten since {why}; records below offset {begin} may have been replaced "
                "unread"
            )
        else:
            what = f"{tp[0]}-{tp[1]}: offsets went back from {begin} to {end} {why}"
        if self.opts.fail_on_data_loss:
            raise DataLossError(
                f"kafkalog: {what} in {self.path}; set failOnDataLoss to false to read on from the new end"
            )
        log.warning("kafkalog: %s in %s: reading on from offset %d", what, self.path, min(begin, end))

    # -- planning -----------------------------------------------------------------------------------
    def partitions(self, start: dict, end: dict) -> Sequence[InputPartition]:
        """The micro-batch [start, end) as ranges (:func:`kafkaspec.arrow.ranges.plan_partition`), planned over
        the partitions as the last look listed them (the one that gave ``end``), not listed again."""
        starts, ends = from_json(start), from_json(end)
        if not any(ends[tp] > starts.get(tp, -1) for tp in ends):
            return []
        if any(tp not in self.tails for tp in ends):  # a restart replays a planned batch before any look
            self._check(starts, marks_from_json(start))
        ranges: list[ReadRange] = []
        for tp in sorted(ends):
            lo, hi = starts.get(tp), ends[tp]
            seen = self.seen.get(tp)
            if seen is None or (lo is not None and lo >= hi):
                continue
            ranges.extend(self._plan(seen.part, lo, hi))
        if self.opts.values is None:
            return [RangePartition(r) for r in ranges]
        from ..read.values import SchemasTail

        if self.schemas is None:
            self.schemas = SchemasTail()
        values = self.schemas.refresh(
            self.opts.values, self.listed
        )  # schemas registered since the stream started
        return [RangePartition(replace(r, values=values)) for r in ranges]

    def _plan(self, part: logdir.Partition, lo: int | None, hi: int, listed: bool = True) -> list[ReadRange]:
        """Ranges reading offsets [lo, hi) of ``part`` (lo None: from its first offset), cut exactly
        (:attr:`~kafkaspec.arrow.ranges.RangeSettings.exact`); offsets retention deleted before they were
        read are lost (:meth:`_lost`). ``listed``: ``part`` is as the last look listed it; a segment
        deleted since (retention) has it planned again over its directory as it is now."""
        tp = (part.topic, part.partition)
        tail = self.tails.get(tp)
        rc = tail.read_committed() if (self.opts.read_committed and tail is not None) else None
        segments = part.segments()
        if lo is not None and segments and lo < segments[0].base_offset:
            self._lost(tp, lo, segments[0].base_offset)
        try:
            return plan_partition(part, lo, hi, self.settings, rc)
        except FileNotFoundError:
            if not listed:
                raise
        with open_source(self.path, self.opts) as log_dir:
            now = next((p for p in log_dir.partitions() if (p.topic, p.partition) == tp), None)
            if now is None:  # the directory went away: its offsets are gone
                if lo is not None:
                    self._lost(tp, lo, hi)
                return []
            return self._plan(now, lo, hi, listed=False)

    # -- reading (executors) ------------------------------------------------------------------------
    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        from ..read.tasks import our_errors_first, read_task

        assert isinstance(partition, RangePartition)
        task = partition.task
        opts = self.opts
        if task.values is not None:  # the _schemas topic as of this micro-batch
            from ..read.values import ValueColumns

            assert isinstance(task.values, ValueColumns)
            opts = replace(self.opts, values=task.values)
        return our_errors_first(self._gone_is_lost(read_task(task, opts), task))

    def _gone_is_lost(self, batches: Iterator[pa.RecordBatch], task: ReadRange) -> Iterator[pa.RecordBatch]:
        """A segment deleted between planning and reading: data loss (failOnDataLoss) or nothing."""
        try:
            yield from batches
        except FileNotFoundError:
            lo = task.min_offset if task.min_offset is not None else "its first offset"
            self._lost_in_task(task, lo)

    def _lost_in_task(self, task: ReadRange, lo: object) -> None:
        what = f"{task.topic}-{task.partition} offsets from {lo} below {task.max_offset} in {task.path}"
        if self.opts.fail_on_data_loss:
            raise DataLossError(
                f"kafkalog: {what} were deleted (retention) before the query read them; set "
                "failOnDataLoss to false to skip them"
            )
        log.warning("kafkalog: %s were deleted (retention) before they were read: skipped", what)

    def commit(self, end: dict) -> None:
        """Nothing to release: the log is read, never consumed."""
