"""OffsetCommitValue, the Construct reference codec: ``offset_commit_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.offset_commit_value`, which tests hold it to.

Generated from schemas/messages/offset_commit_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.codec.message_types import ZERO_UUID
from kafkaspec.generated.messages.offset_commit_value import OffsetCommitValue

offset_commit_value_v0 = MessageStruct(
    OffsetCommitValue,
    Struct(
        "offset" / Int64sb,
        "metadata" / KafkaSized(True, compact=False, nullable=False),
        "commit_timestamp" / Int64sb,
    ),
    absent={"leader_epoch": -1, "expire_timestamp": -1, "topic_id": ZERO_UUID},
)

offset_commit_value_v1 = MessageStruct(
    OffsetCommitValue,
    Struct(
        "offset" / Int64sb,
        "metadata" / KafkaSized(True, compact=False, nullable=False),
        "commit_timestamp" / Int64sb,
        "expire_timestamp" / Int64sb,
    ),
    absent={"leader_epoch": -1, "topic_id": ZERO_UUID},
)

offset_commit_value_v2 = MessageStruct(
    OffsetCommitValue,
    Struct(
        "offset" / Int64sb,
        "metadata" / KafkaSized(True, compact=False, nullable=False),
        "commit_timestamp" / Int64sb,
    ),
    absent={"leader_epoch": -1, "expire_timestamp": -1, "topic_id": ZERO_UUID},
)

offset_commit_value_v3 = MessageStruct(
    OffsetCommitValue,
    Struct(
        "offset" / Int64sb,
        "leader_epoch" / Int32sb,
        "metadata" / KafkaSized(True, compact=False, nullable=False),
        "commit_timestamp" / Int64sb,
    ),
    absent={"expire_timestamp": -1, "topic_id": ZERO_UUID},
)

offset_commit_value_v4 = MessageStruct(
    OffsetCommitValue,
    Struct(
        "offset" / Int64sb,
        "leader_epoch" / Int32sb,
        "metadata" / KafkaSized(True, compact=True, nullable=False),
        "commit_timestamp" / Int64sb,
        "tagged_fields" / TaggedFields({0: ("topic_id", KafkaUuid, ZERO_UUID)}),
    ),
    absent={"expire_timestamp": -1},
)


CONSTRUCTS = {
    0: offset_commit_value_v0,
    1: offset_commit_value_v1,
    2: offset_commit_value_v2,
    3: offset_commit_value_v3,
    4: offset_commit_value_v4,
}
