"""ShareGroupCurrentMemberAssignmentKey, the tracing decoder: :func:`trace_share_group_current_member_assignment_key` reads one ShareGroupCurrentMemberAssignmentKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_current_member_assignment_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupCurrentMemberAssignmentKey"
VERSIONS = [14]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupCurrentMemberAssignmentKey": "The key of one member's current assignment in a share group (KIP-932): group id and member id.",
    "ShareGroupCurrentMemberAssignmentKey.group_id": "Group id.",
    "ShareGroupCurrentMemberAssignmentKey.member_id": "Member id the coordinator gave the member.",
}


def _trace_share_group_current_member_assignment_key_v14(t) -> None:
    t.begin("ShareGroupCurrentMemberAssignmentKey", 14, DOCS["ShareGroupCurrentMemberAssignmentKey"])
    t.blob("group_id", "string", DOCS["ShareGroupCurrentMemberAssignmentKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["ShareGroupCurrentMemberAssignmentKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    14: _trace_share_group_current_member_assignment_key_v14,
}


def trace_share_group_current_member_assignment_key(t, version: int) -> None:
    """Read one ShareGroupCurrentMemberAssignmentKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 14)",
            t.pos,
        )
    tracer(t)
