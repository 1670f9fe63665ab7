"""UnregisterControllerRecord, the Construct reference codec: ``unregister_controller_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.unregister_controller_record`, which tests hold it to.

Generated from schemas/messages/unregister_controller_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.unregister_controller_record import UnregisterControllerRecord

unregister_controller_record_v0 = MessageStruct(
    UnregisterControllerRecord,
    Struct(
        "controller_id" / Int32sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: unregister_controller_record_v0,
}
