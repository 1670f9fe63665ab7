"""ShareGroupPartitionMetadataValue, the tracing decoder: :func:`trace_share_group_partition_metadata_value` reads one ShareGroupPartitionMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_partition_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupPartitionMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupPartitionMetadataValue": "The subscribed topics of a share group (KIP-932) as the coordinator last saw them (ids, names, partition counts).",
    "ShareGroupPartitionMetadataValue.topics": "The subscribed topics.",
    "TopicMetadata": "The subscribed topics.",
    "TopicMetadata.topic_id": "Topic id.",
    "TopicMetadata.topic_name": "Topic name.",
    "TopicMetadata.num_partitions": "Number of partitions of the topic.",
    "TopicMetadata.partition_metadata": "Racks of each partition's replicas (empty when no rack is known; unused from Kafka 4.0).",
    "PartitionMetadata": "Racks of each partition's replicas (empty when no rack is known; unused from Kafka 4.0).",
    "PartitionMetadata.partition": "Partition number.",
    "PartitionMetadata.racks": "Racks holding replicas of the partition.",
}


def _trace_share_group_partition_metadata_value_v0(t) -> None:
    t.begin("ShareGroupPartitionMetadataValue", 0, DOCS["ShareGroupPartitionMetadataValue"])
    t.array(
        "topics",
        "TopicMetadata",
        DOCS["ShareGroupPartitionMetadataValue.topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicMetadata",
            DOCS["ShareGroupPartitionMetadataValue.topics"],
            _trace_topic_metadata_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_topic_metadata_v0(t) -> None:
    t.begin("TopicMetadata", 0, DOCS["TopicMetadata"])
    t.blob("topic_id", "uuid", DOCS["TopicMetadata.topic_id"], "size", size=16)
    t.blob("topic_name", "string", DOCS["TopicMetadata.topic_name"], "compact")
    t.integer("num_partitions", "int32", DOCS["TopicMetadata.num_partitions"])
    t.array(
        "partition_metadata",
        "PartitionMetadata",
        DOCS["TopicMetadata.partition_metadata"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "PartitionMetadata",
            DOCS["TopicMetadata.partition_metadata"],
            _trace_partition_metadata_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_partition_metadata_v0(t) -> None:
    t.begin("PartitionMetadata", 0, DOCS["PartitionMetadata"])
    t.integer("partition", "int32", DOCS["PartitionMetadata.partition"])
    t.array(
        "racks",
        "string",
        DOCS["PartitionMetadata.racks"],
        "compact",
        lambda t: t.blob(t.take_label(), "string", DOCS["PartitionMetadata.racks"], "compact"),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_share_group_partition_metadata_value_v0,
}


def trace_share_group_partition_metadata_value(t, version: int) -> None:
    """Read one ShareGroupPartitionMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupPartitionMetadataValue: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
