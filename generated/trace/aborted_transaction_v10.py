"""AbortedTransaction v10, the tracing decoder: :func:`trace_aborted_transaction` reads one AbortedTransaction field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.aborted_transaction_v10.AbortedTransaction` as the fast codec.

Generated from schemas/protocol/aborted_transaction_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..aborted_transaction_v10 import AbortedTransaction

NAME = "AbortedTransaction"
VERSION = 10
#: the structure's doc line
DOC = "One aborted transaction of a Fetch response partition (version 4 and later): the producer and the first offset of the transaction."
#: each field's doc line, by field name
DOCS = {
    "producer_id": "The producer id of the aborted transaction.",
    "first_offset": "The first offset of the aborted transaction.",
}


def trace_aborted_transaction(t) -> AbortedTransaction:
    """Read one AbortedTransaction v10 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    producer_id = t.integer("producer_id", "int64", DOCS["producer_id"])
    first_offset = t.integer("first_offset", "int64", DOCS["first_offset"])
    return t.end(AbortedTransaction(producer_id, first_offset))
