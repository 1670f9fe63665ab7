"""LeaderChangeMessage, the Construct reference codec: ``leader_change_message_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.leader_change_message`, which tests hold it to.

Generated from schemas/messages/leader_change_message.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.codec.message_types import ZERO_UUID
from kafkaspec.generated.messages.leader_change_message import LeaderChangeMessage, Voter

voter_v0 = MessageStruct(
    Voter,
    Struct(
        "voter_id" / Int32sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={"voter_directory_id": ZERO_UUID},
)

leader_change_message_v0 = MessageStruct(
    LeaderChangeMessage,
    Struct(
        "version" / Int16sb,
        "leader_id" / Int32sb,
        "voters" / KafkaArray(voter_v0, compact=True, nullable=False),
        "granting_voters" / KafkaArray(voter_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

voter_v1 = MessageStruct(
    Voter,
    Struct(
        "voter_id" / Int32sb,
        "voter_directory_id" / KafkaUuid,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

leader_change_message_v1 = MessageStruct(
    LeaderChangeMessage,
    Struct(
        "version" / Int16sb,
        "leader_id" / Int32sb,
        "voters" / KafkaArray(voter_v1, compact=True, nullable=False),
        "granting_voters" / KafkaArray(voter_v1, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: leader_change_message_v0,
    1: leader_change_message_v1,
}
