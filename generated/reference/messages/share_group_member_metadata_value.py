"""ShareGroupMemberMetadataValue, the Construct reference codec: ``share_group_member_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_group_member_metadata_value`, which tests hold it to.

Generated from schemas/messages/share_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.share_group_member_metadata_value import ShareGroupMemberMetadataValue

share_group_member_metadata_value_v0 = MessageStruct(
    ShareGroupMemberMetadataValue,
    Struct(
        "rack_id" / KafkaSized(True, compact=True, nullable=True),
        "client_id" / KafkaSized(True, compact=True, nullable=False),
        "client_host" / KafkaSized(True, compact=True, nullable=False),
        "subscribed_topic_names"
        / KafkaArray(KafkaSized(True, compact=True, nullable=False), compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: share_group_member_metadata_value_v0,
}
