"""ProduceRequest v0, the tracing decoder: :func:`trace_produce_request` reads one ProduceRequest field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.produce_request_v0.ProduceRequest` as the fast codec.

Generated from schemas/legacy/produce_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import RequestType

from ..produce_request_v0 import ProduceRequest

NAME = "ProduceRequest"
VERSION = 0
#: the structure's doc line
DOC = "PRODUCE (type 0): send a message set to one topic-partition. There is no response."
#: each field's doc line, by field name
DOCS = {
    "request_length": "Length in bytes of the entire request, excluding this field.",
    "request_type": "REQUEST_TYPE; 0 for this request (see the RequestType enum).",
    "topic": "Topic name (ASCII, not null terminated; it names a directory on the broker).",
    "partition": "Partition to act on, numbered from 0.",
    "messages": "MESSAGES: a message set of WireMessages back to back (kafkaspec.legacy.iter_wire_messages reads it).",
}


def trace_produce_request(t) -> ProduceRequest:
    """Read one ProduceRequest v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    request_length = t.integer("request_length", "int32", DOCS["request_length"])
    t.length_of("request_length", request_length, "request_type")
    request_type = t.integer("request_type", "int16", DOCS["request_type"], const=0, enum=RequestType)
    topic = t.blob("topic", "string", DOCS["topic"], "int16")
    partition = t.integer("partition", "int32", DOCS["partition"])
    messages = t.blob("messages", "bytes", DOCS["messages"], "int32")
    return t.end(ProduceRequest(request_type, topic, partition, messages))
