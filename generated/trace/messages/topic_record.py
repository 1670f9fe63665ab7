"""TopicRecord, the tracing decoder: :func:`trace_topic_record` reads one TopicRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/topic_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "TopicRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "TopicRecord": "A topic was created: its name and the id every later record uses for it.",
    "TopicRecord.name": "Topic name.",
    "TopicRecord.topic_id": "Id given to the topic at creation.",
}


def _trace_topic_record_v0(t) -> None:
    t.begin("TopicRecord", 0, DOCS["TopicRecord"])
    t.blob("name", "string", DOCS["TopicRecord.name"], "compact")
    t.blob("topic_id", "uuid", DOCS["TopicRecord.topic_id"], "size", size=16)
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_topic_record_v0,
}


def trace_topic_record(t, version: int) -> None:
    """Read one TopicRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"TopicRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
