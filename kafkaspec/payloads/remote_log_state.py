"""Replay ``__remote_log_metadata`` records into the state of each remote segment, as a broker does.

Tiered storage keeps what it uploaded in the topic ``__remote_log_metadata``: a
``RemoteLogSegmentMetadataRecord`` when the leader starts copying a segment (its offsets, leader
epochs, size), then ``RemoteLogSegmentMetadataUpdateRecord``\\ s as the segment moves on, and a
``RemotePartitionDeleteMetadataRecord`` when a whole partition's remote data goes. A broker replays
them into ``RemoteLogMetadataCache``; :class:`RemoteLogState` does the same, per topic partition,
with the rules of Apache Kafka's ``RemoteLogSegmentState.isValidTransition`` and
``RemotePartitionDeleteState.isValidTransition``:

* a segment starts at ``COPY_SEGMENT_STARTED`` (only a metadata record may bring it there, an update
  may not: ``addCopyInProgressSegment``), which goes to ``COPY_SEGMENT_FINISHED`` or
  ``DELETE_SEGMENT_STARTED``; ``COPY_SEGMENT_FINISHED`` goes to ``DELETE_SEGMENT_STARTED``, which goes
  to ``DELETE_SEGMENT_FINISHED``; an event to the state a segment is in already is a retry (applied);
* a partition's deletion goes ``DELETE_PARTITION_MARKED``, ``DELETE_PARTITION_STARTED``,
  ``DELETE_PARTITION_FINISHED``, each state again allowed;
* an update for a segment with no metadata record (``RemoteResourceNotFoundException``) and any other
  transition are dropped by the broker: here each is not applied and is listed in
  :attr:`RemoteLogState.contradictions` with its offset, never applied silently.

The event time an update carries and its custom metadata replace the segment's
(``RemoteLogSegmentMetadata.createWithUpdates``); an update without custom metadata keeps what the
segment had. A segment at ``DELETE_SEGMENT_FINISHED`` is kept (the broker forgets it) so that its
state can be shown. ``RemoteLogSegmentMetadataSnapshotRecord`` belongs in a partition's snapshot
file, not in the topic: it names no partition, so one found in the topic is listed, not applied.

Sans-IO: reading the topic is the caller's job (``kafkaspec inspect remote-log``, and
``kafkaspec.logdir.tiered.lineage.events_from_metadata_topic``, which gives the applied events to the
choice of live segments). Memory is bounded by the segments, however many records (retries, custom
metadata) the topic holds: one entry per segment and at most one event per segment and state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .decode import Decoded, kafka_uuid

COPY_SEGMENT_STARTED = "COPY_SEGMENT_STARTED"
COPY_SEGMENT_FINISHED = "COPY_SEGMENT_FINISHED"
DELETE_SEGMENT_STARTED = "DELETE_SEGMENT_STARTED"
DELETE_SEGMENT_FINISHED = "DELETE_SEGMENT_FINISHED"
#: Kafka's ``RemoteLogSegmentState`` ids
SEGMENT_STATES = {
    0: COPY_SEGMENT_STARTED,
    1: COPY_SEGMENT_FINISHED,
    2: DELETE_SEGMENT_STARTED,
    3: DELETE_SEGMENT_FINISHED,
}
#: Kafka's ``RemotePartitionDeleteState`` ids
PARTITION_STATES = {
    0: "DELETE_PARTITION_MARKED",
    1: "DELETE_PARTITION_STARTED",
    2: "DELETE_PARTITION_FINISHED",
}
#: ``RemoteLogSegmentState.isValidTransition``: the states each state may go to (besides itself)
_SEGMENT_NEXT: dict[str | None, tuple[str, ...]] = {
    None: (COPY_SEGMENT_STARTED,),
    COPY_SEGMENT_STARTED: (COPY_SEGMENT_FINISHED, DELETE_SEGMENT_STARTED),
    COPY_SEGMENT_FINISHED: (DELETE_SEGMENT_STARTED,),
    DELETE_SEGMENT_STARTED: (DELETE_SEGMENT_FINISHED,),
    DELETE_SEGMENT_FINISHED: (),
}
_PARTITION_NEXT: dict[str | None, tuple[str, ...]] = {
    None: ("DELETE_PARTITION_MARKED",),
    "DELETE_PARTITION_MARKED": ("DELETE_PARTITION_STARTED",),
    "DELETE_PARTITION_STARTED": ("DELETE_PARTITION_FINISHED",),
    "DELETE_PARTITION_FINISHED": (),
}


@dataclass(frozen=True)
class RemoteSegment:
    """One remote segment as the records so far describe it (``RemoteLogSegmentMetadata``)."""

    segment_id: str
    topic: str
    topic_id: str
    partition: int
    start_offset: int
    end_offset: int
    #: ``segmentLeaderEpochs``: (leader epoch, its first offset in the segment), ascending
    leader_epochs: tuple[tuple[int, int], ...]
    state: str
    broker_id: int
    event_timestamp_ms: int
    max_timestamp_ms: int
    segment_size_in_bytes: int
    #: the remote storage plugin's bytes for the segment (Aiven's plugin: its object prefix or key)
    custom_metadata: bytes | None
    txn_index_empty: bool
    #: the offset (in ``__remote_log_metadata``) of the last record applied to it
    offset: int | None

    def to_json(self) -> dict[str, Any]:
        from .decode import jsonable

        return {
            "segment_id": self.segment_id,
            "state": self.state,
            "start_offset": self.start_offset,
            "end_offset": self.end_offset,
            "leader_epochs": [{"leader_epoch": e, "offset": o} for e, o in self.leader_epochs],
            "broker_id": self.broker_id,
            "event_timestamp_ms": self.event_timestamp_ms,
            "max_timestamp_ms": self.max_timestamp_ms,
            "segment_size_in_bytes": self.segment_size_in_bytes,
            "custom_metadata": jsonable(self.custom_metadata),
            "txn_index_empty": self.txn_index_empty,
            "offset": self.offset,
        }


@dataclass
class RemotePartition:
    """The remote segments of one topic partition, and its deletion state."""

    topic: str
    topic_id: str
    partition: int
    segments: dict[str, RemoteSegment] = field(default_factory=dict)
    #: ``RemotePartitionDeleteState`` name, or None when the partition is not being deleted
    delete_state: str | None = None
    #: the applied segment events in order, by (segment id, state): a retry (a self-transition, which Kafka's
    #: state machine accepts for idempotence) replaces the segment's earlier event of that state and goes to
    #: the end, since Kafka's cache puts the segment again then and the later put is what counts; so at
    #: most four events per segment are kept, however many records repeat them
    _events: dict[tuple[str, str], RemoteSegment] = field(default_factory=dict, repr=False)

    @property
    def events(self) -> list[tuple[str, RemoteSegment]]:
        """The applied segment events in order: (state, the segment as that event left it)."""
        return [(state, seg) for (_, state), seg in self._events.items()]

    def add_event(self, state: str, seg: RemoteSegment) -> None:
        key = (seg.segment_id, state)
        self._events.pop(key, None)  # a retry: to the end
        self._events[key] = seg


@dataclass
class RemoteLogState:
    """What ``__remote_log_metadata`` says at its end, per (topic id, partition)."""

    partitions: dict[tuple[str, int], RemotePartition] = field(default_factory=dict)
    #: records read, by type
    counts: dict[str, int] = field(default_factory=dict)
    last_offset: int | None = None
    #: (offset, what) for each record not applied (a transition Kafka's rules refuse), in order
    contradictions: list[tuple[int | None, str]] = field(default_factory=list)
    _offset: int | None = None

    def apply(self, record: Decoded, offset: int | None = None) -> None:
        """Apply one decoded ``__remote_log_metadata`` record (in the partition's order)."""
        self.counts[record.type] = self.counts.get(record.type, 0) + 1
        if offset is not None:
            self.last_offset = offset
        self._offset = offset
        handler = getattr(self, f"_on_{record.type}", None)
        if handler is not None and record.value is not None:
            handler(record.value)

    def partition(self, topic: str, partition: int, topic_id: str | None = None) -> list[RemotePartition]:
        """The partitions of ``topic`` numbered ``partition`` (one per topic id the topic had;
        only ``topic_id``'s when given)."""
        return [
            p
            for p in self.partitions.values()
            if p.topic == topic and p.partition == partition and (topic_id is None or p.topic_id == topic_id)
        ]

    def _contradiction(self, what: str) -> None:
        self.contradictions.append((self._offset, what + " (not applied)"))

    def _part(self, tip: dict[str, Any]) -> RemotePartition:
        topic_id = kafka_uuid(tip["id"])
        key = (topic_id, tip["partition"])
        part = self.partitions.get(key)
        if part is None:
            part = self.partitions[key] = RemotePartition(tip["name"], topic_id, tip["partition"])
        return part

    @staticmethod
    def _state(byte: int, names: dict[int, str]) -> str | None:
        return names.get(byte)

    def _moves(
        self, what: str, current: str | None, target: str, table: dict[str | None, tuple[str, ...]]
    ) -> bool:
        if target == current or target in table[current]:
            return True
        self._contradiction(f"{what}: {current or 'no state'} cannot go to {target}")
        return False

    def _on_RemoteLogSegmentMetadataRecord(self, v: dict[str, Any]) -> None:
        ident = v["remote_log_segment_id"]
        part = self._part(ident["topic_id_partition"])
        seg_id = kafka_uuid(ident["id"])
        what = f"segment {seg_id} of {part.topic}-{part.partition}"
        target = self._state(v["remote_log_segment_state"], SEGMENT_STATES)
        if target is None:
            self._contradiction(f"{what}: unknown segment state {v['remote_log_segment_state']}")
            return
        if target != COPY_SEGMENT_STARTED:  # addCopyInProgressSegment
            self._contradiction(
                f"{what}: a segment's metadata record must be in state COPY_SEGMENT_STARTED, it is {target}"
            )
            return
        existing = part.segments.get(seg_id)
        if not self._moves(what, existing.state if existing else None, target, _SEGMENT_NEXT):
            return
        seg = RemoteSegment(
            seg_id,
            part.topic,
            part.topic_id,
            part.partition,
            v["start_offset"],
            v["end_offset"],
            tuple((e["leader_epoch"], e["offset"]) for e in v["segment_leader_epochs"]),
            target,
            v["broker_id"],
            v["event_timestamp_ms"],
            v["max_timestamp_ms"],
            v["segment_size_in_bytes"],
            v["custom_metadata"],
            v["txn_index_empty"],
            self._offset,
        )
        part.segments[seg_id] = seg
        part.add_event(target, seg)

    def _on_RemoteLogSegmentMetadataUpdateRecord(self, v: dict[str, Any]) -> None:
        ident = v["remote_log_segment_id"]
        part = self._part(ident["topic_id_partition"])
        seg_id = kafka_uuid(ident["id"])
        what = f"segment {seg_id} of {part.topic}-{part.partition}"
        target = self._state(v["remote_log_segment_state"], SEGMENT_STATES)
        existing = part.segments.get(seg_id)
        if target is None:
            self._contradiction(f"{what}: unknown segment state {v['remote_log_segment_state']}")
        elif existing is None:
            self._contradiction(
                f"{what}: an update to {target} for a segment with no metadata record before it"
            )
        elif target == COPY_SEGMENT_STARTED:
            self._contradiction(
                f"{what}: an update may not set COPY_SEGMENT_STARTED (only a metadata record does; "
                f"the segment is {existing.state})"
            )
        elif self._moves(what, existing.state, target, _SEGMENT_NEXT):
            custom = v["custom_metadata"] if v["custom_metadata"] is not None else existing.custom_metadata
            seg = replace(
                existing,
                state=target,
                broker_id=v["broker_id"],
                event_timestamp_ms=v["event_timestamp_ms"],
                custom_metadata=custom,
                offset=self._offset,
            )
            part.segments[seg_id] = seg
            part.add_event(target, seg)

    def _on_RemotePartitionDeleteMetadataRecord(self, v: dict[str, Any]) -> None:
        part = self._part(v["topic_id_partition"])
        target = self._state(v["remote_partition_delete_state"], PARTITION_STATES)
        what = f"partition {part.topic}-{part.partition} (topic id {part.topic_id})"
        if target is None:
            self._contradiction(
                f"{what}: unknown partition delete state {v['remote_partition_delete_state']}"
            )
        elif self._moves(what, part.delete_state, target, _PARTITION_NEXT):
            part.delete_state = target

    def _on_RemoteLogSegmentMetadataSnapshotRecord(self, v: dict[str, Any]) -> None:
        self._contradiction(
            f"snapshot entry for segment {kafka_uuid(v['segment_id'])}: it belongs in a partition's "
            "snapshot file and names no partition"
        )

    def to_json(self) -> dict[str, Any]:
        """The state as JSON values: partitions sorted by topic and partition, segments by start offset."""
        parts = sorted(self.partitions.values(), key=lambda p: (p.topic, p.partition, p.topic_id))
        return {
            "last_offset": self.last_offset,
            "partitions": [
                {
                    "topic": p.topic,
                    "topic_id": p.topic_id,
                    "partition": p.partition,
                    "delete_state": p.delete_state,
                    "segments": [
                        s.to_json()
                        for s in sorted(p.segments.values(), key=lambda s: (s.start_offset, s.segment_id))
                    ],
                }
                for p in parts
            ],
            "record_counts": dict(sorted(self.counts.items())),
            "contradictions": [{"offset": o, "problem": w} for o, w in self.contradictions],
        }


__all__ = [
    "COPY_SEGMENT_FINISHED",
    "COPY_SEGMENT_STARTED",
    "DELETE_SEGMENT_FINISHED",
    "DELETE_SEGMENT_STARTED",
    "PARTITION_STATES",
    "SEGMENT_STATES",
    "RemoteLogState",
    "RemotePartition",
    "RemoteSegment",
]
