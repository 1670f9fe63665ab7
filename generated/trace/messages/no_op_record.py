"""NoOpRecord, the tracing decoder: :func:`trace_no_op_record` reads one NoOpRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/no_op_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "NoOpRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "NoOpRecord": "A record with no content, written by the active controller to advance the log (and its high watermark) when nothing else happens.",
}


def _trace_no_op_record_v0(t) -> None:
    t.begin("NoOpRecord", 0, DOCS["NoOpRecord"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_no_op_record_v0,
}


def trace_no_op_record(t, version: int) -> None:
    """Read one NoOpRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"NoOpRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
