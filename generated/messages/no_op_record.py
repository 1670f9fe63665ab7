"""NoOpRecord, versions 0 (flexible: 0+): A record with no content, written by the active controller to advance the log (and its high watermark) when nothing else happens.

Generated from schemas/messages/no_op_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/no_op_record.yaml"
NAME = "NoOpRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (20,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None


# -- typed values ---------------------------------------------------------------


class NoOpRecord(NamedTuple):
    """A record with no content, written by the active controller to advance the log (and its high watermark) when nothing else happens.

    Fields:
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_no_op_record_v0(buf, pos: int, end: int) -> tuple[NoOpRecord, int]:
    """Read a NoOpRecord v0 at ``pos``, inside ``buf[:end]``."""
    unknown, pos = read_unknown_tags(buf, pos, end, "NoOpRecord v0 NoOpRecord tagged fields")
    return NoOpRecord(unknown), pos


def _write_no_op_record_v0(v: NoOpRecord, out: list) -> None:
    """Append the bytes of a NoOpRecord v0 to ``out``."""
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_no_op_record_v0,
}
_WRITERS = {
    0: _write_no_op_record_v0,
}


def decode_no_op_record(buf, version: int, pos: int = 0, end: int | None = None) -> tuple[NoOpRecord, int]:
    """Decode a NoOpRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(f"NoOpRecord: unknown version {version} (this schema has versions 0)", pos)
    return reader(buf, pos, len(buf) if end is None else end)


def encode_no_op_record(value: NoOpRecord, version: int) -> bytes:
    """Encode ``value`` as NoOpRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"NoOpRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"NoOpRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
