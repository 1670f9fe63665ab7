"""RemoteLogSegmentMetadataSnapshotRecord, the Construct reference codec: ``remote_log_segment_metadata_snapshot_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.remote_log_segment_metadata_snapshot_record`, which tests hold it to.

Generated from schemas/messages/remote_log_segment_metadata_snapshot_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import (
    KafkaArray,
    KafkaBool,
    KafkaSized,
    KafkaUuid,
    MessageStruct,
    TaggedFields,
)
from kafkaspec.generated.messages.remote_log_segment_metadata_snapshot_record import (
    RemoteLogSegmentMetadataSnapshotRecord,
    SegmentLeaderEpochEntry,
)

segment_leader_epoch_entry_v0 = MessageStruct(
    SegmentLeaderEpochEntry,
    Struct(
        "leader_epoch" / Int32sb,
        "offset" / Int64sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

remote_log_segment_metadata_snapshot_record_v0 = MessageStruct(
    RemoteLogSegmentMetadataSnapshotRecord,
    Struct(
        "segment_id" / KafkaUuid,
        "start_offset" / Int64sb,
        "end_offset" / Int64sb,
        "broker_id" / Int32sb,
        "max_timestamp_ms" / Int64sb,
        "event_timestamp_ms" / Int64sb,
        "segment_leader_epochs" / KafkaArray(segment_leader_epoch_entry_v0, compact=True, nullable=False),
        "segment_size_in_bytes" / Int32sb,
        "custom_metadata" / KafkaSized(False, compact=True, nullable=True),
        "remote_log_segment_state" / Int8sb,
        "tagged_fields" / TaggedFields({0: ("txn_index_empty", KafkaBool, False)}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: remote_log_segment_metadata_snapshot_record_v0,
}
