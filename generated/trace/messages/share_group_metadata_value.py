"""ShareGroupMetadataValue, the tracing decoder: :func:`trace_share_group_metadata_value` reads one ShareGroupMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupMetadataValue": "The epoch of a share group (KIP-932): bumped whenever its membership or subscriptions change.",
    "ShareGroupMetadataValue.epoch": "The group epoch.",
    "ShareGroupMetadataValue.metadata_hash": "Hash over the metadata of the topics the group subscribes to (Kafka 4.1+); a change asks for a new assignment.",
}


def _trace_share_group_metadata_value_v0(t) -> None:
    t.begin("ShareGroupMetadataValue", 0, DOCS["ShareGroupMetadataValue"])
    t.integer("epoch", "int32", DOCS["ShareGroupMetadataValue.epoch"])
    t.integer("metadata_hash", "int64", DOCS["ShareGroupMetadataValue.metadata_hash"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_share_group_metadata_value_v0,
}


def trace_share_group_metadata_value(t, version: int) -> None:
    """Read one ShareGroupMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupMetadataValue: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
