"""StreamsGroupPartitionMetadataKey, the Construct reference codec: ``streams_group_partition_metadata_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_partition_metadata_key`, which tests hold it to.

Generated from schemas/messages/streams_group_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.streams_group_partition_metadata_key import StreamsGroupPartitionMetadataKey

streams_group_partition_metadata_key_v18 = MessageStruct(
    StreamsGroupPartitionMetadataKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    18: streams_group_partition_metadata_key_v18,
}
