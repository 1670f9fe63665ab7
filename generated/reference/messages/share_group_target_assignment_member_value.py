"""ShareGroupTargetAssignmentMemberValue, the Construct reference codec: ``share_group_target_assignment_member_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_group_target_assignment_member_value`, which tests hold it to.

Generated from schemas/messages/share_group_target_assignment_member_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.share_group_target_assignment_member_value import (
    ShareGroupTargetAssignmentMemberValue,
    TopicPartition,
)

topic_partition_v0 = MessageStruct(
    TopicPartition,
    Struct(
        "topic_id" / KafkaUuid,
        "partitions" / KafkaArray(Int32sb, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

share_group_target_assignment_member_value_v0 = MessageStruct(
    ShareGroupTargetAssignmentMemberValue,
    Struct(
        "topic_partitions" / KafkaArray(topic_partition_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: share_group_target_assignment_member_value_v0,
}
