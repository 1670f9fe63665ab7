"""ConfigRecord, versions 0 (flexible: 0+): One configuration key of a resource (topic, broker, ...) was set, or removed when the value is null.

Generated from schemas/messages/config_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    encode_string,
    encode_tagged,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/config_record.yaml"
NAME = "ConfigRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (4,)
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


class ConfigRecord(NamedTuple):
    """One configuration key of a resource (topic, broker, ...) was set, or removed when the value is null.

    Fields:
        resource_type: Kind of resource (2 topic, 4 broker, 8 broker logger, ...). (versions 0+)
        resource_name: Name of the resource (topic name, broker id, or empty for the cluster default). (versions 0+)
        name: Configuration key. (versions 0+)
        value: New value, or null when the key is removed. (versions 0+, nullable 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    resource_type: int = 0
    resource_name: str = ""
    name: str = ""
    value: str | None = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_config_record_v0(buf, pos: int, end: int) -> tuple[ConfigRecord, int]:
    """Read a ConfigRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 1:
        raise truncated("ConfigRecord v0 ConfigRecord.resource_type", pos, 1, end)
    (f_resource_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(
        buf, pos, end, "ConfigRecord v0 ConfigRecord.resource_name", compact=True, nullable=False
    )
    f_name, pos = read_string(
        buf, pos, end, "ConfigRecord v0 ConfigRecord.name", compact=True, nullable=False
    )
    f_value, pos = read_string(
        buf, pos, end, "ConfigRecord v0 ConfigRecord.value", compact=True, nullable=True
    )
    unknown, pos = read_unknown_tags(buf, pos, end, "ConfigRecord v0 ConfigRecord tagged fields")
    return ConfigRecord(f_resource_type, f_resource_name, f_name, f_value, unknown), pos


def _write_config_record_v0(v: ConfigRecord, out: list) -> None:
    """Append the bytes of a ConfigRecord v0 to ``out``."""
    out.append(_S0.pack(v.resource_type))
    out.append(
        encode_string(
            v.resource_name, "ConfigRecord v0 ConfigRecord.resource_name", compact=True, nullable=False
        )
    )
    out.append(encode_string(v.name, "ConfigRecord v0 ConfigRecord.name", compact=True, nullable=False))
    out.append(encode_string(v.value, "ConfigRecord v0 ConfigRecord.value", compact=True, nullable=True))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_config_record_v0,
}
_WRITERS = {
    0: _write_config_record_v0,
}


def decode_config_record(buf, version: int, pos: int = 0, end: int | None = None) -> tuple[ConfigRecord, int]:
    """Decode a ConfigRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(f"ConfigRecord: unknown version {version} (this schema has versions 0)", pos)
    return reader(buf, pos, len(buf) if end is None else end)


def encode_config_record(value: ConfigRecord, version: int) -> bytes:
    """Encode ``value`` as ConfigRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ConfigRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"ConfigRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
