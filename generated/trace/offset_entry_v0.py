"""OffsetEntry v0, the tracing decoder: :func:`trace_offset_entry` reads one OffsetEntry field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.offset_entry_v0.OffsetEntry` as the fast codec.

Generated from schemas/legacy/offset_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..offset_entry_v0 import OffsetEntry

NAME = "OffsetEntry"
VERSION = 0
#: the structure's doc line
DOC = "One offset in an Offsets response."
#: each field's doc line, by field name
DOCS = {
    "offset": "A byte offset in the partition's log.",
}


def trace_offset_entry(t) -> OffsetEntry:
    """Read one OffsetEntry v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    offset = t.integer("offset", "int64", DOCS["offset"])
    return t.end(OffsetEntry(offset))
