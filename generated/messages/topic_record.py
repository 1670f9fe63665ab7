"""TopicRecord, versions 0 (flexible: 0+): A topic was created: its name and the id every later record uses for it.

Generated from schemas/messages/topic_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    ZERO_UUID,
    encode_string,
    encode_tagged,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/topic_record.yaml"
NAME = "TopicRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (2,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">16s")

# -- typed values ---------------------------------------------------------------


class TopicRecord(NamedTuple):
    """A topic was created: its name and the id every later record uses for it.

    Fields:
        name: Topic name. (versions 0+)
        topic_id: Id given to the topic at creation. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    topic_id: UUID = ZERO_UUID
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_record_v0(buf, pos: int, end: int) -> tuple[TopicRecord, int]:
    """Read a TopicRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(buf, pos, end, "TopicRecord v0 TopicRecord.name", compact=True, nullable=False)
    if end - pos < 16:
        raise truncated("TopicRecord v0 TopicRecord.topic_id", pos, 16, end)
    (f_topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    f_topic_id = UUID(bytes=f_topic_id)
    unknown, pos = read_unknown_tags(buf, pos, end, "TopicRecord v0 TopicRecord tagged fields")
    return TopicRecord(f_name, f_topic_id, unknown), pos


def _write_topic_record_v0(v: TopicRecord, out: list) -> None:
    """Append the bytes of a TopicRecord v0 to ``out``."""
    out.append(encode_string(v.name, "TopicRecord v0 TopicRecord.name", compact=True, nullable=False))
    out.append(v.topic_id.bytes)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_topic_record_v0,
}
_WRITERS = {
    0: _write_topic_record_v0,
}


def decode_topic_record(buf, version: int, pos: int = 0, end: int | None = None) -> tuple[TopicRecord, int]:
    """Decode a TopicRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(f"TopicRecord: unknown version {version} (this schema has versions 0)", pos)
    return reader(buf, pos, len(buf) if end is None else end)


def encode_topic_record(value: TopicRecord, version: int) -> bytes:
    """Encode ``value`` as TopicRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"TopicRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"TopicRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
