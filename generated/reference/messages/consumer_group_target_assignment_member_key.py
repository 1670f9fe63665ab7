"""ConsumerGroupTargetAssignmentMemberKey, the Construct reference codec: ``consumer_group_target_assignment_member_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_target_assignment_member_key`, which tests hold it to.

Generated from schemas/messages/consumer_group_target_assignment_member_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.consumer_group_target_assignment_member_key import (
    ConsumerGroupTargetAssignmentMemberKey,
)

consumer_group_target_assignment_member_key_v7 = MessageStruct(
    ConsumerGroupTargetAssignmentMemberKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
        "member_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    7: consumer_group_target_assignment_member_key_v7,
}
