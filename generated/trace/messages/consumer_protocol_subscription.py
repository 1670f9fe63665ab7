"""ConsumerProtocolSubscription, the tracing decoder: :func:`trace_consumer_protocol_subscription` reads one ConsumerProtocolSubscription of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_protocol_subscription.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerProtocolSubscription"
VERSIONS = [0, 1, 2, 3]
#: the doc line of each structure and field
DOCS = {
    "ConsumerProtocolSubscription": "What a member of a classic consumer group asked for when it joined: the topics it subscribes to, the partitions it owned (version 1+), its generation (2+) and rack (3+). The bytes start with an int16 version.",
    "ConsumerProtocolSubscription.topics": "Topics the member subscribes to.",
    "ConsumerProtocolSubscription.user_data": "The assignor's own data, or null.",
    "ConsumerProtocolSubscription.owned_partitions": "Partitions the member owned when it joined (cooperative rebalancing).",
    "ConsumerProtocolSubscription.generation_id": "The generation the owned partitions belong to, or -1.",
    "ConsumerProtocolSubscription.rack_id": "The member's rack (rack-aware assignment), or null.",
    "TopicPartition": "A topic and some of its partitions.",
    "TopicPartition.topic": "Topic name.",
    "TopicPartition.partitions": "Partition numbers.",
}


def _trace_consumer_protocol_subscription_v0(t) -> None:
    t.begin("ConsumerProtocolSubscription", 0, DOCS["ConsumerProtocolSubscription"])
    t.array(
        "topics",
        "string",
        DOCS["ConsumerProtocolSubscription.topics"],
        "int32",
        lambda t: t.blob(t.take_label(), "string", DOCS["ConsumerProtocolSubscription.topics"], "int16"),
        min_size=2,
    )
    t.blob("user_data", "bytes", DOCS["ConsumerProtocolSubscription.user_data"], "int32", nullable=True)
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


def _trace_consumer_protocol_subscription_v1(t) -> None:
    t.begin("ConsumerProtocolSubscription", 1, DOCS["ConsumerProtocolSubscription"])
    t.array(
        "topics",
        "string",
        DOCS["ConsumerProtocolSubscription.topics"],
        "int32",
        lambda t: t.blob(t.take_label(), "string", DOCS["ConsumerProtocolSubscription.topics"], "int16"),
        min_size=2,
    )
    t.blob("user_data", "bytes", DOCS["ConsumerProtocolSubscription.user_data"], "int32", nullable=True)
    t.array(
        "owned_partitions",
        "TopicPartition",
        DOCS["ConsumerProtocolSubscription.owned_partitions"],
        "int32",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartition",
            DOCS["ConsumerProtocolSubscription.owned_partitions"],
            _trace_topic_partition_v1,
        ),
        min_size=1,
    )
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


def _trace_consumer_protocol_subscription_v2(t) -> None:
    t.begin("ConsumerProtocolSubscription", 2, DOCS["ConsumerProtocolSubscription"])
    t.array(
        "topics",
        "string",
        DOCS["ConsumerProtocolSubscription.topics"],
        "int32",
        lambda t: t.blob(t.take_label(), "string", DOCS["ConsumerProtocolSubscription.topics"], "int16"),
        min_size=2,
    )
    t.blob("user_data", "bytes", DOCS["ConsumerProtocolSubscription.user_data"], "int32", nullable=True)
    t.array(
        "owned_partitions",
        "TopicPartition",
        DOCS["ConsumerProtocolSubscription.owned_partitions"],
        "int32",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartition",
            DOCS["ConsumerProtocolSubscription.owned_partitions"],
            _trace_topic_partition_v2,
        ),
        min_size=1,
    )
    t.integer("generation_id", "int32", DOCS["ConsumerProtocolSubscription.generation_id"])
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


def _trace_consumer_protocol_subscription_v3(t) -> None:
    t.begin("ConsumerProtocolSubscription", 3, DOCS["ConsumerProtocolSubscription"])
    t.array(
        "topics",
        "string",
        DOCS["ConsumerProtocolSubscription.topics"],
        "int32",
        lambda t: t.blob(t.take_label(), "string", DOCS["ConsumerProtocolSubscription.topics"], "int16"),
        min_size=2,
    )
    t.blob("user_data", "bytes", DOCS["ConsumerProtocolSubscription.user_data"], "int32", nullable=True)
    t.array(
        "owned_partitions",
        "TopicPartition",
        DOCS["ConsumerProtocolSubscription.owned_partitions"],
        "int32",
        lambda t: t.nested(
            t.take_label(),
            "TopicPartition",
            DOCS["ConsumerProtocolSubscription.owned_partitions"],
            _trace_topic_partition_v3,
        ),
        min_size=1,
    )
    t.integer("generation_id", "int32", DOCS["ConsumerProtocolSubscription.generation_id"])
    t.blob("rack_id", "string", DOCS["ConsumerProtocolSubscription.rack_id"], "int16", nullable=True)
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
    0: _trace_consumer_protocol_subscription_v0,
    1: _trace_consumer_protocol_subscription_v1,
    2: _trace_consumer_protocol_subscription_v2,
    3: _trace_consumer_protocol_subscription_v3,
}


def trace_consumer_protocol_subscription(t, version: int) -> None:
    """Read one ConsumerProtocolSubscription of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerProtocolSubscription: unknown version {version} (this schema has versions 0-3)", t.pos
        )
    tracer(t)
