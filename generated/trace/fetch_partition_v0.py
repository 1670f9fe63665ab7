"""FetchPartition v0, the tracing decoder: :func:`trace_fetch_partition` reads one FetchPartition field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.fetch_partition_v0.FetchPartition` as the fast codec.

Generated from schemas/protocol/fetch_partition_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..fetch_partition_v0 import FetchPartition

NAME = "FetchPartition"
VERSION = 0
#: the structure's doc line
DOC = "One partition of a Fetch response version 0: its error code, high watermark and message set (log entries back to back; the broker may cut the last one short)."
#: each field's doc line, by field name
DOCS = {
    "partition": "The partition index.",
    "error_code": "The error code of this partition, 0 for none (Kafka's protocol error codes).",
    "high_watermark": "The offset after the last committed message of the partition.",
    "message_set": "The message set: log entries back to back, an int32 size first; the last entry may be cut off at the fetch's size limit.",
}


def trace_fetch_partition(t) -> FetchPartition:
    """Read one FetchPartition v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    partition = t.integer("partition", "int32", DOCS["partition"])
    error_code = t.integer("error_code", "int16", DOCS["error_code"])
    high_watermark = t.integer("high_watermark", "int64", DOCS["high_watermark"])
    message_set = t.blob("message_set", "bytes", DOCS["message_set"], "int32")
    return t.end(FetchPartition(partition, error_code, high_watermark, message_set))
