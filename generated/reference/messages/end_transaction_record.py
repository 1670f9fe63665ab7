"""EndTransactionRecord, the Construct reference codec: ``end_transaction_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.end_transaction_record`, which tests hold it to.

Generated from schemas/messages/end_transaction_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.end_transaction_record import EndTransactionRecord

end_transaction_record_v0 = MessageStruct(
    EndTransactionRecord,
    Struct(
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: end_transaction_record_v0,
}
