"""ConsumerGroupCurrentMemberAssignmentKey, the tracing decoder: :func:`trace_consumer_group_current_member_assignment_key` reads one ConsumerGroupCurrentMemberAssignmentKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_current_member_assignment_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupCurrentMemberAssignmentKey"
VERSIONS = [8]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupCurrentMemberAssignmentKey": "The key of one member's current assignment in a consumer group (KIP-848): group id and member id.",
    "ConsumerGroupCurrentMemberAssignmentKey.group_id": "Group id.",
    "ConsumerGroupCurrentMemberAssignmentKey.member_id": "Member id the coordinator gave the member.",
}


def _trace_consumer_group_current_member_assignment_key_v8(t) -> None:
    t.begin("ConsumerGroupCurrentMemberAssignmentKey", 8, DOCS["ConsumerGroupCurrentMemberAssignmentKey"])
    t.blob("group_id", "string", DOCS["ConsumerGroupCurrentMemberAssignmentKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["ConsumerGroupCurrentMemberAssignmentKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    8: _trace_consumer_group_current_member_assignment_key_v8,
}


def trace_consumer_group_current_member_assignment_key(t, version: int) -> None:
    """Read one ConsumerGroupCurrentMemberAssignmentKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 8)",
            t.pos,
        )
    tracer(t)
