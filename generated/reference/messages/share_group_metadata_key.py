"""ShareGroupMetadataKey, the Construct reference codec: ``share_group_metadata_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_group_metadata_key`, which tests hold it to.

Generated from schemas/messages/share_group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.share_group_metadata_key import ShareGroupMetadataKey

share_group_metadata_key_v11 = MessageStruct(
    ShareGroupMetadataKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    11: share_group_metadata_key_v11,
}
