"""ShareGroupPartitionMetadataKey, the Construct reference codec: ``share_group_partition_metadata_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_group_partition_metadata_key`, which tests hold it to.

Generated from schemas/messages/share_group_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.share_group_partition_metadata_key import ShareGroupPartitionMetadataKey

share_group_partition_metadata_key_v9 = MessageStruct(
    ShareGroupPartitionMetadataKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    9: share_group_partition_metadata_key_v9,
}
