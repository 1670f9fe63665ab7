"""MultiRequestHeader v0, the tracing decoder: :func:`trace_multi_request_header` reads one MultiRequestHeader field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.multi_request_header_v0.MultiRequestHeader` as the fast codec.

Generated from schemas/legacy/multi_request_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import RequestType

from ..multi_request_header_v0 import MultiRequestHeader

NAME = "MultiRequestHeader"
VERSION = 0
#: the structure's doc line
DOC = "The header of a 0.7 multi-request (Multi-Produce, Multi-Fetch): one request for several topic-partitions."
#: each field's doc line, by field name
DOCS = {
    "request_length": "Length in bytes of the entire request, excluding this field.",
    "request_type": "REQUEST_TYPE: 2 multi-fetch or 3 multi-produce.",
    "topicpartition_count": "Number of unique topic-partition combinations in this request.",
}


def trace_multi_request_header(t) -> MultiRequestHeader:
    """Read one MultiRequestHeader v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    request_length = t.integer("request_length", "int32", DOCS["request_length"])
    request_type = t.integer("request_type", "int16", DOCS["request_type"], enum=RequestType)
    topicpartition_count = t.integer("topicpartition_count", "int16", DOCS["topicpartition_count"])
    return t.end(MultiRequestHeader(request_length, request_type, topicpartition_count))
