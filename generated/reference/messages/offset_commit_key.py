"""OffsetCommitKey, the Construct reference codec: ``offset_commit_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.offset_commit_key`, which tests hold it to.

Generated from schemas/messages/offset_commit_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.offset_commit_key import OffsetCommitKey

offset_commit_key_v0 = MessageStruct(
    OffsetCommitKey,
    Struct(
        "group" / KafkaSized(True, compact=False, nullable=False),
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partition" / Int32sb,
    ),
    absent={},
)

offset_commit_key_v1 = MessageStruct(
    OffsetCommitKey,
    Struct(
        "group" / KafkaSized(True, compact=False, nullable=False),
        "topic" / KafkaSized(True, compact=False, nullable=False),
        "partition" / Int32sb,
    ),
    absent={},
)


CONSTRUCTS = {
    0: offset_commit_key_v0,
    1: offset_commit_key_v1,
}
