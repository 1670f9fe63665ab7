"""StreamsGroupTopologyValue, versions 0 (flexible: 0+): The topology of a streams group's application (KIP-1071): its subtopologies, the topics each reads and writes, and which must be copartitioned.

Generated from schemas/messages/streams_group_topology_value.yaml by codegen. DO NOT EDIT.
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
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/streams_group_topology_value.yaml"
NAME = "StreamsGroupTopologyValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (23,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">ih")
_S1 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class TopicConfig(NamedTuple):
    """One topic configuration entry.

    Fields:
        key: Configuration name. (versions 0+)
        value: Configuration value. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    key: str = ""
    value: str = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class TopicInfo(NamedTuple):
    """An internal topic the application needs.

    Fields:
        name: Topic name. (versions 0+)
        partitions: Partition count, or 0 when none is required (always 0 for changelogs). (versions 0+)
        replication_factor: Replication factor, or 0 for the broker default. (versions 0+)
        topic_configs: Topic configuration to create it with. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    partitions: int = 0
    replication_factor: int = 0
    topic_configs: list[TopicConfig] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class CopartitionGroup(NamedTuple):
    """Sets of source topics that must have the same partition count.

    Fields:
        source_topics: Indexes into the subtopology's source_topics. (versions 0+)
        source_topic_regex: Indexes into the subtopology's source_topic_regex. (versions 0+)
        repartition_source_topics: Indexes into the subtopology's repartition_source_topics. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    source_topics: list[int] = EMPTY_LIST
    source_topic_regex: list[int] = EMPTY_LIST
    repartition_source_topics: list[int] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class Subtopology(NamedTuple):
    """The subtopologies of the application.

    Fields:
        subtopology_id: Subtopology id, derived from the topology. (versions 0+)
        source_topics: Topics the subtopology reads by name. (versions 0+)
        source_topic_regex: Regular expressions naming further topics it reads. (versions 0+)
        state_changelog_topics: Changelog topics of the subtopology's state stores. (versions 0+)
        repartition_sink_topics: Repartition topics the subtopology writes. (versions 0+)
        repartition_source_topics: Internal repartition topics the subtopology reads. (versions 0+)
        copartition_groups: Sets of source topics that must have the same partition count. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    subtopology_id: str = ""
    source_topics: list[str] = EMPTY_LIST
    source_topic_regex: list[str] = EMPTY_LIST
    state_changelog_topics: list[TopicInfo] = EMPTY_LIST
    repartition_sink_topics: list[str] = EMPTY_LIST
    repartition_source_topics: list[TopicInfo] = EMPTY_LIST
    copartition_groups: list[CopartitionGroup] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class StreamsGroupTopologyValue(NamedTuple):
    """The topology of a streams group's application (KIP-1071): its subtopologies, the topics each reads and writes, and which must be copartitioned.

    Fields:
        epoch: Topology epoch. (versions 0+)
        subtopologies: The subtopologies of the application. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    epoch: int = 0
    subtopologies: list[Subtopology] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_topic_config_v0(buf, pos: int, end: int) -> tuple[TopicConfig, int]:
    """Read a TopicConfig of StreamsGroupTopologyValue v0 at ``pos``, inside ``buf[:end]``."""
    f_key, pos = read_string(
        buf, pos, end, "StreamsGroupTopologyValue v0 TopicConfig.key", compact=True, nullable=False
    )
    f_value, pos = read_string(
        buf, pos, end, "StreamsGroupTopologyValue v0 TopicConfig.value", compact=True, nullable=False
    )
    unknown, pos = read_unknown_tags(buf, pos, end, "StreamsGroupTopologyValue v0 TopicConfig tagged fields")
    return TopicConfig(f_key, f_value, unknown), pos


def _write_topic_config_v0(v: TopicConfig, out: list) -> None:
    """Append the bytes of a TopicConfig of StreamsGroupTopologyValue v0 to ``out``."""
    out.append(
        encode_string(v.key, "StreamsGroupTopologyValue v0 TopicConfig.key", compact=True, nullable=False)
    )
    out.append(
        encode_string(v.value, "StreamsGroupTopologyValue v0 TopicConfig.value", compact=True, nullable=False)
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_topic_info_v0(buf, pos: int, end: int) -> tuple[TopicInfo, int]:
    """Read a TopicInfo of StreamsGroupTopologyValue v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf, pos, end, "StreamsGroupTopologyValue v0 TopicInfo.name", compact=True, nullable=False
    )
    if end - pos < 6:
        raise truncated("StreamsGroupTopologyValue v0 TopicInfo.partitions", pos, 6, end)
    (
        f_partitions,
        f_replication_factor,
    ) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 TopicInfo.topic_configs",
        compact=True,
        nullable=False,
        min_size=3,
    )
    f_topic_configs = []
    append = f_topic_configs.append
    for _ in range(n):
        item, pos = _read_topic_config_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(buf, pos, end, "StreamsGroupTopologyValue v0 TopicInfo tagged fields")
    return TopicInfo(f_name, f_partitions, f_replication_factor, f_topic_configs, unknown), pos


def _write_topic_info_v0(v: TopicInfo, out: list) -> None:
    """Append the bytes of a TopicInfo of StreamsGroupTopologyValue v0 to ``out``."""
    out.append(
        encode_string(v.name, "StreamsGroupTopologyValue v0 TopicInfo.name", compact=True, nullable=False)
    )
    out.append(_S0.pack(v.partitions, v.replication_factor))
    out.append(
        encode_count(
            v.topic_configs,
            "StreamsGroupTopologyValue v0 TopicInfo.topic_configs",
            compact=True,
            nullable=False,
        )
    )
    for item in v.topic_configs:
        _write_topic_config_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_copartition_group_v0(buf, pos: int, end: int) -> tuple[CopartitionGroup, int]:
    """Read a CopartitionGroup of StreamsGroupTopologyValue v0 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 CopartitionGroup.source_topics",
        compact=True,
        nullable=False,
        min_size=2,
    )
    f_source_topics = list(struct.unpack_from(f">{n}h", buf, pos))
    pos += 2 * n
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 CopartitionGroup.source_topic_regex",
        compact=True,
        nullable=False,
        min_size=2,
    )
    f_source_topic_regex = list(struct.unpack_from(f">{n}h", buf, pos))
    pos += 2 * n
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 CopartitionGroup.repartition_source_topics",
        compact=True,
        nullable=False,
        min_size=2,
    )
    f_repartition_source_topics = list(struct.unpack_from(f">{n}h", buf, pos))
    pos += 2 * n
    unknown, pos = read_unknown_tags(
        buf, pos, end, "StreamsGroupTopologyValue v0 CopartitionGroup tagged fields"
    )
    return CopartitionGroup(f_source_topics, f_source_topic_regex, f_repartition_source_topics, unknown), pos


def _write_copartition_group_v0(v: CopartitionGroup, out: list) -> None:
    """Append the bytes of a CopartitionGroup of StreamsGroupTopologyValue v0 to ``out``."""
    out.append(
        encode_count(
            v.source_topics,
            "StreamsGroupTopologyValue v0 CopartitionGroup.source_topics",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.source_topics)}h", *v.source_topics))
    out.append(
        encode_count(
            v.source_topic_regex,
            "StreamsGroupTopologyValue v0 CopartitionGroup.source_topic_regex",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.source_topic_regex)}h", *v.source_topic_regex))
    out.append(
        encode_count(
            v.repartition_source_topics,
            "StreamsGroupTopologyValue v0 CopartitionGroup.repartition_source_topics",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.repartition_source_topics)}h", *v.repartition_source_topics))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_subtopology_v0(buf, pos: int, end: int) -> tuple[Subtopology, int]:
    """Read a Subtopology of StreamsGroupTopologyValue v0 at ``pos``, inside ``buf[:end]``."""
    f_subtopology_id, pos = read_string(
        buf, pos, end, "StreamsGroupTopologyValue v0 Subtopology.subtopology_id", compact=True, nullable=False
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 Subtopology.source_topics",
        compact=True,
        nullable=False,
        min_size=1,
    )
    f_source_topics = []
    append = f_source_topics.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "StreamsGroupTopologyValue v0 Subtopology.source_topics",
            compact=True,
            nullable=False,
        )
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 Subtopology.source_topic_regex",
        compact=True,
        nullable=False,
        min_size=1,
    )
    f_source_topic_regex = []
    append = f_source_topic_regex.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "StreamsGroupTopologyValue v0 Subtopology.source_topic_regex",
            compact=True,
            nullable=False,
        )
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 Subtopology.state_changelog_topics",
        compact=True,
        nullable=False,
        min_size=9,
    )
    f_state_changelog_topics = []
    append = f_state_changelog_topics.append
    for _ in range(n):
        item, pos = _read_topic_info_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 Subtopology.repartition_sink_topics",
        compact=True,
        nullable=False,
        min_size=1,
    )
    f_repartition_sink_topics = []
    append = f_repartition_sink_topics.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "StreamsGroupTopologyValue v0 Subtopology.repartition_sink_topics",
            compact=True,
            nullable=False,
        )
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 Subtopology.repartition_source_topics",
        compact=True,
        nullable=False,
        min_size=9,
    )
    f_repartition_source_topics = []
    append = f_repartition_source_topics.append
    for _ in range(n):
        item, pos = _read_topic_info_v0(buf, pos, end)
        append(item)
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 Subtopology.copartition_groups",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_copartition_groups = []
    append = f_copartition_groups.append
    for _ in range(n):
        item, pos = _read_copartition_group_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(buf, pos, end, "StreamsGroupTopologyValue v0 Subtopology tagged fields")
    return Subtopology(
        f_subtopology_id,
        f_source_topics,
        f_source_topic_regex,
        f_state_changelog_topics,
        f_repartition_sink_topics,
        f_repartition_source_topics,
        f_copartition_groups,
        unknown,
    ), pos


def _write_subtopology_v0(v: Subtopology, out: list) -> None:
    """Append the bytes of a Subtopology of StreamsGroupTopologyValue v0 to ``out``."""
    out.append(
        encode_string(
            v.subtopology_id,
            "StreamsGroupTopologyValue v0 Subtopology.subtopology_id",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.source_topics,
            "StreamsGroupTopologyValue v0 Subtopology.source_topics",
            compact=True,
            nullable=False,
        )
    )
    for item in v.source_topics:
        out.append(
            encode_string(
                item, "StreamsGroupTopologyValue v0 Subtopology.source_topics", compact=True, nullable=False
            )
        )
    out.append(
        encode_count(
            v.source_topic_regex,
            "StreamsGroupTopologyValue v0 Subtopology.source_topic_regex",
            compact=True,
            nullable=False,
        )
    )
    for item in v.source_topic_regex:
        out.append(
            encode_string(
                item,
                "StreamsGroupTopologyValue v0 Subtopology.source_topic_regex",
                compact=True,
                nullable=False,
            )
        )
    out.append(
        encode_count(
            v.state_changelog_topics,
            "StreamsGroupTopologyValue v0 Subtopology.state_changelog_topics",
            compact=True,
            nullable=False,
        )
    )
    for item in v.state_changelog_topics:
        _write_topic_info_v0(item, out)
    out.append(
        encode_count(
            v.repartition_sink_topics,
            "StreamsGroupTopologyValue v0 Subtopology.repartition_sink_topics",
            compact=True,
            nullable=False,
        )
    )
    for item in v.repartition_sink_topics:
        out.append(
            encode_string(
                item,
                "StreamsGroupTopologyValue v0 Subtopology.repartition_sink_topics",
                compact=True,
                nullable=False,
            )
        )
    out.append(
        encode_count(
            v.repartition_source_topics,
            "StreamsGroupTopologyValue v0 Subtopology.repartition_source_topics",
            compact=True,
            nullable=False,
        )
    )
    for item in v.repartition_source_topics:
        _write_topic_info_v0(item, out)
    out.append(
        encode_count(
            v.copartition_groups,
            "StreamsGroupTopologyValue v0 Subtopology.copartition_groups",
            compact=True,
            nullable=False,
        )
    )
    for item in v.copartition_groups:
        _write_copartition_group_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_streams_group_topology_value_v0(buf, pos: int, end: int) -> tuple[StreamsGroupTopologyValue, int]:
    """Read a StreamsGroupTopologyValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("StreamsGroupTopologyValue v0 StreamsGroupTopologyValue.epoch", pos, 4, end)
    (f_epoch,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_count(
        buf,
        pos,
        end,
        "StreamsGroupTopologyValue v0 StreamsGroupTopologyValue.subtopologies",
        compact=True,
        nullable=False,
        min_size=8,
    )
    f_subtopologies = []
    append = f_subtopologies.append
    for _ in range(n):
        item, pos = _read_subtopology_v0(buf, pos, end)
        append(item)
    unknown, pos = read_unknown_tags(
        buf, pos, end, "StreamsGroupTopologyValue v0 StreamsGroupTopologyValue tagged fields"
    )
    return StreamsGroupTopologyValue(f_epoch, f_subtopologies, unknown), pos


def _write_streams_group_topology_value_v0(v: StreamsGroupTopologyValue, out: list) -> None:
    """Append the bytes of a StreamsGroupTopologyValue v0 to ``out``."""
    out.append(_S1.pack(v.epoch))
    out.append(
        encode_count(
            v.subtopologies,
            "StreamsGroupTopologyValue v0 StreamsGroupTopologyValue.subtopologies",
            compact=True,
            nullable=False,
        )
    )
    for item in v.subtopologies:
        _write_subtopology_v0(item, out)
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_streams_group_topology_value_v0,
}
_WRITERS = {
    0: _write_streams_group_topology_value_v0,
}


def decode_streams_group_topology_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[StreamsGroupTopologyValue, int]:
    """Decode a StreamsGroupTopologyValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"StreamsGroupTopologyValue: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_streams_group_topology_value(value: StreamsGroupTopologyValue, version: int) -> bytes:
    """Encode ``value`` as StreamsGroupTopologyValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"StreamsGroupTopologyValue: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"StreamsGroupTopologyValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
