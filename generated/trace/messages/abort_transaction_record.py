"""AbortTransactionRecord, the tracing decoder: :func:`trace_abort_transaction_record` reads one AbortTransactionRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/abort_transaction_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "AbortTransactionRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "AbortTransactionRecord": "Aborts a metadata transaction: its records do not apply.",
    "AbortTransactionRecord.reason": "Optional description of why the transaction was aborted.",
}


def _trace_abort_transaction_record_v0(t) -> None:
    t.begin("AbortTransactionRecord", 0, DOCS["AbortTransactionRecord"])
    t.tagged(
        {
            0: (
                "reason",
                lambda t: t.blob(
                    "reason", "string", DOCS["AbortTransactionRecord.reason"], "compact", nullable=True
                ),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_abort_transaction_record_v0,
}


def trace_abort_transaction_record(t, version: int) -> None:
    """Read one AbortTransactionRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"AbortTransactionRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
