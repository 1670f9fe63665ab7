"""ConsumerGroupCurrentMemberAssignmentValue, the Construct reference codec: ``consumer_group_current_member_assignment_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_current_member_assignment_value`, which tests hold it to.

Generated from schemas/messages/consumer_group_current_member_assignment_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.consumer_group_current_member_assignment_value import (
    ConsumerGroupCurrentMemberAssignmentValue,
    TopicPartitions,
)

topic_partitions_v0 = MessageStruct(
    TopicPartitions,
    Struct(
        "topic_id" / KafkaUuid,
        "partitions" / KafkaArray(Int32sb, compact=True, nullable=False),
        "tagged_fields"
        / TaggedFields({0: ("assignment_epochs", KafkaArray(Int32sb, compact=True, nullable=True), [])}),
    ),
    absent={},
)

consumer_group_current_member_assignment_value_v0 = MessageStruct(
    ConsumerGroupCurrentMemberAssignmentValue,
    Struct(
        "member_epoch" / Int32sb,
        "previous_member_epoch" / Int32sb,
        "state" / Int8sb,
        "assigned_partitions" / KafkaArray(topic_partitions_v0, compact=True, nullable=False),
        "partitions_pending_revocation" / KafkaArray(topic_partitions_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: consumer_group_current_member_assignment_value_v0,
}
