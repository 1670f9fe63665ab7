"""Choosing a tiered partition's live segments, for both layouts (:mod:`.partition`, Aiven's plugin;
:mod:`.local_storage`, Kafka's ``LocalTieredStorage``): from ``__remote_log_metadata`` when it has
events of the partition, else from what each segment's own metadata says (a manifest, a fileset), by
Kafka's rule (:mod:`.lineage`). Each layout lists its folder and reads its segments' metadata; the rest
is here, once: the leader epochs of segments that state none, the newest segment's checkpoint, the
choice, and serving the live segments (two finished copies of the same offsets whose bytes differ
being an error naming both).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from ...errors import KafkaFormatError
from ..kafka.files import EpochEntry
from ..kafka.segment import Segment
from ..store.fs import StoragePath
from .lineage import (
    Lineage,
    SegmentInfo,
    choose,
    events_from_manifests,
    events_from_metadata_topic,
    segment_epochs,
    twins,
)
from .remote_log_topic import RemoteLogMetadata

S = TypeVar("S", bound=Segment)

#: the leader epoch of segments whose metadata states none (``segmentLeaderEpochs`` empty: Kafka's never
#: is, a copy of a log without a leader-epoch checkpoint may be) when nothing else says: one epoch for all
#: of them, so they are still chosen by their offsets (:func:`fill_epochs`)
NO_EPOCH = -1


def fill_epochs(
    segments: Iterable[SegmentInfo], leader_epochs: Sequence[EpochEntry] | Sequence[tuple[int, int]] | None
) -> list[SegmentInfo]:
    """``segments``, each without stated epochs given the epochs of its offsets: from ``leader_epochs``
    (the partition's checkpoint), else from the epochs the other segments state, else :data:`NO_EPOCH`.
    Left without epochs, such a segment would be in no epoch's map: never served, or (kept apart, as it
    once was) served beside its re-upload, each offset twice."""
    segments = list(segments)
    if all(s.epochs for s in segments):
        return segments
    stated: dict[int, int] = {}
    if leader_epochs is not None:
        stated = {int(e[0]): int(e[1]) for e in leader_epochs}
    else:
        for s in segments:
            for epoch, start in s.epochs:
                stated[epoch] = min(stated.get(epoch, start), start)
    return [
        s if s.epochs else replace(s, epochs=segment_epochs(stated, s.start, s.end) or ((NO_EPOCH, s.start),))
        for s in segments
    ]


def newest(published: Iterable[SegmentInfo]) -> SegmentInfo | None:
    """The segment uploaded last by the latest leader (highest leader epoch, then end offset, then event
    time): its leader-epoch checkpoint is the whole lineage as that leader knew it."""
    return max(
        published,
        key=lambda s: (s.epochs[-1][0] if s.epochs else NO_EPOCH, s.end, s.event_time, s.segment_id),
        default=None,
    )


class ChoosingPartition(Protocol):
    """What choosing asks of a tiered partition (both layouts')."""

    topic: str
    partition: int
    topic_id: str
    path: StoragePath
    log_end_offset: int | None
    remote_log: RemoteLogMetadata | None


def choose_live(
    part: ChoosingPartition,
    published: Sequence[SegmentInfo],
    started: Sequence[SegmentInfo],
    leader_epochs: Sequence[EpochEntry] | None,
) -> tuple[Lineage, bool]:
    """The partition's lineage, and whether ``__remote_log_metadata`` decided it (its events of the
    partition, when it has any), else the segments' own metadata: ``published`` (finished uploads; those
    stating no epochs given theirs, :func:`fill_epochs`) and ``started`` (unfinished ones). An empty
    ``leader_epochs`` (a checkpoint of no entries) says nothing: the segments' epochs decide."""
    leader_epochs = leader_epochs or None
    if part.remote_log is not None:
        events = events_from_metadata_topic(part.remote_log.state, part.topic, part.partition, part.topic_id)
        if events:
            return choose(events, leader_epochs, part.log_end_offset, from_topic=True), True
    published = fill_epochs(published, leader_epochs)
    return choose(events_from_manifests(published, started), leader_epochs, part.log_end_offset), False


def serve_live(
    part: ChoosingPartition,
    lineage: Lineage,
    chosen: Mapping[str, S],
    same_bytes: Callable[[S, S], bool],
    stated_by: str,
) -> list[S]:
    """The live segments of ``lineage`` (of ``chosen``, by segment id), each told the first offset it serves
    and its end; twins (:func:`~.lineage.twins`) must hold the same bytes, else an error naming both
    (``stated_by``: what gave the events, for the message: ``"the manifests"``, ``"the files"``)."""
    kept = []
    for info, first in lineage.live:
        seg = chosen[info.segment_id]
        seg.served_from, seg.end_offset = first, info.end
        kept.append(seg)
    for live, other in twins(lineage):
        a, b = chosen[live.segment_id], chosen[other.segment_id]
        if not same_bytes(a, b):
            raise KafkaFormatError(
                f"{a.path.name} and {b.path.name} are both finished uploads of offsets {live.start}..{live.end} "
                "with the same leader epochs, but their bytes differ: which one a broker serves depends on "
                f"the order of their events in __remote_log_metadata, which {stated_by} do not give",
                None,
                str(part.path),
            )
    return kept


__all__ = ["NO_EPOCH", "ChoosingPartition", "choose_live", "fill_epochs", "newest", "serve_live"]
