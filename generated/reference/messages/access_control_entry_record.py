"""AccessControlEntryRecord, the Construct reference codec: ``access_control_entry_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.access_control_entry_record`, which tests hold it to.

Generated from schemas/messages/access_control_entry_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.access_control_entry_record import AccessControlEntryRecord

access_control_entry_record_v0 = MessageStruct(
    AccessControlEntryRecord,
    Struct(
        "id" / KafkaUuid,
        "resource_type" / Int8sb,
        "resource_name" / KafkaSized(True, compact=True, nullable=False),
        "pattern_type" / Int8sb,
        "principal" / KafkaSized(True, compact=True, nullable=False),
        "host" / KafkaSized(True, compact=True, nullable=False),
        "operation" / Int8sb,
        "permission_type" / Int8sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: access_control_entry_record_v0,
}
