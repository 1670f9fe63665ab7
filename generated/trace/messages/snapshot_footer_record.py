"""SnapshotFooterRecord, the tracing decoder: :func:`trace_snapshot_footer_record` reads one SnapshotFooterRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/snapshot_footer_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "SnapshotFooterRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "SnapshotFooterRecord": "The value of a SNAPSHOT_FOOTER control record, which closes a KRaft snapshot: a snapshot without it was not written completely.",
    "SnapshotFooterRecord.version": "The version of this value, stored as data.",
}


def _trace_snapshot_footer_record_v0(t) -> None:
    t.begin("SnapshotFooterRecord", 0, DOCS["SnapshotFooterRecord"])
    t.integer("version", "int16", DOCS["SnapshotFooterRecord.version"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_snapshot_footer_record_v0,
}


def trace_snapshot_footer_record(t, version: int) -> None:
    """Read one SnapshotFooterRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"SnapshotFooterRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
