"""ShareUpdateKey, the tracing decoder: :func:`trace_share_update_key` reads one ShareUpdateKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_update_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareUpdateKey"
VERSIONS = [1]
#: the doc line of each structure and field
DOCS = {
    "ShareUpdateKey": "The key of a change to a share-partition's state since its last snapshot: the share group, topic and partition.",
    "ShareUpdateKey.group_id": "Share group id.",
    "ShareUpdateKey.topic_id": "Topic id of the share-partition.",
    "ShareUpdateKey.partition": "Partition number of the share-partition.",
}


def _trace_share_update_key_v1(t) -> None:
    t.begin("ShareUpdateKey", 1, DOCS["ShareUpdateKey"])
    t.blob("group_id", "string", DOCS["ShareUpdateKey.group_id"], "int16")
    t.blob("topic_id", "uuid", DOCS["ShareUpdateKey.topic_id"], "size", size=16)
    t.integer("partition", "int32", DOCS["ShareUpdateKey.partition"])
    t.end(None)


_TRACERS = {
    1: _trace_share_update_key_v1,
}


def trace_share_update_key(t, version: int) -> None:
    """Read one ShareUpdateKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ShareUpdateKey: unknown version {version} (this schema has versions 1)", t.pos)
    tracer(t)
