"""ConsumerGroupRegularExpressionKey, the Construct reference codec: ``consumer_group_regular_expression_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.consumer_group_regular_expression_key`, which tests hold it to.

Generated from schemas/messages/consumer_group_regular_expression_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.consumer_group_regular_expression_key import (
    ConsumerGroupRegularExpressionKey,
)

consumer_group_regular_expression_key_v16 = MessageStruct(
    ConsumerGroupRegularExpressionKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
        "regular_expression" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    16: consumer_group_regular_expression_key_v16,
}
