"""ConsumerProtocolAssignment, the Construct reference codec: ``consumer_protocol_assignment_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_protocol_assignment`, which tests hold it to.

Generated from schemas/messages/consumer_protocol_assignment.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct
from kafkaspec.generated.messages.consumer_protocol_assignment import (
    ConsumerProtocolAssignment,
    TopicPartition,
)

topic_partition_v0 = MessageStruct(
    TopicPartition,
    Struct(
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=False, nullable=False),
    ),
    absent={},
)

consumer_protocol_assignment_v0 = MessageStruct(
    ConsumerProtocolAssignment,
    Struct(
        "assigned_partitions" / KafkaArray(topic_partition_v0, compact=False, nullable=False),
        "user_data" / KafkaSized(False, compact=False, nullable=True),
    ),
    absent={},
)

topic_partition_v1 = MessageStruct(
    TopicPartition,
    Struct(
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=False, nullable=False),
    ),
    absent={},
)

consumer_protocol_assignment_v1 = MessageStruct(
    ConsumerProtocolAssignment,
    Struct(
        "assigned_partitions" / KafkaArray(topic_partition_v1, compact=False, nullable=False),
        "user_data" / KafkaSized(False, compact=False, nullable=True),
    ),
    absent={},
)

topic_partition_v2 = MessageStruct(
    TopicPartition,
    Struct(
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=False, nullable=False),
    ),
    absent={},
)

consumer_protocol_assignment_v2 = MessageStruct(
    ConsumerProtocolAssignment,
    Struct(
        "assigned_partitions" / KafkaArray(topic_partition_v2, compact=False, nullable=False),
        "user_data" / KafkaSized(False, compact=False, nullable=True),
    ),
    absent={},
)

topic_partition_v3 = MessageStruct(
    TopicPartition,
    Struct(
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=False, nullable=False),
    ),
    absent={},
)

consumer_protocol_assignment_v3 = MessageStruct(
    ConsumerProtocolAssignment,
    Struct(
        "assigned_partitions" / KafkaArray(topic_partition_v3, compact=False, nullable=False),
        "user_data" / KafkaSized(False, compact=False, nullable=True),
    ),
    absent={},
)


CONSTRUCTS = {
    0: consumer_protocol_assignment_v0,
    1: consumer_protocol_assignment_v1,
    2: consumer_protocol_assignment_v2,
    3: consumer_protocol_assignment_v3,
}
