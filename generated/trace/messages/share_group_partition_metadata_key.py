"""ShareGroupPartitionMetadataKey, the tracing decoder: :func:`trace_share_group_partition_metadata_key` reads one ShareGroupPartitionMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupPartitionMetadataKey"
VERSIONS = [9]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupPartitionMetadataKey": "The key of the topic metadata a share group (KIP-932) subscribes to: the group id.",
    "ShareGroupPartitionMetadataKey.group_id": "Group id.",
}


def _trace_share_group_partition_metadata_key_v9(t) -> None:
    t.begin("ShareGroupPartitionMetadataKey", 9, DOCS["ShareGroupPartitionMetadataKey"])
    t.blob("group_id", "string", DOCS["ShareGroupPartitionMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    9: _trace_share_group_partition_metadata_key_v9,
}


def trace_share_group_partition_metadata_key(t, version: int) -> None:
    """Read one ShareGroupPartitionMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupPartitionMetadataKey: unknown version {version} (this schema has versions 9)", t.pos
        )
    tracer(t)
