"""StreamsGroupMetadataValue, the tracing decoder: :func:`trace_streams_group_metadata_value` reads one StreamsGroupMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupMetadataValue": "A streams group's epoch (KIP-1071), the hash of the topic metadata it was computed from, and (tagged fields added from Kafka 4.1 to 4.4) which topology epochs were validated or described and the assignment configuration last used.",
    "StreamsGroupMetadataValue.epoch": "The group epoch.",
    "StreamsGroupMetadataValue.metadata_hash": "Hash over the metadata (partitions, racks) of every topic the group reads; a change asks for a rebalance.",
    "StreamsGroupMetadataValue.validated_topology_epoch": "The topology epoch whose topics the coordinator found present and valid in the metadata, or -1.",
    "StreamsGroupMetadataValue.last_assignment_configs": "The assignor configuration the last target assignment was computed with, as key-value pairs; empty when not written.",
    "StreamsGroupMetadataValue.stored_description_topology_epoch": "The topology epoch whose description the coordinator stored, or -1.",
    "StreamsGroupMetadataValue.failed_description_topology_epoch": "The topology epoch whose description failed to be stored, or -1.",
    "LastAssignmentConfig": "One assignment configuration entry.",
    "LastAssignmentConfig.key": "Configuration name.",
    "LastAssignmentConfig.value": "Configuration value.",
}


def _trace_streams_group_metadata_value_v0(t) -> None:
    t.begin("StreamsGroupMetadataValue", 0, DOCS["StreamsGroupMetadataValue"])
    t.integer("epoch", "int32", DOCS["StreamsGroupMetadataValue.epoch"])
    t.integer("metadata_hash", "int64", DOCS["StreamsGroupMetadataValue.metadata_hash"])
    t.tagged(
        {
            0: (
                "validated_topology_epoch",
                lambda t: t.integer(
                    "validated_topology_epoch",
                    "int32",
                    DOCS["StreamsGroupMetadataValue.validated_topology_epoch"],
                ),
            ),
            1: (
                "last_assignment_configs",
                lambda t: t.array(
                    "last_assignment_configs",
                    "LastAssignmentConfig",
                    DOCS["StreamsGroupMetadataValue.last_assignment_configs"],
                    "compact",
                    lambda t: t.nested(
                        t.take_label(),
                        "LastAssignmentConfig",
                        DOCS["StreamsGroupMetadataValue.last_assignment_configs"],
                        _trace_last_assignment_config_v0,
                    ),
                    min_size=1,
                    nullable=True,
                ),
            ),
            2: (
                "stored_description_topology_epoch",
                lambda t: t.integer(
                    "stored_description_topology_epoch",
                    "int32",
                    DOCS["StreamsGroupMetadataValue.stored_description_topology_epoch"],
                ),
            ),
            3: (
                "failed_description_topology_epoch",
                lambda t: t.integer(
                    "failed_description_topology_epoch",
                    "int32",
                    DOCS["StreamsGroupMetadataValue.failed_description_topology_epoch"],
                ),
            ),
        }
    )
    t.end(None)


def _trace_last_assignment_config_v0(t) -> None:
    t.begin("LastAssignmentConfig", 0, DOCS["LastAssignmentConfig"])
    t.blob("key", "string", DOCS["LastAssignmentConfig.key"], "compact")
    t.blob("value", "string", DOCS["LastAssignmentConfig.value"], "compact")
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_streams_group_metadata_value_v0,
}


def trace_streams_group_metadata_value(t, version: int) -> None:
    """Read one StreamsGroupMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupMetadataValue: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
