"""RemoteLogSegmentMetadataUpdateRecord, the tracing decoder: :func:`trace_remote_log_segment_metadata_update_record` reads one RemoteLogSegmentMetadataUpdateRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/remote_log_segment_metadata_update_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RemoteLogSegmentMetadataUpdateRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RemoteLogSegmentMetadataUpdateRecord": "A remote segment moved to another state (copy finished, delete started or finished).",
    "RemoteLogSegmentMetadataUpdateRecord.remote_log_segment_id": "The remote segment: its partition and the segment's own id.",
    "RemoteLogSegmentMetadataUpdateRecord.broker_id": "Broker that wrote the event.",
    "RemoteLogSegmentMetadataUpdateRecord.event_timestamp_ms": "When the broker wrote the event.",
    "RemoteLogSegmentMetadataUpdateRecord.custom_metadata": "Opaque bytes the remote storage plugin returned for the segment (Aiven's plugin: where its objects are), or null.",
    "RemoteLogSegmentMetadataUpdateRecord.remote_log_segment_state": "The segment's state: 0 COPY_SEGMENT_STARTED, 1 COPY_SEGMENT_FINISHED, 2 DELETE_SEGMENT_STARTED, 3 DELETE_SEGMENT_FINISHED.",
    "RemoteLogSegmentIdEntry": "The remote segment: its partition and the segment's own id.",
    "RemoteLogSegmentIdEntry.topic_id_partition": "Topic id and partition of the segment.",
    "RemoteLogSegmentIdEntry.id": "Segment id, unique in the partition (a re-upload of the same offsets gets a new one).",
    "TopicIdPartitionEntry": "Topic id and partition of the segment.",
    "TopicIdPartitionEntry.name": "Topic name.",
    "TopicIdPartitionEntry.id": "Topic id.",
    "TopicIdPartitionEntry.partition": "Partition number.",
}


def _trace_remote_log_segment_metadata_update_record_v0(t) -> None:
    t.begin("RemoteLogSegmentMetadataUpdateRecord", 0, DOCS["RemoteLogSegmentMetadataUpdateRecord"])
    t.nested(
        "remote_log_segment_id",
        "RemoteLogSegmentIdEntry",
        DOCS["RemoteLogSegmentMetadataUpdateRecord.remote_log_segment_id"],
        _trace_remote_log_segment_id_entry_v0,
    )
    t.integer("broker_id", "int32", DOCS["RemoteLogSegmentMetadataUpdateRecord.broker_id"])
    t.integer("event_timestamp_ms", "int64", DOCS["RemoteLogSegmentMetadataUpdateRecord.event_timestamp_ms"])
    t.blob(
        "custom_metadata",
        "bytes",
        DOCS["RemoteLogSegmentMetadataUpdateRecord.custom_metadata"],
        "compact",
        nullable=True,
    )
    t.integer(
        "remote_log_segment_state",
        "int8",
        DOCS["RemoteLogSegmentMetadataUpdateRecord.remote_log_segment_state"],
    )
    t.tagged({})
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


def _trace_topic_id_partition_entry_v0(t) -> None:
    t.begin("TopicIdPartitionEntry", 0, DOCS["TopicIdPartitionEntry"])
    t.blob("name", "string", DOCS["TopicIdPartitionEntry.name"], "compact")
    t.blob("id", "uuid", DOCS["TopicIdPartitionEntry.id"], "size", size=16)
    t.integer("partition", "int32", DOCS["TopicIdPartitionEntry.partition"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_remote_log_segment_metadata_update_record_v0,
}


def trace_remote_log_segment_metadata_update_record(t, version: int) -> None:
    """Read one RemoteLogSegmentMetadataUpdateRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"RemoteLogSegmentMetadataUpdateRecord: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
