"""StreamsGroupMemberMetadataKey, the Construct reference codec: ``streams_group_member_metadata_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_member_metadata_key`, which tests hold it to.

Generated from schemas/messages/streams_group_member_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.streams_group_member_metadata_key import StreamsGroupMemberMetadataKey

streams_group_member_metadata_key_v19 = MessageStruct(
    StreamsGroupMemberMetadataKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
        "member_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    19: streams_group_member_metadata_key_v19,
}
