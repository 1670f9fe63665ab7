"""AccessControlEntryRecord, versions 0 (flexible: 0+): An ACL was created.

Generated from schemas/messages/access_control_entry_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    ZERO_UUID,
    encode_string,
    encode_tagged,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/access_control_entry_record.yaml"
NAME = "AccessControlEntryRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (18,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">16sb")
_S1 = struct.Struct(">b")
_S2 = struct.Struct(">bb")

# -- typed values ---------------------------------------------------------------


class AccessControlEntryRecord(NamedTuple):
    """An ACL was created.

    Fields:
        id: Id of the ACL. (versions 0+)
        resource_type: Resource type code (2 topic, 3 group, 4 cluster, 5 transactional id, 6 delegation token, 7 user). (versions 0+)
        resource_name: Resource name (or pattern). (versions 0+)
        pattern_type: Pattern type code (3 literal, 4 prefixed). (versions 0+)
        principal: Principal, such as User:alice. (versions 0+)
        host: Host the rule applies to (* for any). (versions 0+)
        operation: Operation code (2 all, 3 read, 4 write, ...). (versions 0+)
        permission_type: Permission code (2 deny, 3 allow). (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    id: UUID = ZERO_UUID
    resource_type: int = 0
    resource_name: str = ""
    pattern_type: int = 0
    principal: str = ""
    host: str = ""
    operation: int = 0
    permission_type: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_access_control_entry_record_v0(buf, pos: int, end: int) -> tuple[AccessControlEntryRecord, int]:
    """Read an AccessControlEntryRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 17:
        raise truncated("AccessControlEntryRecord v0 AccessControlEntryRecord.id", pos, 17, end)
    (
        f_id,
        f_resource_type,
    ) = _S0.unpack_from(buf, pos)
    pos += 17
    f_id = UUID(bytes=f_id)
    f_resource_name, pos = read_string(
        buf,
        pos,
        end,
        "AccessControlEntryRecord v0 AccessControlEntryRecord.resource_name",
        compact=True,
        nullable=False,
    )
    if end - pos < 1:
        raise truncated("AccessControlEntryRecord v0 AccessControlEntryRecord.pattern_type", pos, 1, end)
    (f_pattern_type,) = _S1.unpack_from(buf, pos)
    pos += 1
    f_principal, pos = read_string(
        buf,
        pos,
        end,
        "AccessControlEntryRecord v0 AccessControlEntryRecord.principal",
        compact=True,
        nullable=False,
    )
    f_host, pos = read_string(
        buf,
        pos,
        end,
        "AccessControlEntryRecord v0 AccessControlEntryRecord.host",
        compact=True,
        nullable=False,
    )
    if end - pos < 2:
        raise truncated("AccessControlEntryRecord v0 AccessControlEntryRecord.operation", pos, 2, end)
    (
        f_operation,
        f_permission_type,
    ) = _S2.unpack_from(buf, pos)
    pos += 2
    unknown, pos = read_unknown_tags(
        buf, pos, end, "AccessControlEntryRecord v0 AccessControlEntryRecord tagged fields"
    )
    return AccessControlEntryRecord(
        f_id,
        f_resource_type,
        f_resource_name,
        f_pattern_type,
        f_principal,
        f_host,
        f_operation,
        f_permission_type,
        unknown,
    ), pos


def _write_access_control_entry_record_v0(v: AccessControlEntryRecord, out: list) -> None:
    """Append the bytes of an AccessControlEntryRecord v0 to ``out``."""
    out.append(_S0.pack(v.id.bytes, v.resource_type))
    out.append(
        encode_string(
            v.resource_name,
            "AccessControlEntryRecord v0 AccessControlEntryRecord.resource_name",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S1.pack(v.pattern_type))
    out.append(
        encode_string(
            v.principal,
            "AccessControlEntryRecord v0 AccessControlEntryRecord.principal",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.host, "AccessControlEntryRecord v0 AccessControlEntryRecord.host", compact=True, nullable=False
        )
    )
    out.append(_S2.pack(v.operation, v.permission_type))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_access_control_entry_record_v0,
}
_WRITERS = {
    0: _write_access_control_entry_record_v0,
}


def decode_access_control_entry_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[AccessControlEntryRecord, int]:
    """Decode an AccessControlEntryRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"AccessControlEntryRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_access_control_entry_record(value: AccessControlEntryRecord, version: int) -> bytes:
    """Encode ``value`` as AccessControlEntryRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"AccessControlEntryRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"AccessControlEntryRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
