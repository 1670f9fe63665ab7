"""OffsetCommitKey, versions 0-1: The key of a committed offset: group, topic and partition. Key versions 0 and 1 have the same layout.

Generated from schemas/messages/offset_commit_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/offset_commit_key.yaml"
NAME = "OffsetCommitKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (0, 1)
VERSIONS = [0, 1]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "OffsetCommitValue"

_S0 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class OffsetCommitKey(NamedTuple):
    """The key of a committed offset: group, topic and partition. Key versions 0 and 1 have the same layout.

    Fields:
        group: Group id. (versions 0-1)
        topic: Topic of the committed partition. (versions 0-1)
        partition: Partition number. (versions 0-1)
    """

    group: str = ""
    topic: str = ""
    partition: int = 0


# -- fast codec -----------------------------------------------------------------


def _read_offset_commit_key_v0(buf, pos: int, end: int) -> tuple[OffsetCommitKey, int]:
    """Read an OffsetCommitKey v0/v1 at ``pos``, inside ``buf[:end]``."""
    f_group, pos = read_string(
        buf, pos, end, "OffsetCommitKey v0/v1 OffsetCommitKey.group", compact=False, nullable=False
    )
    f_topic, pos = read_string(
        buf, pos, end, "OffsetCommitKey v0/v1 OffsetCommitKey.topic", compact=False, nullable=False
    )
    if end - pos < 4:
        raise truncated("OffsetCommitKey v0/v1 OffsetCommitKey.partition", pos, 4, end)
    (f_partition,) = _S0.unpack_from(buf, pos)
    pos += 4
    return OffsetCommitKey(f_group, f_topic, f_partition), pos


def _write_offset_commit_key_v0(v: OffsetCommitKey, out: list) -> None:
    """Append the bytes of an OffsetCommitKey v0/v1 to ``out``."""
    out.append(
        encode_string(v.group, "OffsetCommitKey v0/v1 OffsetCommitKey.group", compact=False, nullable=False)
    )
    out.append(
        encode_string(v.topic, "OffsetCommitKey v0/v1 OffsetCommitKey.topic", compact=False, nullable=False)
    )
    out.append(_S0.pack(v.partition))


_READERS = {
    0: _read_offset_commit_key_v0,
    1: _read_offset_commit_key_v0,
}
_WRITERS = {
    0: _write_offset_commit_key_v0,
    1: _write_offset_commit_key_v0,
}


def decode_offset_commit_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[OffsetCommitKey, int]:
    """Decode an OffsetCommitKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"OffsetCommitKey: unknown version {version} (this schema has versions 0-1)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_offset_commit_key(value: OffsetCommitKey, version: int) -> bytes:
    """Encode ``value`` as OffsetCommitKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"OffsetCommitKey: unknown version {version} (this schema has versions 0-1)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"OffsetCommitKey v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
