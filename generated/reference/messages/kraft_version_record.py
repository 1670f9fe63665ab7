"""KRaftVersionRecord, the Construct reference codec: ``kraft_version_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.kraft_version_record`, which tests hold it to.

Generated from schemas/messages/kraft_version_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.kraft_version_record import KRaftVersionRecord

kraft_version_record_v0 = MessageStruct(
    KRaftVersionRecord,
    Struct(
        "version" / Int16sb,
        "kraft_version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: kraft_version_record_v0,
}
