"""ConsumerGroupTargetAssignmentMetadataValue, the Construct reference codec: ``consumer_group_target_assignment_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_target_assignment_metadata_value`, which tests hold it to.

Generated from schemas/messages/consumer_group_target_assignment_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.consumer_group_target_assignment_metadata_value import (
    ConsumerGroupTargetAssignmentMetadataValue,
)

consumer_group_target_assignment_metadata_value_v0 = MessageStruct(
    ConsumerGroupTargetAssignmentMetadataValue,
    Struct(
        "assignment_epoch" / Int32sb,
        "tagged_fields" / TaggedFields({0: ("assignment_timestamp", Int64sb, 0)}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: consumer_group_target_assignment_metadata_value_v0,
}
