"""ShareGroupMemberMetadataKey, the tracing decoder: :func:`trace_share_group_member_metadata_key` reads one ShareGroupMemberMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_member_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupMemberMetadataKey"
VERSIONS = [10]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupMemberMetadataKey": "The key of one member of a share group (KIP-932): group id and member id.",
    "ShareGroupMemberMetadataKey.group_id": "Group id.",
    "ShareGroupMemberMetadataKey.member_id": "Member id the coordinator gave the member.",
}


def _trace_share_group_member_metadata_key_v10(t) -> None:
    t.begin("ShareGroupMemberMetadataKey", 10, DOCS["ShareGroupMemberMetadataKey"])
    t.blob("group_id", "string", DOCS["ShareGroupMemberMetadataKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["ShareGroupMemberMetadataKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    10: _trace_share_group_member_metadata_key_v10,
}


def trace_share_group_member_metadata_key(t, version: int) -> None:
    """Read one ShareGroupMemberMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupMemberMetadataKey: unknown version {version} (this schema has versions 10)", t.pos
        )
    tracer(t)
