"""RemoveTopicRecord, the tracing decoder: :func:`trace_remove_topic_record` reads one RemoveTopicRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/remove_topic_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RemoveTopicRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RemoveTopicRecord": "A topic was deleted, with all its partitions.",
    "RemoveTopicRecord.topic_id": "Id of the deleted topic.",
}


def _trace_remove_topic_record_v0(t) -> None:
    t.begin("RemoveTopicRecord", 0, DOCS["RemoveTopicRecord"])
    t.blob("topic_id", "uuid", DOCS["RemoveTopicRecord.topic_id"], "size", size=16)
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_remove_topic_record_v0,
}


def trace_remove_topic_record(t, version: int) -> None:
    """Read one RemoveTopicRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"RemoveTopicRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
