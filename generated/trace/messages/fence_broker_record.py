"""FenceBrokerRecord, the tracing decoder: :func:`trace_fence_broker_record` reads one FenceBrokerRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/fence_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "FenceBrokerRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "FenceBrokerRecord": "A broker was fenced: it leaves every ISR and may not lead (older form of BrokerRegistrationChangeRecord).",
    "FenceBrokerRecord.id": "Node id of the broker fenced.",
    "FenceBrokerRecord.epoch": "Epoch of the broker's registration.",
}


def _trace_fence_broker_record_v0(t) -> None:
    t.begin("FenceBrokerRecord", 0, DOCS["FenceBrokerRecord"])
    t.integer("id", "int32", DOCS["FenceBrokerRecord.id"])
    t.integer("epoch", "int64", DOCS["FenceBrokerRecord.epoch"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_fence_broker_record_v0,
}


def trace_fence_broker_record(t, version: int) -> None:
    """Read one FenceBrokerRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"FenceBrokerRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
