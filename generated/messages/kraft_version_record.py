"""KRaftVersionRecord, versions 0 (flexible: 0+): The value of a KRAFT_VERSION control record: the kraft.version feature level the quorum runs at from this offset on (KIP-853).

Generated from schemas/messages/kraft_version_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/kraft_version_record.yaml"
NAME = "KRaftVersionRecord"
FAMILY = "control"
#: the control record type (key) whose value this message is
TYPE_IDS = (5,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">hh")

# -- typed values ---------------------------------------------------------------


class KRaftVersionRecord(NamedTuple):
    """The value of a KRAFT_VERSION control record: the kraft.version feature level the quorum runs at from this offset on (KIP-853).

    Fields:
        version: The version of this value, stored as data. (versions 0+)
        kraft_version: The KRaft protocol version (the kraft.version feature level). (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    version: int = 0
    kraft_version: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_kraft_version_record_v0(buf, pos: int, end: int) -> tuple[KRaftVersionRecord, int]:
    """Read a KRaftVersionRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("KRaftVersionRecord v0 KRaftVersionRecord.version", pos, 4, end)
    (
        f_version,
        f_kraft_version,
    ) = _S0.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(buf, pos, end, "KRaftVersionRecord v0 KRaftVersionRecord tagged fields")
    return KRaftVersionRecord(f_version, f_kraft_version, unknown), pos


def _write_kraft_version_record_v0(v: KRaftVersionRecord, out: list) -> None:
    """Append the bytes of a KRaftVersionRecord v0 to ``out``."""
    out.append(_S0.pack(v.version, v.kraft_version))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_kraft_version_record_v0,
}
_WRITERS = {
    0: _write_kraft_version_record_v0,
}


def decode_kraft_version_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[KRaftVersionRecord, int]:
    """Decode a KRaftVersionRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"KRaftVersionRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_kraft_version_record(value: KRaftVersionRecord, version: int) -> bytes:
    """Encode ``value`` as KRaftVersionRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"KRaftVersionRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"KRaftVersionRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
