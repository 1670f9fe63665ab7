"""ShareUpdateKey, the Construct reference codec: ``share_update_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_update_key`, which tests hold it to.

Generated from schemas/messages/share_update_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, KafkaUuid, MessageStruct
from kafkaspec.generated.messages.share_update_key import ShareUpdateKey

share_update_key_v1 = MessageStruct(
    ShareUpdateKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
        "topic_id" / KafkaUuid,
        "partition" / Int32sb,
    ),
    absent={},
)


CONSTRUCTS = {
    1: share_update_key_v1,
}
