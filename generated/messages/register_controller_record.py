"""RegisterControllerRecord, versions 0 (flexible: 0+): A controller registered: its id, incarnation, listeners and supported features.

Generated from schemas/messages/register_controller_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    ZERO_UUID,
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

SCHEMA = "schemas/messages/register_controller_record.yaml"
NAME = "RegisterControllerRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (27,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">Hh")
_S1 = struct.Struct(">hh")
_S2 = struct.Struct(">i16s")

# -- typed values ---------------------------------------------------------------


class ControllerEndpoint(NamedTuple):
    """The listeners the controller is reached on.

    Fields:
        name: Listener name. (versions 0+)
        host: Host name or address. (versions 0+)
        port: TCP port. (versions 0+)
        security_protocol: Security protocol id (0 PLAINTEXT, 1 SSL, 2 SASL_PLAINTEXT, 3 SASL_SSL). (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    host: str = ""
    port: int = 0
    security_protocol: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ControllerFeature(NamedTuple):
    """The feature level ranges this controller supports.

    Fields:
        name: Feature name. (versions 0+)
        min_supported_version: Lowest feature level supported. (versions 0+)
        max_supported_version: Highest feature level supported. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    min_supported_version: int = 0
    max_supported_version: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class RegisterControllerRecord(NamedTuple):
    """A controller registered: its id, incarnation, listeners and supported features.

    Fields:
        controller_id: Node id of the controller. (versions 0+)
        incarnation_id: Random id of this run of the process: a new one at each start. (versions 0+)
        zk_migration_ready: True when the controller is configured for a ZooKeeper migration. (versions 0+)
        end_points: The listeners the controller is reached on. (versions 0+)
        features: The feature level ranges this controller supports. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    controller_id: int = 0
    incarnation_id: UUID = ZERO_UUID
    zk_migration_ready: bool = False
    end_points: list[ControllerEndpoint] = EMPTY_LIST
    features: list[ControllerFeature] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_controller_endpoint_v0(buf, pos: int, end: int) -> tuple[ControllerEndpoint, int]:
    """Read a ControllerEndpoint of RegisterControllerRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf, pos, end, "RegisterControllerRecord v0 ControllerEndpoint.name", compact=True, nullable=False
    )
    f_host, pos = read_string(
        buf, pos, end, "RegisterControllerRecord v0 ControllerEndpoint.host", compact=True, nullable=False
    )
    if end - pos < 4:
        raise truncated("RegisterControllerRecord v0 ControllerEndpoint.port", pos, 4, end)
    (
        f_port,
        f_security_protocol,
    ) = _S0.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RegisterControllerRecord v0 ControllerEndpoint tagged fields"
    )
    return ControllerEndpoint(f_name, f_host, f_port, f_security_protocol, unknown), pos


def _write_controller_endpoint_v0(v: ControllerEndpoint, out: list) -> None:
    """Append the bytes of a ControllerEndpoint of RegisterControllerRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.name, "RegisterControllerRecord v0 ControllerEndpoint.name", compact=True, nullable=False
        )
    )
    out.append(
        encode_string(
            v.host, "RegisterControllerRecord v0 ControllerEndpoint.host", compact=True, nullable=False
        )
    )
    out.append(_S0.pack(v.port, v.security_protocol))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_controller_feature_v0(buf, pos: int, end: int) -> tuple[ControllerFeature, int]:
    """Read a ControllerFeature of RegisterControllerRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf, pos, end, "RegisterControllerRecord v0 ControllerFeature.name", compact=True, nullable=False
    )
    if end - pos < 4:
        raise truncated("RegisterControllerRecord v0 ControllerFeature.min_supported_version", pos, 4, end)
    (
        f_min_supported_version,
        f_max_supported_version,
    ) = _S1.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RegisterControllerRecord v0 ControllerFeature tagged fields"
    )
    return ControllerFeature(f_name, f_min_supported_version, f_max_supported_version, unknown), pos


def _write_controller_feature_v0(v: ControllerFeature, out: list) -> None:
    """Append the bytes of a ControllerFeature of RegisterControllerRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.name, "RegisterControllerRecord v0 ControllerFeature.name", compact=True, nullable=False
        )
    )
    out.append(_S1.pack(v.min_supported_version, v.max_supported_version))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_register_controller_record_v0(buf, pos: int, end: int) -> tuple[RegisterControllerRecord, int]:
    """Read a RegisterControllerRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("RegisterControllerRecord v0 RegisterControllerRecord.controller_id", pos, 20, end)
    (
        f_controller_id,
        f_incarnation_id,
    ) = _S2.unpack_from(buf, pos)
    pos += 20
    f_incarnation_id = UUID(bytes=f_incarnation_id)
    f_zk_migration_ready, pos = read_bool(
        buf, pos, end, "RegisterControllerRecord v0 RegisterControllerRecord.zk_migration_ready"
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterControllerRecord v0 RegisterControllerRecord.end_points",
        compact=True,
        nullable=False,
        min_size=7,
    )
    f_end_points = []
    append = f_end_points.append
    for _ in range(n):
        item, pos = _read_controller_endpoint_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterControllerRecord v0 RegisterControllerRecord.features",
        compact=True,
        nullable=False,
        min_size=6,
    )
    f_features = []
    append = f_features.append
    for _ in range(n):
        item, pos = _read_controller_feature_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RegisterControllerRecord v0 RegisterControllerRecord tagged fields"
    )
    return RegisterControllerRecord(
        f_controller_id, f_incarnation_id, f_zk_migration_ready, f_end_points, f_features, unknown
    ), pos


def _write_register_controller_record_v0(v: RegisterControllerRecord, out: list) -> None:
    """Append the bytes of a RegisterControllerRecord v0 to ``out``."""
    out.append(_S2.pack(v.controller_id, v.incarnation_id.bytes))
    out.append(b"\x01" if v.zk_migration_ready else b"\x00")
    out.append(
        encode_count(
            v.end_points,
            "RegisterControllerRecord v0 RegisterControllerRecord.end_points",
            compact=True,
            nullable=False,
        )
    )
    for item in v.end_points:
        _write_controller_endpoint_v0(item, out)
    out.append(
        encode_count(
            v.features,
            "RegisterControllerRecord v0 RegisterControllerRecord.features",
            compact=True,
            nullable=False,
        )
    )
    for item in v.features:
        _write_controller_feature_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_register_controller_record_v0,
}
_WRITERS = {
    0: _write_register_controller_record_v0,
}


def decode_register_controller_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RegisterControllerRecord, int]:
    """Decode a RegisterControllerRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RegisterControllerRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_register_controller_record(value: RegisterControllerRecord, version: int) -> bytes:
    """Encode ``value`` as RegisterControllerRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"RegisterControllerRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"RegisterControllerRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
