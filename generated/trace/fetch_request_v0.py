"""FetchRequest v0, the tracing decoder: :func:`trace_fetch_request` reads one FetchRequest field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.fetch_request_v0.FetchRequest` as the fast codec.

Generated from schemas/legacy/fetch_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import RequestType

from ..fetch_request_v0 import FetchRequest

NAME = "FetchRequest"
VERSION = 0
#: the structure's doc line
DOC = "FETCH (type 1): read up to MAX_SIZE bytes of a partition's log from a byte offset."
#: each field's doc line, by field name
DOCS = {
    "request_length": "Length in bytes of the entire request, excluding this field.",
    "request_type": "REQUEST_TYPE; 1 for this request (see the RequestType enum).",
    "topic": "Topic name (ASCII, not null terminated; it names a directory on the broker).",
    "partition": "Partition to act on, numbered from 0.",
    "offset": "Byte offset in the partition's log to start from.",
    "max_size": "Maximum number of bytes of messages to return; the response may end mid-message.",
}


def trace_fetch_request(t) -> FetchRequest:
    """Read one FetchRequest v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    request_length = t.integer("request_length", "int32", DOCS["request_length"])
    t.length_of("request_length", request_length, "request_type")
    request_type = t.integer("request_type", "int16", DOCS["request_type"], const=1, enum=RequestType)
    topic = t.blob("topic", "string", DOCS["topic"], "int16")
    partition = t.integer("partition", "int32", DOCS["partition"])
    offset = t.integer("offset", "int64", DOCS["offset"])
    max_size = t.integer("max_size", "int32", DOCS["max_size"])
    return t.end(FetchRequest(request_type, topic, partition, offset, max_size))
