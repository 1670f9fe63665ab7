"""ShareGroupTargetAssignmentMetadataKey, the tracing decoder: :func:`trace_share_group_target_assignment_metadata_key` reads one ShareGroupTargetAssignmentMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_target_assignment_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupTargetAssignmentMetadataKey"
VERSIONS = [12]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupTargetAssignmentMetadataKey": "The key of a share group (KIP-932)'s target assignment: the group id.",
    "ShareGroupTargetAssignmentMetadataKey.group_id": "Group id.",
}


def _trace_share_group_target_assignment_metadata_key_v12(t) -> None:
    t.begin("ShareGroupTargetAssignmentMetadataKey", 12, DOCS["ShareGroupTargetAssignmentMetadataKey"])
    t.blob("group_id", "string", DOCS["ShareGroupTargetAssignmentMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    12: _trace_share_group_target_assignment_metadata_key_v12,
}


def trace_share_group_target_assignment_metadata_key(t, version: int) -> None:
    """Read one ShareGroupTargetAssignmentMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupTargetAssignmentMetadataKey: unknown version {version} (this schema has versions 12)",
            t.pos,
        )
    tracer(t)
