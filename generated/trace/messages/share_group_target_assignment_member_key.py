"""ShareGroupTargetAssignmentMemberKey, the tracing decoder: :func:`trace_share_group_target_assignment_member_key` reads one ShareGroupTargetAssignmentMemberKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_target_assignment_member_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupTargetAssignmentMemberKey"
VERSIONS = [13]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupTargetAssignmentMemberKey": "The key of one member's target assignment in a share group (KIP-932): group id and member id.",
    "ShareGroupTargetAssignmentMemberKey.group_id": "Group id.",
    "ShareGroupTargetAssignmentMemberKey.member_id": "Member id the coordinator gave the member.",
}


def _trace_share_group_target_assignment_member_key_v13(t) -> None:
    t.begin("ShareGroupTargetAssignmentMemberKey", 13, DOCS["ShareGroupTargetAssignmentMemberKey"])
    t.blob("group_id", "string", DOCS["ShareGroupTargetAssignmentMemberKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["ShareGroupTargetAssignmentMemberKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    13: _trace_share_group_target_assignment_member_key_v13,
}


def trace_share_group_target_assignment_member_key(t, version: int) -> None:
    """Read one ShareGroupTargetAssignmentMemberKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupTargetAssignmentMemberKey: unknown version {version} (this schema has versions 13)",
            t.pos,
        )
    tracer(t)
