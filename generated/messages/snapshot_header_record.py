"""SnapshotHeaderRecord, versions 0 (flexible: 0+): The value of a SNAPSHOT_HEADER control record, the first batch of every KRaft snapshot (<offset>-<epoch>.checkpoint, bootstrap.checkpoint).

Generated from schemas/messages/snapshot_header_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/snapshot_header_record.yaml"
NAME = "SnapshotHeaderRecord"
FAMILY = "control"
#: the control record type (key) whose value this message is
TYPE_IDS = (3,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">hq")

# -- typed values ---------------------------------------------------------------


class SnapshotHeaderRecord(NamedTuple):
    """The value of a SNAPSHOT_HEADER control record, the first batch of every KRaft snapshot (<offset>-<epoch>.checkpoint, bootstrap.checkpoint).

    Fields:
        version: The version of this value, stored as data. (versions 0+)
        last_contained_log_timestamp: Append time (ms) of the last metadata log record the snapshot includes. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    version: int = 0
    last_contained_log_timestamp: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_snapshot_header_record_v0(buf, pos: int, end: int) -> tuple[SnapshotHeaderRecord, int]:
    """Read a SnapshotHeaderRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 10:
        raise truncated("SnapshotHeaderRecord v0 SnapshotHeaderRecord.version", pos, 10, end)
    (
        f_version,
        f_last_contained_log_timestamp,
    ) = _S0.unpack_from(buf, pos)
    pos += 10
    unknown, pos = read_unknown_tags(
        buf, pos, end, "SnapshotHeaderRecord v0 SnapshotHeaderRecord tagged fields"
    )
    return SnapshotHeaderRecord(f_version, f_last_contained_log_timestamp, unknown), pos


def _write_snapshot_header_record_v0(v: SnapshotHeaderRecord, out: list) -> None:
    """Append the bytes of a SnapshotHeaderRecord v0 to ``out``."""
    out.append(_S0.pack(v.version, v.last_contained_log_timestamp))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_snapshot_header_record_v0,
}
_WRITERS = {
    0: _write_snapshot_header_record_v0,
}


def decode_snapshot_header_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[SnapshotHeaderRecord, int]:
    """Decode a SnapshotHeaderRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"SnapshotHeaderRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_snapshot_header_record(value: SnapshotHeaderRecord, version: int) -> bytes:
    """Encode ``value`` as SnapshotHeaderRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"SnapshotHeaderRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"SnapshotHeaderRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
