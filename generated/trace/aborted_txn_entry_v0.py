"""AbortedTxnEntry v0, the tracing decoder: :func:`trace_aborted_txn_entry` reads one AbortedTxnEntry field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.aborted_txn_entry_v0.AbortedTxnEntry` as the fast codec.

Generated from schemas/logdir/aborted_txn_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..aborted_txn_entry_v0 import AbortedTxnEntry

NAME = "AbortedTxnEntry"
VERSION = 0
#: the structure's doc line
DOC = "One entry of a segment's transaction index (`<base offset>.txnindex`): an aborted transaction whose abort marker lies in the segment. read_committed consumers use it to drop the aborted records without scanning for markers. Entries are 34 bytes, appended in the order the abort markers were written; the file is not preallocated."
#: each field's doc line, by field name
DOCS = {
    "version": "Entry format version; currently 0.",
    "producer_id": "Producer id of the aborted transaction.",
    "first_offset": "First offset of the aborted transaction (may lie in an earlier segment).",
    "last_offset": "Offset of the abort marker (the control record that ended the transaction).",
    "last_stable_offset": "The partition's last stable offset when the abort marker was written.",
}


def trace_aborted_txn_entry(t) -> AbortedTxnEntry:
    """Read one AbortedTxnEntry v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    version = t.integer("version", "int16", DOCS["version"], const=0)
    producer_id = t.integer("producer_id", "int64", DOCS["producer_id"])
    first_offset = t.integer("first_offset", "int64", DOCS["first_offset"])
    last_offset = t.integer("last_offset", "int64", DOCS["last_offset"])
    last_stable_offset = t.integer("last_stable_offset", "int64", DOCS["last_stable_offset"])
    return t.end(AbortedTxnEntry(version, producer_id, first_offset, last_offset, last_stable_offset))
