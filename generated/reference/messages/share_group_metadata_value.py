"""ShareGroupMetadataValue, the Construct reference codec: ``share_group_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_group_metadata_value`, which tests hold it to.

Generated from schemas/messages/share_group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.share_group_metadata_value import ShareGroupMetadataValue

share_group_metadata_value_v0 = MessageStruct(
    ShareGroupMetadataValue,
    Struct(
        "epoch" / Int32sb,
        "metadata_hash" / Int64sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: share_group_metadata_value_v0,
}
