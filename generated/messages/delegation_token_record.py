"""DelegationTokenRecord, versions 0 (flexible: 0+): A delegation token was created or renewed.

Generated from schemas/messages/delegation_token_record.yaml by codegen. DO NOT EDIT.
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
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/delegation_token_record.yaml"
NAME = "DelegationTokenRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (10,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">qqq")

# -- typed values ---------------------------------------------------------------


class DelegationTokenRecord(NamedTuple):
    """A delegation token was created or renewed.

    Fields:
        owner: Principal owning the token. (versions 0+)
        requester: Principal that asked for the token. (versions 0+)
        renewers: Principals allowed to renew the token. (versions 0+)
        issue_timestamp: When the token was issued (ms). (versions 0+)
        max_timestamp: Time after which the token can no longer be renewed (ms). (versions 0+)
        expiration_timestamp: When the token expires unless renewed (ms). (versions 0+)
        token_id: Token id. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    owner: str = ""
    requester: str = ""
    renewers: list[str] = EMPTY_LIST
    issue_timestamp: int = 0
    max_timestamp: int = 0
    expiration_timestamp: int = 0
    token_id: str = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_delegation_token_record_v0(buf, pos: int, end: int) -> tuple[DelegationTokenRecord, int]:
    """Read a DelegationTokenRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_owner, pos = read_string(
        buf, pos, end, "DelegationTokenRecord v0 DelegationTokenRecord.owner", compact=True, nullable=False
    )
    f_requester, pos = read_string(
        buf,
        pos,
        end,
        "DelegationTokenRecord v0 DelegationTokenRecord.requester",
        compact=True,
        nullable=False,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "DelegationTokenRecord v0 DelegationTokenRecord.renewers",
        compact=True,
        nullable=False,
        min_size=1,
    )
    f_renewers = []
    append = f_renewers.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "DelegationTokenRecord v0 DelegationTokenRecord.renewers",
            compact=True,
            nullable=False,
        )
        append(item)
    if end - pos < 24:
        raise truncated("DelegationTokenRecord v0 DelegationTokenRecord.issue_timestamp", pos, 24, end)
    (
        f_issue_timestamp,
        f_max_timestamp,
        f_expiration_timestamp,
    ) = _S0.unpack_from(buf, pos)
    pos += 24
    f_token_id, pos = read_string(
        buf, pos, end, "DelegationTokenRecord v0 DelegationTokenRecord.token_id", compact=True, nullable=False
    )
    unknown, pos = read_unknown_tags(
        buf, pos, end, "DelegationTokenRecord v0 DelegationTokenRecord tagged fields"
    )
    return DelegationTokenRecord(
        f_owner,
        f_requester,
        f_renewers,
        f_issue_timestamp,
        f_max_timestamp,
        f_expiration_timestamp,
        f_token_id,
        unknown,
    ), pos


def _write_delegation_token_record_v0(v: DelegationTokenRecord, out: list) -> None:
    """Append the bytes of a DelegationTokenRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.owner, "DelegationTokenRecord v0 DelegationTokenRecord.owner", compact=True, nullable=False
        )
    )
    out.append(
        encode_string(
            v.requester,
            "DelegationTokenRecord v0 DelegationTokenRecord.requester",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.renewers,
            "DelegationTokenRecord v0 DelegationTokenRecord.renewers",
            compact=True,
            nullable=False,
        )
    )
    for item in v.renewers:
        out.append(
            encode_string(
                item, "DelegationTokenRecord v0 DelegationTokenRecord.renewers", compact=True, nullable=False
            )
        )
    out.append(_S0.pack(v.issue_timestamp, v.max_timestamp, v.expiration_timestamp))
    out.append(
        encode_string(
            v.token_id,
            "DelegationTokenRecord v0 DelegationTokenRecord.token_id",
            compact=True,
            nullable=False,
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_delegation_token_record_v0,
}
_WRITERS = {
    0: _write_delegation_token_record_v0,
}


def decode_delegation_token_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[DelegationTokenRecord, int]:
    """Decode a DelegationTokenRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"DelegationTokenRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_delegation_token_record(value: DelegationTokenRecord, version: int) -> bytes:
    """Encode ``value`` as DelegationTokenRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"DelegationTokenRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"DelegationTokenRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
