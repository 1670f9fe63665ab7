"""ShareGroupMemberMetadataValue, the tracing decoder: :func:`trace_share_group_member_metadata_value` reads one ShareGroupMemberMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupMemberMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupMemberMetadataValue": "What one member of a share group (KIP-932) told the coordinator: client, rack and subscription.",
    "ShareGroupMemberMetadataValue.rack_id": "The member's rack, or null.",
    "ShareGroupMemberMetadataValue.client_id": "The member's client.id.",
    "ShareGroupMemberMetadataValue.client_host": "Host the member connected from.",
    "ShareGroupMemberMetadataValue.subscribed_topic_names": "Topics the member subscribes to by name.",
}


def _trace_share_group_member_metadata_value_v0(t) -> None:
    t.begin("ShareGroupMemberMetadataValue", 0, DOCS["ShareGroupMemberMetadataValue"])
    t.blob("rack_id", "string", DOCS["ShareGroupMemberMetadataValue.rack_id"], "compact", nullable=True)
    t.blob("client_id", "string", DOCS["ShareGroupMemberMetadataValue.client_id"], "compact")
    t.blob("client_host", "string", DOCS["ShareGroupMemberMetadataValue.client_host"], "compact")
    t.array(
        "subscribed_topic_names",
        "string",
        DOCS["ShareGroupMemberMetadataValue.subscribed_topic_names"],
        "compact",
        lambda t: t.blob(
            t.take_label(), "string", DOCS["ShareGroupMemberMetadataValue.subscribed_topic_names"], "compact"
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_share_group_member_metadata_value_v0,
}


def trace_share_group_member_metadata_value(t, version: int) -> None:
    """Read one ShareGroupMemberMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
