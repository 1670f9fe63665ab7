"""Header v2, the tracing decoder: :func:`trace_header` reads one Header field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.header_v2.Header` as the fast codec.

Generated from schemas/header_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..header_v2 import Header

NAME = "Header"
VERSION = 2
#: the structure's doc line
DOC = "A record header (KIP-82); an ordered key/value pair attached to a record."
#: each field's doc line, by field name
DOCS = {
    "key": "UTF-8 header key; never null.",
    "value": "Header value; length -1 means null.",
}


def trace_header(t) -> Header:
    """Read one Header v2 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    key = t.blob("key", "string", DOCS["key"], "varint")
    value = t.blob("value", "bytes", DOCS["value"], "varint", nullable=True)
    return t.end(Header(key, value))
