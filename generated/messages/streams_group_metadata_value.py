"""StreamsGroupMetadataValue, versions 0 (flexible: 0+): A streams group's epoch (KIP-1071), the hash of the topic metadata it was computed from, and (tagged fields added from Kafka 4.1 to 4.4) which topology epochs were validated or described and the assignment configuration last used.

Generated from schemas/messages/streams_group_metadata_value.yaml by codegen. DO NOT EDIT.
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
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/streams_group_metadata_value.yaml"
NAME = "StreamsGroupMetadataValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (17,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">iq")
_S1 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class LastAssignmentConfig(NamedTuple):
    """One assignment configuration entry.

    Fields:
        key: Configuration name. (versions 0+)
        value: Configuration value. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    key: str = ""
    value: str = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class StreamsGroupMetadataValue(NamedTuple):
    """A streams group's epoch (KIP-1071), the hash of the topic metadata it was computed from, and (tagged fields added from Kafka 4.1 to 4.4) which topology epochs were validated or described and the assignment configuration last used.

    Fields:
        epoch: The group epoch. (versions 0+)
        metadata_hash: Hash over the metadata (partitions, racks) of every topic the group reads; a change asks for a rebalance. (versions 0+)
        validated_topology_epoch: The topology epoch whose topics the coordinator found present and valid in the metadata, or -1. (versions 0+, tagged 0 in 0+)
        last_assignment_configs: The assignor configuration the last target assignment was computed with, as key-value pairs; empty when not written. (versions 0+, nullable 0+, tagged 1 in 0+)
        stored_description_topology_epoch: The topology epoch whose description the coordinator stored, or -1. (versions 0+, tagged 2 in 0+)
        failed_description_topology_epoch: The topology epoch whose description failed to be stored, or -1. (versions 0+, tagged 3 in 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    epoch: int = 0
    metadata_hash: int = 0
    validated_topology_epoch: int = -1
    last_assignment_configs: list[LastAssignmentConfig] | None = EMPTY_LIST
    stored_description_topology_epoch: int = -1
    failed_description_topology_epoch: int = -1
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_last_assignment_config_v0(buf, pos: int, end: int) -> tuple[LastAssignmentConfig, int]:
    """Read a LastAssignmentConfig of StreamsGroupMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    f_key, pos = read_string(
        buf, pos, end, "StreamsGroupMetadataValue v0 LastAssignmentConfig.key", compact=True, nullable=False
    )
    f_value, pos = read_string(
        buf, pos, end, "StreamsGroupMetadataValue v0 LastAssignmentConfig.value", compact=True, nullable=False
    )
    unknown, pos = read_unknown_tags(
        buf, pos, end, "StreamsGroupMetadataValue v0 LastAssignmentConfig tagged fields"
    )
    return LastAssignmentConfig(f_key, f_value, unknown), pos


def _write_last_assignment_config_v0(v: LastAssignmentConfig, out: list) -> None:
    """Append the bytes of a LastAssignmentConfig of StreamsGroupMetadataValue v0 to ``out``."""
    out.append(
        encode_string(
            v.key, "StreamsGroupMetadataValue v0 LastAssignmentConfig.key", compact=True, nullable=False
        )
    )
    out.append(
        encode_string(
            v.value, "StreamsGroupMetadataValue v0 LastAssignmentConfig.value", compact=True, nullable=False
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_streams_group_metadata_value_v0(buf, pos: int, end: int) -> tuple[StreamsGroupMetadataValue, int]:
    """Read a StreamsGroupMetadataValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated("StreamsGroupMetadataValue v0 StreamsGroupMetadataValue.epoch", pos, 12, end)
    (
        f_epoch,
        f_metadata_hash,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    f_validated_topology_epoch = -1
    f_last_assignment_configs = []
    f_stored_description_topology_epoch = -1
    f_failed_description_topology_epoch = -1
    n, pos = read_uvarint(
        buf, pos, end, "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue tagged fields"
        )
        if tag in seen:
            raise repeated_tag(
                "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 4:
                raise truncated(
                    "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue.validated_topology_epoch",
                    pos,
                    4,
                    stop,
                )
            (f_validated_topology_epoch,) = _S1.unpack_from(buf, pos)
            pos += 4
            if pos != stop:
                raise tagged_size_mismatch(
                    "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 1:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue.last_assignment_configs",
                compact=True,
                nullable=True,
                min_size=3,
            )
            if n == -1:
                f_last_assignment_configs = None
            else:
                f_last_assignment_configs = []
                append = f_last_assignment_configs.append
                for _ in range(n):
                    item, pos = _read_last_assignment_config_v0(buf, pos, stop)
                    append(item)
            if pos != stop:
                raise tagged_size_mismatch(
                    "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 2:
            start = pos
            if stop - pos < 4:
                raise truncated(
                    "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue.stored_description_topology_epoch",
                    pos,
                    4,
                    stop,
                )
            (f_stored_description_topology_epoch,) = _S1.unpack_from(buf, pos)
            pos += 4
            if pos != stop:
                raise tagged_size_mismatch(
                    "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 3:
            start = pos
            if stop - pos < 4:
                raise truncated(
                    "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue.failed_description_topology_epoch",
                    pos,
                    4,
                    stop,
                )
            (f_failed_description_topology_epoch,) = _S1.unpack_from(buf, pos)
            pos += 4
            if pos != stop:
                raise tagged_size_mismatch(
                    "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return StreamsGroupMetadataValue(
        f_epoch,
        f_metadata_hash,
        f_validated_topology_epoch,
        f_last_assignment_configs,
        f_stored_description_topology_epoch,
        f_failed_description_topology_epoch,
        unknown,
    ), pos


def _write_streams_group_metadata_value_v0(v: StreamsGroupMetadataValue, out: list) -> None:
    """Append the bytes of a StreamsGroupMetadataValue v0 to ``out``."""
    out.append(_S0.pack(v.epoch, v.metadata_hash))
    tags = list(v.unknown_tagged_fields)
    if v.validated_topology_epoch != -1:
        outer, out = out, []
        out.append(_S1.pack(v.validated_topology_epoch))
        tags.append((0, b"".join(out)))
        out = outer
    if v.last_assignment_configs != []:
        outer, out = out, []
        out.append(
            encode_count(
                v.last_assignment_configs,
                "StreamsGroupMetadataValue v0 StreamsGroupMetadataValue.last_assignment_configs",
                compact=True,
                nullable=True,
            )
        )
        if v.last_assignment_configs is not None:
            for item in v.last_assignment_configs:
                _write_last_assignment_config_v0(item, out)
        tags.append((1, b"".join(out)))
        out = outer
    if v.stored_description_topology_epoch != -1:
        outer, out = out, []
        out.append(_S1.pack(v.stored_description_topology_epoch))
        tags.append((2, b"".join(out)))
        out = outer
    if v.failed_description_topology_epoch != -1:
        outer, out = out, []
        out.append(_S1.pack(v.failed_description_topology_epoch))
        tags.append((3, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_streams_group_metadata_value_v0,
}
_WRITERS = {
    0: _write_streams_group_metadata_value_v0,
}


def decode_streams_group_metadata_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupMetadataValue, int]:
    """Decode a StreamsGroupMetadataValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupMetadataValue: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_metadata_value(value: StreamsGroupMetadataValue, version: int) -> bytes:
    """Encode ``value`` as StreamsGroupMetadataValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"StreamsGroupMetadataValue: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupMetadataValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
