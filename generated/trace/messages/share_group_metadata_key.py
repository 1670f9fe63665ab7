"""ShareGroupMetadataKey, the tracing decoder: :func:`trace_share_group_metadata_key` reads one ShareGroupMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupMetadataKey"
VERSIONS = [11]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupMetadataKey": "The key of a share group (KIP-932)'s metadata: the group id.",
    "ShareGroupMetadataKey.group_id": "Group id.",
}


def _trace_share_group_metadata_key_v11(t) -> None:
    t.begin("ShareGroupMetadataKey", 11, DOCS["ShareGroupMetadataKey"])
    t.blob("group_id", "string", DOCS["ShareGroupMetadataKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    11: _trace_share_group_metadata_key_v11,
}


def trace_share_group_metadata_key(t, version: int) -> None:
    """Read one ShareGroupMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ShareGroupMetadataKey: unknown version {version} (this schema has versions 11)", t.pos)
    tracer(t)
