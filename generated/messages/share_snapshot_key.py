"""ShareSnapshotKey, versions 0: The key of a share-partition's full state (KIP-932): the share group, topic and partition it belongs to.

Generated from schemas/messages/share_snapshot_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import ZERO_UUID, encode_string, read_string, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_snapshot_key.yaml"
NAME = "ShareSnapshotKey"
FAMILY = "share"
#: the key versions (record types) of __share_group_state that select this key
TYPE_IDS = (0,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ShareSnapshotValue"

_S0 = struct.Struct(">16si")

# -- typed values ---------------------------------------------------------------


class ShareSnapshotKey(NamedTuple):
    """The key of a share-partition's full state (KIP-932): the share group, topic and partition it belongs to.

    Fields:
        group_id: Share group id. (versions 0)
        topic_id: Topic id of the share-partition. (versions 0)
        partition: Partition number of the share-partition. (versions 0)
    """

    group_id: str = ""
    topic_id: UUID = ZERO_UUID
    partition: int = 0


# -- fast codec -----------------------------------------------------------------


def _read_share_snapshot_key_v0(buf, pos: int, end: int) -> tuple[ShareSnapshotKey, int]:
    """Read a ShareSnapshotKey v0 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf, pos, end, "ShareSnapshotKey v0 ShareSnapshotKey.group_id", compact=False, nullable=False
    )
    if end - pos < 20:
        raise truncated("ShareSnapshotKey v0 ShareSnapshotKey.topic_id", pos, 20, end)
    (
        f_topic_id,
        f_partition,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_topic_id = UUID(bytes=f_topic_id)
    return ShareSnapshotKey(f_group_id, f_topic_id, f_partition), pos


def _write_share_snapshot_key_v0(v: ShareSnapshotKey, out: list) -> None:
    """Append the bytes of a ShareSnapshotKey v0 to ``out``."""
    out.append(
        encode_string(
            v.group_id, "ShareSnapshotKey v0 ShareSnapshotKey.group_id", compact=False, nullable=False
        )
    )
    out.append(_S0.pack(v.topic_id.bytes, v.partition))


_READERS = {
    0: _read_share_snapshot_key_v0,
}
_WRITERS = {
    0: _write_share_snapshot_key_v0,
}


def decode_share_snapshot_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareSnapshotKey, int]:
    """Decode a ShareSnapshotKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareSnapshotKey: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_snapshot_key(value: ShareSnapshotKey, version: int) -> bytes:
    """Encode ``value`` as ShareSnapshotKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ShareSnapshotKey: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"ShareSnapshotKey v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
