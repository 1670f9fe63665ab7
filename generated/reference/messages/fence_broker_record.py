"""FenceBrokerRecord, the Construct reference codec: ``fence_broker_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.fence_broker_record`, which tests hold it to.

Generated from schemas/messages/fence_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.fence_broker_record import FenceBrokerRecord

fence_broker_record_v0 = MessageStruct(
    FenceBrokerRecord,
    Struct(
        "id" / Int32sb,
        "epoch" / Int64sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: fence_broker_record_v0,
}
