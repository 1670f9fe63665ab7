"""ProducerSnapshotEntry v1, the tracing decoder: :func:`trace_producer_snapshot_entry` reads one ProducerSnapshotEntry field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.producer_snapshot_entry_v1.ProducerSnapshotEntry` as the fast codec.

Generated from schemas/logdir/producer_snapshot_entry_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..producer_snapshot_entry_v1 import ProducerSnapshotEntry

NAME = "ProducerSnapshotEntry"
VERSION = 1
#: the structure's doc line
DOC = "The state of one producer id in a producer-state snapshot: what the broker needs to keep deduplicating and fencing after a restart without rereading the log."
#: each field's doc line, by field name
DOCS = {
    "producer_id": "The producer id.",
    "epoch": "Current epoch of the producer.",
    "last_sequence": "Last sequence number the producer wrote.",
    "last_offset": "Offset of the last record the producer wrote.",
    "offset_delta": "Last sequence minus first sequence of the producer's last written batch.",
    "timestamp": "Max timestamp of the producer's last written batch.",
    "coordinator_epoch": "Epoch of the last transaction coordinator that sent this producer an end-transaction marker (-1 if none).",
    "current_txn_first_offset": "First offset of the producer's ongoing transaction, -1 if there is none.",
}


def trace_producer_snapshot_entry(t) -> ProducerSnapshotEntry:
    """Read one ProducerSnapshotEntry v1 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    producer_id = t.integer("producer_id", "int64", DOCS["producer_id"])
    epoch = t.integer("epoch", "int16", DOCS["epoch"])
    last_sequence = t.integer("last_sequence", "int32", DOCS["last_sequence"])
    last_offset = t.integer("last_offset", "int64", DOCS["last_offset"])
    offset_delta = t.integer("offset_delta", "int32", DOCS["offset_delta"])
    timestamp = t.integer("timestamp", "int64", DOCS["timestamp"])
    coordinator_epoch = t.integer("coordinator_epoch", "int32", DOCS["coordinator_epoch"])
    current_txn_first_offset = t.integer(
        "current_txn_first_offset", "int64", DOCS["current_txn_first_offset"]
    )
    return t.end(
        ProducerSnapshotEntry(
            producer_id,
            epoch,
            last_sequence,
            last_offset,
            offset_delta,
            timestamp,
            coordinator_epoch,
            current_txn_first_offset,
        )
    )
