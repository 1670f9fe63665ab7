"""ShareSnapshotKey, the tracing decoder: :func:`trace_share_snapshot_key` reads one ShareSnapshotKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_snapshot_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareSnapshotKey"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareSnapshotKey": "The key of a share-partition's full state (KIP-932): the share group, topic and partition it belongs to.",
    "ShareSnapshotKey.group_id": "Share group id.",
    "ShareSnapshotKey.topic_id": "Topic id of the share-partition.",
    "ShareSnapshotKey.partition": "Partition number of the share-partition.",
}


def _trace_share_snapshot_key_v0(t) -> None:
    t.begin("ShareSnapshotKey", 0, DOCS["ShareSnapshotKey"])
    t.blob("group_id", "string", DOCS["ShareSnapshotKey.group_id"], "int16")
    t.blob("topic_id", "uuid", DOCS["ShareSnapshotKey.topic_id"], "size", size=16)
    t.integer("partition", "int32", DOCS["ShareSnapshotKey.partition"])
    t.end(None)


_TRACERS = {
    0: _trace_share_snapshot_key_v0,
}


def trace_share_snapshot_key(t, version: int) -> None:
    """Read one ShareSnapshotKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ShareSnapshotKey: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
