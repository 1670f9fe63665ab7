"""OffsetsRequest v0, the tracing decoder: :func:`trace_offsets_request` reads one OffsetsRequest field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.offsets_request_v0.OffsetsRequest` as the fast codec.

Generated from schemas/legacy/offsets_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import RequestType

from ..offsets_request_v0 import OffsetsRequest

NAME = "OffsetsRequest"
VERSION = 0
#: the structure's doc line
DOC = "OFFSETS (type 4): find up to MAX_NUMBER offsets of messages written before TIME."
#: each field's doc line, by field name
DOCS = {
    "request_length": "Length in bytes of the entire request, excluding this field.",
    "request_type": "REQUEST_TYPE; 4 for this request (see the RequestType enum).",
    "topic": "Topic name (ASCII, not null terminated; it names a directory on the broker).",
    "partition": "Partition to act on, numbered from 0.",
    "time": "Milliseconds since the UNIX epoch; -1 latest, -2 earliest (see the OffsetsTime enum).",
    "max_number": "Return up to this many offsets.",
}


def trace_offsets_request(t) -> OffsetsRequest:
    """Read one OffsetsRequest v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    request_length = t.integer("request_length", "int32", DOCS["request_length"])
    t.length_of("request_length", request_length, "request_type")
    request_type = t.integer("request_type", "int16", DOCS["request_type"], const=4, enum=RequestType)
    topic = t.blob("topic", "string", DOCS["topic"], "int16")
    partition = t.integer("partition", "int32", DOCS["partition"])
    time = t.integer("time", "int64", DOCS["time"])
    max_number = t.integer("max_number", "int32", DOCS["max_number"])
    return t.end(OffsetsRequest(request_type, topic, partition, time, max_number))
