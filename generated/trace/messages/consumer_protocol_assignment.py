"""ConsumerProtocolAssignment, the tracing decoder: :func:`trace_consumer_protocol_assignment` reads one ConsumerProtocolAssignment of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_protocol_assignment.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerProtocolAssignment"
VERSIONS = [0, 1, 2, 3]
#: the doc line of each structure and field
DOCS = {
    "ConsumerProtocolAssignment": "The partitions the group leader assigned to a member of a classic consumer group. Versions 0-3 share one layout (the version follows the subscription's). The bytes start with an int16 version.",
    "ConsumerProtocolAssignment.assigned_partitions": "The partitions assigned to the member, by topic.",
    "ConsumerProtocolAssignment.user_data": "The assignor's own data, or null.",
    "TopicPartition": "A topic and some of its partitions.",
    "TopicPartition.topic": "Topic name.",
    "TopicPartition.partitions": "Partition numbers.",
}


def _trace_consumer_protocol_assignment_v0(t) -> None:
    t.begin("ConsumerProtocolAssignment", 0, DOCS["ConsumerProtocolAssignment"])
    t.array(
        "assigned_partitions",
        "TopicPartition",
        DOCS["ConsumerProtocolAssignment.assigned_partitions"],
        "int32",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartition",
            DOCS["ConsumerProtocolAssignment.assigned_partitions"],
            _trace_topic_partition_v0,
        ),
        min_size=1,
    )
    t.blob("user_data", "bytes", DOCS["ConsumerProtocolAssignment.user_data"], "int32", nullable=True)
    t.end(None)


def _trace_topic_partition_v0(t) -> None:
    t.begin("TopicPartition", 0, DOCS["TopicPartition"])
    t.blob("topic", "string", DOCS["TopicPartition.topic"], "int16")
    t.array(
        "partitions",
        "int32",
        DOCS["TopicPartition.partitions"],
        "int32",
        lambda t: t.integer(t.take_label(), "int32", DOCS["TopicPartition.partitions"]),
        min_size=4,
    )
    t.end(None)


def _trace_consumer_protocol_assignment_v1(t) -> None:
    t.begin("ConsumerProtocolAssignment", 1, DOCS["ConsumerProtocolAssignment"])
    t.array(
        "assigned_partitions",
        "TopicPartition",
        DOCS["ConsumerProtocolAssignment.assigned_partitions"],
        "int32",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartition",
            DOCS["ConsumerProtocolAssignment.assigned_partitions"],
            _trace_topic_partition_v1,
        ),
        min_size=1,
    )
    t.blob("user_data", "bytes", DOCS["ConsumerProtocolAssignment.user_data"], "int32", nullable=True)
    t.end(None)


def _trace_topic_partition_v1(t) -> None:
    t.begin("TopicPartition", 1, DOCS["TopicPartition"])
    t.blob("topic", "string", DOCS["TopicPartition.topic"], "int16")
    t.array(
        "partitions",
        "int32",
        DOCS["TopicPartition.partitions"],
        "int32",
        lambda t: t.integer(t.take_label(), "int32", DOCS["TopicPartition.partitions"]),
        min_size=4,
    )
    t.end(None)


def _trace_consumer_protocol_assignment_v2(t) -> None:
    t.begin("ConsumerProtocolAssignment", 2, DOCS["ConsumerProtocolAssignment"])
    t.array(
        "assigned_partitions",
        "TopicPartition",
        DOCS["ConsumerProtocolAssignment.assigned_partitions"],
        "int32",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartition",
            DOCS["ConsumerProtocolAssignment.assigned_partitions"],
            _trace_topic_partition_v2,
        ),
        min_size=1,
    )
    t.blob("user_data", "bytes", DOCS["ConsumerProtocolAssignment.user_data"], "int32", nullable=True)
    t.end(None)


def _trace_topic_partition_v2(t) -> None:
    t.begin("TopicPartition", 2, DOCS["TopicPartition"])
    t.blob("topic", "string", DOCS["TopicPartition.topic"], "int16")
    t.array(
        "partitions",
        "int32",
        DOCS["TopicPartition.partitions"],
        "int32",
        lambda t: t.integer(t.take_label(), "int32", DOCS["TopicPartition.partitions"]),
        min_size=4,
    )
    t.end(None)


def _trace_consumer_protocol_assignment_v3(t) -> None:
    t.begin("ConsumerProtocolAssignment", 3, DOCS["ConsumerProtocolAssignment"])
    t.array(
        "assigned_partitions",
        "TopicPartition",
        DOCS["ConsumerProtocolAssignment.assigned_partitions"],
        "int32",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartition",
            DOCS["ConsumerProtocolAssignment.assigned_partitions"],
            _trace_topic_partition_v3,
        ),
        min_size=1,
    )
    t.blob("user_data", "bytes", DOCS["ConsumerProtocolAssignment.user_data"], "int32", nullable=True)
    t.end(None)


def _trace_topic_partition_v3(t) -> None:
    t.begin("TopicPartition", 3, DOCS["TopicPartition"])
    t.blob("topic", "string", DOCS["TopicPartition.topic"], "int16")
    t.array(
        "partitions",
        "int32",
        DOCS["TopicPartition.partitions"],
        "int32",
        lambda t: t.integer(t.take_label(), "int32", DOCS["TopicPartition.partitions"]),
        min_size=4,
    )
    t.end(None)


_TRACERS = {
    0: _trace_consumer_protocol_assignment_v0,
    1: _trace_consumer_protocol_assignment_v1,
    2: _trace_consumer_protocol_assignment_v2,
    3: _trace_consumer_protocol_assignment_v3,
}


def trace_consumer_protocol_assignment(t, version: int) -> None:
    """Read one ConsumerProtocolAssignment of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerProtocolAssignment: unknown version {version} (this schema has versions 0-3)", t.pos
        )
    tracer(t)
