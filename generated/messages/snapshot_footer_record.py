"""SnapshotFooterRecord, versions 0 (flexible: 0+): The value of a SNAPSHOT_FOOTER control record, which closes a KRaft snapshot: a snapshot without it was not written completely.

Generated from schemas/messages/snapshot_footer_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/snapshot_footer_record.yaml"
NAME = "SnapshotFooterRecord"
FAMILY = "control"
#: the control record type (key) whose value this message is
TYPE_IDS = (4,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">h")

# -- typed values ---------------------------------------------------------------


class SnapshotFooterRecord(NamedTuple):
    """The value of a SNAPSHOT_FOOTER control record, which closes a KRaft snapshot: a snapshot without it was not written completely.

    Fields:
        version: The version of this value, stored as data. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    version: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_snapshot_footer_record_v0(buf, pos: int, end: int) -> tuple[SnapshotFooterRecord, int]:
    """Read a SnapshotFooterRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 2:
        raise truncated("SnapshotFooterRecord v0 SnapshotFooterRecord.version", pos, 2, end)
    (f_version,) = _S0.unpack_from(buf, pos)
    pos += 2
    unknown, pos = read_unknown_tags(
        buf, pos, end, "SnapshotFooterRecord v0 SnapshotFooterRecord tagged fields"
    )
    return SnapshotFooterRecord(f_version, unknown), pos


def _write_snapshot_footer_record_v0(v: SnapshotFooterRecord, out: list) -> None:
    """Append the bytes of a SnapshotFooterRecord v0 to ``out``."""
    out.append(_S0.pack(v.version))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_snapshot_footer_record_v0,
}
_WRITERS = {
    0: _write_snapshot_footer_record_v0,
}


def decode_snapshot_footer_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[SnapshotFooterRecord, int]:
    """Decode a SnapshotFooterRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"SnapshotFooterRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_snapshot_footer_record(value: SnapshotFooterRecord, version: int) -> bytes:
    """Encode ``value`` as SnapshotFooterRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"SnapshotFooterRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"SnapshotFooterRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
