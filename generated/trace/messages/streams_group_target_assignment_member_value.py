"""StreamsGroupTargetAssignmentMemberValue, the tracing decoder: :func:`trace_streams_group_target_assignment_member_value` reads one StreamsGroupTargetAssignmentMemberValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_target_assignment_member_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupTargetAssignmentMemberValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupTargetAssignmentMemberValue": "The tasks a streams group (KIP-1071) member should own: active, standby and warm-up tasks.",
    "StreamsGroupTargetAssignmentMemberValue.active_tasks": "Active tasks the member should process.",
    "StreamsGroupTargetAssignmentMemberValue.standby_tasks": "Standby tasks the member should keep state for.",
    "StreamsGroupTargetAssignmentMemberValue.warmup_tasks": "Warm-up tasks: state the member should build before taking the task over.",
    "TaskIds": "The tasks of one subtopology: its id and the input partitions numbered within it.",
    "TaskIds.subtopology_id": "Subtopology id.",
    "TaskIds.partitions": "Partition numbers of the subtopology's input topics, one task each.",
}


def _trace_streams_group_target_assignment_member_value_v0(t) -> None:
    t.begin("StreamsGroupTargetAssignmentMemberValue", 0, DOCS["StreamsGroupTargetAssignmentMemberValue"])
    t.array(
        "active_tasks",
        "TaskIds",
        DOCS["StreamsGroupTargetAssignmentMemberValue.active_tasks"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupTargetAssignmentMemberValue.active_tasks"],
            _trace_task_ids_v0,
        ),
        min_size=1,
    )
    t.array(
        "standby_tasks",
        "TaskIds",
        DOCS["StreamsGroupTargetAssignmentMemberValue.standby_tasks"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupTargetAssignmentMemberValue.standby_tasks"],
            _trace_task_ids_v0,
        ),
        min_size=1,
    )
    t.array(
        "warmup_tasks",
        "TaskIds",
        DOCS["StreamsGroupTargetAssignmentMemberValue.warmup_tasks"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TaskIds",
            DOCS["StreamsGroupTargetAssignmentMemberValue.warmup_tasks"],
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
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_streams_group_target_assignment_member_value_v0,
}


def trace_streams_group_target_assignment_member_value(t, version: int) -> None:
    """Read one StreamsGroupTargetAssignmentMemberValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupTargetAssignmentMemberValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
