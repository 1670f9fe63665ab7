"""DelegationTokenRecord, the Construct reference codec: ``delegation_token_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.delegation_token_record`, which tests hold it to.

Generated from schemas/messages/delegation_token_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.delegation_token_record import DelegationTokenRecord

delegation_token_record_v0 = MessageStruct(
    DelegationTokenRecord,
    Struct(
        "owner" / KafkaSized(True, compact=True, nullable=False),
        "requester" / KafkaSized(True, compact=True, nullable=False),
        "renewers" / KafkaArray(KafkaSized(True, compact=True, nullable=False), compact=True, nullable=False),
        "issue_timestamp" / Int64sb,
        "max_timestamp" / Int64sb,
        "expiration_timestamp" / Int64sb,
        "token_id" / KafkaSized(True, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: delegation_token_record_v0,
}
