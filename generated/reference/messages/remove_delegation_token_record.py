"""RemoveDelegationTokenRecord, the Construct reference codec: ``remove_delegation_token_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.remove_delegation_token_record`, which tests hold it to.

Generated from schemas/messages/remove_delegation_token_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.remove_delegation_token_record import RemoveDelegationTokenRecord

remove_delegation_token_record_v0 = MessageStruct(
    RemoveDelegationTokenRecord,
    Struct(
        "token_id" / KafkaSized(True, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: remove_delegation_token_record_v0,
}
