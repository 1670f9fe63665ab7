"""TopicRecord, the Construct reference codec: ``topic_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.topic_record`, which tests hold it to.

Generated from schemas/messages/topic_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.topic_record import TopicRecord

topic_record_v0 = MessageStruct(
    TopicRecord,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "topic_id" / KafkaUuid,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: topic_record_v0,
}
