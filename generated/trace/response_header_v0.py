"""ResponseHeader v0, the tracing decoder: :func:`trace_response_header` reads one ResponseHeader field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.response_header_v0.ResponseHeader` as the fast codec.

Generated from schemas/legacy/response_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import ErrorCode

from ..response_header_v0 import ResponseHeader

NAME = "ResponseHeader"
VERSION = 0
#: the structure's doc line
DOC = "The 6-byte header every 0.7 response begins with. RESPONSE_LENGTH covers the whole response, so the response structures repeat these fields and compute it."
#: each field's doc line, by field name
DOCS = {
    "response_length": "Length in bytes of the entire response, excluding this field.",
    "error_code": "ERROR_CODE (see the ErrorCode enum).",
}


def trace_response_header(t) -> ResponseHeader:
    """Read one ResponseHeader v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    response_length = t.integer("response_length", "int32", DOCS["response_length"])
    error_code = t.integer("error_code", "int16", DOCS["error_code"], enum=ErrorCode)
    return t.end(ResponseHeader(response_length, error_code))
