"""ClientQuotaRecord, versions 0 (flexible: 0+): A client quota of an entity (user, client id, ip, or a default) was set or removed.

Generated from schemas/messages/client_quota_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    encode_count,
    encode_string,
    encode_tagged,
    read_bool,
    read_count,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/client_quota_record.yaml"
NAME = "ClientQuotaRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (14,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">d")

# -- typed values ---------------------------------------------------------------


class EntityData(NamedTuple):
    """The entity the quota applies to, one part per entity type.

    Fields:
        entity_type: Entity type: user, client-id or ip. (versions 0+)
        entity_name: Entity name, or null for the default entity of that type. (versions 0+, nullable 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    entity_type: str = ""
    entity_name: str | None = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ClientQuotaRecord(NamedTuple):
    """A client quota of an entity (user, client id, ip, or a default) was set or removed.

    Fields:
        entity: The entity the quota applies to, one part per entity type. (versions 0+)
        key: Quota name, such as producer_byte_rate. (versions 0+)
        value: The quota's new value (ignored when removing). (versions 0+)
        remove: True when the quota is removed rather than set. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    entity: list[EntityData] = EMPTY_LIST
    key: str = ""
    value: float = 0.0
    remove: bool = False
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_entity_data_v0(buf, pos: int, end: int) -> tuple[EntityData, int]:
    """Read an EntityData of ClientQuotaRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_entity_type, pos = read_string(
        buf, pos, end, "ClientQuotaRecord v0 EntityData.entity_type", compact=True, nullable=False
    )
    f_entity_name, pos = read_string(
        buf, pos, end, "ClientQuotaRecord v0 EntityData.entity_name", compact=True, nullable=True
    )
    unknown, pos = read_unknown_tags(buf, pos, end, "ClientQuotaRecord v0 EntityData tagged fields")
    return EntityData(f_entity_type, f_entity_name, unknown), pos


def _write_entity_data_v0(v: EntityData, out: list) -> None:
    """Append the bytes of an EntityData of ClientQuotaRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.entity_type, "ClientQuotaRecord v0 EntityData.entity_type", compact=True, nullable=False
        )
    )
    out.append(
        encode_string(
            v.entity_name, "ClientQuotaRecord v0 EntityData.entity_name", compact=True, nullable=True
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_client_quota_record_v0(buf, pos: int, end: int) -> tuple[ClientQuotaRecord, int]:
    """Read a ClientQuotaRecord v0 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ClientQuotaRecord v0 ClientQuotaRecord.entity",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_entity = []
    append = f_entity.append
    for _ in range(n):
        item, pos = _read_entity_data_v0(buf, pos, end)
        append(item)
    f_key, pos = read_string(
        buf, pos, end, "ClientQuotaRecord v0 ClientQuotaRecord.key", compact=True, nullable=False
    )
    if end - pos < 8:
        raise truncated("ClientQuotaRecord v0 ClientQuotaRecord.value", pos, 8, end)
    (f_value,) = _S0.unpack_from(buf, pos)
    pos += 8
    f_remove, pos = read_bool(buf, pos, end, "ClientQuotaRecord v0 ClientQuotaRecord.remove")
    unknown, pos = read_unknown_tags(buf, pos, end, "ClientQuotaRecord v0 ClientQuotaRecord tagged fields")
    return ClientQuotaRecord(f_entity, f_key, f_value, f_remove, unknown), pos


def _write_client_quota_record_v0(v: ClientQuotaRecord, out: list) -> None:
    """Append the bytes of a ClientQuotaRecord v0 to ``out``."""
    out.append(
        encode_count(v.entity, "ClientQuotaRecord v0 ClientQuotaRecord.entity", compact=True, nullable=False)
    )
    for item in v.entity:
        _write_entity_data_v0(item, out)
    out.append(
        encode_string(v.key, "ClientQuotaRecord v0 ClientQuotaRecord.key", compact=True, nullable=False)
    )
    out.append(_S0.pack(v.value))
    out.append(b"\x01" if v.remove else b"\x00")
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_client_quota_record_v0,
}
_WRITERS = {
    0: _write_client_quota_record_v0,
}


def decode_client_quota_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ClientQuotaRecord, int]:
    """Decode a ClientQuotaRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ClientQuotaRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_client_quota_record(value: ClientQuotaRecord, version: int) -> bytes:
    """Encode ``value`` as ClientQuotaRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ClientQuotaRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"ClientQuotaRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
