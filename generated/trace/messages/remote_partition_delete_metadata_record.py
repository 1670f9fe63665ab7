"""RemotePartitionDeleteMetadataRecord, the tracing decoder: :func:`trace_remote_partition_delete_metadata_record` reads one RemotePartitionDeleteMetadataRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/remote_partition_delete_metadata_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RemotePartitionDeleteMetadataRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RemotePartitionDeleteMetadataRecord": "The remote data of a whole partition is being deleted (its topic was deleted).",
    "RemotePartitionDeleteMetadataRecord.topic_id_partition": "The partition whose remote segments are deleted.",
    "RemotePartitionDeleteMetadataRecord.broker_id": "Broker that wrote the event.",
    "RemotePartitionDeleteMetadataRecord.event_timestamp_ms": "When the broker wrote the event.",
    "RemotePartitionDeleteMetadataRecord.remote_partition_delete_state": "0 DELETE_PARTITION_MARKED, 1 DELETE_PARTITION_STARTED, 2 DELETE_PARTITION_FINISHED.",
    "TopicIdPartitionEntry": "The partition whose remote segments are deleted.",
    "TopicIdPartitionEntry.name": "Topic name.",
    "TopicIdPartitionEntry.id": "Topic id.",
    "TopicIdPartitionEntry.partition": "Partition number.",
}


def _trace_remote_partition_delete_metadata_record_v0(t) -> None:
    t.begin("RemotePartitionDeleteMetadataRecord", 0, DOCS["RemotePartitionDeleteMetadataRecord"])
    t.nested(
        "topic_id_partition",
        "TopicIdPartitionEntry",
        DOCS["RemotePartitionDeleteMetadataRecord.topic_id_partition"],
        _trace_topic_id_partition_entry_v0,
    )
    t.integer("broker_id", "int32", DOCS["RemotePartitionDeleteMetadataRecord.broker_id"])
    t.integer("event_timestamp_ms", "int64", DOCS["RemotePartitionDeleteMetadataRecord.event_timestamp_ms"])
    t.integer(
        "remote_partition_delete_state",
        "int8",
        DOCS["RemotePartitionDeleteMetadataRecord.remote_partition_delete_state"],
    )
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
    0: _trace_remote_partition_delete_metadata_record_v0,
}


def trace_remote_partition_delete_metadata_record(t, version: int) -> None:
    """Read one RemotePartitionDeleteMetadataRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"RemotePartitionDeleteMetadataRecord: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
