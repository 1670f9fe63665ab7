"""ConsumerGroupPartitionMetadataKey, the Construct reference codec: ``consumer_group_partition_metadata_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_partition_metadata_key`, which tests hold it to.

Generated from schemas/messages/consumer_group_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.consumer_group_partition_metadata_key import (
    ConsumerGroupPartitionMetadataKey,
)

consumer_group_partition_metadata_key_v4 = MessageStruct(
    ConsumerGroupPartitionMetadataKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    4: consumer_group_partition_metadata_key_v4,
}
