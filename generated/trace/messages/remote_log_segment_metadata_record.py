"""RemoteLogSegmentMetadataRecord, the tracing decoder: :func:`trace_remote_log_segment_metadata_record` reads one RemoteLogSegmentMetadataRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/remote_log_segment_metadata_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RemoteLogSegmentMetadataRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RemoteLogSegmentMetadataRecord": "A remote segment's metadata as the leader starts copying it (state COPY_SEGMENT_STARTED): its offsets, epochs and size.",
    "RemoteLogSegmentMetadataRecord.remote_log_segment_id": "The remote segment: its partition and the segment's own id.",
    "RemoteLogSegmentMetadataRecord.start_offset": "First offset in the segment.",
    "RemoteLogSegmentMetadataRecord.end_offset": "Last offset in the segment.",
    "RemoteLogSegmentMetadataRecord.broker_id": "Broker that wrote the event (the partition's leader).",
    "RemoteLogSegmentMetadataRecord.max_timestamp_ms": "Largest record timestamp in the segment.",
    "RemoteLogSegmentMetadataRecord.event_timestamp_ms": "When the broker wrote the event.",
    "RemoteLogSegmentMetadataRecord.segment_leader_epochs": "Each leader epoch in the segment with its first offset there, ascending.",
    "RemoteLogSegmentMetadataRecord.segment_size_in_bytes": "Size of the segment's .log in bytes.",
    "RemoteLogSegmentMetadataRecord.custom_metadata": "Opaque bytes the remote storage plugin returned for the segment (Aiven's plugin: where its objects are), or null.",
    "RemoteLogSegmentMetadataRecord.remote_log_segment_state": "The segment's state: 0 COPY_SEGMENT_STARTED, 1 COPY_SEGMENT_FINISHED, 2 DELETE_SEGMENT_STARTED, 3 DELETE_SEGMENT_FINISHED.",
    "RemoteLogSegmentMetadataRecord.txn_index_empty": "The segment has no aborted transactions (its transaction index is empty).",
    "RemoteLogSegmentIdEntry": "The remote segment: its partition and the segment's own id.",
    "RemoteLogSegmentIdEntry.topic_id_partition": "Topic id and partition of the segment.",
    "RemoteLogSegmentIdEntry.id": "Segment id, unique in the partition (a re-upload of the same offsets gets a new one).",
    "SegmentLeaderEpochEntry": "Each leader epoch in the segment with its first offset there, ascending.",
    "SegmentLeaderEpochEntry.leader_epoch": "Leader epoch.",
    "SegmentLeaderEpochEntry.offset": "First offset of the epoch in the segment.",
    "TopicIdPartitionEntry": "Topic id and partition of the segment.",
    "TopicIdPartitionEntry.name": "Topic name.",
    "TopicIdPartitionEntry.id": "Topic id.",
    "TopicIdPartitionEntry.partition": "Partition number.",
}


def _trace_remote_log_segment_metadata_record_v0(t) -> None:
    t.begin("RemoteLogSegmentMetadataRecord", 0, DOCS["RemoteLogSegmentMetadataRecord"])
    t.nested(
        "remote_log_segment_id",
        "RemoteLogSegmentIdEntry",
        DOCS["RemoteLogSegmentMetadataRecord.remote_log_segment_id"],
        _trace_remote_log_segment_id_entry_v0,
    )
    t.integer("start_offset", "int64", DOCS["RemoteLogSegmentMetadataRecord.start_offset"])
    t.integer("end_offset", "int64", DOCS["RemoteLogSegmentMetadataRecord.end_offset"])
    t.integer("broker_id", "int32", DOCS["RemoteLogSegmentMetadataRecord.broker_id"])
    t.integer("max_timestamp_ms", "int64", DOCS["RemoteLogSegmentMetadataRecord.max_timestamp_ms"])
    t.integer("event_timestamp_ms", "int64", DOCS["RemoteLogSegmentMetadataRecord.event_timestamp_ms"])
    t.array(
        "segment_leader_epochs",
        "SegmentLeaderEpochEntry",
        DOCS["RemoteLogSegmentMetadataRecord.segment_leader_epochs"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "SegmentLeaderEpochEntry",
            DOCS["RemoteLogSegmentMetadataRecord.segment_leader_epochs"],
            _trace_segment_leader_epoch_entry_v0,
        ),
        min_size=1,
    )
    t.integer("segment_size_in_bytes", "int32", DOCS["RemoteLogSegmentMetadataRecord.segment_size_in_bytes"])
    t.blob(
        "custom_metadata",
        "bytes",
        DOCS["RemoteLogSegmentMetadataRecord.custom_metadata"],
        "compact",
        nullable=True,
    )
    t.integer(
        "remote_log_segment_state", "int8", DOCS["RemoteLogSegmentMetadataRecord.remote_log_segment_state"]
    )
    t.tagged(
        {
            0: (
                "txn_index_empty",
                lambda t: t.integer(
                    "txn_index_empty", "bool", DOCS["RemoteLogSegmentMetadataRecord.txn_index_empty"]
                ),
            )
        }
    )
    t.end(None)


def _trace_remote_log_segment_id_entry_v0(t) -> None:
    t.begin("RemoteLogSegmentIdEntry", 0, DOCS["RemoteLogSegmentIdEntry"])
    t.nested(
        "topic_id_partition",
        "TopicIdPartitionEntry",
        DOCS["RemoteLogSegmentIdEntry.topic_id_partition"],
        _trace_topic_id_partition_entry_v0,
    )
    t.blob("id", "uuid", DOCS["RemoteLogSegmentIdEntry.id"], "size", size=16)
    t.tagged({})
    t.end(None)


def _trace_segment_leader_epoch_entry_v0(t) -> None:
    t.begin("SegmentLeaderEpochEntry", 0, DOCS["SegmentLeaderEpochEntry"])
    t.integer("leader_epoch", "int32", DOCS["SegmentLeaderEpochEntry.leader_epoch"])
    t.integer("offset", "int64", DOCS["SegmentLeaderEpochEntry.offset"])
    t.tagged({})
    t.end(None)


def _trace_topic_id_partition_entry_v0(t) -> None:
    t.begin("TopicIdPartitionEntry", 0, DOCS["TopicIdPartitionEntry"])
    t.blob("name", "string", DOCS["TopicIdPartitionEntry.name"], "compact")
    t.blob("id", "uuid", DOCS["TopicIdPartitionEntry.id"], "size", size=16)
    t.integer("partition", "int32", DOCS["TopicIdPartitionEntry.partition"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_remote_log_segment_metadata_record_v0,
}


def trace_remote_log_segment_metadata_record(t, version: int) -> None:
    """Read one RemoteLogSegmentMetadataRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"RemoteLogSegmentMetadataRecord: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
