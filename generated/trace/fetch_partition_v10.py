"""FetchPartition v10, the tracing decoder: :func:`trace_fetch_partition` reads one FetchPartition field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.fetch_partition_v10.FetchPartition` as the fast codec.

Generated from schemas/protocol/fetch_partition_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..fetch_partition_v10 import FetchPartition
from .aborted_transaction_v10 import trace_aborted_transaction

NAME = "FetchPartition"
VERSION = 10
#: the structure's doc line
DOC = "One partition of a Fetch response version 10: its error code and offsets, the aborted transactions in the fetched range, and its records (log entries of any magic back to back; the broker may cut the last one short)."
#: each field's doc line, by field name
DOCS = {
    "partition_index": "The partition index.",
    "error_code": "The error code of this partition, 0 for none (Kafka's protocol error codes).",
    "high_watermark": "The offset after the last committed record of the partition.",
    "last_stable_offset": "The offset after the last decided transaction (records before it are committed or aborted).",
    "log_start_offset": "The partition's first offset still in the log.",
    "aborted_transactions": "The aborted transactions in the fetched range (read_committed fetches); null (count -1) for read_uncommitted.",
    "records": "The records: log entries of any magic back to back, an int32 size first (-1: null); the last entry may be cut off at the fetch's size limit.",
}


def trace_fetch_partition(t) -> FetchPartition:
    """Read one FetchPartition v10 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    partition_index = t.integer("partition_index", "int32", DOCS["partition_index"])
    error_code = t.integer("error_code", "int16", DOCS["error_code"])
    high_watermark = t.integer("high_watermark", "int64", DOCS["high_watermark"])
    last_stable_offset = t.integer("last_stable_offset", "int64", DOCS["last_stable_offset"])
    log_start_offset = t.integer("log_start_offset", "int64", DOCS["log_start_offset"])
    aborted_transactions = t.array(
        "aborted_transactions",
        "AbortedTransaction",
        DOCS["aborted_transactions"],
        "int32",
        trace_aborted_transaction,
        min_size=16,
        nullable=True,
    )
    records = t.blob("records", "bytes", DOCS["records"], "int32", nullable=True)
    return t.end(
        FetchPartition(
            partition_index,
            error_code,
            high_watermark,
            last_stable_offset,
            log_start_offset,
            aborted_transactions,
            records,
        )
    )
