"""ClearElrRecord, versions 0 (flexible: 0+): The eligible leader replicas (ELR) of one topic's partitions, or of every topic's, were cleared.

Generated from schemas/messages/clear_elr_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, encode_tagged, read_string, read_unknown_tags
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/clear_elr_record.yaml"
NAME = "ClearElrRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (28,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None


# -- typed values ---------------------------------------------------------------


class ClearElrRecord(NamedTuple):
    """The eligible leader replicas (ELR) of one topic's partitions, or of every topic's, were cleared.

    Fields:
        topic_name: The topic whose ELRs are cleared, or the empty string for every topic. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic_name: str = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_clear_elr_record_v0(buf, pos: int, end: int) -> tuple[ClearElrRecord, int]:
    """Read a ClearElrRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_topic_name, pos = read_string(
        buf, pos, end, "ClearElrRecord v0 ClearElrRecord.topic_name", compact=True, nullable=False
    )
    unknown, pos = read_unknown_tags(buf, pos, end, "ClearElrRecord v0 ClearElrRecord tagged fields")
    return ClearElrRecord(f_topic_name, unknown), pos


def _write_clear_elr_record_v0(v: ClearElrRecord, out: list) -> None:
    """Append the bytes of a ClearElrRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.topic_name, "ClearElrRecord v0 ClearElrRecord.topic_name", compact=True, nullable=False
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_clear_elr_record_v0,
}
_WRITERS = {
    0: _write_clear_elr_record_v0,
}


def decode_clear_elr_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ClearElrRecord, int]:
    """Decode a ClearElrRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(f"ClearElrRecord: unknown version {version} (this schema has versions 0)", pos)
    return reader(buf, pos, len(buf) if end is None else end)


def encode_clear_elr_record(value: ClearElrRecord, version: int) -> bytes:
    """Encode ``value`` as ClearElrRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ClearElrRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"ClearElrRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
