"""GroupMetadataValue, the Construct reference codec: ``group_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.group_metadata_value`, which tests hold it to.

Generated from schemas/messages/group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.group_metadata_value import GroupMetadataValue, MemberMetadata

member_metadata_v0 = MessageStruct(
    MemberMetadata,
    Struct(
        "member_id" / KafkaSized(True, compact=False, nullable=False),
        "client_id" / KafkaSized(True, compact=False, nullable=False),
        "client_host" / KafkaSized(True, compact=False, nullable=False),
        "session_timeout" / Int32sb,
        "subscription" / KafkaSized(False, compact=False, nullable=False),
        "assignment" / KafkaSized(False, compact=False, nullable=False),
    ),
    absent={"group_instance_id": None, "rebalance_timeout": -1},
)

group_metadata_value_v0 = MessageStruct(
    GroupMetadataValue,
    Struct(
        "protocol_type" / KafkaSized(True, compact=False, nullable=False),
        "generation" / Int32sb,
        "protocol" / KafkaSized(True, compact=False, nullable=True),
        "leader" / KafkaSized(True, compact=False, nullable=True),
        "members" / KafkaArray(member_metadata_v0, compact=False, nullable=False),
    ),
    absent={"current_state_timestamp": -1},
)

member_metadata_v1 = MessageStruct(
    MemberMetadata,
    Struct(
        "member_id" / KafkaSized(True, compact=False, nullable=False),
        "client_id" / KafkaSized(True, compact=False, nullable=False),
        "client_host" / KafkaSized(True, compact=False, nullable=False),
        "rebalance_timeout" / Int32sb,
        "session_timeout" / Int32sb,
        "subscription" / KafkaSized(False, compact=False, nullable=False),
        "assignment" / KafkaSized(False, compact=False, nullable=False),
    ),
    absent={"group_instance_id": None},
)

group_metadata_value_v1 = MessageStruct(
    GroupMetadataValue,
    Struct(
        "protocol_type" / KafkaSized(True, compact=False, nullable=False),
        "generation" / Int32sb,
        "protocol" / KafkaSized(True, compact=False, nullable=True),
        "leader" / KafkaSized(True, compact=False, nullable=True),
        "members" / KafkaArray(member_metadata_v1, compact=False, nullable=False),
    ),
    absent={"current_state_timestamp": -1},
)

member_metadata_v2 = MessageStruct(
    MemberMetadata,
    Struct(
        "member_id" / KafkaSized(True, compact=False, nullable=False),
        "client_id" / KafkaSized(True, compact=False, nullable=False),
        "client_host" / KafkaSized(True, compact=False, nullable=False),
        "rebalance_timeout" / Int32sb,
        "session_timeout" / Int32sb,
        "subscription" / KafkaSized(False, compact=False, nullable=False),
        "assignment" / KafkaSized(False, compact=False, nullable=False),
    ),
    absent={"group_instance_id": None},
)

group_metadata_value_v2 = MessageStruct(
    GroupMetadataValue,
    Struct(
        "protocol_type" / KafkaSized(True, compact=False, nullable=False),
        "generation" / Int32sb,
        "protocol" / KafkaSized(True, compact=False, nullable=True),
        "leader" / KafkaSized(True, compact=False, nullable=True),
        "current_state_timestamp" / Int64sb,
        "members" / KafkaArray(member_metadata_v2, compact=False, nullable=False),
    ),
    absent={},
)

member_metadata_v3 = MessageStruct(
    MemberMetadata,
    Struct(
        "member_id" / KafkaSized(True, compact=False, nullable=False),
        "group_instance_id" / KafkaSized(True, compact=False, nullable=True),
        "client_id" / KafkaSized(True, compact=False, nullable=False),
        "client_host" / KafkaSized(True, compact=False, nullable=False),
        "rebalance_timeout" / Int32sb,
        "session_timeout" / Int32sb,
        "subscription" / KafkaSized(False, compact=False, nullable=False),
        "assignment" / KafkaSized(False, compact=False, nullable=False),
    ),
    absent={},
)

group_metadata_value_v3 = MessageStruct(
    GroupMetadataValue,
    Struct(
        "protocol_type" / KafkaSized(True, compact=False, nullable=False),
        "generation" / Int32sb,
        "protocol" / KafkaSized(True, compact=False, nullable=True),
        "leader" / KafkaSized(True, compact=False, nullable=True),
        "current_state_timestamp" / Int64sb,
        "members" / KafkaArray(member_metadata_v3, compact=False, nullable=False),
    ),
    absent={},
)

member_metadata_v4 = MessageStruct(
    MemberMetadata,
    Struct(
        "member_id" / KafkaSized(True, compact=True, nullable=False),
        "group_instance_id" / KafkaSized(True, compact=True, nullable=True),
        "client_id" / KafkaSized(True, compact=True, nullable=False),
        "client_host" / KafkaSized(True, compact=True, nullable=False),
        "rebalance_timeout" / Int32sb,
        "session_timeout" / Int32sb,
        "subscription" / KafkaSized(False, compact=True, nullable=False),
        "assignment" / KafkaSized(False, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

group_metadata_value_v4 = MessageStruct(
    GroupMetadataValue,
    Struct(
        "protocol_type" / KafkaSized(True, compact=True, nullable=False),
        "generation" / Int32sb,
        "protocol" / KafkaSized(True, compact=True, nullable=True),
        "leader" / KafkaSized(True, compact=True, nullable=True),
        "current_state_timestamp" / Int64sb,
        "members" / KafkaArray(member_metadata_v4, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: group_metadata_value_v0,
    1: group_metadata_value_v1,
    2: group_metadata_value_v2,
    3: group_metadata_value_v3,
    4: group_metadata_value_v4,
}
