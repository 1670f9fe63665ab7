"""ConsumerGroupPartitionMetadataValue, the Construct reference codec: ``consumer_group_partition_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_partition_metadata_value`, which tests hold it to.

Generated from schemas/messages/consumer_group_partition_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.consumer_group_partition_metadata_value import (
    ConsumerGroupPartitionMetadataValue,
    PartitionMetadata,
    TopicMetadata,
)

partition_metadata_v0 = MessageStruct(
    PartitionMetadata,
    Struct(
        "partition" / Int32sb,
        "racks" / KafkaArray(KafkaSized(True, compact=True, nullable=False), compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

topic_metadata_v0 = MessageStruct(
    TopicMetadata,
    Struct(
        "topic_id" / KafkaUuid,
        "topic_name" / KafkaSized(True, compact=True, nullable=False),
        "num_partitions" / Int32sb,
        "partition_metadata" / KafkaArray(partition_metadata_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

consumer_group_partition_metadata_value_v0 = MessageStruct(
    ConsumerGroupPartitionMetadataValue,
    Struct(
        "topics" / KafkaArray(topic_metadata_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: consumer_group_partition_metadata_value_v0,
}
