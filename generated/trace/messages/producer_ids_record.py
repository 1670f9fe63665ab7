"""ProducerIdsRecord, the tracing decoder: :func:`trace_producer_ids_record` reads one ProducerIdsRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/producer_ids_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ProducerIdsRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ProducerIdsRecord": "A block of producer ids was handed to a broker; the next block starts at next_producer_id.",
    "ProducerIdsRecord.broker_id": "Node id of the broker that asked for the block.",
    "ProducerIdsRecord.broker_epoch": "Epoch of that broker's registration.",
    "ProducerIdsRecord.next_producer_id": "First producer id of the next block to hand out.",
}


def _trace_producer_ids_record_v0(t) -> None:
    t.begin("ProducerIdsRecord", 0, DOCS["ProducerIdsRecord"])
    t.integer("broker_id", "int32", DOCS["ProducerIdsRecord.broker_id"])
    t.integer("broker_epoch", "int64", DOCS["ProducerIdsRecord.broker_epoch"])
    t.integer("next_producer_id", "int64", DOCS["ProducerIdsRecord.next_producer_id"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_producer_ids_record_v0,
}


def trace_producer_ids_record(t, version: int) -> None:
    """Read one ProducerIdsRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ProducerIdsRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
