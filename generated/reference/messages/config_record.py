"""ConfigRecord, the Construct reference codec: ``config_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.config_record`, which tests hold it to.

Generated from schemas/messages/config_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.config_record import ConfigRecord

config_record_v0 = MessageStruct(
    ConfigRecord,
    Struct(
        "resource_type" / Int8sb,
        "resource_name" / KafkaSized(True, compact=True, nullable=False),
        "name" / KafkaSized(True, compact=True, nullable=False),
        "value" / KafkaSized(True, compact=True, nullable=True),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: config_record_v0,
}
