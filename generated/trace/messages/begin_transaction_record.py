"""BeginTransactionRecord, the tracing decoder: :func:`trace_begin_transaction_record` reads one BeginTransactionRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/begin_transaction_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "BeginTransactionRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "BeginTransactionRecord": "Opens a metadata transaction: the records up to the matching end (or abort) apply together.",
    "BeginTransactionRecord.name": "Optional description of what the transaction does.",
}


def _trace_begin_transaction_record_v0(t) -> None:
    t.begin("BeginTransactionRecord", 0, DOCS["BeginTransactionRecord"])
    t.tagged(
        {
            0: (
                "name",
                lambda t: t.blob(
                    "name", "string", DOCS["BeginTransactionRecord.name"], "compact", nullable=True
                ),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_begin_transaction_record_v0,
}


def trace_begin_transaction_record(t, version: int) -> None:
    """Read one BeginTransactionRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"BeginTransactionRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
