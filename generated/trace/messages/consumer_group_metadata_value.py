"""ConsumerGroupMetadataValue, the tracing decoder: :func:`trace_consumer_group_metadata_value` reads one ConsumerGroupMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupMetadataValue": "The epoch of a consumer group (KIP-848): bumped whenever its membership or subscriptions change.",
    "ConsumerGroupMetadataValue.epoch": "The group epoch.",
    "ConsumerGroupMetadataValue.metadata_hash": "Hash over the metadata of the topics the group subscribes to (Kafka 4.1, KIP-1101); a change asks for a rebalance. 0 when not written.",
}


def _trace_consumer_group_metadata_value_v0(t) -> None:
    t.begin("ConsumerGroupMetadataValue", 0, DOCS["ConsumerGroupMetadataValue"])
    t.integer("epoch", "int32", DOCS["ConsumerGroupMetadataValue.epoch"])
    t.tagged(
        {
            0: (
                "metadata_hash",
                lambda t: t.integer(
                    "metadata_hash", "int64", DOCS["ConsumerGroupMetadataValue.metadata_hash"]
                ),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_consumer_group_metadata_value_v0,
}


def trace_consumer_group_metadata_value(t, version: int) -> None:
    """Read one ConsumerGroupMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupMetadataValue: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
