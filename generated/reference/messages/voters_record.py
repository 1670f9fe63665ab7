"""VotersRecord, the Construct reference codec: ``voters_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.voters_record`, which tests hold it to.

Generated from schemas/messages/voters_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Int16ub, Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.voters_record import Endpoint, KRaftVersionFeature, Voter, VotersRecord

endpoint_v0 = MessageStruct(
    Endpoint,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "host" / KafkaSized(True, compact=True, nullable=False),
        "port" / Int16ub,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

kraft_version_feature_v0 = MessageStruct(
    KRaftVersionFeature,
    Struct(
        "min_supported_version" / Int16sb,
        "max_supported_version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

voter_v0 = MessageStruct(
    Voter,
    Struct(
        "voter_id" / Int32sb,
        "voter_directory_id" / KafkaUuid,
        "endpoints" / KafkaArray(endpoint_v0, compact=True, nullable=False),
        "kraft_version_feature" / kraft_version_feature_v0,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

voters_record_v0 = MessageStruct(
    VotersRecord,
    Struct(
        "version" / Int16sb,
        "voters" / KafkaArray(voter_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: voters_record_v0,
}
