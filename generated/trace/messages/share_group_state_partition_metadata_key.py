"""ShareGroupStatePartitionMetadataKey, the tracing decoder: :func:`trace_share_group_state_partition_metadata_key` reads one ShareGroupStatePartitionMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_state_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupStatePartitionMetadataKey"
VERSIONS = [15]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupStatePartitionMetadataKey": "The key of a share group's state-partition bookkeeping: the group id.",
    "ShareGroupStatePartitionMetadataKey.group_id": "Group id.",
}


def _trace_share_group_state_partition_metadata_key_v15(t) -> None:
    t.begin("ShareGroupStatePartitionMetadataKey", 15, DOCS["ShareGroupStatePartitionMetadataKey"])
    t.blob("group_id", "string", DOCS["ShareGroupStatePartitionMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    15: _trace_share_group_state_partition_metadata_key_v15,
}


def trace_share_group_state_partition_metadata_key(t, version: int) -> None:
    """Read one ShareGroupStatePartitionMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupStatePartitionMetadataKey: unknown version {version} (this schema has versions 15)",
            t.pos,
        )
    tracer(t)
