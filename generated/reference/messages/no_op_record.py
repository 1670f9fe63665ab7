"""NoOpRecord, the Construct reference codec: ``no_op_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.no_op_record`, which tests hold it to.

Generated from schemas/messages/no_op_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.no_op_record import NoOpRecord

no_op_record_v0 = MessageStruct(
    NoOpRecord,
    Struct(
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: no_op_record_v0,
}
