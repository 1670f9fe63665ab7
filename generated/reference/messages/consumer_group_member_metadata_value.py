"""ConsumerGroupMemberMetadataValue, the Construct reference codec: ``consumer_group_member_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_member_metadata_value`, which tests hold it to.

Generated from schemas/messages/consumer_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import (
    KafkaArray,
    KafkaSized,
    MessageStruct,
    NullableStruct,
    TaggedFields,
)
from kafkaspec.generated.messages.consumer_group_member_metadata_value import (
    ClassicMemberMetadata,
    ClassicProtocol,
    ConsumerGroupMemberMetadataValue,
)

classic_protocol_v0 = MessageStruct(
    ClassicProtocol,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "metadata" / KafkaSized(False, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

classic_member_metadata_v0 = MessageStruct(
    ClassicMemberMetadata,
    Struct(
        "session_timeout_ms" / Int32sb,
        "supported_protocols" / KafkaArray(classic_protocol_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

consumer_group_member_metadata_value_v0 = MessageStruct(
    ConsumerGroupMemberMetadataValue,
    Struct(
        "instance_id" / KafkaSized(True, compact=True, nullable=True),
        "rack_id" / KafkaSized(True, compact=True, nullable=True),
        "client_id" / KafkaSized(True, compact=True, nullable=False),
        "client_host" / KafkaSized(True, compact=True, nullable=False),
        "subscribed_topic_names"
        / KafkaArray(KafkaSized(True, compact=True, nullable=False), compact=True, nullable=False),
        "subscribed_topic_regex" / KafkaSized(True, compact=True, nullable=True),
        "rebalance_timeout_ms" / Int32sb,
        "server_assignor" / KafkaSized(True, compact=True, nullable=True),
        "tagged_fields"
        / TaggedFields(
            {
                0: (
                    "classic_member_metadata",
                    NullableStruct(classic_member_metadata_v0, tagged=True),
                    ClassicMemberMetadata(),
                )
            }
        ),
    ),
    absent={},
)


CONSTRUCTS = {
    0: consumer_group_member_metadata_value_v0,
}
