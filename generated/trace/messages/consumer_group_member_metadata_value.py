"""ConsumerGroupMemberMetadataValue, the tracing decoder: :func:`trace_consumer_group_member_metadata_value` reads one ConsumerGroupMemberMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupMemberMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupMemberMetadataValue": "What one member of a consumer group (KIP-848) told the coordinator: client, rack and subscription.",
    "ConsumerGroupMemberMetadataValue.instance_id": "Static membership id, or null.",
    "ConsumerGroupMemberMetadataValue.rack_id": "The member's rack, or null.",
    "ConsumerGroupMemberMetadataValue.client_id": "The member's client.id.",
    "ConsumerGroupMemberMetadataValue.client_host": "Host the member connected from.",
    "ConsumerGroupMemberMetadataValue.subscribed_topic_names": "Topics the member subscribes to by name.",
    "ConsumerGroupMemberMetadataValue.subscribed_topic_regex": "Regular expression the member subscribes with, or null.",
    "ConsumerGroupMemberMetadataValue.rebalance_timeout_ms": "Rebalance timeout (ms), or -1.",
    "ConsumerGroupMemberMetadataValue.server_assignor": "Server-side assignor the member asked for, or null.",
    "ConsumerGroupMemberMetadataValue.classic_member_metadata": "For a member using the classic protocol: its session timeout and protocols. When the tag is absent Kafka reads an empty structure (timeout 0, no protocols), not null; a written null stays null.",
    "ClassicMemberMetadata": "For a member using the classic protocol: its session timeout and protocols. When the tag is absent Kafka reads an empty structure (timeout 0, no protocols), not null; a written null stays null.",
    "ClassicMemberMetadata.session_timeout_ms": "Session timeout (ms) of the classic-protocol member.",
    "ClassicMemberMetadata.supported_protocols": "The assignment protocols the classic-protocol member supports.",
    "ClassicProtocol": "The assignment protocols the classic-protocol member supports.",
    "ClassicProtocol.name": "Protocol name.",
    "ClassicProtocol.metadata": "Protocol metadata, opaque here.",
}


def _trace_consumer_group_member_metadata_value_v0(t) -> None:
    t.begin("ConsumerGroupMemberMetadataValue", 0, DOCS["ConsumerGroupMemberMetadataValue"])
    t.blob(
        "instance_id",
        "string",
        DOCS["ConsumerGroupMemberMetadataValue.instance_id"],
        "compact",
        nullable=True,
    )
    t.blob("rack_id", "string", DOCS["ConsumerGroupMemberMetadataValue.rack_id"], "compact", nullable=True)
    t.blob("client_id", "string", DOCS["ConsumerGroupMemberMetadataValue.client_id"], "compact")
    t.blob("client_host", "string", DOCS["ConsumerGroupMemberMetadataValue.client_host"], "compact")
    t.array(
        "subscribed_topic_names",
        "string",
        DOCS["ConsumerGroupMemberMetadataValue.subscribed_topic_names"],
        "compact",
        lambda t: t.blob(
            t.take_label(),
            "string",
            DOCS["ConsumerGroupMemberMetadataValue.subscribed_topic_names"],
            "compact",
        ),
        min_size=1,
    )
    t.blob(
        "subscribed_topic_regex",
        "string",
        DOCS["ConsumerGroupMemberMetadataValue.subscribed_topic_regex"],
        "compact",
        nullable=True,
    )
    t.integer("rebalance_timeout_ms", "int32", DOCS["ConsumerGroupMemberMetadataValue.rebalance_timeout_ms"])
    t.blob(
        "server_assignor",
        "string",
        DOCS["ConsumerGroupMemberMetadataValue.server_assignor"],
        "compact",
        nullable=True,
    )
    t.tagged(
        {
            0: (
                "classic_member_metadata",
                lambda t: t.nullable(
                    "classic_member_metadata",
                    "ClassicMemberMetadata",
                    DOCS["ConsumerGroupMemberMetadataValue.classic_member_metadata"],
                    "uvarint",
                    _trace_classic_member_metadata_v0,
                ),
            )
        }
    )
    t.end(None)


def _trace_classic_member_metadata_v0(t) -> None:
    t.begin("ClassicMemberMetadata", 0, DOCS["ClassicMemberMetadata"])
    t.integer("session_timeout_ms", "int32", DOCS["ClassicMemberMetadata.session_timeout_ms"])
    t.array(
        "supported_protocols",
        "ClassicProtocol",
        DOCS["ClassicMemberMetadata.supported_protocols"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "ClassicProtocol",
            DOCS["ClassicMemberMetadata.supported_protocols"],
            _trace_classic_protocol_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_classic_protocol_v0(t) -> None:
    t.begin("ClassicProtocol", 0, DOCS["ClassicProtocol"])
    t.blob("name", "string", DOCS["ClassicProtocol.name"], "compact")
    t.blob("metadata", "bytes", DOCS["ClassicProtocol.metadata"], "compact")
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_consumer_group_member_metadata_value_v0,
}


def trace_consumer_group_member_metadata_value(t, version: int) -> None:
    """Read one ConsumerGroupMemberMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
