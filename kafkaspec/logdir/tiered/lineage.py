"""Which remote segments of a tiered partition a Kafka broker serves: the live lineage.

A tiered-storage prefix is not a clean copy of a log. A re-upload after a leader change, an unclean
election or an upload that failed half-way leaves more than one segment for the same offsets, under
different segment ids, and every one of them has a complete set of objects. Kafka does not read the
prefix; it serves what ``__remote_log_metadata`` says, through two classes this module follows step by
step (Apache Kafka, ``storage/src/main/java/org/apache/kafka/server/log/remote/``):

* ``metadata.storage.RemoteLogMetadataCache`` replays the segment events in their order. A segment is
  readable once ``COPY_SEGMENT_FINISHED`` (``remoteLogSegmentMetadata(leaderEpoch, offset)``), is
  registered under each leader epoch of its ``segmentLeaderEpochs`` with the epoch's first offset in
  the segment (``doHandleSegmentStateTransitionForLeaderEpochs``; the epoch's end in the segment is the
  next epoch's start minus one, or the segment's end offset: ``highestOffsetForEpoch``), and stops
  being readable at ``DELETE_SEGMENT_STARTED``.
* ``metadata.storage.RemoteLogLeaderEpochState.handleSegmentWithCopySegmentFinishedState``: per leader
  epoch, a map from start offset to segment id. A newly finished segment first drops every mapping
  that starts at or after its own start, as long as the epoch's highest offset so far is not beyond
  the new segment's end for that epoch (a later leader re-uploaded a superset: the old copies become
  unreferenced), then maps its start offset to itself (replacing a copy with the same start).
* ``storage.RemoteLogManager.read`` serves offset ``o`` from the segment of
  ``leaderEpochCache.epochForOffset(o)`` whose mapping is the floor entry of ``o``, if ``o`` is within
  that epoch's part of it; ``findNextSegmentMetadata`` goes on at the segment's end offset plus one.
  ``RemoteLogManager.isRemoteSegmentWithinLeaderEpochs`` is what the broker's expiration task deletes
  segments by: a segment whose epochs leave the partition's leader-epoch lineage (an unclean leader's
  divergent upload) is deleted, as if ``DELETE_SEGMENT_STARTED``.

This module is that replay and that walk, over :class:`Event`\\ s from any source. The manifests alone
(:func:`events_from_manifests`) give one ``COPY_SEGMENT_FINISHED`` per published segment, in the
order of their ``eventTimestampMs``; :func:`events_from_metadata_topic` gives the topic's own
events instead (``__remote_log_metadata``, replayed by
:class:`~kafkaspec.payloads.remote_log_state.RemoteLogState`: only the transitions Kafka accepts, in
the topic's order), and the same :func:`choose` decides. What is left out is listed with
the reason. Where the rule cannot decide (two finished copies with the same offsets and epochs, and
different bytes) the caller says so as an error naming both (:func:`twins`); this module never reads
an object.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeGuard

from ...payloads.decode import Decoded
from ...payloads.remote_log_state import RemoteLogState
from ..kafka.files import EpochEntry

COPY_SEGMENT_STARTED = "COPY_SEGMENT_STARTED"
COPY_SEGMENT_FINISHED = "COPY_SEGMENT_FINISHED"
DELETE_SEGMENT_STARTED = "DELETE_SEGMENT_STARTED"
DELETE_SEGMENT_FINISHED = "DELETE_SEGMENT_FINISHED"


@dataclass(frozen=True)
class SegmentInfo:
    """What Kafka's ``RemoteLogSegmentMetadata`` says of one remote segment (as much as choosing needs).

    ``epochs`` are ``segmentLeaderEpochs`` as Kafka keeps them (``LeaderEpochFileCache
    .epochEntriesInRange``): (epoch, first offset of the epoch in the segment), ascending, the first at
    the segment's start offset (:func:`segment_epochs` makes them so from what a manifest states).
    ``name`` is the object that states it, for messages.
    """

    segment_id: str
    start: int
    end: int
    epochs: tuple[tuple[int, int], ...]
    event_time: int
    name: str
    #: the metadata names the segment by the id its objects bear (a manifest copied under another id
    #: names the original: of two otherwise equal events, the original's is taken as the later one)
    own_id: bool = True

    def epoch_end(self, epoch: int) -> int:
        """The last offset of ``epoch`` in this segment (``RemoteLogMetadataCache.highestOffsetForEpoch``)."""
        later = [s for e, s in self.epochs if e > epoch]
        return later[0] - 1 if later else self.end

    @property
    def key(self) -> tuple[int, int, tuple[tuple[int, int], ...]]:
        """Offsets and epochs: two finished segments with the same key are copies of each other."""
        return self.start, self.end, self.epochs


class Event(NamedTuple):
    """One ``RemoteLogSegmentMetadata`` event (or update) of ``__remote_log_metadata``, in its order."""

    state: str
    segment: SegmentInfo


@dataclass
class Lineage:
    """What :func:`choose` decided: ``live`` in offset order, each with the first offset it serves (its
    start, or above it where an earlier live segment already served the offsets before); ``unused``
    with the reason each is left out."""

    live: list[tuple[SegmentInfo, int]] = field(default_factory=list)
    unused: list[tuple[SegmentInfo, str]] = field(default_factory=list)


def segment_epochs(stated: dict[int, int], start: int, end: int) -> tuple[tuple[int, int], ...]:
    """``segmentLeaderEpochs`` as Kafka uploads them, from a map that may also hold the epochs before the
    segment (what ``LeaderEpochFileCache.truncateFromStart`` drops: each epoch that ends before
    ``start``; the epoch in effect at ``start`` starts there) or after it."""
    pairs = sorted(stated.items())
    out: list[tuple[int, int]] = []
    for i, (epoch, offset) in enumerate(pairs):
        nxt = pairs[i + 1][1] if i + 1 < len(pairs) else None
        if nxt is not None and nxt <= start:
            continue  # ends before the segment
        if offset > end:
            break
        out.append((epoch, max(offset, start)))
    return tuple(out)


def filtered_epochs(entries: Sequence[EpochEntry] | Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """(epoch, start offset) of the epochs that hold records (``RemoteLogManager
    .buildFilteredLeaderEpochMap``: an epoch whose next epoch starts at the same offset holds none)."""
    pairs = [(int(e[0]), int(e[1])) for e in entries]
    return [p for i, p in enumerate(pairs) if i + 1 == len(pairs) or pairs[i + 1][1] != p[1]]


def within_leader_epochs(
    seg: SegmentInfo, lineage: Sequence[tuple[int, int]], log_end_offset: int | None = None
) -> str | None:
    """Why ``seg`` is outside the partition's leader-epoch ``lineage`` (filtered, ascending), or None when
    it is within: ``RemoteLogManager.isRemoteSegmentWithinLeaderEpochs``, check by check."""
    mine = filtered_epochs(seg.epochs)
    if not mine or not lineage:
        return None
    epochs = dict(lineage)
    order = [e for e, _ in lineage]
    last_epoch = mine[-1][0]
    if last_epoch < order[0] or last_epoch > order[-1]:
        return f"its last leader epoch {last_epoch} is outside the partition's epochs {order[0]}..{order[-1]}"
    first = next((e for e, _ in mine if e >= order[0]), None)
    if first is None:
        return "none of its leader epochs is in the partition's lineage"
    mine_map = dict(mine)
    mine_order = [e for e, _ in mine]
    for epoch, offset in mine:
        if epoch < first:
            continue
        if epoch not in epochs:
            return f"its leader epoch {epoch} is not in the partition's lineage"
        k = order.index(epoch)
        if epoch == first and k > 0 and offset < epochs[epoch]:
            return (
                f"its leader epoch {epoch} starts at offset {offset}, before the lineage's start of that epoch "
                f"({epochs[epoch]})"
            )
        if epoch == last_epoch and k + 1 < len(order) and seg.end > lineage[k + 1][1] - 1:
            return (
                f"its end offset {seg.end} is past the end of leader epoch {epoch} in the lineage "
                f"({lineage[k + 1][1] - 1}): written by a leader the partition no longer follows"
            )
        if epoch != last_epoch:
            j = mine_order.index(epoch)
            theirs = lineage[k + 1] if k + 1 < len(order) else None
            if theirs != (mine_order[j + 1], mine_map[mine_order[j + 1]]):
                return (
                    f"its leader epoch {epoch} is followed by {mine[j + 1]} (epoch, offset), the lineage's by "
                    f"{theirs}"
                )
    if log_end_offset is not None and seg.end >= log_end_offset:
        return f"its end offset {seg.end} is at or past the log end offset {log_end_offset}"
    return None


class _EpochState:
    """``RemoteLogLeaderEpochState``: start offset -> segment id for the finished segments of one epoch."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ids: dict[int, str] = {}
        self.highest: int | None = None

    def finished(self, start: int, seg_id: str, epoch_end: int, replaced: dict[str, str]) -> None:
        # handleSegmentWithCopySegmentFinishedState: mappings at or after ``start`` are dropped when the
        # epoch's highest offset so far is not beyond the new segment's end for the epoch
        while (
            self.starts
            and self.starts[-1] >= start
            and self.highest is not None
            and self.highest <= epoch_end
        ):
            old = self.ids.pop(self.starts.pop())
            if old != seg_id:
                replaced[old] = seg_id
        if start in self.ids and self.ids[start] != seg_id:
            replaced[self.ids[start]] = seg_id  # offsetToId.put: the same start offset, a later copy
        if start not in self.ids:
            bisect.insort(self.starts, start)
        self.ids[start] = seg_id
        replaced.pop(seg_id, None)
        if self.highest is None or epoch_end > self.highest:
            self.highest = epoch_end

    def deleted(self, start: int, seg_id: str) -> None:
        if self.ids.get(start) == seg_id:  # offsetToId.remove(startOffset, remoteLogSegmentId)
            del self.ids[start]
            self.starts.remove(start)

    def floor(self, offset: int) -> str | None:
        k = bisect.bisect_right(self.starts, offset) - 1
        return self.ids[self.starts[k]] if k >= 0 else None


def events_from_manifests(
    published: Iterable[SegmentInfo], started: Iterable[SegmentInfo] = ()
) -> list[Event]:
    """The events the manifests alone imply: an upload whose manifest is missing never finished
    (``COPY_SEGMENT_STARTED``); a published one did (``COPY_SEGMENT_FINISHED``), in the order of its
    ``eventTimestampMs`` (then of its end offset: a longer re-upload is the later one; then the segment
    its own metadata names over a copy naming another; then of its id, so that one prefix always gives
    one answer)."""
    events = [Event(COPY_SEGMENT_STARTED, s) for s in started]
    order = sorted(published, key=lambda s: (s.event_time, s.end, s.own_id, s.segment_id))
    return events + [Event(COPY_SEGMENT_FINISHED, s) for s in order]


def events_from_metadata_topic(
    records: RemoteLogState | Iterable[Decoded], topic: str, partition: int, topic_id: str | None = None
) -> list[Event]:
    """The events of ``topic``-``partition`` (of topic id ``topic_id`` when given) in decoded
    ``__remote_log_metadata`` records (or their replay): each transition the replay applied, in the
    topic's order, with the segment as it stood then. A segment is named like its objects
    (``<20-digit start offset>-<segment id>``), so that the events and the folder's listing meet."""
    if isinstance(records, RemoteLogState):
        state = records
    else:
        state = RemoteLogState()
        for r in records:
            state.apply(r)
    out: list[Event] = []
    for part in state.partition(topic, partition, topic_id):
        for st, seg in part.events:
            out.append(
                Event(
                    st,
                    SegmentInfo(
                        f"{seg.start_offset:020d}-{seg.segment_id}",
                        seg.start_offset,
                        seg.end_offset,
                        seg.leader_epochs,
                        seg.event_timestamp_ms,
                        f"__remote_log_metadata offset {seg.offset}",
                    ),
                )
            )
    return out


def choose(
    events: Iterable[Event],
    leader_epochs: Sequence[EpochEntry] | Sequence[tuple[int, int]] | None = None,
    log_end_offset: int | None = None,
    *,
    from_topic: bool = False,
) -> Lineage:
    """The segments a broker serves after ``events``, walking the offsets as ``RemoteLogManager.read``
    does, and every other segment with the reason it is not served.

    ``leader_epochs`` is the partition's leader-epoch checkpoint; without it the lineage is the epochs the
    finished segments state (each from its lowest start), and no segment is outside it. ``from_topic``:
    the events are ``__remote_log_metadata``'s (the reasons say so), not the manifests'.
    """
    states: dict[int, _EpochState] = {}
    segments: dict[str, SegmentInfo] = {}
    status: dict[str, str] = {}
    replaced: dict[str, str] = {}
    for state, seg in events:
        segments[seg.segment_id] = seg
        status[seg.segment_id] = state
        for epoch, start in seg.epochs:
            es = states.setdefault(epoch, _EpochState())
            if state == COPY_SEGMENT_FINISHED:
                es.finished(start, seg.segment_id, seg.epoch_end(epoch), replaced)
            elif state in (DELETE_SEGMENT_STARTED, DELETE_SEGMENT_FINISHED):
                es.deleted(start, seg.segment_id)
    finished = [s for s in segments.values() if status[s.segment_id] == COPY_SEGMENT_FINISHED]
    if leader_epochs is not None:
        lineage = filtered_epochs(leader_epochs)
    else:
        first: dict[int, int] = {}
        for s in finished:
            for epoch, start in s.epochs:
                first[epoch] = min(first.get(epoch, start), start)
        lineage = filtered_epochs(sorted(first.items()))
    outside: dict[str, str] = {}
    if leader_epochs is not None:
        for s in finished:  # the expiration task deletes these (DELETE_SEGMENT_STARTED)
            why = within_leader_epochs(s, lineage, log_end_offset)
            if why is not None:
                outside[s.segment_id] = why
                for epoch, start in s.epochs:
                    states[epoch].deleted(start, s.segment_id)
    out = Lineage()
    live: set[str] = set()
    starts = sorted({st for es in states.values() for st in es.starts})
    lineage_starts = [s for _, s in lineage]
    o = starts[0] if starts else None
    while o is not None:
        k = bisect.bisect_right(lineage_starts, o) - 1  # LeaderEpochFileCache.epochForOffset
        found = None
        if k >= 0 and lineage[k][0] in states:
            epoch = lineage[k][0]
            seg_id = states[epoch].floor(o)
            if seg_id is not None and o <= segments[seg_id].epoch_end(epoch):
                found = segments[seg_id]
        if found is not None and found.segment_id not in live:
            out.live.append((found, o))
            live.add(found.segment_id)
            o = found.end + 1  # findNextSegmentMetadata
        else:  # nothing serves o: go on at the next mapped start (verify reports the gap)
            j = bisect.bisect_right(starts, o)
            o = starts[j] if j < len(starts) else None
    for s in segments.values():
        if s.segment_id in live:
            continue
        st = status[s.segment_id]
        if st == COPY_SEGMENT_STARTED:
            why = (
                "its upload did not finish (COPY_SEGMENT_STARTED in __remote_log_metadata)"
                if from_topic
                else "its upload did not finish (COPY_SEGMENT_STARTED: no manifest publishes it)"
            )
        elif st == DELETE_SEGMENT_FINISHED:
            why = "it is deleted (DELETE_SEGMENT_FINISHED in __remote_log_metadata)"
        elif st != COPY_SEGMENT_FINISHED:
            why = f"it is being deleted ({st}{' in __remote_log_metadata' if from_topic else ''})"
        elif s.segment_id in outside:
            why = f"outside the partition's leader-epoch lineage: {outside[s.segment_id]}"
        elif s.segment_id in replaced:
            by = segments[replaced[s.segment_id]]
            why = (
                f"replaced by segment {by.segment_id} (offsets {by.start}..{by.end}), a later upload for the same "
                "leader epoch from an offset at or below its start"
            )
        else:
            why = "every offset it holds is served by another segment"
        out.unused.append((s, why))
    out.unused.sort(key=lambda u: (u[0].start, u[0].segment_id))
    return out


def twins(lineage: Lineage) -> list[tuple[SegmentInfo, SegmentInfo]]:
    """(live, unused) pairs with the same offsets and leader epochs: copies the caller must show hold the
    same bytes, else the rule cannot decide between them."""
    by_key = {s.key: s for s, _ in lineage.live}
    return [
        (by_key[u.key], u)
        for u, why in lineage.unused
        if u.key in by_key and "COPY_SEGMENT_STARTED" not in why
    ]


def parse_segment_metadata(meta: Any, name: str, segment_id: str, base_offset: int) -> SegmentInfo | None:
    """The manifest's ``remoteLogSegmentMetadata`` as a :class:`SegmentInfo`, or None when it lacks what
    choosing needs, or disagrees with the object names (``verify`` reports those; such a segment is
    kept where its name puts it, as before any choosing). The id is the one the objects are named by.
    No stated epochs (an empty ``segmentLeaderEpochs``): none in the result, for
    :func:`kafkaspec.logdir.tiered.live.fill_epochs`."""
    if not isinstance(meta, dict):
        return None
    start_field, end_field, epochs = (
        meta.get("startOffset"),
        meta.get("endOffset"),
        meta.get("segmentLeaderEpochs"),
    )
    if not (_is_int(start_field) and _is_int(end_field) and isinstance(epochs, dict)):
        return None
    start, end = start_field, end_field
    if start != base_offset or end < start:
        return None
    ident = meta.get("remoteLogSegmentId")
    named = (
        ident.get("id") if isinstance(ident, dict) else None
    )  # a manifest copied under another id: the old one
    stated: dict[int, int] = {}
    for k, v in epochs.items():
        if not (isinstance(k, str) and len(k) < 12 and k.lstrip("-").isdigit() and _is_int(v)):
            return None
        stated[int(k)] = v
    event = meta.get("eventTimestampMs")
    pairs = segment_epochs(stated, start, end)
    if stated and not pairs:
        return None
    return SegmentInfo(
        segment_id,
        start,
        end,
        pairs,
        event if _is_int(event) else -1,
        name,
        named is None or segment_id.endswith(str(named)),
    )


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


__all__ = [
    "COPY_SEGMENT_FINISHED",
    "COPY_SEGMENT_STARTED",
    "DELETE_SEGMENT_FINISHED",
    "DELETE_SEGMENT_STARTED",
    "Event",
    "Lineage",
    "SegmentInfo",
    "choose",
    "events_from_manifests",
    "events_from_metadata_topic",
    "filtered_epochs",
    "parse_segment_metadata",
    "segment_epochs",
    "twins",
    "within_leader_epochs",
]
