"""MultiProduceRequest v0, the tracing decoder: :func:`trace_multi_produce_request` reads one MultiProduceRequest field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.multi_produce_request_v0.MultiProduceRequest` as the fast codec.

Generated from schemas/legacy/multi_produce_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import RequestType

from ..multi_produce_request_v0 import MultiProduceRequest
from .partition_produce_v0 import trace_partition_produce

NAME = "MultiProduceRequest"
VERSION = 0
#: the structure's doc line
DOC = "MULTIPRODUCE (type 3): several PRODUCE requests chained together after a multi- request header."
#: each field's doc line, by field name
DOCS = {
    "request_length": "Length in bytes of the entire request, excluding this field.",
    "request_type": "REQUEST_TYPE; 3 for this request (see the RequestType enum).",
    "topicpartition_count": "Number of topic-partition message sets that follow.",
    "produces": "One message set per topic-partition.",
}


def trace_multi_produce_request(t) -> MultiProduceRequest:
    """Read one MultiProduceRequest v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    request_length = t.integer("request_length", "int32", DOCS["request_length"])
    t.length_of("request_length", request_length, "request_type")
    request_type = t.integer("request_type", "int16", DOCS["request_type"], const=3, enum=RequestType)
    topicpartition_count = t.integer("topicpartition_count", "int16", DOCS["topicpartition_count"])
    t.count_of("topicpartition_count", topicpartition_count, "produces")
    produces = t.array(
        "produces",
        "PartitionProduce",
        DOCS["produces"],
        "ref",
        trace_partition_produce,
        min_size=10,
        count=topicpartition_count,
    )
    return t.end(MultiProduceRequest(request_type, produces))
