"""ShareSnapshotKey, the Construct reference codec: ``share_snapshot_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.share_snapshot_key`, which tests hold it to.

Generated from schemas/messages/share_snapshot_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Struct

from kafkaspec.codec._message_construct import KafkaSized, KafkaUuid, MessageStruct
from kafkaspec.generated.messages.share_snapshot_key import ShareSnapshotKey

share_snapshot_key_v0 = MessageStruct(
    ShareSnapshotKey,
    Struct(
        "group_id" / KafkaSized(True, compact=False, nullable=False),
        "topic_id" / KafkaUuid,
        "partition" / Int32sb,
    ),
    absent={},
)


CONSTRUCTS = {
    0: share_snapshot_key_v0,
}
