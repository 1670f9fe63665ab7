"""ProducerIdsRecord, the Construct reference codec: ``producer_ids_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.producer_ids_record`, which tests hold it to.

Generated from schemas/messages/producer_ids_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.producer_ids_record import ProducerIdsRecord

producer_ids_record_v0 = MessageStruct(
    ProducerIdsRecord,
    Struct(
        "broker_id" / Int32sb,
        "broker_epoch" / Int64sb,
        "next_producer_id" / Int64sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: producer_ids_record_v0,
}
