"""Record v2, the tracing decoder: :func:`trace_record` reads one Record field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.record_v2.Record` as the fast codec.

Generated from schemas/record_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..record_v2 import Record
from .header_v2 import trace_header

NAME = "Record"
VERSION = 2
#: the structure's doc line
DOC = "One record inside a RecordBatch. Offsets and timestamps are stored as deltas from the batch's base_offset and base_timestamp; integers are zigzag varints as in Protocol Buffers."
#: each field's doc line, by field name
DOCS = {
    "length": "Byte length of the rest of the record.",
    "attributes": "Unused; bits 0-7 are zero.",
    "timestamp_delta": "Timestamp minus the batch base_timestamp. A varlong (64-bit zigzag), not a varint as some documents say: a batch spanning more than ~24.8 days needs it.",
    "offset_delta": "Offset minus the batch base_offset.",
    "key": "Record key; length -1 means null.",
    "value": "Record value; length -1 means null (a tombstone on a compacted topic).",
    "headers": "Ordered headers; duplicate keys and null values are legal and kept.",
}


def trace_record(t, base_offset: int = 0, base_timestamp: int = 0) -> Record:
    """Read one Record v2 at ``t.pos``, recording every field on the tracer ``t``; return its value.

    base_offset, base_timestamp: the enclosing structure's bases of this structure's relative fields.
    """
    t.begin(NAME, VERSION, DOC)
    length = t.integer("length", "varint", DOCS["length"])
    t.length_of("length", length, "attributes")
    attributes = t.integer("attributes", "int8", DOCS["attributes"])
    timestamp_delta = t.integer(
        "timestamp_delta",
        "varlong",
        DOCS["timestamp_delta"],
        base=("base_timestamp", base_timestamp, "timestamp"),
    )
    offset_delta = t.integer(
        "offset_delta", "varint", DOCS["offset_delta"], base=("base_offset", base_offset, "offset")
    )
    key = t.blob("key", "bytes", DOCS["key"], "varint", nullable=True)
    value = t.blob("value", "bytes", DOCS["value"], "varint", nullable=True)
    headers = t.array(
        "headers",
        "Header",
        DOCS["headers"],
        "varint",
        trace_header,
        min_size=2,
    )
    return t.end(
        Record(attributes, base_timestamp + timestamp_delta, base_offset + offset_delta, key, value, headers)
    )
