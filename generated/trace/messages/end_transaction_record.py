"""EndTransactionRecord, the tracing decoder: :func:`trace_end_transaction_record` reads one EndTransactionRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/end_transaction_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "EndTransactionRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "EndTransactionRecord": "Closes a metadata transaction: its records now apply.",
}


def _trace_end_transaction_record_v0(t) -> None:
    t.begin("EndTransactionRecord", 0, DOCS["EndTransactionRecord"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_end_transaction_record_v0,
}


def trace_end_transaction_record(t, version: int) -> None:
    """Read one EndTransactionRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"EndTransactionRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
