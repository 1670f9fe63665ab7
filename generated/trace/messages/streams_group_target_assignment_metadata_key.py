"""StreamsGroupTargetAssignmentMetadataKey, the tracing decoder: :func:`trace_streams_group_target_assignment_metadata_key` reads one StreamsGroupTargetAssignmentMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_target_assignment_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupTargetAssignmentMetadataKey"
VERSIONS = [20]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupTargetAssignmentMetadataKey": "The key of a streams group's target assignment epoch (KIP-1071): the group id.",
    "StreamsGroupTargetAssignmentMetadataKey.group_id": "Group id.",
}


def _trace_streams_group_target_assignment_metadata_key_v20(t) -> None:
    t.begin("StreamsGroupTargetAssignmentMetadataKey", 20, DOCS["StreamsGroupTargetAssignmentMetadataKey"])
    t.blob("group_id", "string", DOCS["StreamsGroupTargetAssignmentMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    20: _trace_streams_group_target_assignment_metadata_key_v20,
}


def trace_streams_group_target_assignment_metadata_key(t, version: int) -> None:
    """Read one StreamsGroupTargetAssignmentMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 20)",
            t.pos,
        )
    tracer(t)
