"""ClearElrRecord, the tracing decoder: :func:`trace_clear_elr_record` reads one ClearElrRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/clear_elr_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ClearElrRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ClearElrRecord": "The eligible leader replicas (ELR) of one topic's partitions, or of every topic's, were cleared.",
    "ClearElrRecord.topic_name": "The topic whose ELRs are cleared, or the empty string for every topic.",
}


def _trace_clear_elr_record_v0(t) -> None:
    t.begin("ClearElrRecord", 0, DOCS["ClearElrRecord"])
    t.blob("topic_name", "string", DOCS["ClearElrRecord.topic_name"], "compact")
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_clear_elr_record_v0,
}


def trace_clear_elr_record(t, version: int) -> None:
    """Read one ClearElrRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ClearElrRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
