"""FetchResponse v0, the tracing decoder: :func:`trace_fetch_response` reads one FetchResponse field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.fetch_response_v0.FetchResponse` as the fast codec.

Generated from schemas/legacy/fetch_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import ErrorCode

from ..fetch_response_v0 import FetchResponse

NAME = "FetchResponse"
VERSION = 0
#: the structure's doc line
DOC = "Response to a FETCH request (and each part of a Multi-Fetch response): a response header and a chunk of the log. The chunk may end in the middle of a message; that is not an error."
#: each field's doc line, by field name
DOCS = {
    "response_length": "Length in bytes of the entire response, excluding this field.",
    "error_code": "ERROR_CODE (see the ErrorCode enum).",
    "messages": "MESSAGES: WireMessages back to back, possibly ending in a partial message.",
}


def trace_fetch_response(t) -> FetchResponse:
    """Read one FetchResponse v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    response_length = t.integer("response_length", "int32", DOCS["response_length"])
    t.length_of("response_length", response_length, "error_code")
    error_code = t.integer("error_code", "int16", DOCS["error_code"], enum=ErrorCode)
    messages = t.blob("messages", "bytes", DOCS["messages"], "rest")
    return t.end(FetchResponse(error_code, messages))
