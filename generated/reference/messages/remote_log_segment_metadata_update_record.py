"""RemoteLogSegmentMetadataUpdateRecord, the Construct reference codec: ``remote_log_segment_metadata_update_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.remote_log_segment_metadata_update_record`, which tests hold it to.

Generated from schemas/messages/remote_log_segment_metadata_update_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.remote_log_segment_metadata_update_record import (
    RemoteLogSegmentIdEntry,
    RemoteLogSegmentMetadataUpdateRecord,
    TopicIdPartitionEntry,
)

topic_id_partition_entry_v0 = MessageStruct(
    TopicIdPartitionEntry,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "id" / KafkaUuid,
        "partition" / Int32sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

remote_log_segment_id_entry_v0 = MessageStruct(
    RemoteLogSegmentIdEntry,
    Struct(
        "topic_id_partition" / topic_id_partition_entry_v0,
        "id" / KafkaUuid,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

remote_log_segment_metadata_update_record_v0 = MessageStruct(
    RemoteLogSegmentMetadataUpdateRecord,
    Struct(
        "remote_log_segment_id" / remote_log_segment_id_entry_v0,
        "broker_id" / Int32sb,
        "event_timestamp_ms" / Int64sb,
        "custom_metadata" / KafkaSized(False, compact=True, nullable=True),
        "remote_log_segment_state" / Int8sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: remote_log_segment_metadata_update_record_v0,
}
