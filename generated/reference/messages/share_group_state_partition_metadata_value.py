"""ShareGroupStatePartitionMetadataValue, the Construct reference codec: ``share_group_state_partition_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_group_state_partition_metadata_value`, which tests hold it to.

Generated from schemas/messages/share_group_state_partition_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.share_group_state_partition_metadata_value import (
    ShareGroupStatePartitionMetadataValue,
    TopicInfo,
    TopicPartitionsInfo,
)

topic_partitions_info_v0 = MessageStruct(
    TopicPartitionsInfo,
    Struct(
        "topic_id" / KafkaUuid,
        "topic_name" / KafkaSized(True, compact=True, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

topic_info_v0 = MessageStruct(
    TopicInfo,
    Struct(
        "topic_id" / KafkaUuid,
        "topic_name" / KafkaSized(True, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

share_group_state_partition_metadata_value_v0 = MessageStruct(
    ShareGroupStatePartitionMetadataValue,
    Struct(
        "initializing_topics" / KafkaArray(topic_partitions_info_v0, compact=True, nullable=False),
        "initialized_topics" / KafkaArray(topic_partitions_info_v0, compact=True, nullable=False),
        "deleting_topics" / KafkaArray(topic_info_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: share_group_state_partition_metadata_value_v0,
}
