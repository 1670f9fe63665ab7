"""ShareGroupStatePartitionMetadataValue, the tracing decoder: :func:`trace_share_group_state_partition_metadata_value` reads one ShareGroupStatePartitionMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_state_partition_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupStatePartitionMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupStatePartitionMetadataValue": "Which topics' share-group state is initialized, and which is being deleted.",
    "ShareGroupStatePartitionMetadataValue.initializing_topics": "Topics whose share-group state is being initialized, with their partitions (Kafka 4.1+).",
    "ShareGroupStatePartitionMetadataValue.initialized_topics": "Topics whose share-group state is initialized, with their partitions.",
    "ShareGroupStatePartitionMetadataValue.deleting_topics": "Topics whose share-group state is being deleted.",
    "TopicPartitionsInfo": "A topic whose share-group state is initialized, with its partitions.",
    "TopicPartitionsInfo.topic_id": "Topic id.",
    "TopicPartitionsInfo.topic_name": "Topic name.",
    "TopicPartitionsInfo.partitions": "Partition numbers.",
    "TopicInfo": "A topic whose share-group state is being deleted.",
    "TopicInfo.topic_id": "Topic id.",
    "TopicInfo.topic_name": "Topic name.",
}


def _trace_share_group_state_partition_metadata_value_v0(t) -> None:
    t.begin("ShareGroupStatePartitionMetadataValue", 0, DOCS["ShareGroupStatePartitionMetadataValue"])
    t.array(
        "initializing_topics",
        "TopicPartitionsInfo",
        DOCS["ShareGroupStatePartitionMetadataValue.initializing_topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartitionsInfo",
            DOCS["ShareGroupStatePartitionMetadataValue.initializing_topics"],
            _trace_topic_partitions_info_v0,
        ),
        min_size=1,
    )
    t.array(
        "initialized_topics",
        "TopicPartitionsInfo",
        DOCS["ShareGroupStatePartitionMetadataValue.initialized_topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartitionsInfo",
            DOCS["ShareGroupStatePartitionMetadataValue.initialized_topics"],
            _trace_topic_partitions_info_v0,
        ),
        min_size=1,
    )
    t.array(
        "deleting_topics",
        "TopicInfo",
        DOCS["ShareGroupStatePartitionMetadataValue.deleting_topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicInfo",
            DOCS["ShareGroupStatePartitionMetadataValue.deleting_topics"],
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
    0: _trace_share_group_state_partition_metadata_value_v0,
}


def trace_share_group_state_partition_metadata_value(t, version: int) -> None:
    """Read one ShareGroupStatePartitionMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupStatePartitionMetadataValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
