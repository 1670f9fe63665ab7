"""ConsumerGroupPartitionMetadataKey, the tracing decoder: :func:`trace_consumer_group_partition_metadata_key` reads one ConsumerGroupPartitionMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupPartitionMetadataKey"
VERSIONS = [4]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupPartitionMetadataKey": "The key of the topic metadata a consumer group (KIP-848) subscribes to: the group id.",
    "ConsumerGroupPartitionMetadataKey.group_id": "Group id.",
}


def _trace_consumer_group_partition_metadata_key_v4(t) -> None:
    t.begin("ConsumerGroupPartitionMetadataKey", 4, DOCS["ConsumerGroupPartitionMetadataKey"])
    t.blob("group_id", "string", DOCS["ConsumerGroupPartitionMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    4: _trace_consumer_group_partition_metadata_key_v4,
}


def trace_consumer_group_partition_metadata_key(t, version: int) -> None:
    """Read one ConsumerGroupPartitionMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupPartitionMetadataKey: unknown version {version} (this schema has versions 4)",
            t.pos,
        )
    tracer(t)
