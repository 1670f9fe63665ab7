"""ShareGroupCurrentMemberAssignmentValue, the tracing decoder: :func:`trace_share_group_current_member_assignment_value` reads one ShareGroupCurrentMemberAssignmentValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_current_member_assignment_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupCurrentMemberAssignmentValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupCurrentMemberAssignmentValue": "The partitions one member of a share group (KIP-932) owns now, with its member epoch and state.",
    "ShareGroupCurrentMemberAssignmentValue.member_epoch": "The member epoch the member must send in its next heartbeat.",
    "ShareGroupCurrentMemberAssignmentValue.previous_member_epoch": "The member's epoch before the last bump, accepted in case the member missed the bump.",
    "ShareGroupCurrentMemberAssignmentValue.state": "Member state code (0 stable, 1 unrevoked partitions, 2 unreleased partitions, 3 unknown).",
    "ShareGroupCurrentMemberAssignmentValue.assigned_partitions": "The partitions the member owns (or is assigned).",
    "TopicPartitions": "Partitions of one topic.",
    "TopicPartitions.topic_id": "Topic id.",
    "TopicPartitions.partitions": "Partition numbers.",
}


def _trace_share_group_current_member_assignment_value_v0(t) -> None:
    t.begin("ShareGroupCurrentMemberAssignmentValue", 0, DOCS["ShareGroupCurrentMemberAssignmentValue"])
    t.integer("member_epoch", "int32", DOCS["ShareGroupCurrentMemberAssignmentValue.member_epoch"])
    t.integer(
        "previous_member_epoch", "int32", DOCS["ShareGroupCurrentMemberAssignmentValue.previous_member_epoch"]
    )
    t.integer("state", "int8", DOCS["ShareGroupCurrentMemberAssignmentValue.state"])
    t.array(
        "assigned_partitions",
        "TopicPartitions",
        DOCS["ShareGroupCurrentMemberAssignmentValue.assigned_partitions"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartitions",
            DOCS["ShareGroupCurrentMemberAssignmentValue.assigned_partitions"],
            _trace_topic_partitions_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_topic_partitions_v0(t) -> None:
    t.begin("TopicPartitions", 0, DOCS["TopicPartitions"])
    t.blob("topic_id", "uuid", DOCS["TopicPartitions.topic_id"], "size", size=16)
    t.array(
        "partitions",
        "int32",
        DOCS["TopicPartitions.partitions"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["TopicPartitions.partitions"]),
        min_size=4,
    )
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_share_group_current_member_assignment_value_v0,
}


def trace_share_group_current_member_assignment_value(t, version: int) -> None:
    """Read one ShareGroupCurrentMemberAssignmentValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
