"""ConsumerGroupRegularExpressionValue, the Construct reference codec: ``consumer_group_regular_expression_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_regular_expression_value`, which tests hold it to.

Generated from schemas/messages/consumer_group_regular_expression_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.consumer_group_regular_expression_value import (
    ConsumerGroupRegularExpressionValue,
)

consumer_group_regular_expression_value_v0 = MessageStruct(
    ConsumerGroupRegularExpressionValue,
    Struct(
        "topics" / KafkaArray(KafkaSized(True, compact=True, nullable=False), compact=True, nullable=False),
        "version" / Int64sb,
        "timestamp" / Int64sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: consumer_group_regular_expression_value_v0,
}
