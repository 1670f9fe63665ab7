"""StreamsGroupMetadataKey, the tracing decoder: :func:`trace_streams_group_metadata_key` reads one StreamsGroupMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupMetadataKey"
VERSIONS = [17]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupMetadataKey": "The key of a streams group (KIP-1071)'s metadata: the group id.",
    "StreamsGroupMetadataKey.group_id": "Group id.",
}


def _trace_streams_group_metadata_key_v17(t) -> None:
    t.begin("StreamsGroupMetadataKey", 17, DOCS["StreamsGroupMetadataKey"])
    t.blob("group_id", "string", DOCS["StreamsGroupMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    17: _trace_streams_group_metadata_key_v17,
}


def trace_streams_group_metadata_key(t, version: int) -> None:
    """Read one StreamsGroupMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupMetadataKey: unknown version {version} (this schema has versions 17)", t.pos
        )
    tracer(t)
