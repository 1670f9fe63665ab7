"""TransactionLogKey, the tracing decoder: :func:`trace_transaction_log_key` reads one TransactionLogKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/transaction_log_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "TransactionLogKey"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "TransactionLogKey": "The key of a transactional producer's state: its transactional id.",
    "TransactionLogKey.transactional_id": "The producer's transactional.id.",
}


def _trace_transaction_log_key_v0(t) -> None:
    t.begin("TransactionLogKey", 0, DOCS["TransactionLogKey"])
    t.blob("transactional_id", "string", DOCS["TransactionLogKey.transactional_id"], "int16")
    t.end(None)


_TRACERS = {
    0: _trace_transaction_log_key_v0,
}


def trace_transaction_log_key(t, version: int) -> None:
    """Read one TransactionLogKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"TransactionLogKey: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
