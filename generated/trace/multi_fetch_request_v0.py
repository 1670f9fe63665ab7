"""MultiFetchRequest v0, the tracing decoder: :func:`trace_multi_fetch_request` reads one MultiFetchRequest field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.multi_fetch_request_v0.MultiFetchRequest` as the fast codec.

Generated from schemas/legacy/multi_fetch_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import RequestType

from ..multi_fetch_request_v0 import MultiFetchRequest
from .partition_fetch_v0 import trace_partition_fetch

NAME = "MultiFetchRequest"
VERSION = 0
#: the structure's doc line
DOC = "MULTIFETCH (type 2): several FETCH requests chained together after a multi- request header."
#: each field's doc line, by field name
DOCS = {
    "request_length": "Length in bytes of the entire request, excluding this field.",
    "request_type": "REQUEST_TYPE; 2 for this request (see the RequestType enum).",
    "topicpartition_count": "Number of topic-partition fetches that follow.",
    "fetches": "One fetch per topic-partition.",
}


def trace_multi_fetch_request(t) -> MultiFetchRequest:
    """Read one MultiFetchRequest v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    request_length = t.integer("request_length", "int32", DOCS["request_length"])
    t.length_of("request_length", request_length, "request_type")
    request_type = t.integer("request_type", "int16", DOCS["request_type"], const=2, enum=RequestType)
    topicpartition_count = t.integer("topicpartition_count", "int16", DOCS["topicpartition_count"])
    t.count_of("topicpartition_count", topicpartition_count, "fetches")
    fetches = t.array(
        "fetches",
        "PartitionFetch",
        DOCS["fetches"],
        "ref",
        trace_partition_fetch,
        min_size=18,
        count=topicpartition_count,
    )
    return t.end(MultiFetchRequest(request_type, fetches))
