"""RequestHeader v0, the tracing decoder: :func:`trace_request_header` reads one RequestHeader field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.request_header_v0.RequestHeader` as the fast codec.

Generated from schemas/legacy/request_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import RequestType

from ..request_header_v0 import RequestHeader

NAME = "RequestHeader"
VERSION = 0
#: the structure's doc line
DOC = "The header every single (non-multi) 0.7 request begins with. REQUEST_LENGTH covers the whole request, so the request structures repeat these fields and compute it."
#: each field's doc line, by field name
DOCS = {
    "request_length": "Length in bytes of the entire request, excluding this field.",
    "request_type": "REQUEST_TYPE (see the RequestType enum).",
    "topic": "Topic name (ASCII, not null terminated; it names a directory on the broker).",
    "partition": "Partition to act on, numbered from 0.",
}


def trace_request_header(t) -> RequestHeader:
    """Read one RequestHeader v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    request_length = t.integer("request_length", "int32", DOCS["request_length"])
    request_type = t.integer("request_type", "int16", DOCS["request_type"], enum=RequestType)
    topic = t.blob("topic", "string", DOCS["topic"], "int16")
    partition = t.integer("partition", "int32", DOCS["partition"])
    return t.end(RequestHeader(request_length, request_type, topic, partition))
