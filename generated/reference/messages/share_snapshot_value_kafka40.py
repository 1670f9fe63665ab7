"""ShareSnapshotValueKafka40, the Construct reference codec: ``share_snapshot_value_kafka40_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_snapshot_value_kafka40`, which tests hold it to.

Generated from schemas/messages/share_snapshot_value_kafka40.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int16sb, Int16ub, Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, MessageStruct, TaggedFields
from kafkaspec.generated.messages.share_snapshot_value_kafka40 import ShareSnapshotValueKafka40, StateBatch

state_batch_v0 = MessageStruct(
    StateBatch,
    Struct(
        "first_offset" / Int64sb,
        "last_offset" / Int64sb,
        "delivery_state" / Int8sb,
        "delivery_count" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

share_snapshot_value_kafka40_v0 = MessageStruct(
    ShareSnapshotValueKafka40,
    Struct(
        "snapshot_epoch" / Int16ub,
        "state_epoch" / Int32sb,
        "leader_epoch" / Int32sb,
        "start_offset" / Int64sb,
        "state_batches" / KafkaArray(state_batch_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: share_snapshot_value_kafka40_v0,
}
