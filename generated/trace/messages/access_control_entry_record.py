"""AccessControlEntryRecord, the tracing decoder: :func:`trace_access_control_entry_record` reads one AccessControlEntryRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/access_control_entry_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "AccessControlEntryRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "AccessControlEntryRecord": "An ACL was created.",
    "AccessControlEntryRecord.id": "Id of the ACL.",
    "AccessControlEntryRecord.resource_type": "Resource type code (2 topic, 3 group, 4 cluster, 5 transactional id, 6 delegation token, 7 user).",
    "AccessControlEntryRecord.resource_name": "Resource name (or pattern).",
    "AccessControlEntryRecord.pattern_type": "Pattern type code (3 literal, 4 prefixed).",
    "AccessControlEntryRecord.principal": "Principal, such as User:alice.",
    "AccessControlEntryRecord.host": "Host the rule applies to (* for any).",
    "AccessControlEntryRecord.operation": "Operation code (2 all, 3 read, 4 write, ...).",
    "AccessControlEntryRecord.permission_type": "Permission code (2 deny, 3 allow).",
}


def _trace_access_control_entry_record_v0(t) -> None:
    t.begin("AccessControlEntryRecord", 0, DOCS["AccessControlEntryRecord"])
    t.blob("id", "uuid", DOCS["AccessControlEntryRecord.id"], "size", size=16)
    t.integer("resource_type", "int8", DOCS["AccessControlEntryRecord.resource_type"])
    t.blob("resource_name", "string", DOCS["AccessControlEntryRecord.resource_name"], "compact")
    t.integer("pattern_type", "int8", DOCS["AccessControlEntryRecord.pattern_type"])
    t.blob("principal", "string", DOCS["AccessControlEntryRecord.principal"], "compact")
    t.blob("host", "string", DOCS["AccessControlEntryRecord.host"], "compact")
    t.integer("operation", "int8", DOCS["AccessControlEntryRecord.operation"])
    t.integer("permission_type", "int8", DOCS["AccessControlEntryRecord.permission_type"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_access_control_entry_record_v0,
}


def trace_access_control_entry_record(t, version: int) -> None:
    """Read one AccessControlEntryRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"AccessControlEntryRecord: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
