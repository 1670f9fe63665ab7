"""StreamsGroupCurrentMemberAssignmentValue, the tracing decoder: :func:`trace_streams_group_current_member_assignment_value` reads one StreamsGroupCurrentMemberAssignmentValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_current_member_assignment_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupCurrentMemberAssignmentValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupCurrentMemberAssignmentValue": "The tasks one member of a streams group (KIP-1071) owns now, those it must give up, and its member epoch and state.",
    "StreamsGroupCurrentMemberAssignmentValue.member_epoch": "The member epoch the member must send in its next heartbeat.",
    "StreamsGroupCurrentMemberAssignmentValue.previous_member_epoch": "The member's epoch before the last bump, accepted in case the member missed the bump.",
    "StreamsGroupCurrentMemberAssignmentValue.state": "Member state code (as in the consumer group records).",
    "StreamsGroupCurrentMemberAssignmentValue.active_tasks": "Active tasks the member owns.",
    "StreamsGroupCurrentMemberAssignmentValue.standby_tasks": "Standby tasks the member owns.",
    "StreamsGroupCurrentMemberAssignmentValue.warmup_tasks": "Warm-up tasks the member owns.",
    "StreamsGroupCurrentMemberAssignmentValue.active_tasks_pending_revocation": "Active tasks the member still has to give up.",
    "StreamsGroupCurrentMemberAssignmentValue.standby_tasks_pending_revocation": "Standby tasks the member still has to give up.",
    "StreamsGroupCurrentMemberAssignmentValue.warmup_tasks_pending_revocation": "Warm-up tasks the member still has to give up.",
    "TaskIds": "The tasks of one subtopology: its id and the input partitions numbered within it.",
    "TaskIds.subtopology_id": "Subtopology id.",
    "TaskIds.partitions": "Partition numbers of the subtopology's input topics, one task each.",
    "TaskIds.assignment_epochs": "The epoch at which each partition was assigned to the member, one per partition (Kafka 4.3, active tasks only, to fence zombie commits); empty when not written.",
}


def _trace_streams_group_current_member_assignment_value_v0(t) -> None:
    t.begin("StreamsGroupCurrentMemberAssignmentValue", 0, DOCS["StreamsGroupCurrentMemberAssignmentValue"])
    t.integer("member_epoch", "int32", DOCS["StreamsGroupCurrentMemberAssignmentValue.member_epoch"])
    t.integer(
        "previous_member_epoch",
        "int32",
        DOCS["StreamsGroupCurrentMemberAssignmentValue.previous_member_epoch"],
    )
    t.integer("state", "int8", DOCS["StreamsGroupCurrentMemberAssignmentValue.state"])
    t.array(
        "active_tasks",
        "TaskIds",
        DOCS["StreamsGroupCurrentMemberAssignmentValue.active_tasks"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupCurrentMemberAssignmentValue.active_tasks"],
            _trace_task_ids_v0,
        ),
        min_size=1,
    )
    t.array(
        "standby_tasks",
        "TaskIds",
        DOCS["StreamsGroupCurrentMemberAssignmentValue.standby_tasks"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupCurrentMemberAssignmentValue.standby_tasks"],
            _trace_task_ids_v0,
        ),
        min_size=1,
    )
    t.array(
        "warmup_tasks",
        "TaskIds",
        DOCS["StreamsGroupCurrentMemberAssignmentValue.warmup_tasks"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupCurrentMemberAssignmentValue.warmup_tasks"],
            _trace_task_ids_v0,
        ),
        min_size=1,
    )
    t.array(
        "active_tasks_pending_revocation",
        "TaskIds",
        DOCS["StreamsGroupCurrentMemberAssignmentValue.active_tasks_pending_revocation"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupCurrentMemberAssignmentValue.active_tasks_pending_revocation"],
            _trace_task_ids_v0,
        ),
        min_size=1,
    )
    t.array(
        "standby_tasks_pending_revocation",
        "TaskIds",
        DOCS["StreamsGroupCurrentMemberAssignmentValue.standby_tasks_pending_revocation"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupCurrentMemberAssignmentValue.standby_tasks_pending_revocation"],
            _trace_task_ids_v0,
        ),
        min_size=1,
    )
    t.array(
        "warmup_tasks_pending_revocation",
        "TaskIds",
        DOCS["StreamsGroupCurrentMemberAssignmentValue.warmup_tasks_pending_revocation"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupCurrentMemberAssignmentValue.warmup_tasks_pending_revocation"],
            _trace_task_ids_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_task_ids_v0(t) -> None:
    t.begin("TaskIds", 0, DOCS["TaskIds"])
    t.blob("subtopology_id", "string", DOCS["TaskIds.subtopology_id"], "compact")
    t.array(
        "partitions",
        "int32",
        DOCS["TaskIds.partitions"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["TaskIds.partitions"]),
        min_size=4,
    )
    t.tagged(
        {
            0: (
                "assignment_epochs",
                lambda t: t.array(
                    "assignment_epochs",
                    "int32",
                    DOCS["TaskIds.assignment_epochs"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["TaskIds.assignment_epochs"]),
                    min_size=4,
                    nullable=True,
                ),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_streams_group_current_member_assignment_value_v0,
}


def trace_streams_group_current_member_assignment_value(t, version: int) -> None:
    """Read one StreamsGroupCurrentMemberAssignmentValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
