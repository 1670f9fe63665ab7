"""OffsetsResponse v0, the tracing decoder: :func:`trace_offsets_response` reads one OffsetsResponse field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.offsets_response_v0.OffsetsResponse` as the fast codec.

Generated from schemas/legacy/offsets_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import ErrorCode

from ..offsets_response_v0 import OffsetsResponse
from .offset_entry_v0 import trace_offset_entry

NAME = "OffsetsResponse"
VERSION = 0
#: the structure's doc line
DOC = "Response to an OFFSETS request: a response header and a list of byte offsets."
#: each field's doc line, by field name
DOCS = {
    "response_length": "Length in bytes of the entire response, excluding this field.",
    "error_code": "ERROR_CODE (see the ErrorCode enum).",
    "number_offsets": "Number of offsets that follow.",
    "offsets": "The offsets, newest first.",
}


def trace_offsets_response(t) -> OffsetsResponse:
    """Read one OffsetsResponse v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    response_length = t.integer("response_length", "int32", DOCS["response_length"])
    t.length_of("response_length", response_length, "error_code")
    error_code = t.integer("error_code", "int16", DOCS["error_code"], enum=ErrorCode)
    number_offsets = t.integer("number_offsets", "int32", DOCS["number_offsets"])
    t.count_of("number_offsets", number_offsets, "offsets")
    offsets = t.array(
        "offsets",
        "OffsetEntry",
        DOCS["offsets"],
        "ref",
        trace_offset_entry,
        min_size=8,
        count=number_offsets,
    )
    return t.end(OffsetsResponse(error_code, offsets))
