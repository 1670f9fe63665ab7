"""OffsetCommitValue, the tracing decoder: :func:`trace_offset_commit_value` reads one OffsetCommitValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/offset_commit_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "OffsetCommitValue"
VERSIONS = [0, 1, 2, 3, 4]
#: the doc line of each structure and field
DOCS = {
    "OffsetCommitValue": "A committed offset of a group for one partition, with its metadata string and timestamps. A null value (tombstone) deletes the commit.",
    "OffsetCommitValue.offset": "The committed offset: the next record the group will read.",
    "OffsetCommitValue.leader_epoch": "Leader epoch of the last record consumed, or -1 when unknown.",
    "OffsetCommitValue.metadata": "Free text the consumer stored with the commit.",
    "OffsetCommitValue.commit_timestamp": "When the offset was committed (ms).",
    "OffsetCommitValue.expire_timestamp": "When the commit expires (ms), kept in version 1 only; -1 when not set.",
    "OffsetCommitValue.topic_id": "Id of the committed partition's topic (Kafka 4.1+), the zero uuid when not written.",
}


def _trace_offset_commit_value_v0(t) -> None:
    t.begin("OffsetCommitValue", 0, DOCS["OffsetCommitValue"])
    t.integer("offset", "int64", DOCS["OffsetCommitValue.offset"])
    t.blob("metadata", "string", DOCS["OffsetCommitValue.metadata"], "int16")
    t.integer("commit_timestamp", "int64", DOCS["OffsetCommitValue.commit_timestamp"])
    t.end(None)


def _trace_offset_commit_value_v1(t) -> None:
    t.begin("OffsetCommitValue", 1, DOCS["OffsetCommitValue"])
    t.integer("offset", "int64", DOCS["OffsetCommitValue.offset"])
    t.blob("metadata", "string", DOCS["OffsetCommitValue.metadata"], "int16")
    t.integer("commit_timestamp", "int64", DOCS["OffsetCommitValue.commit_timestamp"])
    t.integer("expire_timestamp", "int64", DOCS["OffsetCommitValue.expire_timestamp"])
    t.end(None)


def _trace_offset_commit_value_v2(t) -> None:
    t.begin("OffsetCommitValue", 2, DOCS["OffsetCommitValue"])
    t.integer("offset", "int64", DOCS["OffsetCommitValue.offset"])
    t.blob("metadata", "string", DOCS["OffsetCommitValue.metadata"], "int16")
    t.integer("commit_timestamp", "int64", DOCS["OffsetCommitValue.commit_timestamp"])
    t.end(None)


def _trace_offset_commit_value_v3(t) -> None:
    t.begin("OffsetCommitValue", 3, DOCS["OffsetCommitValue"])
    t.integer("offset", "int64", DOCS["OffsetCommitValue.offset"])
    t.integer("leader_epoch", "int32", DOCS["OffsetCommitValue.leader_epoch"])
    t.blob("metadata", "string", DOCS["OffsetCommitValue.metadata"], "int16")
    t.integer("commit_timestamp", "int64", DOCS["OffsetCommitValue.commit_timestamp"])
    t.end(None)


def _trace_offset_commit_value_v4(t) -> None:
    t.begin("OffsetCommitValue", 4, DOCS["OffsetCommitValue"])
    t.integer("offset", "int64", DOCS["OffsetCommitValue.offset"])
    t.integer("leader_epoch", "int32", DOCS["OffsetCommitValue.leader_epoch"])
    t.blob("metadata", "string", DOCS["OffsetCommitValue.metadata"], "compact")
    t.integer("commit_timestamp", "int64", DOCS["OffsetCommitValue.commit_timestamp"])
    t.tagged(
        {
            0: (
                "topic_id",
                lambda t: t.blob("topic_id", "uuid", DOCS["OffsetCommitValue.topic_id"], "size", size=16),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_offset_commit_value_v0,
    1: _trace_offset_commit_value_v1,
    2: _trace_offset_commit_value_v2,
    3: _trace_offset_commit_value_v3,
    4: _trace_offset_commit_value_v4,
}


def trace_offset_commit_value(t, version: int) -> None:
    """Read one OffsetCommitValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"OffsetCommitValue: unknown version {version} (this schema has versions 0-4)", t.pos)
    tracer(t)
