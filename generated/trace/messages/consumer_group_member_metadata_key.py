"""ConsumerGroupMemberMetadataKey, the tracing decoder: :func:`trace_consumer_group_member_metadata_key` reads one ConsumerGroupMemberMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_member_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupMemberMetadataKey"
VERSIONS = [5]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupMemberMetadataKey": "The key of one member of a consumer group (KIP-848): group id and member id.",
    "ConsumerGroupMemberMetadataKey.group_id": "Group id.",
    "ConsumerGroupMemberMetadataKey.member_id": "Member id the coordinator gave the member.",
}


def _trace_consumer_group_member_metadata_key_v5(t) -> None:
    t.begin("ConsumerGroupMemberMetadataKey", 5, DOCS["ConsumerGroupMemberMetadataKey"])
    t.blob("group_id", "string", DOCS["ConsumerGroupMemberMetadataKey.group_id"], "int16")
    t.blob("member_id", "string", DOCS["ConsumerGroupMemberMetadataKey.member_id"], "int16")
    t.end(None)


_TRACERS = {
    5: _trace_consumer_group_member_metadata_key_v5,
}


def trace_consumer_group_member_metadata_key(t, version: int) -> None:
    """Read one ConsumerGroupMemberMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupMemberMetadataKey: unknown version {version} (this schema has versions 5)", t.pos
        )
    tracer(t)
