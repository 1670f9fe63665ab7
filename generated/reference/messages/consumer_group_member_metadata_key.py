"""ConsumerGroupMemberMetadataKey, the Construct reference codec: ``consumer_group_member_metadata_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_member_metadata_key`, which tests hold it to.

Generated from schemas/messages/consumer_group_member_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.consumer_group_member_metadata_key import ConsumerGroupMemberMetadataKey

consumer_group_member_metadata_key_v5 = MessageStruct(
    ConsumerGroupMemberMetadataKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
        "member_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    5: consumer_group_member_metadata_key_v5,
}
