"""EndTransactionMarker v0, the tracing decoder: :func:`trace_end_transaction_marker` reads one EndTransactionMarker field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.end_transaction_marker_v0.EndTransactionMarker` as the fast codec.

Generated from schemas/end_txn_marker_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..end_transaction_marker_v0 import EndTransactionMarker

NAME = "EndTransactionMarker"
VERSION = 0
#: the structure's doc line
DOC = "Value of an abort or commit control record (ControlRecordType 0 or 1)."
#: each field's doc line, by field name
DOCS = {
    "version": "Value schema version; currently 0.",
    "coordinator_epoch": "Epoch of the transaction coordinator that wrote the marker; fences zombie coordinators.",
}


def trace_end_transaction_marker(t) -> EndTransactionMarker:
    """Read one EndTransactionMarker v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    version = t.integer("version", "int16", DOCS["version"])
    coordinator_epoch = t.integer("coordinator_epoch", "int32", DOCS["coordinator_epoch"])
    return t.end(EndTransactionMarker(version, coordinator_epoch))
