"""ShareGroupStatePartitionMetadataValueKafka40, the tracing decoder: :func:`trace_share_group_state_partition_metadata_value_kafka40` reads one ShareGroupStatePartitionMetadataValueKafka40 of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_state_partition_metadata_value_kafka40.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupStatePartitionMetadataValueKafka40"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupStatePartitionMetadataValueKafka40": "ShareGroupStatePartitionMetadataValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: initialized and deleting topics, without the initializing topics 4.1 put first.",
    "ShareGroupStatePartitionMetadataValueKafka40.initialized_topics": "Topics whose share-group state is initialized, with their partitions.",
    "ShareGroupStatePartitionMetadataValueKafka40.deleting_topics": "Topics whose share-group state is being deleted.",
    "TopicPartitionsInfo": "A topic whose share-group state is initialized, with its partitions.",
    "TopicPartitionsInfo.topic_id": "Topic id.",
    "TopicPartitionsInfo.topic_name": "Topic name.",
    "TopicPartitionsInfo.partitions": "Partition numbers.",
    "TopicInfo": "A topic whose share-group state is being deleted.",
    "TopicInfo.topic_id": "Topic id.",
    "TopicInfo.topic_name": "Topic name.",
}


def _trace_share_group_state_partition_metadata_value_kafka40_v0(t) -> None:
    t.begin(
        "ShareGroupStatePartitionMetadataValueKafka40",
        0,
        DOCS["ShareGroupStatePartitionMetadataValueKafka40"],
    )
    t.array(
        "initialized_topics",
        "TopicPartitionsInfo",
        DOCS["ShareGroupStatePartitionMetadataValueKafka40.initialized_topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartitionsInfo",
            DOCS["ShareGroupStatePartitionMetadataValueKafka40.initialized_topics"],
            _trace_topic_partitions_info_v0,
        ),
        min_size=1,
    )
    t.array(
        "deleting_topics",
        "TopicInfo",
        DOCS["ShareGroupStatePartitionMetadataValueKafka40.deleting_topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicInfo",
            DOCS["ShareGroupStatePartitionMetadataValueKafka40.deleting_topics"],
            _trace_topic_info_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_topic_partitions_info_v0(t) -> None:
    t.begin("TopicPartitionsInfo", 0, DOCS["TopicPartitionsInfo"])
    t.blob("topic_id", "uuid", DOCS["TopicPartitionsInfo.topic_id"], "size", size=16)
    t.blob("topic_name", "string", DOCS["TopicPartitionsInfo.topic_name"], "compact")
    t.array(
        "partitions",
        "int32",
        DOCS["TopicPartitionsInfo.partitions"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["TopicPartitionsInfo.partitions"]),
        min_size=4,
    )
    t.tagged({})
    t.end(None)


def _trace_topic_info_v0(t) -> None:
    t.begin("TopicInfo", 0, DOCS["TopicInfo"])
    t.blob("topic_id", "uuid", DOCS["TopicInfo.topic_id"], "size", size=16)
    t.blob("topic_name", "string", DOCS["TopicInfo.topic_name"], "compact")
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_share_group_state_partition_metadata_value_kafka40_v0,
}


def trace_share_group_state_partition_metadata_value_kafka40(t, version: int) -> None:
    """Read one ShareGroupStatePartitionMetadataValueKafka40 of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupStatePartitionMetadataValueKafka40: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
