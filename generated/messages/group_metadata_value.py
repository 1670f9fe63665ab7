"""GroupMetadataValue, versions 0-4 (flexible: 4+): The state of a classic consumer group: protocol, generation, leader and members. A null value (tombstone) deletes the group.

Generated from schemas/messages/group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    absent,
    encode_bytes,
    encode_count,
    encode_string,
    encode_tagged,
    read_bytes,
    read_count,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/group_metadata_value.yaml"
NAME = "GroupMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (2,)
VERSIONS = [0, 1, 2, 3, 4]
FLEXIBLE_VERSIONS = [4]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i")
_S1 = struct.Struct(">ii")
_S2 = struct.Struct(">q")

# -- typed values ---------------------------------------------------------------


class MemberMetadata(NamedTuple):
    """One member of a classic group.

    Fields:
        member_id: Member id the coordinator gave the member. (versions 0+)
        group_instance_id: Static membership id, or null for a dynamic member. (versions 3+, nullable 3+)
        client_id: The member's client.id. (versions 0+)
        client_host: Host the member connected from. (versions 0+)
        rebalance_timeout: Rebalance timeout (ms), or -1 in version 0. (versions 1+)
        session_timeout: Session timeout (ms). (versions 0+)
        subscription: The member's protocol metadata (for consumers: its subscription), opaque here. (versions 0+)
        assignment: The member's assignment from the leader, opaque here. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    member_id: str = ""
    group_instance_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    rebalance_timeout: int = -1
    session_timeout: int = 0
    subscription: bytes = b""
    assignment: bytes = b""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class GroupMetadataValue(NamedTuple):
    """The state of a classic consumer group: protocol, generation, leader and members. A null value (tombstone) deletes the group.

    Fields:
        protocol_type: Protocol type of the group ("consumer" for consumer groups; empty for an offsets-only group). (versions 0+)
        generation: Generation id: bumped at every rebalance. (versions 0+)
        protocol: Assignment strategy chosen, or null when the group is empty. (versions 0+, nullable 0+)
        leader: Member id of the group leader, or null. (versions 0+, nullable 0+)
        current_state_timestamp: When the group entered its current state (ms), or -1. (versions 2+)
        members: The members and their subscriptions and assignments. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    protocol_type: str = ""
    generation: int = 0
    protocol: str | None = ""
    leader: str | None = ""
    current_state_timestamp: int = -1
    members: list[MemberMetadata] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_member_metadata_v0(buf, pos: int, end: int) -> tuple[MemberMetadata, int]:
    """Read a MemberMetadata of GroupMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_member_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v0 MemberMetadata.member_id", compact=False, nullable=False
    )
    f_client_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v0 MemberMetadata.client_id", compact=False, nullable=False
    )
    f_client_host, pos = read_string(
        buf, pos, end, "GroupMetadataValue v0 MemberMetadata.client_host", compact=False, nullable=False
    )
    if end - pos < 4:
        raise truncated("GroupMetadataValue v0 MemberMetadata.session_timeout", pos, 4, end)
    (f_session_timeout,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_subscription, pos = read_bytes(
        buf, pos, end, "GroupMetadataValue v0 MemberMetadata.subscription", compact=False, nullable=False
    )
    f_assignment, pos = read_bytes(
        buf, pos, end, "GroupMetadataValue v0 MemberMetadata.assignment", compact=False, nullable=False
    )
    return MemberMetadata(
        f_member_id, None, f_client_id, f_client_host, -1, f_session_timeout, f_subscription, f_assignment, ()
    ), pos


def _write_member_metadata_v0(v: MemberMetadata, out: list) -> None:
    """Append the bytes of a MemberMetadata of GroupMetadataValue v0 to ``out``."""
    absent(v.group_instance_id, None, "GroupMetadataValue v0 MemberMetadata.group_instance_id")
    absent(v.rebalance_timeout, -1, "GroupMetadataValue v0 MemberMetadata.rebalance_timeout")
    absent(v.unknown_tagged_fields, (), "GroupMetadataValue v0 MemberMetadata tagged fields")
    out.append(
        encode_string(
            v.member_id, "GroupMetadataValue v0 MemberMetadata.member_id", compact=False, nullable=False
        )
    )
    out.append(
        encode_string(
            v.client_id, "GroupMetadataValue v0 MemberMetadata.client_id", compact=False, nullable=False
        )
    )
    out.append(
        encode_string(
            v.client_host, "GroupMetadataValue v0 MemberMetadata.client_host", compact=False, nullable=False
        )
    )
    out.append(_S0.pack(v.session_timeout))
    out.append(
        encode_bytes(
            v.subscription, "GroupMetadataValue v0 MemberMetadata.subscription", compact=False, nullable=False
        )
    )
    out.append(
        encode_bytes(
            v.assignment, "GroupMetadataValue v0 MemberMetadata.assignment", compact=False, nullable=False
        )
    )


def _read_member_metadata_v1(buf, pos: int, end: int) -> tuple[MemberMetadata, int]:
    """Read a MemberMetadata of GroupMetadataValue v1/v2 at ``pos``, inside ``buf[:end]``."""
    f_member_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v1/v2 MemberMetadata.member_id", compact=False, nullable=False
    )
    f_client_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v1/v2 MemberMetadata.client_id", compact=False, nullable=False
    )
    f_client_host, pos = read_string(
        buf, pos, end, "GroupMetadataValue v1/v2 MemberMetadata.client_host", compact=False, nullable=False
    )
    if end - pos < 8:
        raise truncated("GroupMetadataValue v1/v2 MemberMetadata.rebalance_timeout", pos, 8, end)
    (
        f_rebalance_timeout,
        f_session_timeout,
    ) = _S1.unpack_from(buf, pos)
    pos += 8
    f_subscription, pos = read_bytes(
        buf, pos, end, "GroupMetadataValue v1/v2 MemberMetadata.subscription", compact=False, nullable=False
    )
    f_assignment, pos = read_bytes(
        buf, pos, end, "GroupMetadataValue v1/v2 MemberMetadata.assignment", compact=False, nullable=False
    )
    return MemberMetadata(
        f_member_id,
        None,
        f_client_id,
        f_client_host,
        f_rebalance_timeout,
        f_session_timeout,
        f_subscription,
        f_assignment,
        (),
    ), pos


def _write_member_metadata_v1(v: MemberMetadata, out: list) -> None:
    """Append the bytes of a MemberMetadata of GroupMetadataValue v1/v2 to ``out``."""
    absent(v.group_instance_id, None, "GroupMetadataValue v1/v2 MemberMetadata.group_instance_id")
    absent(v.unknown_tagged_fields, (), "GroupMetadataValue v1/v2 MemberMetadata tagged fields")
    out.append(
        encode_string(
            v.member_id, "GroupMetadataValue v1/v2 MemberMetadata.member_id", compact=False, nullable=False
        )
    )
    out.append(
        encode_string(
            v.client_id, "GroupMetadataValue v1/v2 MemberMetadata.client_id", compact=False, nullable=False
        )
    )
    out.append(
        encode_string(
            v.client_host,
            "GroupMetadataValue v1/v2 MemberMetadata.client_host",
            compact=False,
            nullable=False,
        )
    )
    out.append(_S1.pack(v.rebalance_timeout, v.session_timeout))
    out.append(
        encode_bytes(
            v.subscription,
            "GroupMetadataValue v1/v2 MemberMetadata.subscription",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_bytes(
            v.assignment, "GroupMetadataValue v1/v2 MemberMetadata.assignment", compact=False, nullable=False
        )
    )


def _read_member_metadata_v3(buf, pos: int, end: int) -> tuple[MemberMetadata, int]:
    """Read a MemberMetadata of GroupMetadataValue v3 at ``pos``, inside ``buf[:end]``."""
    f_member_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v3 MemberMetadata.member_id", compact=False, nullable=False
    )
    f_group_instance_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v3 MemberMetadata.group_instance_id", compact=False, nullable=True
    )
    f_client_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v3 MemberMetadata.client_id", compact=False, nullable=False
    )
    f_client_host, pos = read_string(
        buf, pos, end, "GroupMetadataValue v3 MemberMetadata.client_host", compact=False, nullable=False
    )
    if end - pos < 8:
        raise truncated("GroupMetadataValue v3 MemberMetadata.rebalance_timeout", pos, 8, end)
    (
        f_rebalance_timeout,
        f_session_timeout,
    ) = _S1.unpack_from(buf, pos)
    pos += 8
    f_subscription, pos = read_bytes(
        buf, pos, end, "GroupMetadataValue v3 MemberMetadata.subscription", compact=False, nullable=False
    )
    f_assignment, pos = read_bytes(
        buf, pos, end, "GroupMetadataValue v3 MemberMetadata.assignment", compact=False, nullable=False
    )
    return MemberMetadata(
        f_member_id,
        f_group_instance_id,
        f_client_id,
        f_client_host,
        f_rebalance_timeout,
        f_session_timeout,
        f_subscription,
        f_assignment,
        (),
    ), pos


def _write_member_metadata_v3(v: MemberMetadata, out: list) -> None:
    """Append the bytes of a MemberMetadata of GroupMetadataValue v3 to ``out``."""
    absent(v.unknown_tagged_fields, (), "GroupMetadataValue v3 MemberMetadata tagged fields")
    out.append(
        encode_string(
            v.member_id, "GroupMetadataValue v3 MemberMetadata.member_id", compact=False, nullable=False
        )
    )
    out.append(
        encode_string(
            v.group_instance_id,
            "GroupMetadataValue v3 MemberMetadata.group_instance_id",
            compact=False,
            nullable=True,
        )
    )
    out.append(
        encode_string(
            v.client_id, "GroupMetadataValue v3 MemberMetadata.client_id", compact=False, nullable=False
        )
    )
    out.append(
        encode_string(
            v.client_host, "GroupMetadataValue v3 MemberMetadata.client_host", compact=False, nullable=False
        )
    )
    out.append(_S1.pack(v.rebalance_timeout, v.session_timeout))
    out.append(
        encode_bytes(
            v.subscription, "GroupMetadataValue v3 MemberMetadata.subscription", compact=False, nullable=False
        )
    )
    out.append(
        encode_bytes(
            v.assignment, "GroupMetadataValue v3 MemberMetadata.assignment", compact=False, nullable=False
        )
    )


def _read_member_metadata_v4(buf, pos: int, end: int) -> tuple[MemberMetadata, int]:
    """Read a MemberMetadata of GroupMetadataValue v4 at ``pos``, inside ``buf[:end]``."""
    f_member_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v4 MemberMetadata.member_id", compact=True, nullable=False
    )
    f_group_instance_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v4 MemberMetadata.group_instance_id", compact=True, nullable=True
    )
    f_client_id, pos = read_string(
        buf, pos, end, "GroupMetadataValue v4 MemberMetadata.client_id", compact=True, nullable=False
    )
    f_client_host, pos = read_string(
        buf, pos, end, "GroupMetadataValue v4 MemberMetadata.client_host", compact=True, nullable=False
    )
    if end - pos < 8:
        raise truncated("GroupMetadataValue v4 MemberMetadata.rebalance_timeout", pos, 8, end)
    (
        f_rebalance_timeout,
        f_session_timeout,
    ) = _S1.unpack_from(buf, pos)
    pos += 8
    f_subscription, pos = read_bytes(
        buf, pos, end, "GroupMetadataValue v4 MemberMetadata.subscription", compact=True, nullable=False
    )
    f_assignment, pos = read_bytes(
        buf, pos, end, "GroupMetadataValue v4 MemberMetadata.assignment", compact=True, nullable=False
    )
    unknown, pos = read_unknown_tags(buf, pos, end, "GroupMetadataValue v4 MemberMetadata tagged fields")
    return MemberMetadata(
        f_member_id,
        f_group_instance_id,
        f_client_id,
        f_client_host,
        f_rebalance_timeout,
        f_session_timeout,
        f_subscription,
        f_assignment,
        unknown,
    ), pos


def _write_member_metadata_v4(v: MemberMetadata, out: list) -> None:
    """Append the bytes of a MemberMetadata of GroupMetadataValue v4 to ``out``."""
    out.append(
        encode_string(
            v.member_id, "GroupMetadataValue v4 MemberMetadata.member_id", compact=True, nullable=False
        )
    )
    out.append(
        encode_string(
            v.group_instance_id,
            "GroupMetadataValue v4 MemberMetadata.group_instance_id",
            compact=True,
            nullable=True,
        )
    )
    out.append(
        encode_string(
            v.client_id, "GroupMetadataValue v4 MemberMetadata.client_id", compact=True, nullable=False
        )
    )
    out.append(
        encode_string(
            v.client_host, "GroupMetadataValue v4 MemberMetadata.client_host", compact=True, nullable=False
        )
    )
    out.append(_S1.pack(v.rebalance_timeout, v.session_timeout))
    out.append(
        encode_bytes(
            v.subscription, "GroupMetadataValue v4 MemberMetadata.subscription", compact=True, nullable=False
        )
    )
    out.append(
        encode_bytes(
            v.assignment, "GroupMetadataValue v4 MemberMetadata.assignment", compact=True, nullable=False
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_group_metadata_value_v0(buf, pos: int, end: int) -> tuple[GroupMetadataValue, int]:
    """Read a GroupMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_protocol_type, pos = read_string(
        buf, pos, end, "GroupMetadataValue v0 GroupMetadataValue.protocol_type", compact=False, nullable=False
    )
    if end - pos < 4:
        raise truncated("GroupMetadataValue v0 GroupMetadataValue.generation", pos, 4, end)
    (f_generation,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_protocol, pos = read_string(
        buf, pos, end, "GroupMetadataValue v0 GroupMetadataValue.protocol", compact=False, nullable=True
    )
    f_leader, pos = read_string(
        buf, pos, end, "GroupMetadataValue v0 GroupMetadataValue.leader", compact=False, nullable=True
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "GroupMetadataValue v0 GroupMetadataValue.members",
        compact=False,
        nullable=False,
        min_size=18,
    )
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _read_member_metadata_v0(buf, pos, end)
        append(item)
    return GroupMetadataValue(f_protocol_type, f_generation, f_protocol, f_leader, -1, f_members, ()), pos


def _write_group_metadata_value_v0(v: GroupMetadataValue, out: list) -> None:
    """Append the bytes of a GroupMetadataValue v0 to ``out``."""
    absent(v.current_state_timestamp, -1, "GroupMetadataValue v0 GroupMetadataValue.current_state_timestamp")
    absent(v.unknown_tagged_fields, (), "GroupMetadataValue v0 GroupMetadataValue tagged fields")
    out.append(
        encode_string(
            v.protocol_type,
            "GroupMetadataValue v0 GroupMetadataValue.protocol_type",
            compact=False,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.generation))
    out.append(
        encode_string(
            v.protocol, "GroupMetadataValue v0 GroupMetadataValue.protocol", compact=False, nullable=True
        )
    )
    out.append(
        encode_string(
            v.leader, "GroupMetadataValue v0 GroupMetadataValue.leader", compact=False, nullable=True
        )
    )
    out.append(
        encode_count(
            v.members, "GroupMetadataValue v0 GroupMetadataValue.members", compact=False, nullable=False
        )
    )
    for item in v.members:
        _write_member_metadata_v0(item, out)


def _read_group_metadata_value_v1(buf, pos: int, end: int) -> tuple[GroupMetadataValue, int]:
    """Read a GroupMetadataValue v1 at ``pos``, inside ``buf[:end]``."""
    f_protocol_type, pos = read_string(
        buf, pos, end, "GroupMetadataValue v1 GroupMetadataValue.protocol_type", compact=False, nullable=False
    )
    if end - pos < 4:
        raise truncated("GroupMetadataValue v1 GroupMetadataValue.generation", pos, 4, end)
    (f_generation,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_protocol, pos = read_string(
        buf, pos, end, "GroupMetadataValue v1 GroupMetadataValue.protocol", compact=False, nullable=True
    )
    f_leader, pos = read_string(
        buf, pos, end, "GroupMetadataValue v1 GroupMetadataValue.leader", compact=False, nullable=True
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "GroupMetadataValue v1 GroupMetadataValue.members",
        compact=False,
        nullable=False,
        min_size=22,
    )
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _read_member_metadata_v1(buf, pos, end)
        append(item)
    return GroupMetadataValue(f_protocol_type, f_generation, f_protocol, f_leader, -1, f_members, ()), pos


def _write_group_metadata_value_v1(v: GroupMetadataValue, out: list) -> None:
    """Append the bytes of a GroupMetadataValue v1 to ``out``."""
    absent(v.current_state_timestamp, -1, "GroupMetadataValue v1 GroupMetadataValue.current_state_timestamp")
    absent(v.unknown_tagged_fields, (), "GroupMetadataValue v1 GroupMetadataValue tagged fields")
    out.append(
        encode_string(
            v.protocol_type,
            "GroupMetadataValue v1 GroupMetadataValue.protocol_type",
            compact=False,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.generation))
    out.append(
        encode_string(
            v.protocol, "GroupMetadataValue v1 GroupMetadataValue.protocol", compact=False, nullable=True
        )
    )
    out.append(
        encode_string(
            v.leader, "GroupMetadataValue v1 GroupMetadataValue.leader", compact=False, nullable=True
        )
    )
    out.append(
        encode_count(
            v.members, "GroupMetadataValue v1 GroupMetadataValue.members", compact=False, nullable=False
        )
    )
    for item in v.members:
        _write_member_metadata_v1(item, out)


def _read_group_metadata_value_v2(buf, pos: int, end: int) -> tuple[GroupMetadataValue, int]:
    """Read a GroupMetadataValue v2 at ``pos``, inside ``buf[:end]``."""
    f_protocol_type, pos = read_string(
        buf, pos, end, "GroupMetadataValue v2 GroupMetadataValue.protocol_type", compact=False, nullable=False
    )
    if end - pos < 4:
        raise truncated("GroupMetadataValue v2 GroupMetadataValue.generation", pos, 4, end)
    (f_generation,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_protocol, pos = read_string(
        buf, pos, end, "GroupMetadataValue v2 GroupMetadataValue.protocol", compact=False, nullable=True
    )
    f_leader, pos = read_string(
        buf, pos, end, "GroupMetadataValue v2 GroupMetadataValue.leader", compact=False, nullable=True
    )
    if end - pos < 8:
        raise truncated("GroupMetadataValue v2 GroupMetadataValue.current_state_timestamp", pos, 8, end)
    (f_current_state_timestamp,) = _S2.unpack_from(buf, pos)
    pos += 8
    n, pos = read_count(
        buf,
        pos,
        end,
        "GroupMetadataValue v2 GroupMetadataValue.members",
        compact=False,
        nullable=False,
        min_size=22,
    )
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _read_member_metadata_v1(buf, pos, end)
        append(item)
    return GroupMetadataValue(
        f_protocol_type, f_generation, f_protocol, f_leader, f_current_state_timestamp, f_members, ()
    ), pos


def _write_group_metadata_value_v2(v: GroupMetadataValue, out: list) -> None:
    """Append the bytes of a GroupMetadataValue v2 to ``out``."""
    absent(v.unknown_tagged_fields, (), "GroupMetadataValue v2 GroupMetadataValue tagged fields")
    out.append(
        encode_string(
            v.protocol_type,
            "GroupMetadataValue v2 GroupMetadataValue.protocol_type",
            compact=False,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.generation))
    out.append(
        encode_string(
            v.protocol, "GroupMetadataValue v2 GroupMetadataValue.protocol", compact=False, nullable=True
        )
    )
    out.append(
        encode_string(
            v.leader, "GroupMetadataValue v2 GroupMetadataValue.leader", compact=False, nullable=True
        )
    )
    out.append(_S2.pack(v.current_state_timestamp))
    out.append(
        encode_count(
            v.members, "GroupMetadataValue v2 GroupMetadataValue.members", compact=False, nullable=False
        )
    )
    for item in v.members:
        _write_member_metadata_v1(item, out)


def _read_group_metadata_value_v3(buf, pos: int, end: int) -> tuple[GroupMetadataValue, int]:
    """Read a GroupMetadataValue v3 at ``pos``, inside ``buf[:end]``."""
    f_protocol_type, pos = read_string(
        buf, pos, end, "GroupMetadataValue v3 GroupMetadataValue.protocol_type", compact=False, nullable=False
    )
    if end - pos < 4:
        raise truncated("GroupMetadataValue v3 GroupMetadataValue.generation", pos, 4, end)
    (f_generation,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_protocol, pos = read_string(
        buf, pos, end, "GroupMetadataValue v3 GroupMetadataValue.protocol", compact=False, nullable=True
    )
    f_leader, pos = read_string(
        buf, pos, end, "GroupMetadataValue v3 GroupMetadataValue.leader", compact=False, nullable=True
    )
    if end - pos < 8:
        raise truncated("GroupMetadataValue v3 GroupMetadataValue.current_state_timestamp", pos, 8, end)
    (f_current_state_timestamp,) = _S2.unpack_from(buf, pos)
    pos += 8
    n, pos = read_count(
        buf,
        pos,
        end,
        "GroupMetadataValue v3 GroupMetadataValue.members",
        compact=False,
        nullable=False,
        min_size=24,
    )
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _read_member_metadata_v3(buf, pos, end)
        append(item)
    return GroupMetadataValue(
        f_protocol_type, f_generation, f_protocol, f_leader, f_current_state_timestamp, f_members, ()
    ), pos


def _write_group_metadata_value_v3(v: GroupMetadataValue, out: list) -> None:
    """Append the bytes of a GroupMetadataValue v3 to ``out``."""
    absent(v.unknown_tagged_fields, (), "GroupMetadataValue v3 GroupMetadataValue tagged fields")
    out.append(
        encode_string(
            v.protocol_type,
            "GroupMetadataValue v3 GroupMetadataValue.protocol_type",
            compact=False,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.generation))
    out.append(
        encode_string(
            v.protocol, "GroupMetadataValue v3 GroupMetadataValue.protocol", compact=False, nullable=True
        )
    )
    out.append(
        encode_string(
            v.leader, "GroupMetadataValue v3 GroupMetadataValue.leader", compact=False, nullable=True
        )
    )
    out.append(_S2.pack(v.current_state_timestamp))
    out.append(
        encode_count(
            v.members, "GroupMetadataValue v3 GroupMetadataValue.members", compact=False, nullable=False
        )
    )
    for item in v.members:
        _write_member_metadata_v3(item, out)


def _read_group_metadata_value_v4(buf, pos: int, end: int) -> tuple[GroupMetadataValue, int]:
    """Read a GroupMetadataValue v4 at ``pos``, inside ``buf[:end]``."""
    f_protocol_type, pos = read_string(
        buf, pos, end, "GroupMetadataValue v4 GroupMetadataValue.protocol_type", compact=True, nullable=False
    )
    if end - pos < 4:
        raise truncated("GroupMetadataValue v4 GroupMetadataValue.generation", pos, 4, end)
    (f_generation,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_protocol, pos = read_string(
        buf, pos, end, "GroupMetadataValue v4 GroupMetadataValue.protocol", compact=True, nullable=True
    )
    f_leader, pos = read_string(
        buf, pos, end, "GroupMetadataValue v4 GroupMetadataValue.leader", compact=True, nullable=True
    )
    if end - pos < 8:
        raise truncated("GroupMetadataValue v4 GroupMetadataValue.current_state_timestamp", pos, 8, end)
    (f_current_state_timestamp,) = _S2.unpack_from(buf, pos)
    pos += 8
    n, pos = read_count(
        buf,
        pos,
        end,
        "GroupMetadataValue v4 GroupMetadataValue.members",
        compact=True,
        nullable=False,
        min_size=15,
    )
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _read_member_metadata_v4(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(buf, pos, end, "GroupMetadataValue v4 GroupMetadataValue tagged fields")
    return GroupMetadataValue(
        f_protocol_type, f_generation, f_protocol, f_leader, f_current_state_timestamp, f_members, unknown
    ), pos


def _write_group_metadata_value_v4(v: GroupMetadataValue, out: list) -> None:
    """Append the bytes of a GroupMetadataValue v4 to ``out``."""
    out.append(
        encode_string(
            v.protocol_type,
            "GroupMetadataValue v4 GroupMetadataValue.protocol_type",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.generation))
    out.append(
        encode_string(
            v.protocol, "GroupMetadataValue v4 GroupMetadataValue.protocol", compact=True, nullable=True
        )
    )
    out.append(
        encode_string(
            v.leader, "GroupMetadataValue v4 GroupMetadataValue.leader", compact=True, nullable=True
        )
    )
    out.append(_S2.pack(v.current_state_timestamp))
    out.append(
        encode_count(
            v.members, "GroupMetadataValue v4 GroupMetadataValue.members", compact=True, nullable=False
        )
    )
    for item in v.members:
        _write_member_metadata_v4(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_group_metadata_value_v0,
    1: _read_group_metadata_value_v1,
    2: _read_group_metadata_value_v2,
    3: _read_group_metadata_value_v3,
    4: _read_group_metadata_value_v4,
}
_WRITERS = {
    0: _write_group_metadata_value_v0,
    1: _write_group_metadata_value_v1,
    2: _write_group_metadata_value_v2,
    3: _write_group_metadata_value_v3,
    4: _write_group_metadata_value_v4,
}


def decode_group_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[GroupMetadataValue, int]:
    """Decode a GroupMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"GroupMetadataValue: unknown version {version} (this schema has versions 0-4)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_group_metadata_value(value: GroupMetadataValue, version: int) -> bytes:
    """Encode ``value`` as GroupMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"GroupMetadataValue: unknown version {version} (this schema has versions 0-4)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"GroupMetadataValue v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
