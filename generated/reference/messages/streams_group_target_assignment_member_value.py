"""StreamsGroupTargetAssignmentMemberValue, the Construct reference codec: ``streams_group_target_assignment_member_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_target_assignment_member_value`, which tests hold it to.

Generated from schemas/messages/streams_group_target_assignment_member_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.streams_group_target_assignment_member_value import (
    StreamsGroupTargetAssignmentMemberValue,
    TaskIds,
)

task_ids_v0 = MessageStruct(
    TaskIds,
    Struct(
        "subtopology_id" / KafkaSized(True, compact=True, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

streams_group_target_assignment_member_value_v0 = MessageStruct(
    StreamsGroupTargetAssignmentMemberValue,
    Struct(
        "active_tasks" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "standby_tasks" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "warmup_tasks" / KafkaArray(task_ids_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: streams_group_target_assignment_member_value_v0,
}
