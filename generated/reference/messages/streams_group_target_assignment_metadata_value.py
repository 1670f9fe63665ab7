"""StreamsGroupTargetAssignmentMetadataValue, the Construct reference codec: ``streams_group_target_assignment_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_target_assignment_metadata_value`, which tests hold it to.

Generated from schemas/messages/streams_group_target_assignment_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.streams_group_target_assignment_metadata_value import (
    StreamsGroupTargetAssignmentMetadataValue,
)

streams_group_target_assignment_metadata_value_v0 = MessageStruct(
    StreamsGroupTargetAssignmentMetadataValue,
    Struct(
        "assignment_epoch" / Int32sb,
        "tagged_fields" / TaggedFields({0: ("assignment_timestamp", Int64sb, 0)}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: streams_group_target_assignment_metadata_value_v0,
}
