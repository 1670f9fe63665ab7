"""ConsumerGroupRegularExpressionValue, the tracing decoder: :func:`trace_consumer_group_regular_expression_value` reads one ConsumerGroupRegularExpressionValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_regular_expression_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupRegularExpressionValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupRegularExpressionValue": "The topics a consumer group's subscription regex matched (KIP-848, Kafka 4.0), resolved by the coordinator, and which metadata it was resolved against.",
    "ConsumerGroupRegularExpressionValue.topics": "Names of the topics the expression matched.",
    "ConsumerGroupRegularExpressionValue.version": "Version (offset) of the metadata image the expression was resolved against.",
    "ConsumerGroupRegularExpressionValue.timestamp": "When the expression was resolved (ms since the epoch).",
}


def _trace_consumer_group_regular_expression_value_v0(t) -> None:
    t.begin("ConsumerGroupRegularExpressionValue", 0, DOCS["ConsumerGroupRegularExpressionValue"])
    t.array(
        "topics",
        "string",
        DOCS["ConsumerGroupRegularExpressionValue.topics"],
        "compact",
        lambda t: t.blob(
            t.take_label(), "string", DOCS["ConsumerGroupRegularExpressionValue.topics"], "compact"
        ),
        min_size=1,
    )
    t.integer("version", "int64", DOCS["ConsumerGroupRegularExpressionValue.version"])
    t.integer("timestamp", "int64", DOCS["ConsumerGroupRegularExpressionValue.timestamp"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_consumer_group_regular_expression_value_v0,
}


def trace_consumer_group_regular_expression_value(t, version: int) -> None:
    """Read one ConsumerGroupRegularExpressionValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupRegularExpressionValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
