"""FetchResponsePayload v0, the tracing decoder: :func:`trace_fetch_response_payload` reads one FetchResponsePayload field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.fetch_response_payload_v0.FetchResponsePayload` as the fast codec.

Generated from schemas/protocol/fetch_response_payload_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..fetch_response_payload_v0 import FetchResponsePayload
from .fetch_topic_v0 import trace_fetch_topic

NAME = "FetchResponsePayload"
VERSION = 0
#: the structure's doc line
DOC = "A Fetch response, version 0 (Kafka 0.8 to 0.9), as a client holds it after reading the 4-byte size that frames it on the socket: the response header's correlation id, then every requested topic with its partitions, each with its message set."
#: each field's doc line, by field name
DOCS = {
    "correlation_id": "The correlation id of the request this answers (the response header v0).",
    "topics": "The topics fetched, an int32 count followed by each topic.",
}


def trace_fetch_response_payload(t) -> FetchResponsePayload:
    """Read one FetchResponsePayload v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    correlation_id = t.integer("correlation_id", "int32", DOCS["correlation_id"])
    topics = t.array(
        "topics",
        "FetchTopic",
        DOCS["topics"],
        "int32",
        trace_fetch_topic,
        min_size=6,
    )
    return t.end(FetchResponsePayload(correlation_id, topics))
