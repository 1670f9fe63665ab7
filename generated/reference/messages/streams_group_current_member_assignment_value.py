"""StreamsGroupCurrentMemberAssignmentValue, the Construct reference codec: ``streams_group_current_member_assignment_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_current_member_assignment_value`, which tests hold it to.

Generated from schemas/messages/streams_group_current_member_assignment_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.streams_group_current_member_assignment_value import (
    StreamsGroupCurrentMemberAssignmentValue,
    TaskIds,
)

task_ids_v0 = MessageStruct(
    TaskIds,
    Struct(
        "subtopology_id" / KafkaSized(True, compact=True, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=True, nullable=False),
        "tagged_fields"
        / TaggedFields({0: ("assignment_epochs", KafkaArray(Int32sb, compact=True, nullable=True), [])}),
    ),
    absent={},
)

streams_group_current_member_assignment_value_v0 = MessageStruct(
    StreamsGroupCurrentMemberAssignmentValue,
    Struct(
        "member_epoch" / Int32sb,
        "previous_member_epoch" / Int32sb,
        "state" / Int8sb,
        "active_tasks" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "standby_tasks" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "warmup_tasks" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "active_tasks_pending_revocation" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "standby_tasks_pending_revocation" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "warmup_tasks_pending_revocation" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: streams_group_current_member_assignment_value_v0,
}
