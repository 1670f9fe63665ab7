"""StreamsGroupTargetAssignmentMemberKey, the tracing decoder: :func:`trace_streams_group_target_assignment_member_key` reads one StreamsGroupTargetAssignmentMemberKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_target_assignment_member_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupTargetAssignmentMemberKey"
VERSIONS = [21]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupTargetAssignmentMemberKey": "The key of one member's target tasks in a streams group (KIP-1071): group and member ids.",
    "StreamsGroupTargetAssignmentMemberKey.group_id": "Group id.",
    "StreamsGroupTargetAssignmentMemberKey.member_id": "Member id.",
}


def _trace_streams_group_target_assignment_member_key_v21(t) -> None:
    t.begin("StreamsGroupTargetAssignmentMemberKey", 21, DOCS["StreamsGroupTargetAssignmentMemberKey"])
    t.blob("group_id", "string", DOCS["StreamsGroupTargetAssignmentMemberKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["StreamsGroupTargetAssignmentMemberKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    21: _trace_streams_group_target_assignment_member_key_v21,
}


def trace_streams_group_target_assignment_member_key(t, version: int) -> None:
    """Read one StreamsGroupTargetAssignmentMemberKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupTargetAssignmentMemberKey: unknown version {version} (this schema has versions 21)",
            t.pos,
        )
    tracer(t)
