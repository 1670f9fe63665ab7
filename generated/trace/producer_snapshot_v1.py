"""ProducerSnapshot v1, the tracing decoder: :func:`trace_producer_snapshot` reads one ProducerSnapshot field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.producer_snapshot_v1.ProducerSnapshot` as the fast codec.

Generated from schemas/logdir/producer_snapshot_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..producer_snapshot_v1 import ProducerSnapshot
from .producer_snapshot_entry_v1 import trace_producer_snapshot_entry

NAME = "ProducerSnapshot"
VERSION = 1
#: the structure's doc line
DOC = "A producer-state snapshot (`<offset>.snapshot` in a partition directory): the broker's table of active producer ids as of the offset in the file name, written on segment roll and clean shutdown so that restarts need not reread the whole log."
#: each field's doc line, by field name
DOCS = {
    "version": "Snapshot file format version; 1 is the only version Kafka has written.",
    "crc": "CRC-32C of everything after this field (the entry count and the entries) up to the end of the file.",
    "producer_entries": "The active producers, an int32 count followed by the entries.",
}


def trace_producer_snapshot(t) -> ProducerSnapshot:
    """Read one ProducerSnapshot v1 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    version = t.integer("version", "int16", DOCS["version"], const=1)
    crc = t.integer("crc", "uint32", DOCS["crc"])
    t.checksum("crc", crc, "crc32c", "producer_entries")
    producer_entries = t.array(
        "producer_entries",
        "ProducerSnapshotEntry",
        DOCS["producer_entries"],
        "int32",
        trace_producer_snapshot_entry,
        min_size=46,
    )
    return t.end(ProducerSnapshot(version, crc, producer_entries))
