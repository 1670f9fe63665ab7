"""SnapshotHeaderRecord, the Construct reference codec: ``snapshot_header_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.snapshot_header_record`, which tests hold it to.

Generated from schemas/messages/snapshot_header_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Int64sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.snapshot_header_record import SnapshotHeaderRecord

snapshot_header_record_v0 = MessageStruct(
    SnapshotHeaderRecord,
    Struct(
        "version" / Int16sb,
        "last_contained_log_timestamp" / Int64sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: snapshot_header_record_v0,
}
