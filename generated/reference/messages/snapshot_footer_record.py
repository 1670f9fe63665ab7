"""SnapshotFooterRecord, the Construct reference codec: ``snapshot_footer_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.snapshot_footer_record`, which tests hold it to.

Generated from schemas/messages/snapshot_footer_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.snapshot_footer_record import SnapshotFooterRecord

snapshot_footer_record_v0 = MessageStruct(
    SnapshotFooterRecord,
    Struct(
        "version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: snapshot_footer_record_v0,
}
