"""ShareGroupMetadataValueKafka40, the Construct reference codec: ``share_group_metadata_value_kafka40_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_group_metadata_value_kafka40`, which tests hold it to.

Generated from schemas/messages/share_group_metadata_value_kafka40.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.share_group_metadata_value_kafka40 import ShareGroupMetadataValueKafka40

share_group_metadata_value_kafka40_v0 = MessageStruct(
    ShareGroupMetadataValueKafka40,
    Struct(
        "epoch" / Int32sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: share_group_metadata_value_kafka40_v0,
}
