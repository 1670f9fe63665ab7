"""TransactionLogValue, the Construct reference codec: ``transaction_log_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.transaction_log_value`, which tests hold it to.

Generated from schemas/messages/transaction_log_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int16sb, Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.transaction_log_value import PartitionsSchema, TransactionLogValue

partitions_schema_v0 = MessageStruct(
    PartitionsSchema,
    Struct(
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partition_ids" / KafkaArray(Int32sb, compact=False, nullable=False),
    ),
    absent={},
)

transaction_log_value_v0 = MessageStruct(
    TransactionLogValue,
    Struct(
        "producer_id" / Int64sb,
        "producer_epoch" / Int16sb,
        "transaction_timeout_ms" / Int32sb,
        "transaction_status" / Int8sb,
        "transaction_partitions" / KafkaArray(partitions_schema_v0, compact=False, nullable=True),
        "transaction_last_update_timestamp_ms" / Int64sb,
        "transaction_start_timestamp_ms" / Int64sb,
    ),
    absent={
        "previous_producer_id": -1,
        "next_producer_id": -1,
        "next_producer_epoch": -1,
        "client_transaction_version": 0,
    },
)

partitions_schema_v1 = MessageStruct(
    PartitionsSchema,
    Struct(
        "topic" / KafkaSized(True, compact=True, nullable=False),
        "partition_ids" / KafkaArray(Int32sb, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

transaction_log_value_v1 = MessageStruct(
    TransactionLogValue,
    Struct(
        "producer_id" / Int64sb,
        "producer_epoch" / Int16sb,
        "transaction_timeout_ms" / Int32sb,
        "transaction_status" / Int8sb,
        "transaction_partitions" / KafkaArray(partitions_schema_v1, compact=True, nullable=True),
        "transaction_last_update_timestamp_ms" / Int64sb,
        "transaction_start_timestamp_ms" / Int64sb,
        "tagged_fields"
        / TaggedFields(
            {
                0: ("previous_producer_id", Int64sb, -1),
                1: ("next_producer_id", Int64sb, -1),
                2: ("client_transaction_version", Int16sb, 0),
                3: ("next_producer_epoch", Int16sb, -1),
            }
        ),
    ),
    absent={},
)


CONSTRUCTS = {
    0: transaction_log_value_v0,
    1: transaction_log_value_v1,
}
