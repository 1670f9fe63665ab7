"""FeatureLevelRecord, versions 0 (flexible: 0+): The finalized level of one cluster feature (metadata.version, kraft.version, ...).

Generated from schemas/messages/feature_level_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    encode_string,
    encode_tagged,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/feature_level_record.yaml"
NAME = "FeatureLevelRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (12,)
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


class FeatureLevelRecord(NamedTuple):
    """The finalized level of one cluster feature (metadata.version, kraft.version, ...).

    Fields:
        name: Feature name, such as metadata.version. (versions 0+)
        feature_level: The finalized level; 0 means the feature is off. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    feature_level: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_feature_level_record_v0(buf, pos: int, end: int) -> tuple[FeatureLevelRecord, int]:
    """Read a FeatureLevelRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf, pos, end, "FeatureLevelRecord v0 FeatureLevelRecord.name", compact=True, nullable=False
    )
    if end - pos < 2:
        raise truncated("FeatureLevelRecord v0 FeatureLevelRecord.feature_level", pos, 2, end)
    (f_feature_level,) = _S0.unpack_from(buf, pos)
    pos += 2
    unknown, pos = read_unknown_tags(buf, pos, end, "FeatureLevelRecord v0 FeatureLevelRecord tagged fields")
    return FeatureLevelRecord(f_name, f_feature_level, unknown), pos


def _write_feature_level_record_v0(v: FeatureLevelRecord, out: list) -> None:
    """Append the bytes of a FeatureLevelRecord v0 to ``out``."""
    out.append(
        encode_string(v.name, "FeatureLevelRecord v0 FeatureLevelRecord.name", compact=True, nullable=False)
    )
    out.append(_S0.pack(v.feature_level))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_feature_level_record_v0,
}
_WRITERS = {
    0: _write_feature_level_record_v0,
}


def decode_feature_level_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[FeatureLevelRecord, int]:
    """Decode a FeatureLevelRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"FeatureLevelRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_feature_level_record(value: FeatureLevelRecord, version: int) -> bytes:
    """Encode ``value`` as FeatureLevelRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"FeatureLevelRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"FeatureLevelRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
