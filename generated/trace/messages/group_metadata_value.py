"""GroupMetadataValue, the tracing decoder: :func:`trace_group_metadata_value` reads one GroupMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "GroupMetadataValue"
VERSIONS = [0, 1, 2, 3, 4]
#: the doc line of each structure and field
DOCS = {
    "GroupMetadataValue": "The state of a classic consumer group: protocol, generation, leader and members. A null value (tombstone) deletes the group.",
    "GroupMetadataValue.protocol_type": 'Protocol type of the group ("consumer" for consumer groups; empty for an offsets-only group).',
    "GroupMetadataValue.generation": "Generation id: bumped at every rebalance.",
    "GroupMetadataValue.protocol": "Assignment strategy chosen, or null when the group is empty.",
    "GroupMetadataValue.leader": "Member id of the group leader, or null.",
    "GroupMetadataValue.current_state_timestamp": "When the group entered its current state (ms), or -1.",
    "GroupMetadataValue.members": "The members and their subscriptions and assignments.",
    "MemberMetadata": "One member of a classic group.",
    "MemberMetadata.member_id": "Member id the coordinator gave the member.",
    "MemberMetadata.group_instance_id": "Static membership id, or null for a dynamic member.",
    "MemberMetadata.client_id": "The member's client.id.",
    "MemberMetadata.client_host": "Host the member connected from.",
    "MemberMetadata.rebalance_timeout": "Rebalance timeout (ms), or -1 in version 0.",
    "MemberMetadata.session_timeout": "Session timeout (ms).",
    "MemberMetadata.subscription": "The member's protocol metadata (for consumers: its subscription), opaque here.",
    "MemberMetadata.assignment": "The member's assignment from the leader, opaque here.",
}


def _trace_group_metadata_value_v0(t) -> None:
    t.begin("GroupMetadataValue", 0, DOCS["GroupMetadataValue"])
    t.blob("protocol_type", "string", DOCS["GroupMetadataValue.protocol_type"], "int16")
    t.integer("generation", "int32", DOCS["GroupMetadataValue.generation"])
    t.blob("protocol", "string", DOCS["GroupMetadataValue.protocol"], "int16", nullable=True)
    t.blob("leader", "string", DOCS["GroupMetadataValue.leader"], "int16", nullable=True)
    t.array(
        "members",
        "MemberMetadata",
        DOCS["GroupMetadataValue.members"],
        "int32",
        lambda t: t.nested(
            t.take_label(), "MemberMetadata", DOCS["GroupMetadataValue.members"], _trace_member_metadata_v0
        ),
        min_size=1,
    )
    t.end(None)


def _trace_member_metadata_v0(t) -> None:
    t.begin("MemberMetadata", 0, DOCS["MemberMetadata"])
    t.blob("member_id", "string", DOCS["MemberMetadata.member_id"], "int16")
    t.blob("client_id", "string", DOCS["MemberMetadata.client_id"], "int16")
    t.blob("client_host", "string", DOCS["MemberMetadata.client_host"], "int16")
    t.integer("session_timeout", "int32", DOCS["MemberMetadata.session_timeout"])
    t.blob("subscription", "bytes", DOCS["MemberMetadata.subscription"], "int32")
    t.blob("assignment", "bytes", DOCS["MemberMetadata.assignment"], "int32")
    t.end(None)


def _trace_group_metadata_value_v1(t) -> None:
    t.begin("GroupMetadataValue", 1, DOCS["GroupMetadataValue"])
    t.blob("protocol_type", "string", DOCS["GroupMetadataValue.protocol_type"], "int16")
    t.integer("generation", "int32", DOCS["GroupMetadataValue.generation"])
    t.blob("protocol", "string", DOCS["GroupMetadataValue.protocol"], "int16", nullable=True)
    t.blob("leader", "string", DOCS["GroupMetadataValue.leader"], "int16", nullable=True)
    t.array(
        "members",
        "MemberMetadata",
        DOCS["GroupMetadataValue.members"],
        "int32",
        lambda t: t.nested(
            t.take_label(), "MemberMetadata", DOCS["GroupMetadataValue.members"], _trace_member_metadata_v1
        ),
        min_size=1,
    )
    t.end(None)


def _trace_member_metadata_v1(t) -> None:
    t.begin("MemberMetadata", 1, DOCS["MemberMetadata"])
    t.blob("member_id", "string", DOCS["MemberMetadata.member_id"], "int16")
    t.blob("client_id", "string", DOCS["MemberMetadata.client_id"], "int16")
    t.blob("client_host", "string", DOCS["MemberMetadata.client_host"], "int16")
    t.integer("rebalance_timeout", "int32", DOCS["MemberMetadata.rebalance_timeout"])
    t.integer("session_timeout", "int32", DOCS["MemberMetadata.session_timeout"])
    t.blob("subscription", "bytes", DOCS["MemberMetadata.subscription"], "int32")
    t.blob("assignment", "bytes", DOCS["MemberMetadata.assignment"], "int32")
    t.end(None)


def _trace_group_metadata_value_v2(t) -> None:
    t.begin("GroupMetadataValue", 2, DOCS["GroupMetadataValue"])
    t.blob("protocol_type", "string", DOCS["GroupMetadataValue.protocol_type"], "int16")
    t.integer("generation", "int32", DOCS["GroupMetadataValue.generation"])
    t.blob("protocol", "string", DOCS["GroupMetadataValue.protocol"], "int16", nullable=True)
    t.blob("leader", "string", DOCS["GroupMetadataValue.leader"], "int16", nullable=True)
    t.integer("current_state_timestamp", "int64", DOCS["GroupMetadataValue.current_state_timestamp"])
    t.array(
        "members",
        "MemberMetadata",
        DOCS["GroupMetadataValue.members"],
        "int32",
        lambda t: t.nested(
            t.take_label(), "MemberMetadata", DOCS["GroupMetadataValue.members"], _trace_member_metadata_v2
        ),
        min_size=1,
    )
    t.end(None)


def _trace_member_metadata_v2(t) -> None:
    t.begin("MemberMetadata", 2, DOCS["MemberMetadata"])
    t.blob("member_id", "string", DOCS["MemberMetadata.member_id"], "int16")
    t.blob("client_id", "string", DOCS["MemberMetadata.client_id"], "int16")
    t.blob("client_host", "string", DOCS["MemberMetadata.client_host"], "int16")
    t.integer("rebalance_timeout", "int32", DOCS["MemberMetadata.rebalance_timeout"])
    t.integer("session_timeout", "int32", DOCS["MemberMetadata.session_timeout"])
    t.blob("subscription", "bytes", DOCS["MemberMetadata.subscription"], "int32")
    t.blob("assignment", "bytes", DOCS["MemberMetadata.assignment"], "int32")
    t.end(None)


def _trace_group_metadata_value_v3(t) -> None:
    t.begin("GroupMetadataValue", 3, DOCS["GroupMetadataValue"])
    t.blob("protocol_type", "string", DOCS["GroupMetadataValue.protocol_type"], "int16")
    t.integer("generation", "int32", DOCS["GroupMetadataValue.generation"])
    t.blob("protocol", "string", DOCS["GroupMetadataValue.protocol"], "int16", nullable=True)
    t.blob("leader", "string", DOCS["GroupMetadataValue.leader"], "int16", nullable=True)
    t.integer("current_state_timestamp", "int64", DOCS["GroupMetadataValue.current_state_timestamp"])
    t.array(
        "members",
        "MemberMetadata",
        DOCS["GroupMetadataValue.members"],
        "int32",
        lambda t: t.nested(
            t.take_label(), "MemberMetadata", DOCS["GroupMetadataValue.members"], _trace_member_metadata_v3
        ),
        min_size=1,
    )
    t.end(None)


def _trace_member_metadata_v3(t) -> None:
    t.begin("MemberMetadata", 3, DOCS["MemberMetadata"])
    t.blob("member_id", "string", DOCS["MemberMetadata.member_id"], "int16")
    t.blob("group_instance_id", "string", DOCS["MemberMetadata.group_instance_id"], "int16", nullable=True)
    t.blob("client_id", "string", DOCS["MemberMetadata.client_id"], "int16")
    t.blob("client_host", "string", DOCS["MemberMetadata.client_host"], "int16")
    t.integer("rebalance_timeout", "int32", DOCS["MemberMetadata.rebalance_timeout"])
    t.integer("session_timeout", "int32", DOCS["MemberMetadata.session_timeout"])
    t.blob("subscription", "bytes", DOCS["MemberMetadata.subscription"], "int32")
    t.blob("assignment", "bytes", DOCS["MemberMetadata.assignment"], "int32")
    t.end(None)


def _trace_group_metadata_value_v4(t) -> None:
    t.begin("GroupMetadataValue", 4, DOCS["GroupMetadataValue"])
    t.blob("protocol_type", "string", DOCS["GroupMetadataValue.protocol_type"], "compact")
    t.integer("generation", "int32", DOCS["GroupMetadataValue.generation"])
    t.blob("protocol", "string", DOCS["GroupMetadataValue.protocol"], "compact", nullable=True)
    t.blob("leader", "string", DOCS["GroupMetadataValue.leader"], "compact", nullable=True)
    t.integer("current_state_timestamp", "int64", DOCS["GroupMetadataValue.current_state_timestamp"])
    t.array(
        "members",
        "MemberMetadata",
        DOCS["GroupMetadataValue.members"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "MemberMetadata", DOCS["GroupMetadataValue.members"], _trace_member_metadata_v4
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_member_metadata_v4(t) -> None:
    t.begin("MemberMetadata", 4, DOCS["MemberMetadata"])
    t.blob("member_id", "string", DOCS["MemberMetadata.member_id"], "compact")
    t.blob("group_instance_id", "string", DOCS["MemberMetadata.group_instance_id"], "compact", nullable=True)
    t.blob("client_id", "string", DOCS["MemberMetadata.client_id"], "compact")
    t.blob("client_host", "string", DOCS["MemberMetadata.client_host"], "compact")
    t.integer("rebalance_timeout", "int32", DOCS["MemberMetadata.rebalance_timeout"])
    t.integer("session_timeout", "int32", DOCS["MemberMetadata.session_timeout"])
    t.blob("subscription", "bytes", DOCS["MemberMetadata.subscription"], "compact")
    t.blob("assignment", "bytes", DOCS["MemberMetadata.assignment"], "compact")
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_group_metadata_value_v0,
    1: _trace_group_metadata_value_v1,
    2: _trace_group_metadata_value_v2,
    3: _trace_group_metadata_value_v3,
    4: _trace_group_metadata_value_v4,
}


def trace_group_metadata_value(t, version: int) -> None:
    """Read one GroupMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"GroupMetadataValue: unknown version {version} (this schema has versions 0-4)", t.pos)
    tracer(t)
