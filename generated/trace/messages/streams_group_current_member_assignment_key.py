"""StreamsGroupCurrentMemberAssignmentKey, the tracing decoder: :func:`trace_streams_group_current_member_assignment_key` reads one StreamsGroupCurrentMemberAssignmentKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_current_member_assignment_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupCurrentMemberAssignmentKey"
VERSIONS = [22]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupCurrentMemberAssignmentKey": "The key of the tasks one streams group member owns now (KIP-1071): group and member ids.",
    "StreamsGroupCurrentMemberAssignmentKey.group_id": "Group id.",
    "StreamsGroupCurrentMemberAssignmentKey.member_id": "Member id.",
}


def _trace_streams_group_current_member_assignment_key_v22(t) -> None:
    t.begin("StreamsGroupCurrentMemberAssignmentKey", 22, DOCS["StreamsGroupCurrentMemberAssignmentKey"])
    t.blob("group_id", "string", DOCS["StreamsGroupCurrentMemberAssignmentKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["StreamsGroupCurrentMemberAssignmentKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    22: _trace_streams_group_current_member_assignment_key_v22,
}


def trace_streams_group_current_member_assignment_key(t, version: int) -> None:
    """Read one StreamsGroupCurrentMemberAssignmentKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupCurrentMemberAssignmentKey: unknown version {version} (this schema has versions 22)",
            t.pos,
        )
    tracer(t)
