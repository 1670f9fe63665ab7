"""GroupMetadataKey, the Construct reference codec: ``group_metadata_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.group_metadata_key`, which tests hold it to.

Generated from schemas/messages/group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.group_metadata_key import GroupMetadataKey

group_metadata_key_v2 = MessageStruct(
    GroupMetadataKey,
    Struct(
        "group" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    2: group_metadata_key_v2,
}
