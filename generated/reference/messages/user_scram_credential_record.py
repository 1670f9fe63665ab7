"""UserScramCredentialRecord, the Construct reference codec: ``user_scram_credential_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.user_scram_credential_record`, which tests hold it to.

Generated from schemas/messages/user_scram_credential_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.user_scram_credential_record import UserScramCredentialRecord

user_scram_credential_record_v0 = MessageStruct(
    UserScramCredentialRecord,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "mechanism" / Int8sb,
        "salt" / KafkaSized(False, compact=True, nullable=False),
        "stored_key" / KafkaSized(False, compact=True, nullable=False),
        "server_key" / KafkaSized(False, compact=True, nullable=False),
        "iterations" / Int32sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: user_scram_credential_record_v0,
}
