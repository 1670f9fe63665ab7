"""MultiFetchResponse v0, the tracing decoder: :func:`trace_multi_fetch_response` reads one MultiFetchResponse field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.multi_fetch_response_v0.MultiFetchResponse` as the fast codec.

Generated from schemas/legacy/multi_fetch_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import ErrorCode

from ..multi_fetch_response_v0 import MultiFetchResponse

NAME = "MultiFetchResponse"
VERSION = 0
#: the structure's doc line
DOC = "Response to a MULTIFETCH request: a response header, then one FetchResponse per requested topic-partition, in request order."
#: each field's doc line, by field name
DOCS = {
    "response_length": "Length in bytes of the entire response, excluding this field.",
    "error_code": "ERROR_CODE of the request as a whole (see the ErrorCode enum).",
    "responses": "The per-partition FetchResponses back to back (kafkaspec.legacy.decode_multi_fetch_response splits them).",
}


def trace_multi_fetch_response(t) -> MultiFetchResponse:
    """Read one MultiFetchResponse v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    response_length = t.integer("response_length", "int32", DOCS["response_length"])
    t.length_of("response_length", response_length, "error_code")
    error_code = t.integer("error_code", "int16", DOCS["error_code"], enum=ErrorCode)
    responses = t.blob("responses", "bytes", DOCS["responses"], "rest")
    return t.end(MultiFetchResponse(error_code, responses))
