"""StreamsGroupCurrentMemberAssignmentKey, the Construct reference codec: ``streams_group_current_member_assignment_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_current_member_assignment_key`, which tests hold it to.

Generated from schemas/messages/streams_group_current_member_assignment_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.streams_group_current_member_assignment_key import (
    StreamsGroupCurrentMemberAssignmentKey,
)

streams_group_current_member_assignment_key_v22 = MessageStruct(
    StreamsGroupCurrentMemberAssignmentKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
        "member_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    22: streams_group_current_member_assignment_key_v22,
}
