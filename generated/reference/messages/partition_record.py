"""PartitionRecord, the Construct reference codec: ``partition_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.partition_record`, which tests hold it to.

Generated from schemas/messages/partition_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.partition_record import PartitionRecord

partition_record_v0 = MessageStruct(
    PartitionRecord,
    Struct(
        "partition_id" / Int32sb,
        "topic_id" / KafkaUuid,
        "replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "isr" / KafkaArray(Int32sb, compact=True, nullable=False),
        "removing_replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "adding_replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "leader" / Int32sb,
        "leader_epoch" / Int32sb,
        "partition_epoch" / Int32sb,
        "tagged_fields" / TaggedFields({0: ("leader_recovery_state", Int8sb, 0)}),
    ),
    absent={"directories": [], "eligible_leader_replicas": None, "last_known_elr": None},
)

partition_record_v1 = MessageStruct(
    PartitionRecord,
    Struct(
        "partition_id" / Int32sb,
        "topic_id" / KafkaUuid,
        "replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "isr" / KafkaArray(Int32sb, compact=True, nullable=False),
        "removing_replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "adding_replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "leader" / Int32sb,
        "leader_epoch" / Int32sb,
        "partition_epoch" / Int32sb,
        "directories" / KafkaArray(KafkaUuid, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({0: ("leader_recovery_state", Int8sb, 0)}),
    ),
    absent={"eligible_leader_replicas": None, "last_known_elr": None},
)

partition_record_v2 = MessageStruct(
    PartitionRecord,
    Struct(
        "partition_id" / Int32sb,
        "topic_id" / KafkaUuid,
        "replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "isr" / KafkaArray(Int32sb, compact=True, nullable=False),
        "removing_replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "adding_replicas" / KafkaArray(Int32sb, compact=True, nullable=False),
        "leader" / Int32sb,
        "leader_epoch" / Int32sb,
        "partition_epoch" / Int32sb,
        "directories" / KafkaArray(KafkaUuid, compact=True, nullable=False),
        "tagged_fields"
        / TaggedFields(
            {
                0: ("leader_recovery_state", Int8sb, 0),
                1: ("eligible_leader_replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                2: ("last_known_elr", KafkaArray(Int32sb, compact=True, nullable=True), None),
            }
        ),
    ),
    absent={},
)


CONSTRUCTS = {
    0: partition_record_v0,
    1: partition_record_v1,
    2: partition_record_v2,
}
