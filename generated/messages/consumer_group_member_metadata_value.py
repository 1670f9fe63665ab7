"""ConsumerGroupMemberMetadataValue, versions 0 (flexible: 0+): What one member of a consumer group (KIP-848) told the coordinator: client, rack and subscription.

Generated from schemas/messages/consumer_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    bad_presence,
    encode_bytes,
    encode_count,
    encode_string,
    encode_tagged,
    read_bytes,
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

SCHEMA = "schemas/messages/consumer_group_member_metadata_value.yaml"
NAME = "ConsumerGroupMemberMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (5,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class ClassicProtocol(NamedTuple):
    """The assignment protocols the classic-protocol member supports.

    Fields:
        name: Protocol name. (versions 0+)
        metadata: Protocol metadata, opaque here. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    metadata: bytes = b""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ClassicMemberMetadata(NamedTuple):
    """For a member using the classic protocol: its session timeout and protocols. When the tag is absent Kafka reads an empty structure (timeout 0, no protocols), not null; a written null stays null.

    Fields:
        session_timeout_ms: Session timeout (ms) of the classic-protocol member. (versions 0+)
        supported_protocols: The assignment protocols the classic-protocol member supports. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    session_timeout_ms: int = 0
    supported_protocols: list[ClassicProtocol] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class ConsumerGroupMemberMetadataValue(NamedTuple):
    """What one member of a consumer group (KIP-848) told the coordinator: client, rack and subscription.

    Fields:
        instance_id: Static membership id, or null. (versions 0+, nullable 0+)
        rack_id: The member's rack, or null. (versions 0+, nullable 0+)
        client_id: The member's client.id. (versions 0+)
        client_host: Host the member connected from. (versions 0+)
        subscribed_topic_names: Topics the member subscribes to by name. (versions 0+)
        subscribed_topic_regex: Regular expression the member subscribes with, or null. (versions 0+, nullable 0+)
        rebalance_timeout_ms: Rebalance timeout (ms), or -1. (versions 0+)
        server_assignor: Server-side assignor the member asked for, or null. (versions 0+, nullable 0+)
        classic_member_metadata: For a member using the classic protocol: its session timeout and protocols. When the tag is absent Kafka reads an empty structure (timeout 0, no protocols), not null; a written null stays null. (versions 0+, nullable 0+, tagged 0 in 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    instance_id: str | None = ""
    rack_id: str | None = ""
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: list[str] = EMPTY_LIST
    subscribed_topic_regex: str | None = ""
    rebalance_timeout_ms: int = -1
    server_assignor: str | None = ""
    classic_member_metadata: ClassicMemberMetadata | None = ClassicMemberMetadata()
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_classic_protocol_v0(buf, pos: int, end: int) -> tuple[ClassicProtocol, int]:
    """Read a ClassicProtocol of ConsumerGroupMemberMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ClassicProtocol.name",
        compact=True,
        nullable=False,
    )
    f_metadata, pos = read_bytes(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ClassicProtocol.metadata",
        compact=True,
        nullable=False,
    )
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ConsumerGroupMemberMetadataValue v0 ClassicProtocol tagged fields"
    )
    return ClassicProtocol(f_name, f_metadata, unknown), pos


def _write_classic_protocol_v0(v: ClassicProtocol, out: list) -> None:
    """Append the bytes of a ClassicProtocol of ConsumerGroupMemberMetadataValue v0 to ``out``."""
    out.append(
        encode_string(
            v.name, "ConsumerGroupMemberMetadataValue v0 ClassicProtocol.name", compact=True, nullable=False
        )
    )
    out.append(
        encode_bytes(
            v.metadata,
            "ConsumerGroupMemberMetadataValue v0 ClassicProtocol.metadata",
            compact=True,
            nullable=False,
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_classic_member_metadata_v0(buf, pos: int, end: int) -> tuple[ClassicMemberMetadata, int]:
    """Read a ClassicMemberMetadata of ConsumerGroupMemberMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated(
            "ConsumerGroupMemberMetadataValue v0 ClassicMemberMetadata.session_timeout_ms", pos, 4, end
        )
    (f_session_timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ClassicMemberMetadata.supported_protocols",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_supported_protocols = []
    append = f_supported_protocols.append
    for _ in range(n):
        item, pos = _read_classic_protocol_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ConsumerGroupMemberMetadataValue v0 ClassicMemberMetadata tagged fields"
    )
    return ClassicMemberMetadata(f_session_timeout_ms, f_supported_protocols, unknown), pos


def _write_classic_member_metadata_v0(v: ClassicMemberMetadata, out: list) -> None:
    """Append the bytes of a ClassicMemberMetadata of ConsumerGroupMemberMetadataValue v0 to ``out``."""
    out.append(_S0.pack(v.session_timeout_ms))
    out.append(
        encode_count(
            v.supported_protocols,
            "ConsumerGroupMemberMetadataValue v0 ClassicMemberMetadata.supported_protocols",
            compact=True,
            nullable=False,
        )
    )
    for item in v.supported_protocols:
        _write_classic_protocol_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_consumer_group_member_metadata_value_v0(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupMemberMetadataValue, int]:
    """Read a ConsumerGroupMemberMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_instance_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.instance_id",
        compact=True,
        nullable=True,
    )
    f_rack_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.rack_id",
        compact=True,
        nullable=True,
    )
    f_client_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.client_id",
        compact=True,
        nullable=False,
    )
    f_client_host, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.client_host",
        compact=True,
        nullable=False,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.subscribed_topic_names",
        compact=True,
        nullable=False,
        min_size=1,
    )
    f_subscribed_topic_names = []
    append = f_subscribed_topic_names.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.subscribed_topic_names",
            compact=True,
            nullable=False,
        )
        append(item)
    f_subscribed_topic_regex, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.subscribed_topic_regex",
        compact=True,
        nullable=True,
    )
    if end - pos < 4:
        raise truncated(
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.rebalance_timeout_ms",
            pos,
            4,
            end,
        )
    (f_rebalance_timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_server_assignor, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.server_assignor",
        compact=True,
        nullable=True,
    )
    f_classic_member_metadata = ClassicMemberMetadata()
    n, pos = read_uvarint(
        buf, pos, end, "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf,
            pos,
            end,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue tagged fields",
        )
        if tag in seen:
            raise repeated_tag(
                "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            if pos >= stop:
                raise truncated(
                    "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.classic_member_metadata",
                    pos,
                    1,
                    stop,
                )
            if buf[pos] == 0x00:  # uvarint 0: null
                f_classic_member_metadata = None
                pos += 1
            elif buf[pos] == 1:
                f_classic_member_metadata, pos = _read_classic_member_metadata_v0(buf, pos + 1, stop)
            else:
                raise bad_presence(
                    "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.classic_member_metadata",
                    buf[pos],
                    pos,
                )
            if pos != stop:
                raise tagged_size_mismatch(
                    "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return ConsumerGroupMemberMetadataValue(
        f_instance_id,
        f_rack_id,
        f_client_id,
        f_client_host,
        f_subscribed_topic_names,
        f_subscribed_topic_regex,
        f_rebalance_timeout_ms,
        f_server_assignor,
        f_classic_member_metadata,
        unknown,
    ), pos


def _write_consumer_group_member_metadata_value_v0(v: ConsumerGroupMemberMetadataValue, out: list) -> None:
    """Append the bytes of a ConsumerGroupMemberMetadataValue v0 to ``out``."""
    out.append(
        encode_string(
            v.instance_id,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.instance_id",
            compact=True,
            nullable=True,
        )
    )
    out.append(
        encode_string(
            v.rack_id,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.rack_id",
            compact=True,
            nullable=True,
        )
    )
    out.append(
        encode_string(
            v.client_id,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.client_id",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.client_host,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.client_host",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.subscribed_topic_names,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.subscribed_topic_names",
            compact=True,
            nullable=False,
        )
    )
    for item in v.subscribed_topic_names:
        out.append(
            encode_string(
                item,
                "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.subscribed_topic_names",
                compact=True,
                nullable=False,
            )
        )
    out.append(
        encode_string(
            v.subscribed_topic_regex,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.subscribed_topic_regex",
            compact=True,
            nullable=True,
        )
    )
    out.append(_S0.pack(v.rebalance_timeout_ms))
    out.append(
        encode_string(
            v.server_assignor,
            "ConsumerGroupMemberMetadataValue v0 ConsumerGroupMemberMetadataValue.server_assignor",
            compact=True,
            nullable=True,
        )
    )
    tags = list(v.unknown_tagged_fields)
    if v.classic_member_metadata != ClassicMemberMetadata():
        outer, out = out, []
        if v.classic_member_metadata is None:
            out.append(b"\x00")
        else:
            out.append(b"\x01")
            _write_classic_member_metadata_v0(v.classic_member_metadata, out)
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_consumer_group_member_metadata_value_v0,
}
_WRITERS = {
    0: _write_consumer_group_member_metadata_value_v0,
}


def decode_consumer_group_member_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupMemberMetadataValue, int]:
    """Decode a ConsumerGroupMemberMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_member_metadata_value(
    value: ConsumerGroupMemberMetadataValue, version: int
) -> bytes:
    """Encode ``value`` as ConsumerGroupMemberMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupMemberMetadataValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
