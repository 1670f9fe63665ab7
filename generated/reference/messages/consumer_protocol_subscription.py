"""ConsumerProtocolSubscription, the Construct reference codec: ``consumer_protocol_subscription_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_protocol_subscription`, which tests hold it to.

Generated from schemas/messages/consumer_protocol_subscription.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct
from kafkaspec.generated.messages.consumer_protocol_subscription import (
    ConsumerProtocolSubscription,
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

consumer_protocol_subscription_v0 = MessageStruct(
    ConsumerProtocolSubscription,
    Struct(
        "topics" / KafkaArray(KafkaSized(True, compact=False, nullable=False), compact=False, nullable=False),
        "user_data" / KafkaSized(False, compact=False, nullable=True),
    ),
    absent={"owned_partitions": [], "generation_id": -1, "rack_id": None},
)

topic_partition_v1 = MessageStruct(
    TopicPartition,
    Struct(
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=False, nullable=False),
    ),
    absent={},
)

consumer_protocol_subscription_v1 = MessageStruct(
    ConsumerProtocolSubscription,
    Struct(
        "topics" / KafkaArray(KafkaSized(True, compact=False, nullable=False), compact=False, nullable=False),
        "user_data" / KafkaSized(False, compact=False, nullable=True),
        "owned_partitions" / KafkaArray(topic_partition_v1, compact=False, nullable=False),
    ),
    absent={"generation_id": -1, "rack_id": None},
)

topic_partition_v2 = MessageStruct(
    TopicPartition,
    Struct(
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=False, nullable=False),
    ),
    absent={},
)

consumer_protocol_subscription_v2 = MessageStruct(
    ConsumerProtocolSubscription,
    Struct(
        "topics" / KafkaArray(KafkaSized(True, compact=False, nullable=False), compact=False, nullable=False),
        "user_data" / KafkaSized(False, compact=False, nullable=True),
        "owned_partitions" / KafkaArray(topic_partition_v2, compact=False, nullable=False),
        "generation_id" / Int32sb,
    ),
    absent={"rack_id": None},
)

topic_partition_v3 = MessageStruct(
    TopicPartition,
    Struct(
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partitions" / KafkaArray(Int32sb, compact=False, nullable=False),
    ),
    absent={},
)

consumer_protocol_subscription_v3 = MessageStruct(
    ConsumerProtocolSubscription,
    Struct(
        "topics" / KafkaArray(KafkaSized(True, compact=False, nullable=False), compact=False, nullable=False),
        "user_data" / KafkaSized(False, compact=False, nullable=True),
        "owned_partitions" / KafkaArray(topic_partition_v3, compact=False, nullable=False),
        "generation_id" / Int32sb,
        "rack_id" / KafkaSized(True, compact=False, nullable=True),
    ),
    absent={},
)


CONSTRUCTS = {
    0: consumer_protocol_subscription_v0,
    1: consumer_protocol_subscription_v1,
    2: consumer_protocol_subscription_v2,
    3: consumer_protocol_subscription_v3,
}
