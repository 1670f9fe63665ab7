"""RemoveTopicRecord, the Construct reference codec: ``remove_topic_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.remove_topic_record`, which tests hold it to.

Generated from schemas/messages/remove_topic_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.remove_topic_record import RemoveTopicRecord

remove_topic_record_v0 = MessageStruct(
    RemoveTopicRecord,
    Struct(
        "topic_id" / KafkaUuid,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: remove_topic_record_v0,
}
