"""RemoveAccessControlEntryRecord, the tracing decoder: :func:`trace_remove_access_control_entry_record` reads one RemoveAccessControlEntryRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/remove_access_control_entry_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RemoveAccessControlEntryRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RemoveAccessControlEntryRecord": "An ACL was deleted.",
    "RemoveAccessControlEntryRecord.id": "Id of the deleted ACL.",
}


def _trace_remove_access_control_entry_record_v0(t) -> None:
    t.begin("RemoveAccessControlEntryRecord", 0, DOCS["RemoveAccessControlEntryRecord"])
    t.blob("id", "uuid", DOCS["RemoveAccessControlEntryRecord.id"], "size", size=16)
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_remove_access_control_entry_record_v0,
}


def trace_remove_access_control_entry_record(t, version: int) -> None:
    """Read one RemoveAccessControlEntryRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"RemoveAccessControlEntryRecord: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
