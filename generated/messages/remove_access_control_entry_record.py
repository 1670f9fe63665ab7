"""RemoveAccessControlEntryRecord, versions 0 (flexible: 0+): An ACL was deleted.

Generated from schemas/messages/remove_access_control_entry_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import ZERO_UUID, encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/remove_access_control_entry_record.yaml"
NAME = "RemoveAccessControlEntryRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (19,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">16s")

# -- typed values ---------------------------------------------------------------


class RemoveAccessControlEntryRecord(NamedTuple):
    """An ACL was deleted.

    Fields:
        id: Id of the deleted ACL. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    id: UUID = ZERO_UUID
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_remove_access_control_entry_record_v0(
    buf, pos: int, end: int
) -> tuple[RemoveAccessControlEntryRecord, int]:
    """Read a RemoveAccessControlEntryRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 16:
        raise truncated("RemoveAccessControlEntryRecord v0 RemoveAccessControlEntryRecord.id", pos, 16, end)
    (f_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    f_id = UUID(bytes=f_id)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoveAccessControlEntryRecord v0 RemoveAccessControlEntryRecord tagged fields"
    )
    return RemoveAccessControlEntryRecord(f_id, unknown), pos


def _write_remove_access_control_entry_record_v0(v: RemoveAccessControlEntryRecord, out: list) -> None:
    """Append the bytes of a RemoveAccessControlEntryRecord v0 to ``out``."""
    out.append(v.id.bytes)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_remove_access_control_entry_record_v0,
}
_WRITERS = {
    0: _write_remove_access_control_entry_record_v0,
}


def decode_remove_access_control_entry_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RemoveAccessControlEntryRecord, int]:
    """Decode a RemoveAccessControlEntryRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RemoveAccessControlEntryRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_remove_access_control_entry_record(value: RemoveAccessControlEntryRecord, version: int) -> bytes:
    """Encode ``value`` as RemoveAccessControlEntryRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"RemoveAccessControlEntryRecord: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"RemoveAccessControlEntryRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
