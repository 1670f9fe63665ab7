"""ControlRecordKey v0, the tracing decoder: :func:`trace_control_record_key` reads one ControlRecordKey field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.control_record_key_v0.ControlRecordKey` as the fast codec.

Generated from schemas/control_record_key_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import ControlRecordType

from ..control_record_key_v0 import ControlRecordKey

NAME = "ControlRecordKey"
VERSION = 0
#: the structure's doc line
DOC = "The key of each record in a control batch (a transaction marker's batch holds one; a KRaft control batch may hold several of different types, as a snapshot's SNAPSHOT_HEADER, KRAFT_VERSION and KRAFT_VOTERS). The type says how to read the value; consumers never hand control records to applications."
#: each field's doc line, by field name
DOCS = {
    "version": "Key schema version; currently 0.",
    "type": "0 abort, 1 commit; 2-6 are KRaft control records (leader change, snapshot header/footer, kraft version, voters).",
}


def trace_control_record_key(t) -> ControlRecordKey:
    """Read one ControlRecordKey v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    version = t.integer("version", "int16", DOCS["version"])
    type_ = t.integer("type", "int16", DOCS["type"], enum=ControlRecordType)
    return t.end(ControlRecordKey(version, type_))
