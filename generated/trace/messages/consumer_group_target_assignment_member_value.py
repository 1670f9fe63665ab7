"""ConsumerGroupTargetAssignmentMemberValue, the tracing decoder: :func:`trace_consumer_group_target_assignment_member_value` reads one ConsumerGroupTargetAssignmentMemberValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_target_assignment_member_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupTargetAssignmentMemberValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupTargetAssignmentMemberValue": "The partitions the coordinator wants one member of a consumer group (KIP-848) to own.",
    "ConsumerGroupTargetAssignmentMemberValue.topic_partitions": "The assigned partitions, by topic.",
    "TopicPartition": "The assigned partitions, by topic.",
    "TopicPartition.topic_id": "Topic id.",
    "TopicPartition.partitions": "Partition numbers.",
}


def _trace_consumer_group_target_assignment_member_value_v0(t) -> None:
    t.begin("ConsumerGroupTargetAssignmentMemberValue", 0, DOCS["ConsumerGroupTargetAssignmentMemberValue"])
    t.array(
        "topic_partitions",
        "TopicPartition",
        DOCS["ConsumerGroupTargetAssignmentMemberValue.topic_partitions"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartition",
            DOCS["ConsumerGroupTargetAssignmentMemberValue.topic_partitions"],
            _trace_topic_partition_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_topic_partition_v0(t) -> None:
    t.begin("TopicPartition", 0, DOCS["TopicPartition"])
    t.blob("topic_id", "uuid", DOCS["TopicPartition.topic_id"], "size", size=16)
    t.array(
        "partitions",
        "int32",
        DOCS["TopicPartition.partitions"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["TopicPartition.partitions"]),
        min_size=4,
    )
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_consumer_group_target_assignment_member_value_v0,
}


def trace_consumer_group_target_assignment_member_value(t, version: int) -> None:
    """Read one ConsumerGroupTargetAssignmentMemberValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupTargetAssignmentMemberValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
