"""UnregisterBrokerRecord, the tracing decoder: :func:`trace_unregister_broker_record` reads one UnregisterBrokerRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/unregister_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "UnregisterBrokerRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "UnregisterBrokerRecord": "A broker was removed from the cluster's registrations.",
    "UnregisterBrokerRecord.broker_id": "Node id of the broker.",
    "UnregisterBrokerRecord.broker_epoch": "Epoch of the registration being removed.",
}


def _trace_unregister_broker_record_v0(t) -> None:
    t.begin("UnregisterBrokerRecord", 0, DOCS["UnregisterBrokerRecord"])
    t.integer("broker_id", "int32", DOCS["UnregisterBrokerRecord.broker_id"])
    t.integer("broker_epoch", "int64", DOCS["UnregisterBrokerRecord.broker_epoch"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_unregister_broker_record_v0,
}


def trace_unregister_broker_record(t, version: int) -> None:
    """Read one UnregisterBrokerRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"UnregisterBrokerRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
