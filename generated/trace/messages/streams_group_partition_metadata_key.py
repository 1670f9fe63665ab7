"""StreamsGroupPartitionMetadataKey, the tracing decoder: :func:`trace_streams_group_partition_metadata_key` reads one StreamsGroupPartitionMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupPartitionMetadataKey"
VERSIONS = [18]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupPartitionMetadataKey": "The key of a streams group's record of the topics it reads (KIP-1071): the group id.",
    "StreamsGroupPartitionMetadataKey.group_id": "Group id.",
}


def _trace_streams_group_partition_metadata_key_v18(t) -> None:
    t.begin("StreamsGroupPartitionMetadataKey", 18, DOCS["StreamsGroupPartitionMetadataKey"])
    t.blob("group_id", "string", DOCS["StreamsGroupPartitionMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    18: _trace_streams_group_partition_metadata_key_v18,
}


def trace_streams_group_partition_metadata_key(t, version: int) -> None:
    """Read one StreamsGroupPartitionMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupPartitionMetadataKey: unknown version {version} (this schema has versions 18)",
            t.pos,
        )
    tracer(t)
