"""StreamsGroupMemberMetadataValue, the Construct reference codec: ``streams_group_member_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_member_metadata_value`, which tests hold it to.

Generated from schemas/messages/streams_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16ub, Int32sb, Struct

from kafkaspec.codec._message_construct import (
    KafkaArray,
    KafkaSized,
    MessageStruct,
    NullableStruct,
    TaggedFields,
)
from kafkaspec.generated.messages.streams_group_member_metadata_value import (
    Endpoint,
    KeyValue,
    StreamsGroupMemberMetadataValue,
)

endpoint_v0 = MessageStruct(
    Endpoint,
    Struct(
        "host" / KafkaSized(True, compact=True, nullable=False),
        "port" / Int16ub,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

key_value_v0 = MessageStruct(
    KeyValue,
    Struct(
        "key" / KafkaSized(True, compact=True, nullable=False),
        "value" / KafkaSized(True, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

streams_group_member_metadata_value_v0 = MessageStruct(
    StreamsGroupMemberMetadataValue,
    Struct(
        "instance_id" / KafkaSized(True, compact=True, nullable=True),
        "rack_id" / KafkaSized(True, compact=True, nullable=True),
        "client_id" / KafkaSized(True, compact=True, nullable=False),
        "client_host" / KafkaSized(True, compact=True, nullable=False),
        "rebalance_timeout_ms" / Int32sb,
        "topology_epoch" / Int32sb,
        "process_id" / KafkaSized(True, compact=True, nullable=False),
        "user_endpoint" / NullableStruct(endpoint_v0),
        "client_tags" / KafkaArray(key_value_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: streams_group_member_metadata_value_v0,
}
