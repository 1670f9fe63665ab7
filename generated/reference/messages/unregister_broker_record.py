"""UnregisterBrokerRecord, the Construct reference codec: ``unregister_broker_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.unregister_broker_record`, which tests hold it to.

Generated from schemas/messages/unregister_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.unregister_broker_record import UnregisterBrokerRecord

unregister_broker_record_v0 = MessageStruct(
    UnregisterBrokerRecord,
    Struct(
        "broker_id" / Int32sb,
        "broker_epoch" / Int64sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: unregister_broker_record_v0,
}
