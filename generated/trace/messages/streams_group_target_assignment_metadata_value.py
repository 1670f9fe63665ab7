"""StreamsGroupTargetAssignmentMetadataValue, the tracing decoder: :func:`trace_streams_group_target_assignment_metadata_value` reads one StreamsGroupTargetAssignmentMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_target_assignment_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupTargetAssignmentMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupTargetAssignmentMetadataValue": "The epoch of a streams group's target assignment (KIP-1071).",
    "StreamsGroupTargetAssignmentMetadataValue.assignment_epoch": "The group epoch the target assignment was computed for.",
    "StreamsGroupTargetAssignmentMetadataValue.assignment_timestamp": "When the computation of this target assignment finished (ms since the epoch; Kafka 4.3, KIP-1263), 0 when not written.",
}


def _trace_streams_group_target_assignment_metadata_value_v0(t) -> None:
    t.begin("StreamsGroupTargetAssignmentMetadataValue", 0, DOCS["StreamsGroupTargetAssignmentMetadataValue"])
    t.integer("assignment_epoch", "int32", DOCS["StreamsGroupTargetAssignmentMetadataValue.assignment_epoch"])
    t.tagged(
        {
            0: (
                "assignment_timestamp",
                lambda t: t.integer(
                    "assignment_timestamp",
                    "int64",
                    DOCS["StreamsGroupTargetAssignmentMetadataValue.assignment_timestamp"],
                ),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_streams_group_target_assignment_metadata_value_v0,
}


def trace_streams_group_target_assignment_metadata_value(t, version: int) -> None:
    """Read one StreamsGroupTargetAssignmentMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupTargetAssignmentMetadataValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
