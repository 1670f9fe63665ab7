"""PartitionChangeRecord, the Construct reference codec: ``partition_change_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.partition_change_record`, which tests hold it to.

Generated from schemas/messages/partition_change_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.partition_change_record import PartitionChangeRecord

partition_change_record_v0 = MessageStruct(
    PartitionChangeRecord,
    Struct(
        "partition_id" / Int32sb,
        "topic_id" / KafkaUuid,
        "tagged_fields"
        / TaggedFields(
            {
                0: ("isr", KafkaArray(Int32sb, compact=True, nullable=True), None),
                1: ("leader", Int32sb, -2),
                2: ("replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                3: ("removing_replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                4: ("adding_replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                5: ("leader_recovery_state", Int8sb, -1),
            }
        ),
    ),
    absent={"directories": None, "eligible_leader_replicas": None, "last_known_elr": None},
)

partition_change_record_v1 = MessageStruct(
    PartitionChangeRecord,
    Struct(
        "partition_id" / Int32sb,
        "topic_id" / KafkaUuid,
        "tagged_fields"
        / TaggedFields(
            {
                0: ("isr", KafkaArray(Int32sb, compact=True, nullable=True), None),
                1: ("leader", Int32sb, -2),
                2: ("replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                3: ("removing_replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                4: ("adding_replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                5: ("leader_recovery_state", Int8sb, -1),
                8: ("directories", KafkaArray(KafkaUuid, compact=True, nullable=True), None),
            }
        ),
    ),
    absent={"eligible_leader_replicas": None, "last_known_elr": None},
)

partition_change_record_v2 = MessageStruct(
    PartitionChangeRecord,
    Struct(
        "partition_id" / Int32sb,
        "topic_id" / KafkaUuid,
        "tagged_fields"
        / TaggedFields(
            {
                0: ("isr", KafkaArray(Int32sb, compact=True, nullable=True), None),
                1: ("leader", Int32sb, -2),
                2: ("replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                3: ("removing_replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                4: ("adding_replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                5: ("leader_recovery_state", Int8sb, -1),
                6: ("eligible_leader_replicas", KafkaArray(Int32sb, compact=True, nullable=True), None),
                7: ("last_known_elr", KafkaArray(Int32sb, compact=True, nullable=True), None),
                8: ("directories", KafkaArray(KafkaUuid, compact=True, nullable=True), None),
            }
        ),
    ),
    absent={},
)


CONSTRUCTS = {
    0: partition_change_record_v0,
    1: partition_change_record_v1,
    2: partition_change_record_v2,
}
