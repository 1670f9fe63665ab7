"""UnregisterControllerRecord, the tracing decoder: :func:`trace_unregister_controller_record` reads one UnregisterControllerRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/unregister_controller_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "UnregisterControllerRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "UnregisterControllerRecord": "A controller was removed from the cluster's controller registrations (the counterpart of RegisterControllerRecord).",
    "UnregisterControllerRecord.controller_id": "Node id of the controller whose registration is removed.",
}


def _trace_unregister_controller_record_v0(t) -> None:
    t.begin("UnregisterControllerRecord", 0, DOCS["UnregisterControllerRecord"])
    t.integer("controller_id", "int32", DOCS["UnregisterControllerRecord.controller_id"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_unregister_controller_record_v0,
}


def trace_unregister_controller_record(t, version: int) -> None:
    """Read one UnregisterControllerRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"UnregisterControllerRecord: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
