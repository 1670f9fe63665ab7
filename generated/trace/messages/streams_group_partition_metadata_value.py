"""StreamsGroupPartitionMetadataValue, the tracing decoder: :func:`trace_streams_group_partition_metadata_value` reads one StreamsGroupPartitionMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_partition_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupPartitionMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupPartitionMetadataValue": "The topics a streams group (KIP-1071) reads, with their partition counts and the racks of their partitions, as the coordinator last saw them.",
    "StreamsGroupPartitionMetadataValue.topics": "One entry per topic.",
    "TopicMetadata": "One entry per topic.",
    "TopicMetadata.topic_id": "Topic id.",
    "TopicMetadata.topic_name": "Topic name.",
    "TopicMetadata.num_partitions": "How many partitions the topic has.",
    "TopicMetadata.partition_metadata": "The racks of each partition's replicas; empty when no partition has rack information.",
    "PartitionMetadata": "The racks of each partition's replicas; empty when no partition has rack information.",
    "PartitionMetadata.partition": "Partition number.",
    "PartitionMetadata.racks": "Racks holding replicas of the partition.",
}


def _trace_streams_group_partition_metadata_value_v0(t) -> None:
    t.begin("StreamsGroupPartitionMetadataValue", 0, DOCS["StreamsGroupPartitionMetadataValue"])
    t.array(
        "topics",
        "TopicMetadata",
        DOCS["StreamsGroupPartitionMetadataValue.topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicMetadata",
            DOCS["StreamsGroupPartitionMetadataValue.topics"],
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
    0: _trace_streams_group_partition_metadata_value_v0,
}


def trace_streams_group_partition_metadata_value(t, version: int) -> None:
    """Read one StreamsGroupPartitionMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupPartitionMetadataValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
