"""StreamsGroupTopologyValue, the tracing decoder: :func:`trace_streams_group_topology_value` reads one StreamsGroupTopologyValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_topology_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupTopologyValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupTopologyValue": "The topology of a streams group's application (KIP-1071): its subtopologies, the topics each reads and writes, and which must be copartitioned.",
    "StreamsGroupTopologyValue.epoch": "Topology epoch.",
    "StreamsGroupTopologyValue.subtopologies": "The subtopologies of the application.",
    "TopicInfo": "An internal topic the application needs.",
    "TopicInfo.name": "Topic name.",
    "TopicInfo.partitions": "Partition count, or 0 when none is required (always 0 for changelogs).",
    "TopicInfo.replication_factor": "Replication factor, or 0 for the broker default.",
    "TopicInfo.topic_configs": "Topic configuration to create it with.",
    "TopicConfig": "One topic configuration entry.",
    "TopicConfig.key": "Configuration name.",
    "TopicConfig.value": "Configuration value.",
    "Subtopology": "The subtopologies of the application.",
    "Subtopology.subtopology_id": "Subtopology id, derived from the topology.",
    "Subtopology.source_topics": "Topics the subtopology reads by name.",
    "Subtopology.source_topic_regex": "Regular expressions naming further topics it reads.",
    "Subtopology.state_changelog_topics": "Changelog topics of the subtopology's state stores.",
    "Subtopology.repartition_sink_topics": "Repartition topics the subtopology writes.",
    "Subtopology.repartition_source_topics": "Internal repartition topics the subtopology reads.",
    "Subtopology.copartition_groups": "Sets of source topics that must have the same partition count.",
    "CopartitionGroup": "Sets of source topics that must have the same partition count.",
    "CopartitionGroup.source_topics": "Indexes into the subtopology's source_topics.",
    "CopartitionGroup.source_topic_regex": "Indexes into the subtopology's source_topic_regex.",
    "CopartitionGroup.repartition_source_topics": "Indexes into the subtopology's repartition_source_topics.",
}


def _trace_streams_group_topology_value_v0(t) -> None:
    t.begin("StreamsGroupTopologyValue", 0, DOCS["StreamsGroupTopologyValue"])
    t.integer("epoch", "int32", DOCS["StreamsGroupTopologyValue.epoch"])
    t.array(
        "subtopologies",
        "Subtopology",
        DOCS["StreamsGroupTopologyValue.subtopologies"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "Subtopology",
            DOCS["StreamsGroupTopologyValue.subtopologies"],
            _trace_subtopology_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_topic_info_v0(t) -> None:
    t.begin("TopicInfo", 0, DOCS["TopicInfo"])
    t.blob("name", "string", DOCS["TopicInfo.name"], "compact")
    t.integer("partitions", "int32", DOCS["TopicInfo.partitions"])
    t.integer("replication_factor", "int16", DOCS["TopicInfo.replication_factor"])
    t.array(
        "topic_configs",
        "TopicConfig",
        DOCS["TopicInfo.topic_configs"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "TopicConfig", DOCS["TopicInfo.topic_configs"], _trace_topic_config_v0
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_topic_config_v0(t) -> None:
    t.begin("TopicConfig", 0, DOCS["TopicConfig"])
    t.blob("key", "string", DOCS["TopicConfig.key"], "compact")
    t.blob("value", "string", DOCS["TopicConfig.value"], "compact")
    t.tagged({})
    t.end(None)


def _trace_subtopology_v0(t) -> None:
    t.begin("Subtopology", 0, DOCS["Subtopology"])
    t.blob("subtopology_id", "string", DOCS["Subtopology.subtopology_id"], "compact")
    t.array(
        "source_topics",
        "string",
        DOCS["Subtopology.source_topics"],
        "compact",
        lambda t: t.blob(t.take_label(), "string", DOCS["Subtopology.source_topics"], "compact"),
        min_size=1,
    )
    t.array(
        "source_topic_regex",
        "string",
        DOCS["Subtopology.source_topic_regex"],
        "compact",
        lambda t: t.blob(t.take_label(), "string", DOCS["Subtopology.source_topic_regex"], "compact"),
        min_size=1,
    )
    t.array(
        "state_changelog_topics",
        "TopicInfo",
        DOCS["Subtopology.state_changelog_topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "TopicInfo", DOCS["Subtopology.state_changelog_topics"], _trace_topic_info_v0
        ),
        min_size=1,
    )
    t.array(
        "repartition_sink_topics",
        "string",
        DOCS["Subtopology.repartition_sink_topics"],
        "compact",
        lambda t: t.blob(t.take_label(), "string", DOCS["Subtopology.repartition_sink_topics"], "compact"),
        min_size=1,
    )
    t.array(
        "repartition_source_topics",
        "TopicInfo",
        DOCS["Subtopology.repartition_source_topics"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "TopicInfo", DOCS["Subtopology.repartition_source_topics"], _trace_topic_info_v0
        ),
        min_size=1,
    )
    t.array(
        "copartition_groups",
        "CopartitionGroup",
        DOCS["Subtopology.copartition_groups"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "CopartitionGroup",
            DOCS["Subtopology.copartition_groups"],
            _trace_copartition_group_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_copartition_group_v0(t) -> None:
    t.begin("CopartitionGroup", 0, DOCS["CopartitionGroup"])
    t.array(
        "source_topics",
        "int16",
        DOCS["CopartitionGroup.source_topics"],
        "compact",
        lambda t: t.integer(t.take_label(), "int16", DOCS["CopartitionGroup.source_topics"]),
        min_size=2,
    )
    t.array(
        "source_topic_regex",
        "int16",
        DOCS["CopartitionGroup.source_topic_regex"],
        "compact",
        lambda t: t.integer(t.take_label(), "int16", DOCS["CopartitionGroup.source_topic_regex"]),
        min_size=2,
    )
    t.array(
        "repartition_source_topics",
        "int16",
        DOCS["CopartitionGroup.repartition_source_topics"],
        "compact",
        lambda t: t.integer(t.take_label(), "int16", DOCS["CopartitionGroup.repartition_source_topics"]),
        min_size=2,
    )
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_streams_group_topology_value_v0,
}


def trace_streams_group_topology_value(t, version: int) -> None:
    """Read one StreamsGroupTopologyValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupTopologyValue: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
