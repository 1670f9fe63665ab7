"""ConsumerGroupTargetAssignmentMemberKey, the tracing decoder: :func:`trace_consumer_group_target_assignment_member_key` reads one ConsumerGroupTargetAssignmentMemberKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_target_assignment_member_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupTargetAssignmentMemberKey"
VERSIONS = [7]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupTargetAssignmentMemberKey": "The key of one member's target assignment in a consumer group (KIP-848): group id and member id.",
    "ConsumerGroupTargetAssignmentMemberKey.group_id": "Group id.",
    "ConsumerGroupTargetAssignmentMemberKey.member_id": "Member id the coordinator gave the member.",
}


def _trace_consumer_group_target_assignment_member_key_v7(t) -> None:
    t.begin("ConsumerGroupTargetAssignmentMemberKey", 7, DOCS["ConsumerGroupTargetAssignmentMemberKey"])
    t.blob("group_id", "string", DOCS["ConsumerGroupTargetAssignmentMemberKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["ConsumerGroupTargetAssignmentMemberKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    7: _trace_consumer_group_target_assignment_member_key_v7,
}


def trace_consumer_group_target_assignment_member_key(t, version: int) -> None:
    """Read one ConsumerGroupTargetAssignmentMemberKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupTargetAssignmentMemberKey: unknown version {version} (this schema has versions 7)",
            t.pos,
        )
    tracer(t)
