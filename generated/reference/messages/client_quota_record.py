"""ClientQuotaRecord, the Construct reference codec: ``client_quota_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.client_quota_record`, which tests hold it to.

Generated from schemas/messages/client_quota_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Float64b, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaBool, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.client_quota_record import ClientQuotaRecord, EntityData

entity_data_v0 = MessageStruct(
    EntityData,
    Struct(
        "entity_type" / KafkaSized(True, compact=True, nullable=False),
        "entity_name" / KafkaSized(True, compact=True, nullable=True),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

client_quota_record_v0 = MessageStruct(
    ClientQuotaRecord,
    Struct(
        "entity" / KafkaArray(entity_data_v0, compact=True, nullable=False),
        "key" / KafkaSized(True, compact=True, nullable=False),
        "value" / Float64b,
        "remove" / KafkaBool,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: client_quota_record_v0,
}
