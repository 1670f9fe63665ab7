"""StreamsGroupMemberMetadataKey, the tracing decoder: :func:`trace_streams_group_member_metadata_key` reads one StreamsGroupMemberMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_member_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupMemberMetadataKey"
VERSIONS = [19]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupMemberMetadataKey": "The key of one streams group member's metadata (KIP-1071): group and member ids.",
    "StreamsGroupMemberMetadataKey.group_id": "Group id.",
    "StreamsGroupMemberMetadataKey.member_id": "Member id.",
}


def _trace_streams_group_member_metadata_key_v19(t) -> None:
    t.begin("StreamsGroupMemberMetadataKey", 19, DOCS["StreamsGroupMemberMetadataKey"])
    t.blob("group_id", "string", DOCS["StreamsGroupMemberMetadataKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["StreamsGroupMemberMetadataKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    19: _trace_streams_group_member_metadata_key_v19,
}


def trace_streams_group_member_metadata_key(t, version: int) -> None:
    """Read one StreamsGroupMemberMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupMemberMetadataKey: unknown version {version} (this schema has versions 19)", t.pos
        )
    tracer(t)
