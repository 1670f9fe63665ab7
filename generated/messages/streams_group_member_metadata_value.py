"""StreamsGroupMemberMetadataValue, versions 0 (flexible: 0+): What one member of a streams group (KIP-1071) told the coordinator: client, rack, process, topology epoch and query endpoint.

Generated from schemas/messages/streams_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    bad_presence,
    encode_count,
    encode_string,
    encode_tagged,
    read_count,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/streams_group_member_metadata_value.yaml"
NAME = "StreamsGroupMemberMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (19,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">H")
_S1 = struct.Struct(">ii")

# -- typed values ---------------------------------------------------------------


class Endpoint(NamedTuple):
    """Host and port where the instance answers interactive queries, or null.

    Fields:
        host: Host name. (versions 0+)
        port: Port. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    host: str = ""
    port: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class KeyValue(NamedTuple):
    """Client tags, for rack-aware assignment.

    Fields:
        key: Tag name. (versions 0+)
        value: Tag value. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    key: str = ""
    value: str = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class StreamsGroupMemberMetadataValue(NamedTuple):
    """What one member of a streams group (KIP-1071) told the coordinator: client, rack, process, topology epoch and query endpoint.

    Fields:
        instance_id: Static membership id, or null. (versions 0+, nullable 0+)
        rack_id: The member's rack, or null. (versions 0+, nullable 0+)
        client_id: The member's client.id. (versions 0+)
        client_host: Host the member connected from. (versions 0+)
        rebalance_timeout_ms: Rebalance timeout (ms), or -1. (versions 0+)
        topology_epoch: Epoch of the topology the member runs. (versions 0+)
        process_id: Id of the Streams instance (process) the member belongs to; one process may run several members. (versions 0+)
        user_endpoint: Host and port where the instance answers interactive queries, or null. (versions 0+, nullable 0+)
        client_tags: Client tags, for rack-aware assignment. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    instance_id: str | None = ""
    rack_id: str | None = ""
    client_id: str = ""
    client_host: str = ""
    rebalance_timeout_ms: int = -1
    topology_epoch: int = 0
    process_id: str = ""
    user_endpoint: Endpoint | None = None
    client_tags: list[KeyValue] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_endpoint_v0(buf, pos: int, end: int) -> tuple[Endpoint, int]:
    """Read an Endpoint of StreamsGroupMemberMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_host, pos = read_string(
        buf, pos, end, "StreamsGroupMemberMetadataValue v0 Endpoint.host", compact=True, nullable=False
    )
    if end - pos < 2:
        raise truncated("StreamsGroupMemberMetadataValue v0 Endpoint.port", pos, 2, end)
    (f_port,) = _S0.unpack_from(buf, pos)
    pos += 2
    unknown, pos = read_unknown_tags(
        buf, pos, end, "StreamsGroupMemberMetadataValue v0 Endpoint tagged fields"
    )
    return Endpoint(f_host, f_port, unknown), pos


def _write_endpoint_v0(v: Endpoint, out: list) -> None:
    """Append the bytes of an Endpoint of StreamsGroupMemberMetadataValue v0 to ``out``."""
    out.append(
        encode_string(
            v.host, "StreamsGroupMemberMetadataValue v0 Endpoint.host", compact=True, nullable=False
        )
    )
    out.append(_S0.pack(v.port))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_key_value_v0(buf, pos: int, end: int) -> tuple[KeyValue, int]:
    """Read a KeyValue of StreamsGroupMemberMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_key, pos = read_string(
        buf, pos, end, "StreamsGroupMemberMetadataValue v0 KeyValue.key", compact=True, nullable=False
    )
    f_value, pos = read_string(
        buf, pos, end, "StreamsGroupMemberMetadataValue v0 KeyValue.value", compact=True, nullable=False
    )
    unknown, pos = read_unknown_tags(
        buf, pos, end, "StreamsGroupMemberMetadataValue v0 KeyValue tagged fields"
    )
    return KeyValue(f_key, f_value, unknown), pos


def _write_key_value_v0(v: KeyValue, out: list) -> None:
    """Append the bytes of a KeyValue of StreamsGroupMemberMetadataValue v0 to ``out``."""
    out.append(
        encode_string(v.key, "StreamsGroupMemberMetadataValue v0 KeyValue.key", compact=True, nullable=False)
    )
    out.append(
        encode_string(
            v.value, "StreamsGroupMemberMetadataValue v0 KeyValue.value", compact=True, nullable=False
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_streams_group_member_metadata_value_v0(
    buf, pos: int, end: int
) -> tuple[StreamsGroupMemberMetadataValue, int]:
    """Read a StreamsGroupMemberMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_instance_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.instance_id",
        compact=True,
        nullable=True,
    )
    f_rack_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.rack_id",
        compact=True,
        nullable=True,
    )
    f_client_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.client_id",
        compact=True,
        nullable=False,
    )
    f_client_host, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.client_host",
        compact=True,
        nullable=False,
    )
    if end - pos < 8:
        raise truncated(
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.rebalance_timeout_ms",
            pos,
            8,
            end,
        )
    (
        f_rebalance_timeout_ms,
        f_topology_epoch,
    ) = _S1.unpack_from(buf, pos)
    pos += 8
    f_process_id, pos = read_string(
        buf,
        pos,
        end,
        "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.process_id",
        compact=True,
        nullable=False,
    )
    if pos >= end:
        raise truncated(
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.user_endpoint", pos, 1, end
        )
    if buf[pos] == 0xFF:  # int8 -1: null
        f_user_endpoint = None
        pos += 1
    elif buf[pos] == 1:
        f_user_endpoint, pos = _read_endpoint_v0(buf, pos + 1, end)
    else:
        raise bad_presence(
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.user_endpoint", buf[pos], pos
        )
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.client_tags",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_client_tags = []
    append = f_client_tags.append
    for _ in range(n):
        item, pos = _read_key_value_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue tagged fields"
    )
    return StreamsGroupMemberMetadataValue(
        f_instance_id,
        f_rack_id,
        f_client_id,
        f_client_host,
        f_rebalance_timeout_ms,
        f_topology_epoch,
        f_process_id,
        f_user_endpoint,
        f_client_tags,
        unknown,
    ), pos


def _write_streams_group_member_metadata_value_v0(v: StreamsGroupMemberMetadataValue, out: list) -> None:
    """Append the bytes of a StreamsGroupMemberMetadataValue v0 to ``out``."""
    out.append(
        encode_string(
            v.instance_id,
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.instance_id",
            compact=True,
            nullable=True,
        )
    )
    out.append(
        encode_string(
            v.rack_id,
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.rack_id",
            compact=True,
            nullable=True,
        )
    )
    out.append(
        encode_string(
            v.client_id,
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.client_id",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.client_host,
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.client_host",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S1.pack(v.rebalance_timeout_ms, v.topology_epoch))
    out.append(
        encode_string(
            v.process_id,
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.process_id",
            compact=True,
            nullable=False,
        )
    )
    if v.user_endpoint is None:
        out.append(b"\xff")
    else:
        out.append(b"\x01")
        _write_endpoint_v0(v.user_endpoint, out)
    out.append(
        encode_count(
            v.client_tags,
            "StreamsGroupMemberMetadataValue v0 StreamsGroupMemberMetadataValue.client_tags",
            compact=True,
            nullable=False,
        )
    )
    for item in v.client_tags:
        _write_key_value_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_streams_group_member_metadata_value_v0,
}
_WRITERS = {
    0: _write_streams_group_member_metadata_value_v0,
}


def decode_streams_group_member_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupMemberMetadataValue, int]:
    """Decode a StreamsGroupMemberMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_member_metadata_value(value: StreamsGroupMemberMetadataValue, version: int) -> bytes:
    """Encode ``value`` as StreamsGroupMemberMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"StreamsGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupMemberMetadataValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
