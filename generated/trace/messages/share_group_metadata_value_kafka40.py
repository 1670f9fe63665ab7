"""ShareGroupMetadataValueKafka40, the tracing decoder: :func:`trace_share_group_metadata_value_kafka40` reads one ShareGroupMetadataValueKafka40 of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_metadata_value_kafka40.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupMetadataValueKafka40"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupMetadataValueKafka40": "ShareGroupMetadataValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: the epoch alone, without the metadata hash 4.1 put after it.",
    "ShareGroupMetadataValueKafka40.epoch": "The group epoch.",
}


def _trace_share_group_metadata_value_kafka40_v0(t) -> None:
    t.begin("ShareGroupMetadataValueKafka40", 0, DOCS["ShareGroupMetadataValueKafka40"])
    t.integer("epoch", "int32", DOCS["ShareGroupMetadataValueKafka40.epoch"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_share_group_metadata_value_kafka40_v0,
}


def trace_share_group_metadata_value_kafka40(t, version: int) -> None:
    """Read one ShareGroupMetadataValueKafka40 of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupMetadataValueKafka40: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
