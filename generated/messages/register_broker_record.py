"""RegisterBrokerRecord, versions 0-4 (flexible: 0+): A broker joined the cluster (or restarted): its id, incarnation, epoch, listeners, supported features and rack.

Generated from schemas/messages/register_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    ZERO_UUID,
    absent,
    encode_count,
    encode_string,
    encode_tagged,
    read_bool,
    read_count,
    read_string,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/register_broker_record.yaml"
NAME = "RegisterBrokerRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (0,)
VERSIONS = [0, 1, 2, 3, 4]
FLEXIBLE_VERSIONS = [0, 1, 2, 3, 4]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">Hh")
_S1 = struct.Struct(">hh")
_S2 = struct.Struct(">i16sq")
_S3 = struct.Struct(">i")
_S4 = struct.Struct(">16sq")

# -- typed values ---------------------------------------------------------------


class BrokerEndpoint(NamedTuple):
    """The listeners clients and other brokers reach this broker on.

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


class BrokerFeature(NamedTuple):
    """The feature level ranges this broker supports.

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


class RegisterBrokerRecord(NamedTuple):
    """A broker joined the cluster (or restarted): its id, incarnation, epoch, listeners, supported features and rack.

    Fields:
        broker_id: Node id of the broker. (versions 0+)
        is_migrating_zk_broker: True for a ZooKeeper-mode broker taking part in a migration to KRaft. (versions 2+)
        incarnation_id: Random id of this run of the process: a new one at each start. (versions 0+)
        broker_epoch: Epoch the controller gave this broker registration. (versions 0+)
        end_points: The listeners clients and other brokers reach this broker on. (versions 0+)
        features: The feature level ranges this broker supports. (versions 0+)
        rack: The broker's rack, or null when none is configured. (versions 0+, nullable 0+)
        fenced: True when the broker registers fenced (not yet serving). (versions 0+)
        in_controlled_shutdown: True when the broker is shutting down in a controlled way. (versions 1+)
        log_dirs: Ids of the broker's usable log directories. (versions 3+, tagged 0 in 3+)
        cordoned_log_dirs: Ids of the log directories an operator cordoned (KIP-1066: no new partitions placed there); null until the broker first reports them. (versions 4+, nullable 4+, tagged 1 in 4+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    broker_id: int = 0
    is_migrating_zk_broker: bool = False
    incarnation_id: UUID = ZERO_UUID
    broker_epoch: int = 0
    end_points: list[BrokerEndpoint] = EMPTY_LIST
    features: list[BrokerFeature] = EMPTY_LIST
    rack: str | None = ""
    fenced: bool = True
    in_controlled_shutdown: bool = False
    log_dirs: list[UUID] = EMPTY_LIST
    cordoned_log_dirs: list[UUID] | None = None
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_broker_endpoint_v0(buf, pos: int, end: int) -> tuple[BrokerEndpoint, int]:
    """Read a BrokerEndpoint of RegisterBrokerRecord v0/v1/v2/v3/v4 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf, pos, end, "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerEndpoint.name", compact=True, nullable=False
    )
    f_host, pos = read_string(
        buf, pos, end, "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerEndpoint.host", compact=True, nullable=False
    )
    if end - pos < 4:
        raise truncated("RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerEndpoint.port", pos, 4, end)
    (
        f_port,
        f_security_protocol,
    ) = _S0.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerEndpoint tagged fields"
    )
    return BrokerEndpoint(f_name, f_host, f_port, f_security_protocol, unknown), pos


def _write_broker_endpoint_v0(v: BrokerEndpoint, out: list) -> None:
    """Append the bytes of a BrokerEndpoint of RegisterBrokerRecord v0/v1/v2/v3/v4 to ``out``."""
    out.append(
        encode_string(
            v.name, "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerEndpoint.name", compact=True, nullable=False
        )
    )
    out.append(
        encode_string(
            v.host, "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerEndpoint.host", compact=True, nullable=False
        )
    )
    out.append(_S0.pack(v.port, v.security_protocol))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_broker_feature_v0(buf, pos: int, end: int) -> tuple[BrokerFeature, int]:
    """Read a BrokerFeature of RegisterBrokerRecord v0/v1/v2/v3/v4 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf, pos, end, "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerFeature.name", compact=True, nullable=False
    )
    if end - pos < 4:
        raise truncated(
            "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerFeature.min_supported_version", pos, 4, end
        )
    (
        f_min_supported_version,
        f_max_supported_version,
    ) = _S1.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerFeature tagged fields"
    )
    return BrokerFeature(f_name, f_min_supported_version, f_max_supported_version, unknown), pos


def _write_broker_feature_v0(v: BrokerFeature, out: list) -> None:
    """Append the bytes of a BrokerFeature of RegisterBrokerRecord v0/v1/v2/v3/v4 to ``out``."""
    out.append(
        encode_string(
            v.name, "RegisterBrokerRecord v0/v1/v2/v3/v4 BrokerFeature.name", compact=True, nullable=False
        )
    )
    out.append(_S1.pack(v.min_supported_version, v.max_supported_version))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_register_broker_record_v0(buf, pos: int, end: int) -> tuple[RegisterBrokerRecord, int]:
    """Read a RegisterBrokerRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 28:
        raise truncated("RegisterBrokerRecord v0 RegisterBrokerRecord.broker_id", pos, 28, end)
    (
        f_broker_id,
        f_incarnation_id,
        f_broker_epoch,
    ) = _S2.unpack_from(buf, pos)
    pos += 28
    f_incarnation_id = UUID(bytes=f_incarnation_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v0 RegisterBrokerRecord.end_points",
        compact=True,
        nullable=False,
        min_size=7,
    )
    f_end_points = []
    append = f_end_points.append
    for _ in range(n):
        item, pos = _read_broker_endpoint_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v0 RegisterBrokerRecord.features",
        compact=True,
        nullable=False,
        min_size=6,
    )
    f_features = []
    append = f_features.append
    for _ in range(n):
        item, pos = _read_broker_feature_v0(buf, pos, end)
        append(item)
    f_rack, pos = read_string(
        buf, pos, end, "RegisterBrokerRecord v0 RegisterBrokerRecord.rack", compact=True, nullable=True
    )
    f_fenced, pos = read_bool(buf, pos, end, "RegisterBrokerRecord v0 RegisterBrokerRecord.fenced")
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RegisterBrokerRecord v0 RegisterBrokerRecord tagged fields"
    )
    return RegisterBrokerRecord(
        f_broker_id,
        False,
        f_incarnation_id,
        f_broker_epoch,
        f_end_points,
        f_features,
        f_rack,
        f_fenced,
        False,
        [],
        None,
        unknown,
    ), pos


def _write_register_broker_record_v0(v: RegisterBrokerRecord, out: list) -> None:
    """Append the bytes of a RegisterBrokerRecord v0 to ``out``."""
    absent(
        v.is_migrating_zk_broker, False, "RegisterBrokerRecord v0 RegisterBrokerRecord.is_migrating_zk_broker"
    )
    absent(
        v.in_controlled_shutdown, False, "RegisterBrokerRecord v0 RegisterBrokerRecord.in_controlled_shutdown"
    )
    absent(v.log_dirs, [], "RegisterBrokerRecord v0 RegisterBrokerRecord.log_dirs")
    absent(v.cordoned_log_dirs, None, "RegisterBrokerRecord v0 RegisterBrokerRecord.cordoned_log_dirs")
    out.append(_S2.pack(v.broker_id, v.incarnation_id.bytes, v.broker_epoch))
    out.append(
        encode_count(
            v.end_points,
            "RegisterBrokerRecord v0 RegisterBrokerRecord.end_points",
            compact=True,
            nullable=False,
        )
    )
    for item in v.end_points:
        _write_broker_endpoint_v0(item, out)
    out.append(
        encode_count(
            v.features, "RegisterBrokerRecord v0 RegisterBrokerRecord.features", compact=True, nullable=False
        )
    )
    for item in v.features:
        _write_broker_feature_v0(item, out)
    out.append(
        encode_string(
            v.rack, "RegisterBrokerRecord v0 RegisterBrokerRecord.rack", compact=True, nullable=True
        )
    )
    out.append(b"\x01" if v.fenced else b"\x00")
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_register_broker_record_v1(buf, pos: int, end: int) -> tuple[RegisterBrokerRecord, int]:
    """Read a RegisterBrokerRecord v1 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 28:
        raise truncated("RegisterBrokerRecord v1 RegisterBrokerRecord.broker_id", pos, 28, end)
    (
        f_broker_id,
        f_incarnation_id,
        f_broker_epoch,
    ) = _S2.unpack_from(buf, pos)
    pos += 28
    f_incarnation_id = UUID(bytes=f_incarnation_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v1 RegisterBrokerRecord.end_points",
        compact=True,
        nullable=False,
        min_size=7,
    )
    f_end_points = []
    append = f_end_points.append
    for _ in range(n):
        item, pos = _read_broker_endpoint_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v1 RegisterBrokerRecord.features",
        compact=True,
        nullable=False,
        min_size=6,
    )
    f_features = []
    append = f_features.append
    for _ in range(n):
        item, pos = _read_broker_feature_v0(buf, pos, end)
        append(item)
    f_rack, pos = read_string(
        buf, pos, end, "RegisterBrokerRecord v1 RegisterBrokerRecord.rack", compact=True, nullable=True
    )
    f_fenced, pos = read_bool(buf, pos, end, "RegisterBrokerRecord v1 RegisterBrokerRecord.fenced")
    f_in_controlled_shutdown, pos = read_bool(
        buf, pos, end, "RegisterBrokerRecord v1 RegisterBrokerRecord.in_controlled_shutdown"
    )
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RegisterBrokerRecord v1 RegisterBrokerRecord tagged fields"
    )
    return RegisterBrokerRecord(
        f_broker_id,
        False,
        f_incarnation_id,
        f_broker_epoch,
        f_end_points,
        f_features,
        f_rack,
        f_fenced,
        f_in_controlled_shutdown,
        [],
        None,
        unknown,
    ), pos


def _write_register_broker_record_v1(v: RegisterBrokerRecord, out: list) -> None:
    """Append the bytes of a RegisterBrokerRecord v1 to ``out``."""
    absent(
        v.is_migrating_zk_broker, False, "RegisterBrokerRecord v1 RegisterBrokerRecord.is_migrating_zk_broker"
    )
    absent(v.log_dirs, [], "RegisterBrokerRecord v1 RegisterBrokerRecord.log_dirs")
    absent(v.cordoned_log_dirs, None, "RegisterBrokerRecord v1 RegisterBrokerRecord.cordoned_log_dirs")
    out.append(_S2.pack(v.broker_id, v.incarnation_id.bytes, v.broker_epoch))
    out.append(
        encode_count(
            v.end_points,
            "RegisterBrokerRecord v1 RegisterBrokerRecord.end_points",
            compact=True,
            nullable=False,
        )
    )
    for item in v.end_points:
        _write_broker_endpoint_v0(item, out)
    out.append(
        encode_count(
            v.features, "RegisterBrokerRecord v1 RegisterBrokerRecord.features", compact=True, nullable=False
        )
    )
    for item in v.features:
        _write_broker_feature_v0(item, out)
    out.append(
        encode_string(
            v.rack, "RegisterBrokerRecord v1 RegisterBrokerRecord.rack", compact=True, nullable=True
        )
    )
    out.append(b"\x01" if v.fenced else b"\x00")
    out.append(b"\x01" if v.in_controlled_shutdown else b"\x00")
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_register_broker_record_v2(buf, pos: int, end: int) -> tuple[RegisterBrokerRecord, int]:
    """Read a RegisterBrokerRecord v2 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("RegisterBrokerRecord v2 RegisterBrokerRecord.broker_id", pos, 4, end)
    (f_broker_id,) = _S3.unpack_from(buf, pos)
    pos += 4
    f_is_migrating_zk_broker, pos = read_bool(
        buf, pos, end, "RegisterBrokerRecord v2 RegisterBrokerRecord.is_migrating_zk_broker"
    )
    if end - pos < 24:
        raise truncated("RegisterBrokerRecord v2 RegisterBrokerRecord.incarnation_id", pos, 24, end)
    (
        f_incarnation_id,
        f_broker_epoch,
    ) = _S4.unpack_from(buf, pos)
    pos += 24
    f_incarnation_id = UUID(bytes=f_incarnation_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v2 RegisterBrokerRecord.end_points",
        compact=True,
        nullable=False,
        min_size=7,
    )
    f_end_points = []
    append = f_end_points.append
    for _ in range(n):
        item, pos = _read_broker_endpoint_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v2 RegisterBrokerRecord.features",
        compact=True,
        nullable=False,
        min_size=6,
    )
    f_features = []
    append = f_features.append
    for _ in range(n):
        item, pos = _read_broker_feature_v0(buf, pos, end)
        append(item)
    f_rack, pos = read_string(
        buf, pos, end, "RegisterBrokerRecord v2 RegisterBrokerRecord.rack", compact=True, nullable=True
    )
    f_fenced, pos = read_bool(buf, pos, end, "RegisterBrokerRecord v2 RegisterBrokerRecord.fenced")
    f_in_controlled_shutdown, pos = read_bool(
        buf, pos, end, "RegisterBrokerRecord v2 RegisterBrokerRecord.in_controlled_shutdown"
    )
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RegisterBrokerRecord v2 RegisterBrokerRecord tagged fields"
    )
    return RegisterBrokerRecord(
        f_broker_id,
        f_is_migrating_zk_broker,
        f_incarnation_id,
        f_broker_epoch,
        f_end_points,
        f_features,
        f_rack,
        f_fenced,
        f_in_controlled_shutdown,
        [],
        None,
        unknown,
    ), pos


def _write_register_broker_record_v2(v: RegisterBrokerRecord, out: list) -> None:
    """Append the bytes of a RegisterBrokerRecord v2 to ``out``."""
    absent(v.log_dirs, [], "RegisterBrokerRecord v2 RegisterBrokerRecord.log_dirs")
    absent(v.cordoned_log_dirs, None, "RegisterBrokerRecord v2 RegisterBrokerRecord.cordoned_log_dirs")
    out.append(_S3.pack(v.broker_id))
    out.append(b"\x01" if v.is_migrating_zk_broker else b"\x00")
    out.append(_S4.pack(v.incarnation_id.bytes, v.broker_epoch))
    out.append(
        encode_count(
            v.end_points,
            "RegisterBrokerRecord v2 RegisterBrokerRecord.end_points",
            compact=True,
            nullable=False,
        )
    )
    for item in v.end_points:
        _write_broker_endpoint_v0(item, out)
    out.append(
        encode_count(
            v.features, "RegisterBrokerRecord v2 RegisterBrokerRecord.features", compact=True, nullable=False
        )
    )
    for item in v.features:
        _write_broker_feature_v0(item, out)
    out.append(
        encode_string(
            v.rack, "RegisterBrokerRecord v2 RegisterBrokerRecord.rack", compact=True, nullable=True
        )
    )
    out.append(b"\x01" if v.fenced else b"\x00")
    out.append(b"\x01" if v.in_controlled_shutdown else b"\x00")
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_register_broker_record_v3(buf, pos: int, end: int) -> tuple[RegisterBrokerRecord, int]:
    """Read a RegisterBrokerRecord v3 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("RegisterBrokerRecord v3 RegisterBrokerRecord.broker_id", pos, 4, end)
    (f_broker_id,) = _S3.unpack_from(buf, pos)
    pos += 4
    f_is_migrating_zk_broker, pos = read_bool(
        buf, pos, end, "RegisterBrokerRecord v3 RegisterBrokerRecord.is_migrating_zk_broker"
    )
    if end - pos < 24:
        raise truncated("RegisterBrokerRecord v3 RegisterBrokerRecord.incarnation_id", pos, 24, end)
    (
        f_incarnation_id,
        f_broker_epoch,
    ) = _S4.unpack_from(buf, pos)
    pos += 24
    f_incarnation_id = UUID(bytes=f_incarnation_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v3 RegisterBrokerRecord.end_points",
        compact=True,
        nullable=False,
        min_size=7,
    )
    f_end_points = []
    append = f_end_points.append
    for _ in range(n):
        item, pos = _read_broker_endpoint_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v3 RegisterBrokerRecord.features",
        compact=True,
        nullable=False,
        min_size=6,
    )
    f_features = []
    append = f_features.append
    for _ in range(n):
        item, pos = _read_broker_feature_v0(buf, pos, end)
        append(item)
    f_rack, pos = read_string(
        buf, pos, end, "RegisterBrokerRecord v3 RegisterBrokerRecord.rack", compact=True, nullable=True
    )
    f_fenced, pos = read_bool(buf, pos, end, "RegisterBrokerRecord v3 RegisterBrokerRecord.fenced")
    f_in_controlled_shutdown, pos = read_bool(
        buf, pos, end, "RegisterBrokerRecord v3 RegisterBrokerRecord.in_controlled_shutdown"
    )
    f_log_dirs = []
    n, pos = read_uvarint(buf, pos, end, "RegisterBrokerRecord v3 RegisterBrokerRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "RegisterBrokerRecord v3 RegisterBrokerRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag("RegisterBrokerRecord v3 RegisterBrokerRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "RegisterBrokerRecord v3 RegisterBrokerRecord.log_dirs",
                compact=True,
                nullable=False,
                min_size=16,
            )
            f_log_dirs = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]
            pos += 16 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "RegisterBrokerRecord v3 RegisterBrokerRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return RegisterBrokerRecord(
        f_broker_id,
        f_is_migrating_zk_broker,
        f_incarnation_id,
        f_broker_epoch,
        f_end_points,
        f_features,
        f_rack,
        f_fenced,
        f_in_controlled_shutdown,
        f_log_dirs,
        None,
        unknown,
    ), pos


def _write_register_broker_record_v3(v: RegisterBrokerRecord, out: list) -> None:
    """Append the bytes of a RegisterBrokerRecord v3 to ``out``."""
    absent(v.cordoned_log_dirs, None, "RegisterBrokerRecord v3 RegisterBrokerRecord.cordoned_log_dirs")
    out.append(_S3.pack(v.broker_id))
    out.append(b"\x01" if v.is_migrating_zk_broker else b"\x00")
    out.append(_S4.pack(v.incarnation_id.bytes, v.broker_epoch))
    out.append(
        encode_count(
            v.end_points,
            "RegisterBrokerRecord v3 RegisterBrokerRecord.end_points",
            compact=True,
            nullable=False,
        )
    )
    for item in v.end_points:
        _write_broker_endpoint_v0(item, out)
    out.append(
        encode_count(
            v.features, "RegisterBrokerRecord v3 RegisterBrokerRecord.features", compact=True, nullable=False
        )
    )
    for item in v.features:
        _write_broker_feature_v0(item, out)
    out.append(
        encode_string(
            v.rack, "RegisterBrokerRecord v3 RegisterBrokerRecord.rack", compact=True, nullable=True
        )
    )
    out.append(b"\x01" if v.fenced else b"\x00")
    out.append(b"\x01" if v.in_controlled_shutdown else b"\x00")
    tags = list(v.unknown_tagged_fields)
    if v.log_dirs != []:
        outer, out = out, []
        out.append(
            encode_count(
                v.log_dirs,
                "RegisterBrokerRecord v3 RegisterBrokerRecord.log_dirs",
                compact=True,
                nullable=False,
            )
        )
        out += [u.bytes for u in v.log_dirs]
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_register_broker_record_v4(buf, pos: int, end: int) -> tuple[RegisterBrokerRecord, int]:
    """Read a RegisterBrokerRecord v4 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("RegisterBrokerRecord v4 RegisterBrokerRecord.broker_id", pos, 4, end)
    (f_broker_id,) = _S3.unpack_from(buf, pos)
    pos += 4
    f_is_migrating_zk_broker, pos = read_bool(
        buf, pos, end, "RegisterBrokerRecord v4 RegisterBrokerRecord.is_migrating_zk_broker"
    )
    if end - pos < 24:
        raise truncated("RegisterBrokerRecord v4 RegisterBrokerRecord.incarnation_id", pos, 24, end)
    (
        f_incarnation_id,
        f_broker_epoch,
    ) = _S4.unpack_from(buf, pos)
    pos += 24
    f_incarnation_id = UUID(bytes=f_incarnation_id)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v4 RegisterBrokerRecord.end_points",
        compact=True,
        nullable=False,
        min_size=7,
    )
    f_end_points = []
    append = f_end_points.append
    for _ in range(n):
        item, pos = _read_broker_endpoint_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "RegisterBrokerRecord v4 RegisterBrokerRecord.features",
        compact=True,
        nullable=False,
        min_size=6,
    )
    f_features = []
    append = f_features.append
    for _ in range(n):
        item, pos = _read_broker_feature_v0(buf, pos, end)
        append(item)
    f_rack, pos = read_string(
        buf, pos, end, "RegisterBrokerRecord v4 RegisterBrokerRecord.rack", compact=True, nullable=True
    )
    f_fenced, pos = read_bool(buf, pos, end, "RegisterBrokerRecord v4 RegisterBrokerRecord.fenced")
    f_in_controlled_shutdown, pos = read_bool(
        buf, pos, end, "RegisterBrokerRecord v4 RegisterBrokerRecord.in_controlled_shutdown"
    )
    f_log_dirs = []
    f_cordoned_log_dirs = None
    n, pos = read_uvarint(buf, pos, end, "RegisterBrokerRecord v4 RegisterBrokerRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "RegisterBrokerRecord v4 RegisterBrokerRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag("RegisterBrokerRecord v4 RegisterBrokerRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "RegisterBrokerRecord v4 RegisterBrokerRecord.log_dirs",
                compact=True,
                nullable=False,
                min_size=16,
            )
            f_log_dirs = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]
            pos += 16 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "RegisterBrokerRecord v4 RegisterBrokerRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 1:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "RegisterBrokerRecord v4 RegisterBrokerRecord.cordoned_log_dirs",
                compact=True,
                nullable=True,
                min_size=16,
            )
            if n == -1:
                f_cordoned_log_dirs = None
            else:
                f_cordoned_log_dirs = [
                    UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)
                ]
                pos += 16 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "RegisterBrokerRecord v4 RegisterBrokerRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return RegisterBrokerRecord(
        f_broker_id,
        f_is_migrating_zk_broker,
        f_incarnation_id,
        f_broker_epoch,
        f_end_points,
        f_features,
        f_rack,
        f_fenced,
        f_in_controlled_shutdown,
        f_log_dirs,
        f_cordoned_log_dirs,
        unknown,
    ), pos


def _write_register_broker_record_v4(v: RegisterBrokerRecord, out: list) -> None:
    """Append the bytes of a RegisterBrokerRecord v4 to ``out``."""
    out.append(_S3.pack(v.broker_id))
    out.append(b"\x01" if v.is_migrating_zk_broker else b"\x00")
    out.append(_S4.pack(v.incarnation_id.bytes, v.broker_epoch))
    out.append(
        encode_count(
            v.end_points,
            "RegisterBrokerRecord v4 RegisterBrokerRecord.end_points",
            compact=True,
            nullable=False,
        )
    )
    for item in v.end_points:
        _write_broker_endpoint_v0(item, out)
    out.append(
        encode_count(
            v.features, "RegisterBrokerRecord v4 RegisterBrokerRecord.features", compact=True, nullable=False
        )
    )
    for item in v.features:
        _write_broker_feature_v0(item, out)
    out.append(
        encode_string(
            v.rack, "RegisterBrokerRecord v4 RegisterBrokerRecord.rack", compact=True, nullable=True
        )
    )
    out.append(b"\x01" if v.fenced else b"\x00")
    out.append(b"\x01" if v.in_controlled_shutdown else b"\x00")
    tags = list(v.unknown_tagged_fields)
    if v.log_dirs != []:
        outer, out = out, []
        out.append(
            encode_count(
                v.log_dirs,
                "RegisterBrokerRecord v4 RegisterBrokerRecord.log_dirs",
                compact=True,
                nullable=False,
            )
        )
        out += [u.bytes for u in v.log_dirs]
        tags.append((0, b"".join(out)))
        out = outer
    if v.cordoned_log_dirs is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.cordoned_log_dirs,
                "RegisterBrokerRecord v4 RegisterBrokerRecord.cordoned_log_dirs",
                compact=True,
                nullable=True,
            )
        )
        if v.cordoned_log_dirs is not None:
            out += [u.bytes for u in v.cordoned_log_dirs]
        tags.append((1, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_register_broker_record_v0,
    1: _read_register_broker_record_v1,
    2: _read_register_broker_record_v2,
    3: _read_register_broker_record_v3,
    4: _read_register_broker_record_v4,
}
_WRITERS = {
    0: _write_register_broker_record_v0,
    1: _write_register_broker_record_v1,
    2: _write_register_broker_record_v2,
    3: _write_register_broker_record_v3,
    4: _write_register_broker_record_v4,
}


def decode_register_broker_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RegisterBrokerRecord, int]:
    """Decode a RegisterBrokerRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RegisterBrokerRecord: unknown version {version} (this schema has versions 0-4)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_register_broker_record(value: RegisterBrokerRecord, version: int) -> bytes:
    """Encode ``value`` as RegisterBrokerRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"RegisterBrokerRecord: unknown version {version} (this schema has versions 0-4)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"RegisterBrokerRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
