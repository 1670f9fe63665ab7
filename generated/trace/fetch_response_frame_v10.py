"""FetchResponseFrame v10, the tracing decoder: :func:`trace_fetch_response_frame` reads one FetchResponseFrame field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.fetch_response_frame_v10.FetchResponseFrame` as the fast codec.

Generated from schemas/protocol/fetch_response_frame_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..fetch_response_frame_v10 import FetchResponseFrame
from .fetch_topic_v10 import trace_fetch_topic

NAME = "FetchResponseFrame"
VERSION = 10
#: the structure's doc line
DOC = "A Fetch response, version 10 (Kafka 2.1, the first to allow zstd), as sent on the socket: the 4-byte size, the response header's correlation id, then the response with its topics and partitions, each partition with its record set."
#: each field's doc line, by field name
DOCS = {
    "response_length": "Length in bytes of the rest of the response, after this field.",
    "correlation_id": "The correlation id of the request this answers (the response header v0).",
    "throttle_time_ms": "How long the response was throttled for a quota violation, in milliseconds (0 if not).",
    "error_code": "The top-level error code, 0 for none (Kafka's protocol error codes).",
    "session_id": "The fetch session id, or 0 outside a fetch session.",
    "topics": "The topics fetched, an int32 count followed by each topic.",
}


def trace_fetch_response_frame(t) -> FetchResponseFrame:
    """Read one FetchResponseFrame v10 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    response_length = t.integer("response_length", "int32", DOCS["response_length"])
    t.length_of("response_length", response_length, "correlation_id")
    correlation_id = t.integer("correlation_id", "int32", DOCS["correlation_id"])
    throttle_time_ms = t.integer("throttle_time_ms", "int32", DOCS["throttle_time_ms"])
    error_code = t.integer("error_code", "int16", DOCS["error_code"])
    session_id = t.integer("session_id", "int32", DOCS["session_id"])
    topics = t.array(
        "topics",
        "FetchTopic",
        DOCS["topics"],
        "int32",
        trace_fetch_topic,
        min_size=6,
    )
    return t.end(FetchResponseFrame(correlation_id, throttle_time_ms, error_code, session_id, topics))
