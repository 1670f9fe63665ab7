"""ShareGroupMemberMetadataValue, versions 0 (flexible: 0+): What one member of a share group (KIP-932) told the coordinator: client, rack and subscription.

Generated from schemas/messages/share_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
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
    read_count,
    read_string,
    read_unknown_tags,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/share_group_member_metadata_value.yaml"
NAME = "ShareGroupMemberMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (10,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None


# -- typed values ---------------------------------------------------------------


class ShareGroupMemberMetadataValue(NamedTuple):
    """What one member of a share group (KIP-932) told the coordinator: client, rack and subscription.

    Fields:
        rack_id: The member's rack, or null. (versions 0+, nullable 0+)
        client_id: The member's client.id. (versions 0+)
        client_host: Host the member connected from. (versions 0+)
        subscribed_topic_names: Topics the member subscribes to by name. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    rack_id: str | None = ""
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: list[str] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_share_group_member_metadata_value_v0(
    buf, pos: int, end: int
) -> tuple[ShareGroupMemberMetadataValue, int]:
    """Read a ShareGroupMemberMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_rack_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.rack_id",
        compact=True,
        nullable=True,
    )
    f_client_id, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.client_id",
        compact=True,
        nullable=False,
    )
    f_client_host, pos = read_string(
        buf,
        pos,
        end,
        "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.client_host",
        compact=True,
        nullable=False,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.subscribed_topic_names",
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
            "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.subscribed_topic_names",
            compact=True,
            nullable=False,
        )
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue tagged fields"
    )
    return ShareGroupMemberMetadataValue(
        f_rack_id, f_client_id, f_client_host, f_subscribed_topic_names, unknown
    ), pos


def _write_share_group_member_metadata_value_v0(v: ShareGroupMemberMetadataValue, out: list) -> None:
    """Append the bytes of a ShareGroupMemberMetadataValue v0 to ``out``."""
    out.append(
        encode_string(
            v.rack_id,
            "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.rack_id",
            compact=True,
            nullable=True,
        )
    )
    out.append(
        encode_string(
            v.client_id,
            "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.client_id",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.client_host,
            "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.client_host",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.subscribed_topic_names,
            "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.subscribed_topic_names",
            compact=True,
            nullable=False,
        )
    )
    for item in v.subscribed_topic_names:
        out.append(
            encode_string(
                item,
                "ShareGroupMemberMetadataValue v0 ShareGroupMemberMetadataValue.subscribed_topic_names",
                compact=True,
                nullable=False,
            )
        )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_share_group_member_metadata_value_v0,
}
_WRITERS = {
    0: _write_share_group_member_metadata_value_v0,
}


def decode_share_group_member_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ShareGroupMemberMetadataValue, int]:
    """Decode a ShareGroupMemberMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ShareGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_share_group_member_metadata_value(value: ShareGroupMemberMetadataValue, version: int) -> bytes:
    """Encode ``value`` as ShareGroupMemberMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ShareGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ShareGroupMemberMetadataValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
