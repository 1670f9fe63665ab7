"""SnapshotHeaderRecord, the tracing decoder: :func:`trace_snapshot_header_record` reads one SnapshotHeaderRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/snapshot_header_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "SnapshotHeaderRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "SnapshotHeaderRecord": "The value of a SNAPSHOT_HEADER control record, the first batch of every KRaft snapshot (<offset>-<epoch>.checkpoint, bootstrap.checkpoint).",
    "SnapshotHeaderRecord.version": "The version of this value, stored as data.",
    "SnapshotHeaderRecord.last_contained_log_timestamp": "Append time (ms) of the last metadata log record the snapshot includes.",
}


def _trace_snapshot_header_record_v0(t) -> None:
    t.begin("SnapshotHeaderRecord", 0, DOCS["SnapshotHeaderRecord"])
    t.integer("version", "int16", DOCS["SnapshotHeaderRecord.version"])
    t.integer(
        "last_contained_log_timestamp", "int64", DOCS["SnapshotHeaderRecord.last_contained_log_timestamp"]
    )
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_snapshot_header_record_v0,
}


def trace_snapshot_header_record(t, version: int) -> None:
    """Read one SnapshotHeaderRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"SnapshotHeaderRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
