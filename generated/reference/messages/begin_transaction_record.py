"""BeginTransactionRecord, the Construct reference codec: ``begin_transaction_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.begin_transaction_record`, which tests hold it to.

Generated from schemas/messages/begin_transaction_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.begin_transaction_record import BeginTransactionRecord

begin_transaction_record_v0 = MessageStruct(
    BeginTransactionRecord,
    Struct(
        "tagged_fields" / TaggedFields({0: ("name", KafkaSized(True, compact=True, nullable=True), None)}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: begin_transaction_record_v0,
}
