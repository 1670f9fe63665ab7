"""ZkMigrationStateRecord, versions 0 (flexible: 0+): The state of a ZooKeeper to KRaft migration.

Generated from schemas/messages/zk_migration_state_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/zk_migration_state_record.yaml"
NAME = "ZkMigrationStateRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (21,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">b")

# -- typed values ---------------------------------------------------------------


class ZkMigrationStateRecord(NamedTuple):
    """The state of a ZooKeeper to KRaft migration.

    Fields:
        zk_migration_state: Migration state (0 none, 1 pre-migration, 2 migration, 3 post-migration). (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    zk_migration_state: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_zk_migration_state_record_v0(buf, pos: int, end: int) -> tuple[ZkMigrationStateRecord, int]:
    """Read a ZkMigrationStateRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 1:
        raise truncated("ZkMigrationStateRecord v0 ZkMigrationStateRecord.zk_migration_state", pos, 1, end)
    (f_zk_migration_state,) = _S0.unpack_from(buf, pos)
    pos += 1
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ZkMigrationStateRecord v0 ZkMigrationStateRecord tagged fields"
    )
    return ZkMigrationStateRecord(f_zk_migration_state, unknown), pos


def _write_zk_migration_state_record_v0(v: ZkMigrationStateRecord, out: list) -> None:
    """Append the bytes of a ZkMigrationStateRecord v0 to ``out``."""
    out.append(_S0.pack(v.zk_migration_state))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_zk_migration_state_record_v0,
}
_WRITERS = {
    0: _write_zk_migration_state_record_v0,
}


def decode_zk_migration_state_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ZkMigrationStateRecord, int]:
    """Decode a ZkMigrationStateRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ZkMigrationStateRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_zk_migration_state_record(value: ZkMigrationStateRecord, version: int) -> bytes:
    """Encode ``value`` as ZkMigrationStateRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ZkMigrationStateRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ZkMigrationStateRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
