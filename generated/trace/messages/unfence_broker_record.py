"""UnfenceBrokerRecord, the tracing decoder: :func:`trace_unfence_broker_record` reads one UnfenceBrokerRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/unfence_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "UnfenceBrokerRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "UnfenceBrokerRecord": "A broker was unfenced and may serve again (older form of BrokerRegistrationChangeRecord).",
    "UnfenceBrokerRecord.id": "Node id of the broker unfenced.",
    "UnfenceBrokerRecord.epoch": "Epoch of the broker's registration.",
}


def _trace_unfence_broker_record_v0(t) -> None:
    t.begin("UnfenceBrokerRecord", 0, DOCS["UnfenceBrokerRecord"])
    t.integer("id", "int32", DOCS["UnfenceBrokerRecord.id"])
    t.integer("epoch", "int64", DOCS["UnfenceBrokerRecord.epoch"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_unfence_broker_record_v0,
}


def trace_unfence_broker_record(t, version: int) -> None:
    """Read one UnfenceBrokerRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"UnfenceBrokerRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
