"""ConsumerGroupMetadataKey, the Construct reference codec: ``consumer_group_metadata_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_metadata_key`, which tests hold it to.

Generated from schemas/messages/consumer_group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.generated.messages.consumer_group_metadata_key import ConsumerGroupMetadataKey
from kafkaspec.payloads._construct import KafkaSized, MessageStruct

consumer_group_metadata_key_v3 = MessageStruct(
    ConsumerGroupMetadataKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    3: consumer_group_metadata_key_v3,
}
