"""ConsumerGroupCurrentMemberAssignmentKey, the Construct reference codec: ``consumer_group_current_member_assignment_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_current_member_assignment_key`, which tests hold it to.

Generated from schemas/messages/consumer_group_current_member_assignment_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.consumer_group_current_member_assignment_key import (
    ConsumerGroupCurrentMemberAssignmentKey,
)

consumer_group_current_member_assignment_key_v8 = MessageStruct(
    ConsumerGroupCurrentMemberAssignmentKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
        "member_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    8: consumer_group_current_member_assignment_key_v8,
}
