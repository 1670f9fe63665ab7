"""ConsumerGroupRegularExpressionKey, the tracing decoder: :func:`trace_consumer_group_regular_expression_key` reads one ConsumerGroupRegularExpressionKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_regular_expression_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupRegularExpressionKey"
VERSIONS = [16]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupRegularExpressionKey": "The key of a consumer group's resolved subscription regex (KIP-848, Kafka 4.0): group id and the expression.",
    "ConsumerGroupRegularExpressionKey.group_id": "Group id.",
    "ConsumerGroupRegularExpressionKey.regular_expression": "The subscription regular expression whose matches the value holds.",
}


def _trace_consumer_group_regular_expression_key_v16(t) -> None:
    t.begin("ConsumerGroupRegularExpressionKey", 16, DOCS["ConsumerGroupRegularExpressionKey"])
    t.blob("group_id", "string", DOCS["ConsumerGroupRegularExpressionKey.group_id"], "int16")
    t.blob(
        "regular_expression", "string", DOCS["ConsumerGroupRegularExpressionKey.regular_expression"], "int16"
    )
    t.end(None)


_TRACERS = {
    16: _trace_consumer_group_regular_expression_key_v16,
}


def trace_consumer_group_regular_expression_key(t, version: int) -> None:
    """Read one ConsumerGroupRegularExpressionKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupRegularExpressionKey: unknown version {version} (this schema has versions 16)",
            t.pos,
        )
    tracer(t)
