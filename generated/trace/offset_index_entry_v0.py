"""OffsetIndexEntry v0, the tracing decoder: :func:`trace_offset_index_entry` reads one OffsetIndexEntry field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.offset_index_entry_v0.OffsetIndexEntry` as the fast codec.

Generated from schemas/logdir/offset_index_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..offset_index_entry_v0 import OffsetIndexEntry

NAME = "OffsetIndexEntry"
VERSION = 0
#: the structure's doc line
DOC = "One entry of a segment's offset index (`<base offset>.index`), a sparse map from offsets to byte positions in the `.log` file. The broker appends an entry each time more than `index.interval.bytes` of batches were written since the last one; an entry names the last offset of a batch and the position where that batch starts. The file is an array of these 8-byte entries; an active segment's index is preallocated and ends in zero-filled entries, so a reader stops at the first zero entry after the first."
#: each field's doc line, by field name
DOCS = {
    "relative_offset": "Last offset of the indexed batch minus the segment's base offset (from the file name).",
    "position": "Byte position in the `.log` file where the indexed batch starts.",
}


def trace_offset_index_entry(t) -> OffsetIndexEntry:
    """Read one OffsetIndexEntry v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    relative_offset = t.integer("relative_offset", "int32", DOCS["relative_offset"])
    position = t.integer("position", "int32", DOCS["position"])
    return t.end(OffsetIndexEntry(relative_offset, position))
