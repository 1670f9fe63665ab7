"""OffsetCommitKey, the tracing decoder: :func:`trace_offset_commit_key` reads one OffsetCommitKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/offset_commit_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "OffsetCommitKey"
VERSIONS = [0, 1]
#: the doc line of each structure and field
DOCS = {
    "OffsetCommitKey": "The key of a committed offset: group, topic and partition. Key versions 0 and 1 have the same layout.",
    "OffsetCommitKey.group": "Group id.",
    "OffsetCommitKey.topic": "Topic of the committed partition.",
    "OffsetCommitKey.partition": "Partition number.",
}


def _trace_offset_commit_key_v0(t) -> None:
    t.begin("OffsetCommitKey", 0, DOCS["OffsetCommitKey"])
    t.blob("group", "string", DOCS["OffsetCommitKey.group"], "int16")
    t.blob("topic", "string", DOCS["OffsetCommitKey.topic"], "int16")
    t.integer("partition", "int32", DOCS["OffsetCommitKey.partition"])
    t.end(None)


def _trace_offset_commit_key_v1(t) -> None:
    t.begin("OffsetCommitKey", 1, DOCS["OffsetCommitKey"])
    t.blob("group", "string", DOCS["OffsetCommitKey.group"], "int16")
    t.blob("topic", "string", DOCS["OffsetCommitKey.topic"], "int16")
    t.integer("partition", "int32", DOCS["OffsetCommitKey.partition"])
    t.end(None)


_TRACERS = {
    0: _trace_offset_commit_key_v0,
    1: _trace_offset_commit_key_v1,
}


def trace_offset_commit_key(t, version: int) -> None:
    """Read one OffsetCommitKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"OffsetCommitKey: unknown version {version} (this schema has versions 0-1)", t.pos)
    tracer(t)
