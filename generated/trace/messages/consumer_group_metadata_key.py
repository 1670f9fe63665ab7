"""ConsumerGroupMetadataKey, the tracing decoder: :func:`trace_consumer_group_metadata_key` reads one ConsumerGroupMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupMetadataKey"
VERSIONS = [3]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupMetadataKey": "The key of a consumer group (KIP-848)'s metadata: the group id.",
    "ConsumerGroupMetadataKey.group_id": "Group id.",
}


def _trace_consumer_group_metadata_key_v3(t) -> None:
    t.begin("ConsumerGroupMetadataKey", 3, DOCS["ConsumerGroupMetadataKey"])
    t.blob("group_id", "string", DOCS["ConsumerGroupMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    3: _trace_consumer_group_metadata_key_v3,
}


def trace_consumer_group_metadata_key(t, version: int) -> None:
    """Read one ConsumerGroupMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupMetadataKey: unknown version {version} (this schema has versions 3)", t.pos
        )
    tracer(t)
