"""FeatureLevelRecord, the Construct reference codec: ``feature_level_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.feature_level_record`, which tests hold it to.

Generated from schemas/messages/feature_level_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.feature_level_record import FeatureLevelRecord

feature_level_record_v0 = MessageStruct(
    FeatureLevelRecord,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "feature_level" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: feature_level_record_v0,
}
