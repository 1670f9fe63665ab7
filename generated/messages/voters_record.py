"""VotersRecord, versions 0 (flexible: 0+): The value of a KRAFT_VOTERS control record: the set of voters of the KRaft quorum from this offset on, with how to reach each (KIP-853 dynamic quorums).

Generated from schemas/messages/voters_record.yaml by codegen. DO NOT EDIT.
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
    read_count,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/voters_record.yaml"
NAME = "VotersRecord"
FAMILY = "control"
#: the control record type (key) whose value this message is
TYPE_IDS = (6,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">H")
_S1 = struct.Struct(">hh")
_S2 = struct.Struct(">i16s")
_S3 = struct.Struct(">h")

# -- typed values ---------------------------------------------------------------


class Endpoint(NamedTuple):
    """The listeners other voters reach this one on.

    Fields:
        name: Listener name. (versions 0+)
        host: Host name or address. (versions 0+)
        port: TCP port. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    host: str = ""
    port: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class KRaftVersionFeature(NamedTuple):
    """The range of kraft.version levels the voter supports.

    Fields:
        min_supported_version: Lowest supported KRaft protocol version. (versions 0+)
        max_supported_version: Highest supported KRaft protocol version. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    min_supported_version: int = 0
    max_supported_version: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class Voter(NamedTuple):
    """Every voter of the quorum.

    Fields:
        voter_id: Node id of the voter. (versions 0+)
        voter_directory_id: Id of the log directory holding the voter's copy of the metadata log. (versions 0+)
        endpoints: The listeners other voters reach this one on. (versions 0+)
        kraft_version_feature: The range of kraft.version levels the voter supports. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    voter_id: int = 0
    voter_directory_id: UUID = ZERO_UUID
    endpoints: list[Endpoint] = EMPTY_LIST
    kraft_version_feature: KRaftVersionFeature = KRaftVersionFeature()
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class VotersRecord(NamedTuple):
    """The value of a KRAFT_VOTERS control record: the set of voters of the KRaft quorum from this offset on, with how to reach each (KIP-853 dynamic quorums).

    Fields:
        version: The version of this value, stored as data. (versions 0+)
        voters: Every voter of the quorum. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    version: int = 0
    voters: list[Voter] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_endpoint_v0(buf, pos: int, end: int) -> tuple[Endpoint, int]:
    """Read an Endpoint of VotersRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(buf, pos, end, "VotersRecord v0 Endpoint.name", compact=True, nullable=False)
    f_host, pos = read_string(buf, pos, end, "VotersRecord v0 Endpoint.host", compact=True, nullable=False)
    if end - pos < 2:
        raise truncated("VotersRecord v0 Endpoint.port", pos, 2, end)
    (f_port,) = _S0.unpack_from(buf, pos)
    pos += 2
    unknown, pos = read_unknown_tags(buf, pos, end, "VotersRecord v0 Endpoint tagged fields")
    return Endpoint(f_name, f_host, f_port, unknown), pos


def _write_endpoint_v0(v: Endpoint, out: list) -> None:
    """Append the bytes of an Endpoint of VotersRecord v0 to ``out``."""
    out.append(encode_string(v.name, "VotersRecord v0 Endpoint.name", compact=True, nullable=False))
    out.append(encode_string(v.host, "VotersRecord v0 Endpoint.host", compact=True, nullable=False))
    out.append(_S0.pack(v.port))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_kraft_version_feature_v0(buf, pos: int, end: int) -> tuple[KRaftVersionFeature, int]:
    """Read a KRaftVersionFeature of VotersRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("VotersRecord v0 KRaftVersionFeature.min_supported_version", pos, 4, end)
    (
        f_min_supported_version,
        f_max_supported_version,
    ) = _S1.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(buf, pos, end, "VotersRecord v0 KRaftVersionFeature tagged fields")
    return KRaftVersionFeature(f_min_supported_version, f_max_supported_version, unknown), pos


def _write_kraft_version_feature_v0(v: KRaftVersionFeature, out: list) -> None:
    """Append the bytes of a KRaftVersionFeature of VotersRecord v0 to ``out``."""
    out.append(_S1.pack(v.min_supported_version, v.max_supported_version))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_voter_v0(buf, pos: int, end: int) -> tuple[Voter, int]:
    """Read a Voter of VotersRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("VotersRecord v0 Voter.voter_id", pos, 20, end)
    (
        f_voter_id,
        f_voter_directory_id,
    ) = _S2.unpack_from(buf, pos)
    pos += 20
    f_voter_directory_id = UUID(bytes=f_voter_directory_id)
    n, pos = read_count(
        buf, pos, end, "VotersRecord v0 Voter.endpoints", compact=True, nullable=False, min_size=5
    )
    f_endpoints = []
    append = f_endpoints.append
    for _ in range(n):
        item, pos = _read_endpoint_v0(buf, pos, end)
        append(item)
    f_kraft_version_feature, pos = _read_kraft_version_feature_v0(buf, pos, end)
    unknown, pos = read_unknown_tags(buf, pos, end, "VotersRecord v0 Voter tagged fields")
    return Voter(f_voter_id, f_voter_directory_id, f_endpoints, f_kraft_version_feature, unknown), pos


def _write_voter_v0(v: Voter, out: list) -> None:
    """Append the bytes of a Voter of VotersRecord v0 to ``out``."""
    out.append(_S2.pack(v.voter_id, v.voter_directory_id.bytes))
    out.append(encode_count(v.endpoints, "VotersRecord v0 Voter.endpoints", compact=True, nullable=False))
    for item in v.endpoints:
        _write_endpoint_v0(item, out)
    _write_kraft_version_feature_v0(v.kraft_version_feature, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_voters_record_v0(buf, pos: int, end: int) -> tuple[VotersRecord, int]:
    """Read a VotersRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 2:
        raise truncated("VotersRecord v0 VotersRecord.version", pos, 2, end)
    (f_version,) = _S3.unpack_from(buf, pos)
    pos += 2
    n, pos = read_count(
        buf, pos, end, "VotersRecord v0 VotersRecord.voters", compact=True, nullable=False, min_size=27
    )
    f_voters = []
    append = f_voters.append
    for _ in range(n):
        item, pos = _read_voter_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(buf, pos, end, "VotersRecord v0 VotersRecord tagged fields")
    return VotersRecord(f_version, f_voters, unknown), pos


def _write_voters_record_v0(v: VotersRecord, out: list) -> None:
    """Append the bytes of a VotersRecord v0 to ``out``."""
    out.append(_S3.pack(v.version))
    out.append(encode_count(v.voters, "VotersRecord v0 VotersRecord.voters", compact=True, nullable=False))
    for item in v.voters:
        _write_voter_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_voters_record_v0,
}
_WRITERS = {
    0: _write_voters_record_v0,
}


def decode_voters_record(buf, version: int, pos: int = 0, end: int | None = None) -> tuple[VotersRecord, int]:
    """Decode a VotersRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(f"VotersRecord: unknown version {version} (this schema has versions 0)", pos)
    return reader(buf, pos, len(buf) if end is None else end)


def encode_voters_record(value: VotersRecord, version: int) -> bytes:
    """Encode ``value`` as VotersRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"VotersRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"VotersRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
