"""GroupMetadataKey, versions 2: The key of a classic group's metadata: the group id.

Generated from schemas/messages/group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/group_metadata_key.yaml"
NAME = "GroupMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (2,)
VERSIONS = [2]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "GroupMetadataValue"


# -- typed values ---------------------------------------------------------------


class GroupMetadataKey(NamedTuple):
    """The key of a classic group's metadata: the group id.

    Fields:
        group: Group id. (versions 2)
    """

    group: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_group_metadata_key_v2(buf, pos: int, end: int) -> tuple[GroupMetadataKey, int]:
    """Read a GroupMetadataKey v2 at ``pos``, inside ``buf[:end]``."""
    f_group, pos = read_string(
        buf, pos, end, "GroupMetadataKey v2 GroupMetadataKey.group", compact=False, nullable=False
    )
    return GroupMetadataKey(f_group), pos


def _write_group_metadata_key_v2(v: GroupMetadataKey, out: list) -> None:
    """Append the bytes of a GroupMetadataKey v2 to ``out``."""
    out.append(
        encode_string(v.group, "GroupMetadataKey v2 GroupMetadataKey.group", compact=False, nullable=False)
    )


_READERS = {
    2: _read_group_metadata_key_v2,
}
_WRITERS = {
    2: _write_group_metadata_key_v2,
}


def decode_group_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[GroupMetadataKey, int]:
    """Decode a GroupMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"GroupMetadataKey: unknown version {version} (this schema has versions 2)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_group_metadata_key(value: GroupMetadataKey, version: int) -> bytes:
    """Encode ``value`` as GroupMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"GroupMetadataKey: unknown version {version} (this schema has versions 2)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"GroupMetadataKey v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
