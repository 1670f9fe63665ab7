"""StreamsGroupTopologyValue, the Construct reference codec: ``streams_group_topology_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_topology_value`, which tests hold it to.

Generated from schemas/messages/streams_group_topology_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.streams_group_topology_value import (
    CopartitionGroup,
    StreamsGroupTopologyValue,
    Subtopology,
    TopicConfig,
    TopicInfo,
)

topic_config_v0 = MessageStruct(
    TopicConfig,
    Struct(
        "key" / KafkaSized(True, compact=True, nullable=False),
        "value" / KafkaSized(True, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

topic_info_v0 = MessageStruct(
    TopicInfo,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "partitions" / Int32sb,
        "replication_factor" / Int16sb,
        "topic_configs" / KafkaArray(topic_config_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

copartition_group_v0 = MessageStruct(
    CopartitionGroup,
    Struct(
        "source_topics" / KafkaArray(Int16sb, compact=True, nullable=False),
        "source_topic_regex" / KafkaArray(Int16sb, compact=True, nullable=False),
        "repartition_source_topics" / KafkaArray(Int16sb, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

subtopology_v0 = MessageStruct(
    Subtopology,
    Struct(
        "subtopology_id" / KafkaSized(True, compact=True, nullable=False),
        "source_topics"
        / KafkaArray(KafkaSized(True, compact=True, nullable=False), compact=True, nullable=False),
        "source_topic_regex"
        / KafkaArray(KafkaSized(True, compact=True, nullable=False), compact=True, nullable=False),
        "state_changelog_topics" / KafkaArray(topic_info_v0, compact=True, nullable=False),
        "repartition_sink_topics"
        / KafkaArray(KafkaSized(True, compact=True, nullable=False), compact=True, nullable=False),
        "repartition_source_topics" / KafkaArray(topic_info_v0, compact=True, nullable=False),
        "copartition_groups" / KafkaArray(copartition_group_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

streams_group_topology_value_v0 = MessageStruct(
    StreamsGroupTopologyValue,
    Struct(
        "epoch" / Int32sb,
        "subtopologies" / KafkaArray(subtopology_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: streams_group_topology_value_v0,
}
