"""LeaderChangeMessage, versions 0-1 (flexible: 0+): The value of a LEADER_CHANGE control record: who won the election of a KRaft epoch and which voters it knew of. Version 1 (KIP-853) adds each voter's directory id.

Generated from schemas/messages/leader_change_message.yaml by codegen. DO NOT EDIT.
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
    encode_tagged,
    read_count,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/leader_change_message.yaml"
NAME = "LeaderChangeMessage"
FAMILY = "control"
#: the control record type (key) whose value this message is
TYPE_IDS = (2,)
VERSIONS = [0, 1]
FLEXIBLE_VERSIONS = [0, 1]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i")
_S1 = struct.Struct(">i16s")
_S2 = struct.Struct(">hi")

# -- typed values ---------------------------------------------------------------


class Voter(NamedTuple):
    """One voter of the quorum.

    Fields:
        voter_id: Node id of the voter. (versions 0+)
        voter_directory_id: Id of the log directory the voter stores the metadata log in (KIP-853). (versions 1+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    voter_id: int = 0
    voter_directory_id: UUID = ZERO_UUID
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class LeaderChangeMessage(NamedTuple):
    """The value of a LEADER_CHANGE control record: who won the election of a KRaft epoch and which voters it knew of. Version 1 (KIP-853) adds each voter's directory id.

    Fields:
        version: The version of this value, stored as data (readers decode it as version 0). (versions 0+)
        leader_id: Node id of the leader elected for this epoch. (versions 0+)
        voters: Every voter of the quorum in this epoch. (versions 0+)
        granting_voters: The voters whose votes elected the leader. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    version: int = 0
    leader_id: int = 0
    voters: list[Voter] = EMPTY_LIST
    granting_voters: list[Voter] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_voter_v0(buf, pos: int, end: int) -> tuple[Voter, int]:
    """Read a Voter of LeaderChangeMessage v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("LeaderChangeMessage v0 Voter.voter_id", pos, 4, end)
    (f_voter_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(buf, pos, end, "LeaderChangeMessage v0 Voter tagged fields")
    return Voter(f_voter_id, ZERO_UUID, unknown), pos


def _write_voter_v0(v: Voter, out: list) -> None:
    """Append the bytes of a Voter of LeaderChangeMessage v0 to ``out``."""
    absent(v.voter_directory_id, ZERO_UUID, "LeaderChangeMessage v0 Voter.voter_directory_id")
    out.append(_S0.pack(v.voter_id))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_voter_v1(buf, pos: int, end: int) -> tuple[Voter, int]:
    """Read a Voter of LeaderChangeMessage v1 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("LeaderChangeMessage v1 Voter.voter_id", pos, 20, end)
    (
        f_voter_id,
        f_voter_directory_id,
    ) = _S1.unpack_from(buf, pos)
    pos += 20
    f_voter_directory_id = UUID(bytes=f_voter_directory_id)
    unknown, pos = read_unknown_tags(buf, pos, end, "LeaderChangeMessage v1 Voter tagged fields")
    return Voter(f_voter_id, f_voter_directory_id, unknown), pos


def _write_voter_v1(v: Voter, out: list) -> None:
    """Append the bytes of a Voter of LeaderChangeMessage v1 to ``out``."""
    out.append(_S1.pack(v.voter_id, v.voter_directory_id.bytes))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_leader_change_message_v0(buf, pos: int, end: int) -> tuple[LeaderChangeMessage, int]:
    """Read a LeaderChangeMessage v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 6:
        raise truncated("LeaderChangeMessage v0 LeaderChangeMessage.version", pos, 6, end)
    (
        f_version,
        f_leader_id,
    ) = _S2.unpack_from(buf, pos)
    pos += 6
    n, pos = read_count(
        buf,
        pos,
        end,
        "LeaderChangeMessage v0 LeaderChangeMessage.voters",
        compact=True,
        nullable=False,
        min_size=5,
    )
    f_voters = []
    append = f_voters.append
    for _ in range(n):
        item, pos = _read_voter_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "LeaderChangeMessage v0 LeaderChangeMessage.granting_voters",
        compact=True,
        nullable=False,
        min_size=5,
    )
    f_granting_voters = []
    append = f_granting_voters.append
    for _ in range(n):
        item, pos = _read_voter_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "LeaderChangeMessage v0 LeaderChangeMessage tagged fields"
    )
    return LeaderChangeMessage(f_version, f_leader_id, f_voters, f_granting_voters, unknown), pos


def _write_leader_change_message_v0(v: LeaderChangeMessage, out: list) -> None:
    """Append the bytes of a LeaderChangeMessage v0 to ``out``."""
    out.append(_S2.pack(v.version, v.leader_id))
    out.append(
        encode_count(
            v.voters, "LeaderChangeMessage v0 LeaderChangeMessage.voters", compact=True, nullable=False
        )
    )
    for item in v.voters:
        _write_voter_v0(item, out)
    out.append(
        encode_count(
            v.granting_voters,
            "LeaderChangeMessage v0 LeaderChangeMessage.granting_voters",
            compact=True,
            nullable=False,
        )
    )
    for item in v.granting_voters:
        _write_voter_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_leader_change_message_v1(buf, pos: int, end: int) -> tuple[LeaderChangeMessage, int]:
    """Read a LeaderChangeMessage v1 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 6:
        raise truncated("LeaderChangeMessage v1 LeaderChangeMessage.version", pos, 6, end)
    (
        f_version,
        f_leader_id,
    ) = _S2.unpack_from(buf, pos)
    pos += 6
    n, pos = read_count(
        buf,
        pos,
        end,
        "LeaderChangeMessage v1 LeaderChangeMessage.voters",
        compact=True,
        nullable=False,
        min_size=21,
    )
    f_voters = []
    append = f_voters.append
    for _ in range(n):
        item, pos = _read_voter_v1(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "LeaderChangeMessage v1 LeaderChangeMessage.granting_voters",
        compact=True,
        nullable=False,
        min_size=21,
    )
    f_granting_voters = []
    append = f_granting_voters.append
    for _ in range(n):
        item, pos = _read_voter_v1(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "LeaderChangeMessage v1 LeaderChangeMessage tagged fields"
    )
    return LeaderChangeMessage(f_version, f_leader_id, f_voters, f_granting_voters, unknown), pos


def _write_leader_change_message_v1(v: LeaderChangeMessage, out: list) -> None:
    """Append the bytes of a LeaderChangeMessage v1 to ``out``."""
    out.append(_S2.pack(v.version, v.leader_id))
    out.append(
        encode_count(
            v.voters, "LeaderChangeMessage v1 LeaderChangeMessage.voters", compact=True, nullable=False
        )
    )
    for item in v.voters:
        _write_voter_v1(item, out)
    out.append(
        encode_count(
            v.granting_voters,
            "LeaderChangeMessage v1 LeaderChangeMessage.granting_voters",
            compact=True,
            nullable=False,
        )
    )
    for item in v.granting_voters:
        _write_voter_v1(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_leader_change_message_v0,
    1: _read_leader_change_message_v1,
}
_WRITERS = {
    0: _write_leader_change_message_v0,
    1: _write_leader_change_message_v1,
}


def decode_leader_change_message(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[LeaderChangeMessage, int]:
    """Decode a LeaderChangeMessage of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"LeaderChangeMessage: unknown version {version} (this schema has versions 0-1)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_leader_change_message(value: LeaderChangeMessage, version: int) -> bytes:
    """Encode ``value`` as LeaderChangeMessage ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"LeaderChangeMessage: unknown version {version} (this schema has versions 0-1)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"LeaderChangeMessage v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
