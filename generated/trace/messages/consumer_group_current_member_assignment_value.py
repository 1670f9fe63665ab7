"""ConsumerGroupCurrentMemberAssignmentValue, the tracing decoder: :func:`trace_consumer_group_current_member_assignment_value` reads one ConsumerGroupCurrentMemberAssignmentValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_current_member_assignment_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupCurrentMemberAssignmentValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupCurrentMemberAssignmentValue": "The partitions one member of a consumer group (KIP-848) owns now, with its member epoch and state.",
    "ConsumerGroupCurrentMemberAssignmentValue.member_epoch": "The member epoch the member must send in its next heartbeat.",
    "ConsumerGroupCurrentMemberAssignmentValue.previous_member_epoch": "The member's epoch before the last bump, accepted in case the member missed the bump.",
    "ConsumerGroupCurrentMemberAssignmentValue.state": "Member state code (0 stable, 1 unrevoked partitions, 2 unreleased partitions, 3 unknown).",
    "ConsumerGroupCurrentMemberAssignmentValue.assigned_partitions": "The partitions the member owns (or is assigned).",
    "ConsumerGroupCurrentMemberAssignmentValue.partitions_pending_revocation": "Partitions the member still has to give up.",
    "TopicPartitions": "Partitions of one topic.",
    "TopicPartitions.topic_id": "Topic id.",
    "TopicPartitions.partitions": "Partition numbers.",
    "TopicPartitions.assignment_epochs": "The epoch at which each partition was assigned to the member, one per partition (Kafka 4.3, to fence zombie commits); empty when not written.",
}


def _trace_consumer_group_current_member_assignment_value_v0(t) -> None:
    t.begin("ConsumerGroupCurrentMemberAssignmentValue", 0, DOCS["ConsumerGroupCurrentMemberAssignmentValue"])
    t.integer("member_epoch", "int32", DOCS["ConsumerGroupCurrentMemberAssignmentValue.member_epoch"])
    t.integer(
        "previous_member_epoch",
        "int32",
        DOCS["ConsumerGroupCurrentMemberAssignmentValue.previous_member_epoch"],
    )
    t.integer("state", "int8", DOCS["ConsumerGroupCurrentMemberAssignmentValue.state"])
    t.array(
        "assigned_partitions",
        "TopicPartitions",
        DOCS["ConsumerGroupCurrentMemberAssignmentValue.assigned_partitions"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartitions",
            DOCS["ConsumerGroupCurrentMemberAssignmentValue.assigned_partitions"],
            _trace_topic_partitions_v0,
        ),
        min_size=1,
    )
    t.array(
        "partitions_pending_revocation",
        "TopicPartitions",
        DOCS["ConsumerGroupCurrentMemberAssignmentValue.partitions_pending_revocation"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartitions",
            DOCS["ConsumerGroupCurrentMemberAssignmentValue.partitions_pending_revocation"],
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
    t.tagged(
        {
            0: (
                "assignment_epochs",
                lambda t: t.array(
                    "assignment_epochs",
                    "int32",
                    DOCS["TopicPartitions.assignment_epochs"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["TopicPartitions.assignment_epochs"]),
                    min_size=4,
                    nullable=True,
                ),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_consumer_group_current_member_assignment_value_v0,
}


def trace_consumer_group_current_member_assignment_value(t, version: int) -> None:
    """Read one ConsumerGroupCurrentMemberAssignmentValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupCurrentMemberAssignmentValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
