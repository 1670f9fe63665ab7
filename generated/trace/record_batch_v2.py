"""RecordBatch v2, the tracing decoder: :func:`trace_record_batch` reads one RecordBatch field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.record_batch_v2.RecordBatch` as the fast codec.

Generated from schemas/record_batch_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import CompressionType, TimestampType

from ..record_batch_v2 import COMPRESSION_MASK, RecordBatch
from .record_v2 import trace_record

NAME = "RecordBatch"
VERSION = 2
#: the structure's doc line
DOC = "A batch of one or more records: the unit a producer writes, a broker stores and a consumer fetches, and the unit of compression. A log segment is a plain concatenation of batches. Empty batches (records_count 0) are legal after compaction, which keeps a batch to preserve the producer's last sequence."
#: each field's doc line, by field name
DOCS = {
    "base_offset": "Offset of the first record; record offsets are base_offset + offset_delta.",
    "batch_length": "Byte length of the rest of the batch, from partition_leader_epoch to the end.",
    "partition_leader_epoch": "Epoch of the leader that appended the batch; assigned by the broker on every append, which is why the CRC does not cover it.",
    "magic": "Format version; at byte 16 in every log entry version, so a reader checks it first.",
    "crc": "CRC-32C (Castagnoli) of everything from attributes to the end of the batch.",
    "attributes": "Batch flags; bits 7-15 are unused and must be zero.",
    "last_offset_delta": "offset_delta of the last record; kept through compaction so the batch's last offset survives.",
    "base_timestamp": "Timestamp of the first record (or the delete horizon, see attributes); record timestamps are deltas from it.",
    "max_timestamp": "Largest record timestamp; under LogAppendTime the broker's append time, which applies to every record.",
    "producer_id": "Idempotent/transactional producer id, -1 when the producer has none.",
    "producer_epoch": "Producer epoch, -1 when unused.",
    "base_sequence": "Sequence number of the first record, -1 when unused; record sequences are base_sequence + offset_delta.",
    "records_count": "Number of records; may be 0 after compaction.",
    "records": "The records; when compressed, the compressed bytes follow records_count directly.",
}
#: attributes's bit fields: (name, first bit, last bit, enum, doc)
ATTRIBUTES_BITS = (
    ("compression", 0, 2, CompressionType, "Codec of the records region."),
    ("timestamp_type", 3, 3, TimestampType, "0 CreateTime, 1 LogAppendTime."),
    ("is_transactional", 4, 4, None, "The batch belongs to a transaction."),
    ("is_control", 5, 5, None, "The batch holds exactly one control record."),
    ("has_delete_horizon", 6, 6, None, "base_timestamp holds the delete horizon set by compaction."),
)


def trace_record_batch(t) -> RecordBatch:
    """Read one RecordBatch v2 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    base_offset = t.integer("base_offset", "int64", DOCS["base_offset"])
    batch_length = t.integer("batch_length", "int32", DOCS["batch_length"])
    t.length_of("batch_length", batch_length, "partition_leader_epoch")
    partition_leader_epoch = t.integer("partition_leader_epoch", "int32", DOCS["partition_leader_epoch"])
    magic = t.integer("magic", "int8", DOCS["magic"], const=2)
    crc = t.integer("crc", "uint32", DOCS["crc"])
    t.checksum("crc", crc, "crc32c", "attributes")
    attributes = t.integer("attributes", "int16", DOCS["attributes"], bits=ATTRIBUTES_BITS)
    last_offset_delta = t.integer("last_offset_delta", "int32", DOCS["last_offset_delta"])
    base_timestamp = t.integer("base_timestamp", "int64", DOCS["base_timestamp"])
    max_timestamp = t.integer("max_timestamp", "int64", DOCS["max_timestamp"])
    producer_id = t.integer("producer_id", "int64", DOCS["producer_id"])
    producer_epoch = t.integer("producer_epoch", "int16", DOCS["producer_epoch"])
    base_sequence = t.integer("base_sequence", "int32", DOCS["base_sequence"])
    records_count = t.integer("records_count", "int32", DOCS["records_count"])
    t.count_of("records_count", records_count, "records")
    records = t.array(
        "records",
        "Record",
        DOCS["records"],
        "ref",
        trace_record,
        min_size=7,
        count=records_count,
        bases={"base_offset": base_offset, "base_timestamp": base_timestamp},
        codec=attributes & COMPRESSION_MASK,
        magic=2,
    )
    return t.end(
        RecordBatch(
            base_offset,
            partition_leader_epoch,
            magic,
            crc,
            attributes,
            last_offset_delta,
            base_timestamp,
            max_timestamp,
            producer_id,
            producer_epoch,
            base_sequence,
            records,
        )
    )
