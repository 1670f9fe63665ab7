"""TimeIndexEntry v0, the tracing decoder: :func:`trace_time_index_entry` reads one TimeIndexEntry field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.time_index_entry_v0.TimeIndexEntry` as the fast codec.

Generated from schemas/logdir/time_index_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..time_index_entry_v0 import TimeIndexEntry

NAME = "TimeIndexEntry"
VERSION = 0
#: the structure's doc line
DOC = "One entry of a segment's time index (`<base offset>.timeindex`, KIP-33), mapping a timestamp to an offset. Entries are appended at the same interval as the offset index whenever the segment's max timestamp grows, so timestamps increase through the file. A lookup for time T finds the last entry with timestamp <= T, then the offset index gives the byte position. Preallocated files end in zeros."
#: each field's doc line, by field name
DOCS = {
    "timestamp": "Largest timestamp seen in the segment up to the indexed batch (its max_timestamp).",
    "relative_offset": "Offset at which that timestamp was seen (the batch's last offset) minus the segment's base offset.",
}


def trace_time_index_entry(t) -> TimeIndexEntry:
    """Read one TimeIndexEntry v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    timestamp = t.integer("timestamp", "int64", DOCS["timestamp"])
    relative_offset = t.integer("relative_offset", "int32", DOCS["relative_offset"])
    return t.end(TimeIndexEntry(timestamp, relative_offset))
