"""RemoveUserScramCredentialRecord, the Construct reference codec: ``remove_user_scram_credential_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.remove_user_scram_credential_record`, which tests hold it to.

Generated from schemas/messages/remove_user_scram_credential_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.remove_user_scram_credential_record import RemoveUserScramCredentialRecord

remove_user_scram_credential_record_v0 = MessageStruct(
    RemoveUserScramCredentialRecord,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "mechanism" / Int8sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: remove_user_scram_credential_record_v0,
}
