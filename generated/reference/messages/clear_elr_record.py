"""ClearElrRecord, the Construct reference codec: ``clear_elr_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.clear_elr_record`, which tests hold it to.

Generated from schemas/messages/clear_elr_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.clear_elr_record import ClearElrRecord

clear_elr_record_v0 = MessageStruct(
    ClearElrRecord,
    Struct(
        "topic_name" / KafkaSized(True, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: clear_elr_record_v0,
}
