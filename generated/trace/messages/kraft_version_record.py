"""KRaftVersionRecord, the tracing decoder: :func:`trace_kraft_version_record` reads one KRaftVersionRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/kraft_version_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "KRaftVersionRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "KRaftVersionRecord": "The value of a KRAFT_VERSION control record: the kraft.version feature level the quorum runs at from this offset on (KIP-853).",
    "KRaftVersionRecord.version": "The version of this value, stored as data.",
    "KRaftVersionRecord.kraft_version": "The KRaft protocol version (the kraft.version feature level).",
}


def _trace_kraft_version_record_v0(t) -> None:
    t.begin("KRaftVersionRecord", 0, DOCS["KRaftVersionRecord"])
    t.integer("version", "int16", DOCS["KRaftVersionRecord.version"])
    t.integer("kraft_version", "int16", DOCS["KRaftVersionRecord.kraft_version"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_kraft_version_record_v0,
}


def trace_kraft_version_record(t, version: int) -> None:
    """Read one KRaftVersionRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"KRaftVersionRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
