"""ConsumerGroupTargetAssignmentMetadataKey, the tracing decoder: :func:`trace_consumer_group_target_assignment_metadata_key` reads one ConsumerGroupTargetAssignmentMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_target_assignment_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupTargetAssignmentMetadataKey"
VERSIONS = [6]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupTargetAssignmentMetadataKey": "The key of a consumer group (KIP-848)'s target assignment: the group id.",
    "ConsumerGroupTargetAssignmentMetadataKey.group_id": "Group id.",
}


def _trace_consumer_group_target_assignment_metadata_key_v6(t) -> None:
    t.begin("ConsumerGroupTargetAssignmentMetadataKey", 6, DOCS["ConsumerGroupTargetAssignmentMetadataKey"])
    t.blob("group_id", "string", DOCS["ConsumerGroupTargetAssignmentMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    6: _trace_consumer_group_target_assignment_metadata_key_v6,
}


def trace_consumer_group_target_assignment_metadata_key(t, version: int) -> None:
    """Read one ConsumerGroupTargetAssignmentMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 6)",
            t.pos,
        )
    tracer(t)
