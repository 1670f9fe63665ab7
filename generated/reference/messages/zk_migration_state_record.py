"""ZkMigrationStateRecord, the Construct reference codec: ``zk_migration_state_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.zk_migration_state_record`, which tests hold it to.

Generated from schemas/messages/zk_migration_state_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Struct

from kafkaspec.codec._message_construct import MessageStruct, TaggedFields
from kafkaspec.generated.messages.zk_migration_state_record import ZkMigrationStateRecord

zk_migration_state_record_v0 = MessageStruct(
    ZkMigrationStateRecord,
    Struct(
        "zk_migration_state" / Int8sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: zk_migration_state_record_v0,
}
