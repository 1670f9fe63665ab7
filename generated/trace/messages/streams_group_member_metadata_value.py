"""StreamsGroupMemberMetadataValue, the tracing decoder: :func:`trace_streams_group_member_metadata_value` reads one StreamsGroupMemberMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_member_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupMemberMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupMemberMetadataValue": "What one member of a streams group (KIP-1071) told the coordinator: client, rack, process, topology epoch and query endpoint.",
    "StreamsGroupMemberMetadataValue.instance_id": "Static membership id, or null.",
    "StreamsGroupMemberMetadataValue.rack_id": "The member's rack, or null.",
    "StreamsGroupMemberMetadataValue.client_id": "The member's client.id.",
    "StreamsGroupMemberMetadataValue.client_host": "Host the member connected from.",
    "StreamsGroupMemberMetadataValue.rebalance_timeout_ms": "Rebalance timeout (ms), or -1.",
    "StreamsGroupMemberMetadataValue.topology_epoch": "Epoch of the topology the member runs.",
    "StreamsGroupMemberMetadataValue.process_id": "Id of the Streams instance (process) the member belongs to; one process may run several members.",
    "StreamsGroupMemberMetadataValue.user_endpoint": "Host and port where the instance answers interactive queries, or null.",
    "StreamsGroupMemberMetadataValue.client_tags": "Client tags, for rack-aware assignment.",
    "Endpoint": "Host and port where the instance answers interactive queries, or null.",
    "Endpoint.host": "Host name.",
    "Endpoint.port": "Port.",
    "KeyValue": "Client tags, for rack-aware assignment.",
    "KeyValue.key": "Tag name.",
    "KeyValue.value": "Tag value.",
}


def _trace_streams_group_member_metadata_value_v0(t) -> None:
    t.begin("StreamsGroupMemberMetadataValue", 0, DOCS["StreamsGroupMemberMetadataValue"])
    t.blob(
        "instance_id", "string", DOCS["StreamsGroupMemberMetadataValue.instance_id"], "compact", nullable=True
    )
    t.blob("rack_id", "string", DOCS["StreamsGroupMemberMetadataValue.rack_id"], "compact", nullable=True)
    t.blob("client_id", "string", DOCS["StreamsGroupMemberMetadataValue.client_id"], "compact")
    t.blob("client_host", "string", DOCS["StreamsGroupMemberMetadataValue.client_host"], "compact")
    t.integer("rebalance_timeout_ms", "int32", DOCS["StreamsGroupMemberMetadataValue.rebalance_timeout_ms"])
    t.integer("topology_epoch", "int32", DOCS["StreamsGroupMemberMetadataValue.topology_epoch"])
    t.blob("process_id", "string", DOCS["StreamsGroupMemberMetadataValue.process_id"], "compact")
    t.nullable(
        "user_endpoint",
        "Endpoint",
        DOCS["StreamsGroupMemberMetadataValue.user_endpoint"],
        "int8",
        _trace_endpoint_v0,
    )
    t.array(
        "client_tags",
        "KeyValue",
        DOCS["StreamsGroupMemberMetadataValue.client_tags"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "KeyValue",
            DOCS["StreamsGroupMemberMetadataValue.client_tags"],
            _trace_key_value_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_endpoint_v0(t) -> None:
    t.begin("Endpoint", 0, DOCS["Endpoint"])
    t.blob("host", "string", DOCS["Endpoint.host"], "compact")
    t.integer("port", "uint16", DOCS["Endpoint.port"])
    t.tagged({})
    t.end(None)


def _trace_key_value_v0(t) -> None:
    t.begin("KeyValue", 0, DOCS["KeyValue"])
    t.blob("key", "string", DOCS["KeyValue.key"], "compact")
    t.blob("value", "string", DOCS["KeyValue.value"], "compact")
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_streams_group_member_metadata_value_v0,
}


def trace_streams_group_member_metadata_value(t, version: int) -> None:
    """Read one StreamsGroupMemberMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupMemberMetadataValue: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
